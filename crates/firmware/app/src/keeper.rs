//! Where the games are kept: any `twenty48_devicestore::GameStore` (`Store` on NOR flash,
//! `EepromStore` on the AVR boards' EEPROM), and why it refused a game or a move. Every
//! shipped board has a store since the Uno got its EEPROM store; the host still understands
//! a board without one (error frame `NoStore`).

use twenty48_devicestore::StoreError;

/// Why a game or a move was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The store is full.
    Full,
    /// The store (or the counter) could not be read or written.
    Failed,
}

impl core::fmt::Display for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Refusal::Full => "the store is full",
            Refusal::Failed => "the store could not be read or written",
        })
    }
}

/// Why the store refused: full, or anything else (the memory failed, nothing in progress).
pub(crate) fn refusal<E>(e: StoreError<E>) -> Refusal {
    match e {
        StoreError::Full => Refusal::Full,
        _ => Refusal::Failed,
    }
}
