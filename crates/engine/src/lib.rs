//! A deterministic, seeded 2048 engine. Runs anywhere: host, firmware, `no_std`.
//!
//! A game is fully determined by its [`Rules`], a `u64` seed and the moves played; replaying
//! them gives the same boards, spawns, score and [state hash](Game::state_hash) on every
//! machine. docs/rules.md specifies all of it, byte for byte.
//!
//! ```
//! use twenty48_engine::{Direction, Game, Rules, Status};
//!
//! let mut game = Game::new(Rules::ARDUINO, 7).unwrap();
//! for dir in [Direction::Left, Direction::Up, Direction::Right, Direction::Down] {
//!     let outcome = game.play(dir).unwrap();
//!     if outcome.moved {
//!         println!("{dir}: +{} points, spawn {:?}", outcome.gained, outcome.spawn);
//!     }
//! }
//! assert_eq!(game.status(), Status::Playing);
//! println!("{}\nscore {} hash {:016x}", game.cells(), game.score(), game.state_hash());
//! ```
//!
//! # Two engines
//! - [`bitboard`]: the 4x4 fast path, a `u64` of exponent nibbles slid with row tables, exact
//!   up to the largest tile (2^17) through a byte-per-cell fallback past 2^15.
//! - [`reference`](mod@reference): a plain array engine for boards from 2x2 to 8x8; it defines the rules and
//!   the fast path is tested against it. Pick it with [`Game::with_engine`].
//!
//! # Replaying fast
//! [`Game::play_all`] replays a whole move list in one call with the game's bookkeeping kept
//! in registers. On x86-64 CPUs with BMI2 (asked at run time; nothing to configure) it slides
//! and places spawns with `pext`/`pdep` and no branch on the direction. Every code path gives
//! the same games; tests compare them. `just bench` prints its speed (and the raw slides')
//! against the project's targets. [`Game::play_all_observed`] is the same loop handing each
//! move to a closure as a [`Step`] (what it did and the board after it), for comparing the
//! engines move by move at nearly that speed.
//!
//! # Feature flags
//! - `std` (default): `std::error::Error` for the error types, and the run-time CPU checks of
//!   the fast replay loop and of `rand_chacha`'s block function; implies `alloc`.
//! - `alloc`: [`Game::play_events`], which returns a move's animation events as a `Vec`;
//!   nothing else in the engine allocates.
//! - `row-tables` (default): 64K-entry row and column tables (2.5 MB, built at compile time) for
//!   the fast path; without it rows are slid by a short loop with the same results.
//! - `defmt`: `defmt::Format` for the public types, for firmware logging.
//! - `compact-rng`: spawns from a small ChaCha8 block function (the same keystream), for the
//!   Arduino boards.
//! - `compact-state`: every board on the reference engine, no bitboard code in the game (the
//!   same games, move for move), for the Arduino boards' 8-bit CPU.
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// With `compact-state` the game does not use the bitboard; it stays public for other users.
#[cfg_attr(feature = "compact-state", allow(dead_code, unused_imports))]
pub mod bitboard;
mod direction;
mod game;
pub mod hash;
pub mod packed;
pub mod reference;
mod rules;
pub mod spawn;
mod tile;

pub use direction::{Direction, DirectionSet};
pub use game::step::Step;
pub use game::{Cells, Engine, Game, Outcome, PlayError, Refusal, Status};
pub use reference::Event;
pub use rules::{
    FourChance, Opening, OpeningSpawn, Preset, Rules, RulesError, Scoring, Win, MAX_OPENING,
    MAX_SIZE, MIN_SIZE,
};
pub use spawn::{Spawn, RNG_NAME};
pub use tile::{tile_value, TileName};
