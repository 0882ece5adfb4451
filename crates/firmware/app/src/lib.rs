//! The 2048 device application. Runs on the target: `no_std`, no heap.
//!
//! The game loop, the screens and the logging protocol are written once here against the
//! small [`Board`] interface (buttons in, screen out, log bytes out, entropy in); each board
//! crate (`qemu/`, `nano-rp2040/`) implements it and calls [`run`].
//!
//! Every game is logged as defmt frames (see [`protocol`] and docs/firmware.md). The defmt
//! global logger defined here encodes frames into a RAM ring buffer ([`log_ring`]); the
//! application drains it to [`Board::write_log`] between inputs, so a board only moves bytes.
//!
//! ```ignore
//! struct MyBoard { /* pins, display, serial */ }
//! impl twenty48_firmware_app::Board for MyBoard { /* ... */ }
//! twenty48_firmware_app::run(&mut MyBoard::new(), twenty48_firmware_app::DEFAULT_RULES);
//! ```
#![no_std]
#![deny(missing_docs)]

mod board;
pub mod log_ring;
pub mod protocol;
pub mod screen;
mod session;

pub use board::{Board, GameSetup, Input};
pub use screen::Screen;
pub use session::{run, DEFAULT_RULES, RESULT_SCREEN_MS, SCORE_SCREEN_MS};
pub use twenty48_engine as engine;
