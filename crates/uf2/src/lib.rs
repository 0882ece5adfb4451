//! UF2 files for the RP2040's USB bootloader: made from a firmware ELF, and checked.
//!
//! The RP2040's ROM bootloader shows up as a USB drive (`RPI-RP2`); copying a UF2 file onto it
//! flashes the board. A UF2 file is a list of 512-byte blocks, each carrying 256 bytes of data
//! for one flash address (Microsoft's UF2 format: <https://github.com/microsoft/uf2>). This
//! crate writes one from the loadable segments of an ELF (by their load addresses, so
//! initialised data goes where the start-up code copies it from) and reads one back to check
//! its blocks. No system library, no external tool.
//!
//! ```
//! use twenty48_uf2::{check, Uf2, RP2040_FAMILY};
//!
//! // One 300-byte segment at the start of the RP2040's flash.
//! let uf2 = Uf2::from_segments(&[(0x1000_0000, vec![0xAB; 300])], RP2040_FAMILY).unwrap();
//! let bytes = uf2.to_bytes();
//! let summary = check(&bytes).unwrap();
//! assert_eq!(summary.blocks, 2); // 300 bytes = two 256-byte pages
//! assert_eq!(summary.family, RP2040_FAMILY);
//! assert_eq!(summary.first_address, 0x1000_0000);
//! ```
#![deny(missing_docs)]

mod elf;
mod error;
mod file;
mod rp2040;

pub use elf::load_segments;
pub use error::Uf2Error;
pub use file::{check, Summary, Uf2};
pub use rp2040::{PAGE, RP2040_FAMILY, RP2040_FLASH};
