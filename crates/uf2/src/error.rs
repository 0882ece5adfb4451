//! What can be wrong with an ELF or a UF2 file.

use std::fmt;

/// Why a UF2 file could not be made or is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Uf2Error {
    /// The input is not a 32-bit little-endian ELF file.
    NotElf(&'static str),
    /// A field of the ELF points outside the file.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Its byte offset in the file.
        offset: u64,
    },
    /// A loadable segment lies outside the RP2040's flash.
    OutsideFlash {
        /// The segment's load address.
        address: u32,
        /// Its length in bytes.
        len: u32,
    },
    /// Two segments overlap.
    Overlap {
        /// The page's address.
        address: u32,
    },
    /// Nothing to flash: no loadable segment with data.
    Empty,
    /// A block of a UF2 file is not valid.
    BadBlock {
        /// The block's index in the file.
        block: usize,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for Uf2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Uf2Error::NotElf(why) => write!(f, "not a 32-bit little-endian ELF file: {why}"),
            Uf2Error::Truncated { what, offset } => {
                write!(f, "the ELF file ends before its {what} at byte {offset}")
            }
            Uf2Error::OutsideFlash { address, len } => write!(
                f,
                "a loadable segment of {len} bytes at {address:#010x} lies outside the RP2040's flash (0x10000000..0x11000000)"
            ),
            Uf2Error::Overlap { address } => {
                write!(f, "two segments overlap in the flash page at {address:#010x}")
            }
            Uf2Error::Empty => f.write_str("the ELF file has no loadable segment with data"),
            Uf2Error::BadBlock { block, reason } => {
                write!(f, "UF2 block {block} (byte {}): {reason}", block * 512)
            }
        }
    }
}

impl std::error::Error for Uf2Error {}
