//! A power-fail-safe store of 2048 games on NOR flash, for the twenty48 firmware (runs on the
//! board, `no_std`, no allocation; the host tests run it over [`MemFlash`]).
//!
//! ```
//! use twenty48_devicestore::{Claims, Closing, Ending, GameStart, MemFlash, Store};
//! use twenty48_engine::{Direction, Rules};
//!
//! let flash = MemFlash::new([0xFF; 4 * 4096]);
//! let mut store = Store::open(flash)?;
//! let start = GameStart { rules: Rules::ARDUINO, seed: 42 };
//! let number = store.begin_game(&start)?;
//! for dir in [Direction::Left, Direction::Up, Direction::Right] {
//!     store.record_move(dir)?; // stored before the next press is handled
//! }
//! // The result, and the final score and state hash the device's engine computed.
//! let claims = Claims { score: 8, hash: 0x0123_4567_89ab_cdef };
//! store.end_game(&Ending { result: 2, claims })?;
//!
//! // After a power cycle: open the same flash again.
//! let mut store = Store::open(store.into_flash())?;
//! store.for_each_game(|game| {
//!     assert_eq!((game.number, game.start, game.moves), (number, start, 3));
//!     assert_eq!(game.closing, Closing::Ended { result: 2, claims: Some(claims) });
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
//! A log of records over the flash's erase sectors used as a ring (docs/firmware.md has every
//! byte): a sector header (`"T48"` and the layout number 2, seq, next game number, crc), then
//! GAME records with their 24-byte chunks of 64 moves (2 bits a direction, 1 commit bit a
//! move), CONT records where a game goes on in the next sector, and END records (the result,
//! and the device's final score and state hash, so a host replaying the moves can compare).
//! Sectors of layout 1 (magic `"T48S"`, the first store, whose END records kept no score or
//! hash) are still read, never written: their ended games come with no claims. Everything is written once per
//! erase, by clearing bits. A move is stored in two steps (direction, then commit bit), so a
//! power cut loses at most the move in flight; [`Store::open`] reads what survived and goes on
//! in a fresh sector after anything torn. Full sectors are reclaimed oldest first, and only
//! when every game starting in them was acknowledged by the host ([`Store::ack`]); otherwise
//! the store says [`StoreError::Full`] and erases nothing.
//!
//! # Sector size
//!
//! A sector is the flash's `ERASE_SIZE`: any power of two from 128 to 65536 bytes
//! ([`nor::MIN_SECTOR_SIZE`], [`nor::MAX_SECTOR_SIZE`]). The RP2040's serial NOR and the QEMU
//! board have 4096 ([`SECTOR_SIZE`]); an AVR's EEPROM presented as NOR flash may have 256 or 128
//! (a 128-byte sector still holds its header and a GAME record with its first chunk). Records
//! and chunks are the same bytes whatever the size; only how many fit in a sector changes.
//! Programs are split at 256-byte pages, or at sectors when those are smaller.
//! [`MemFlash`] takes the sector size as a const parameter (4096 by default):
//!
//! ```
//! use twenty48_devicestore::{MemFlash, Store};
//!
//! // An Arduino Uno's 1 KB EEPROM as eight 128-byte sectors.
//! let eeprom = MemFlash::<_, 128>::new_sized([0xFF; 1024]);
//! let store = Store::open(eeprom)?;
//! assert_eq!(store.next_game_number(), 1);
//! # Ok::<(), twenty48_devicestore::StoreError<twenty48_devicestore::nor::NorError>>(())
//! ```
//!
//! # Cost
//!
//! A 1000-move game takes 448 bytes: GAME 32 + 16 chunks x 24 + END 32 (3 bits a move plus 64
//! bytes). A sector has its size less 16 bytes for records, and games run on into the next
//! sector (CONT, 16 bytes). Measured by the tests in `tests/cost.rs`, whole 1000-move games:
//!
//! | flash | sectors | 1000-move games | longest single game |
//! | --- | --- | --- | --- |
//! | Nano RP2040 Connect, 15 MB | 3,840 of 4096 bytes | 34,560 (9.0 a sector) | 41,533,376 moves |
//! | Arduino Mega 2560 EEPROM, 4 KB less the id's sector | 15 of 256 bytes | 7 | 8,576 moves |
//! | Arduino Uno EEPROM, 1 KB less the id's sector | 7 of 128 bytes | 1 | 1,728 moves |
//!
//! (The Uno keeps its games in the [`eeprom::EepromStore`] instead: 2 games of 1000 moves,
//! one of 2,432 moves with its end.)
//!
//! (The 15 MB figure is measured by an ignored test, `cargo test --release -- --ignored`; its
//! longest game is computed: 168 chunks after the GAME record, 169 in each other sector.)
//! Small sectors cost more a game: every sector spends 16 bytes on its header and, when a game
//! goes on into it, 16 on a CONT, and the end of a sector too short for the next record is
//! left unused. A 1 KB EEPROM holds one 1000-move game and not a second.
//!
//! # Byte-writable EEPROM
//!
//! [`eeprom`] has an AVR EEPROM's one-byte operations ([`eeprom::Eeprom`]), NOR flash over
//! them ([`eeprom::AsNor`], what the Megas' store, the device id and the game counter run
//! on), an emulation with power cuts ([`eeprom::MemEeprom`]), and [`eeprom::EepromStore`],
//! the game store of the Arduino Uno's 1 KB: the same promises in blocks of 24 bytes, with
//! code and RAM to fit a 32 KB, 2 KB chip.
//!
//! # The device id
//!
//! [`device_id`] keeps a board's id in a sector of its own beside the store (the AVR boards'
//! last EEPROM sector): made once from the board's entropy, then read back at every boot.
//!
//! # Lookups
//!
//! The store keeps a few dozen bytes of RAM, whatever its size, and reads the flash for the
//! rest. What each call reads:
//!
//! - [`Store::counts`]: nothing. The counts are read once by [`Store::open`] (which reads the
//!   whole store) and kept up to date by every write.
//! - [`Store::find_game`] (and [`Store::ack`]): about log2(sectors) sector headers, as a
//!   binary search over their next game numbers, then the games from the newest sector whose
//!   header's next game number is at most the one asked for. In a 1 MB store of 9,459 games
//!   it reads at most 2.9 KB, where listing every game reads 672 KB (`tests/lookup.rs`).
//! - [`Store::game_after`]: from the game before on, up to the next one.
//! - [`Store::for_each_game`] and [`Store::counts`] after a failed write: the whole store.
//!
//! # NOR rules
//!
//! [`nor`] has the rules as plain functions (erase whole aligned sectors; a program stays in
//! one page and never turns a 0 bit into 1), and how a power cut tears an operation
//! ([`nor::Tear`], [`nor::tear_program`], [`nor::tear_erase`]), shared by [`MemFlash`] and any
//! other emulation (the QEMU board's file-backed flash), so both tear alike.
#![no_std]
#![deny(missing_docs)]

mod chunk;
mod counter;
pub mod eeprom;
mod error;
mod flash;
mod game;
mod games;
mod identity;
pub mod nor;
mod record;
mod ring;
mod sector;
mod store;

pub use counter::GameCounter;
pub use error::StoreError;
pub use flash::MemFlash;
pub use game::{Claims, Closing, Counts, Ending, GameEntry, GameStart};
pub use games::GameStore;
pub use identity::{device_id, ID_RECORD_LEN};
pub use store::Store;
/// The CRC-32 the store's records are checked with (the protocol's own).
pub use twenty48_deviceproto::{crc32, crc32_update};

/// Bytes in a sector of the RP2040's flash and the QEMU board's (the default of
/// [`MemFlash`]); the store takes the sector size from the flash it is given.
pub const SECTOR_SIZE: u32 = nor::SECTOR_SIZE;
