//! The 2048 device application. Runs on the target: `no_std`, no heap.
//!
//! The game loop, the screens, the game store and the log protocol (version 3) are written
//! once here against the small [`Board`] interface (buttons and host requests in, screen out,
//! log bytes out, entropy in) and a `twenty48_devicestore::Store` over the board's NOR flash;
//! each board crate (`qemu/`, `nano-rp2040/`) implements the board, opens the store on its
//! flash partition and calls [`run`].
//!
//! Every game is stored move by move before its frames are logged, and logged as defmt
//! frames (see [`protocol`] and docs/firmware.md). The defmt global logger defined here
//! encodes frames into a RAM ring buffer ([`log_ring`]); the application drains it to
//! [`Board::write_log`] between inputs, so a board only moves bytes. Requests from the host
//! (`{hello}`, `{pull}`, `{pull all}`, `{ack N C}`) arrive as [`Input::Request`], framed out
//! of the board's serial bytes by a [`Framer`].
//!
//! ```ignore
//! struct MyBoard { /* pins, display, serial */ }
//! impl twenty48_firmware_app::Board for MyBoard { /* ... */ }
//! let mut store = twenty48_devicestore::Store::open(my_flash_partition).unwrap();
//! twenty48_firmware_app::run(&mut MyBoard::new(), twenty48_firmware_app::DEFAULT_RULES, &mut store, DEVICE_ID);
//! ```
#![no_std]
#![deny(missing_docs)]

mod board;
mod frame;
mod framer;
pub mod keeper;
pub mod log_ring;
pub mod protocol;
mod pull;
pub mod screen;
pub mod script;
mod session;

pub use board::{Board, GameSetup, Input};
pub use framer::{request_input, Framed, Framer, BROKEN_REQUEST};
pub use keeper::Refusal;
pub use screen::Screen;
pub use session::{run, DEFAULT_RULES, RESULT_SCREEN_MS, SCORE_SCREEN_MS, STORE_FULL_SCREEN_MS};
pub use twenty48_deviceproto as deviceproto;
pub use twenty48_devicestore as devicestore;
pub use twenty48_engine as engine;
