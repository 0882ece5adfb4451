//! Protocol frames built as bytes: a frame's values laid out once as its canonical bytes
//! (the input of its check, docs/firmware.md), the check computed over them, and the defmt
//! frame (the format string's index, the same bytes, the check) sent in one piece.
//!
//! A frame sent so is byte for byte the one `defmt::info!` would send with the same format
//! string: defmt encodes each `{=u8}`, `{=u16}`, `{=u32}`, `{=u64}` and `{=bool}` parameter as
//! its little-endian bytes, a `{=[u8]}` as its length (a `u32`) and its bytes, all after the
//! format string's index in the ELF's defmt table; and a frame's check is the CRC-32 of its
//! tag byte and those same bytes (`twenty48_deviceproto::check`, which the host recomputes).
//! [`index!`] puts each format string into the defmt table as `defmt::info!` does (a
//! `.defmt.info.` section whose symbol is the JSON defmt's decoder reads), so the host
//! decodes these frames with the ELF as any other. Building a frame's bytes once, instead of
//! one encoder call and one check update per value, is what fits the Arduino Uno's flash.

use twenty48_devicestore::crc32_update;

use crate::log_ring;

// The values are laid out in memory as the frames' little-endian bytes.
const _: () = assert!(cfg!(target_endian = "little"));

/// The index in the ELF's defmt table of the `info`-level format string `$format`, interned
/// as `defmt::info!` interns it; `$id` tells the frames apart (the symbol's disambiguator).
macro_rules! index {
    ($id:literal, $format:literal) => {{
        #[link_section = concat!(
            ".defmt.info.{\"package\":\"twenty48-firmware-app\",\"tag\":\"defmt_info\",\"data\":\"",
            $format,
            "\",\"disambiguator\":\"",
            $id,
            "\",\"crate_name\":\"twenty48_firmware_app\"}"
        )]
        #[export_name = concat!(
            "{\"package\":\"twenty48-firmware-app\",\"tag\":\"defmt_info\",\"data\":\"",
            $format,
            "\",\"disambiguator\":\"",
            $id,
            "\",\"crate_name\":\"twenty48_firmware_app\"}"
        )]
        static DEFMT_LOG_STATEMENT: u8 = 0;
        &DEFMT_LOG_STATEMENT as *const u8 as u16
    }};
}
pub(crate) use index;

/// A frame's values as its canonical bytes: a struct of integers with no padding.
///
/// # Safety
///
/// Only for `#[repr(C, packed)]` structs whose fields are `u8`, `u16`, `u32` and `u64`, in the
/// frame's order: every byte of such a struct is initialised and is the frame's.
pub(crate) unsafe trait Values: Copy {
    /// The bytes.
    fn bytes(&self) -> &[u8] {
        // SAFETY: the trait's contract: a packed struct of integers, every byte initialised.
        unsafe { core::slice::from_raw_parts(self as *const Self as *const u8, size_of::<Self>()) }
    }
}

/// Declares a frame's values: a `#[repr(C, packed)]` struct of integers, in the frame's order.
macro_rules! values {
    ($(#[$doc:meta])* $name:ident { $($field:ident: $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        #[repr(C, packed)]
        pub(crate) struct $name {
            $(pub $field: $ty),*
        }
        // SAFETY: a packed struct of integers (the macro's fields are u8, u16, u32, u64).
        unsafe impl $crate::frame::Values for $name {}
    };
}
pub(crate) use values;

/// The check (`crc=`) of the frame of tag `tag` whose values are `values` then `tail`.
#[inline(never)]
pub(crate) fn check(tag: u8, values: &[u8], tail: &[u8]) -> u32 {
    // The same CRC-32 as `twenty48_deviceproto::Crc32`'s, from the store's code (one copy in
    // the program).
    !crc32_update(crc32_update(crc32_update(!0, &[tag]), values), tail)
}

/// Sends the frame of format string `index` and tag `tag` whose values are `values` then
/// `tail`; returns its check.
#[inline(never)]
pub(crate) fn send(index: u16, tag: u8, values: &[u8], tail: &[u8]) -> u32 {
    let crc = check(tag, values, tail);
    log_ring::frame(&[&index.to_le_bytes(), values, tail, &crc.to_le_bytes()]);
    crc
}

/// A frame to send: its format string's index and tag, its values, then a tail (the boards
/// with a log ring). Passed by reference: on the ATmega2560 this LLVM reads arguments
/// passed on the stack one byte off (docs/firmware.md), so a frame's parts travel as one
/// pointer.
#[cfg(not(feature = "direct-log"))]
pub(crate) struct Out<'a> {
    pub index: u16,
    pub tag: u8,
    pub values: &'a [u8],
    pub tail: &'a [u8],
}

#[cfg(not(feature = "direct-log"))]
impl<'a> Out<'a> {
    /// The frame of format string `index` and tag `tag` whose values are `values` then
    /// `tail`.
    #[inline(always)]
    pub(crate) fn new((index, tag): (u16, u8), values: &'a [u8], tail: &'a [u8]) -> Out<'a> {
        Out {
            index,
            tag,
            values,
            tail,
        }
    }
}
