//! The store's errors.

use core::fmt;

/// What went wrong in a [`Store`](crate::Store) call. `E` is the flash's error type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError<E> {
    /// The flash reported an error.
    Flash(E),
    /// The flash is not one the store works on: it needs byte reads and writes
    /// (`READ_SIZE` and `WRITE_SIZE` 1), erase sectors of a power of two from 128 to 65536
    /// bytes, and at least one sector.
    Geometry {
        /// The flash's `WRITE_SIZE`.
        write_size: usize,
        /// The flash's `ERASE_SIZE`.
        erase_size: usize,
        /// The flash's capacity in bytes.
        capacity: usize,
    },
    /// No room: the next sector holds games not yet acknowledged (or the game in progress),
    /// so nothing was erased. The game in progress is not stored from this move on.
    Full,
    /// Stored data does not hold together (a game's segments are missing or changed).
    Corrupt,
    /// No game is in progress.
    NoGame,
    /// A game is in progress: end it first.
    GameInProgress {
        /// Its number.
        number: u32,
    },
    /// No stored game has this number.
    UnknownGame {
        /// The number asked for.
        number: u32,
    },
    /// The rules do not validate; the game was not begun.
    BadRules,
    /// A write failed earlier: the store no longer writes until it is opened again.
    Halted,
}

impl<E: fmt::Debug> fmt::Display for StoreError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Flash(e) => write!(f, "the flash failed: {e:?}"),
            StoreError::Geometry {
                write_size,
                erase_size,
                capacity,
            } => write!(
                f,
                "the store needs 1-byte writes and sectors of a power of two from 128 to 65536 \
                 bytes, not {write_size}-byte writes and {erase_size}-byte sectors ({capacity} \
                 bytes)"
            ),
            StoreError::Full => f.write_str("the store is full of games not yet pulled"),
            StoreError::Corrupt => f.write_str("the stored game does not hold together"),
            StoreError::NoGame => f.write_str("no game is in progress"),
            StoreError::GameInProgress { number } => write!(f, "game {number} is in progress"),
            StoreError::UnknownGame { number } => write!(f, "no stored game has number {number}"),
            StoreError::BadRules => f.write_str("the game's rules are not valid"),
            StoreError::Halted => {
                f.write_str("a write to the flash failed; open the store again to go on")
            }
        }
    }
}
