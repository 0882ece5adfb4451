//! The RP2040 as its bootloader takes a UF2 file: the family id, the flash and the page.

/// The RP2040's UF2 family id.
pub const RP2040_FAMILY: u32 = 0xE48B_FF56;

/// The RP2040's flash as the bootloader accepts it: 16 MB from 0x1000_0000 at most.
pub const RP2040_FLASH: core::ops::Range<u32> = 0x1000_0000..0x1100_0000;

/// Bytes of data each block carries for the RP2040.
pub const PAGE: u32 = 256;
