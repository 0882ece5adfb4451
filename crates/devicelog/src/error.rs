//! Errors that stop a capture from being decoded at all.

use std::fmt;

/// Why a capture cannot be decoded (damage inside a capture is not an error: see
/// [`crate::Damage`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum DeviceLogError {
    /// The firmware file could not be read as an ELF with a defmt table.
    Elf {
        /// What the defmt decoder said.
        message: String,
    },
    /// The ELF has no defmt table: it is not a defmt firmware.
    NoDefmtTable,
    /// The firmware uses defmt's raw encoding; only rzCOBS (the default) can resynchronise
    /// after damage, so only rzCOBS is accepted.
    RawEncoding,
}

impl fmt::Display for DeviceLogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceLogError::Elf { message } => {
                write!(f, "the firmware ELF could not be read: {message}")
            }
            DeviceLogError::NoDefmtTable => {
                f.write_str("the firmware ELF has no defmt table (is it the right file?)")
            }
            DeviceLogError::RawEncoding => f.write_str(
                "the firmware uses defmt's raw encoding; rebuild it with the default rzCOBS encoding",
            ),
        }
    }
}

impl std::error::Error for DeviceLogError {}
