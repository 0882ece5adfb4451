//! A power-fail-safe store of 2048 games on NOR flash, for the twenty48 firmware (runs on the
//! board, `no_std`, no allocation; the host tests run it over [`MemFlash`]).
//!
//! ```
//! use twenty48_devicestore::{Closing, GameStart, MemFlash, Store};
//! use twenty48_engine::{Direction, Rules};
//!
//! let flash = MemFlash::new([0xFF; 4 * 4096]);
//! let mut store = Store::open(flash)?;
//! let start = GameStart { rules: Rules::ARDUINO, seed: 42 };
//! let number = store.begin_game(&start)?;
//! for dir in [Direction::Left, Direction::Up, Direction::Right] {
//!     store.record_move(dir)?; // stored before the next press is handled
//! }
//! store.end_game(2)?;
//!
//! // After a power cycle: open the same flash again.
//! let mut store = Store::open(store.into_flash())?;
//! store.for_each_game(|game| {
//!     assert_eq!((game.number, game.start, game.moves), (number, start, 3));
//!     assert_eq!(game.closing, Closing::Ended { result: 2 });
//! })?;
//! let game = store.find_game(number)?.unwrap();
//! let mut moves = Vec::new();
//! store.read_moves(&game, |dir| moves.push(dir))?;
//! assert_eq!(moves, [Direction::Left, Direction::Up, Direction::Right]);
//! # Ok::<(), twenty48_devicestore::StoreError<twenty48_devicestore::nor::NorError>>(())
//! ```
//!
//! # The design
//!
//! A log of records over 4096-byte sectors used as a ring (the lead's design, protocol v2,
//! section 4): a sector header (`"T48S"`, seq, next game number, crc), then GAME records with
//! their 24-byte chunks of 64 moves (2 bits a direction, 1 commit bit a move), CONT records
//! where a game goes on in the next sector, and END records. Everything is written once per
//! erase, by clearing bits. A move is stored in two steps (direction, then commit bit), so a
//! power cut loses at most the move in flight; [`Store::open`] reads what survived and goes on
//! in a fresh sector after anything torn. Full sectors are reclaimed oldest first, and only
//! when every game starting in them was acknowledged by the host ([`Store::ack`]); otherwise
//! the store says [`StoreError::Full`] and erases nothing.
//!
//! # Cost
//!
//! A 1000-move game takes 432 bytes: GAME 32 + 16 chunks x 24 + END 16 (3 bits a move plus 48
//! bytes). A sector has 4080 bytes for records, and games run on into the next sector (CONT,
//! 16 bytes): 9.38 such games a sector, so 3,840 sectors (15 MB) hold about 36,000 of them
//! (measured by the tests in `tests/cost.rs`).
//!
//! # NOR rules
//!
//! [`nor`] has the rules as plain functions (erase whole aligned sectors; a program stays in
//! one 256-byte page and never turns a 0 bit into 1), shared by [`MemFlash`] and any other
//! emulation (the QEMU board's file-backed flash).
#![no_std]
#![deny(missing_docs)]

mod chunk;
mod crc;
mod error;
mod flash;
mod game;
pub mod nor;
mod record;
mod ring;
mod sector;
mod store;

pub use crc::crc32;
pub use error::StoreError;
pub use flash::MemFlash;
pub use game::{Closing, Counts, GameEntry, GameStart};
pub use store::Store;

/// Bytes in a flash sector (the erase unit the store requires).
pub const SECTOR_SIZE: u32 = nor::SECTOR_SIZE;
