//! The `.t48` move log: one seeded 2048 game as a small, self-describing, checksummed file.
//! Runs on the host (recorder, CLI, verifier, device pulls).
//!
//! ```
//! use twenty48_engine::{Direction, Rules};
//! use twenty48_movelog::{MoveLog, Recorder, DEFAULT_CHECKPOINT_INTERVAL};
//!
//! // Record as you play: moves that change nothing are not logged.
//! let mut rec = Recorder::new(Rules::CLASSIC, 1).unwrap();
//! for dir in [Direction::Left, Direction::Right, Direction::Up, Direction::Up, Direction::Down] {
//!     rec.play(dir).unwrap();
//! }
//! let log = rec.finish();
//! assert_eq!(log.checkpoint_interval, DEFAULT_CHECKPOINT_INTERVAL);
//!
//! // The same log from a list of real moves, and through bytes and back.
//! let again = MoveLog::from_moves(Rules::CLASSIC, 1, &log.moves, DEFAULT_CHECKPOINT_INTERVAL)
//!     .unwrap();
//! assert_eq!(again, log);
//! let bytes = log.encode();
//! assert_eq!(MoveLog::decode(&bytes).unwrap(), log);
//! assert_eq!(&bytes[..4], b"T48\x1a");
//! ```
//!
//! docs/format.md fixes every byte of the file; docs/rules.md the game, its RNG and its
//! state hash. The fixed-width fields are encoded by serde + bincode 2.0.1 with one pinned
//! configuration (little-endian, fixed-width integers), and the tests compare the result
//! against committed bytes, so no library change can silently change a file.
//!
//! # Feature flags
//! - `std` (default): the one writer of every file the project creates ([`write_new`],
//!   [`write_free`], [`write_atomic`] for `--force`, [`create_dirs`]): temp file, fsync, link
//!   or rename into place, directory synced; never through a symbolic link, never over a file
//!   unless asked; every error ([`WriteError`]) names the file.
#![deny(missing_docs)]

mod claims;
mod codec;
mod error;
#[cfg(feature = "std")]
mod file;
mod header;
mod log;
mod packed;
mod recorder;

pub use claims::{checkpoint_hash, Claims};
pub use error::{DecodeError, EncodeError, RecordError};
#[cfg(feature = "std")]
pub use file::{
    create_dirs, create_free, free_file_name, free_name, holds, shown, write_atomic, write_free,
    write_free_except, write_new, write_unless_taken, Placed, WriteError, MAX_FREE_NAMES,
};
pub use header::{version_for, FORMAT_VERSION, MAGIC, OLDEST_FORMAT_VERSION};
pub use log::{checkpoint_count, MoveLog};
pub use packed::PackedLog;
pub use recorder::{Recorder, DEFAULT_CHECKPOINT_INTERVAL};

/// The file extension of a move log, without the dot.
pub const EXTENSION: &str = "t48";
