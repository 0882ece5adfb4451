//! The AVR boards' shipped images (Arduino Mega 2560, Mega 1280, Uno) running in simavr, for
//! tests. Runs on the host.
//!
//! A small C program on libsimavr (crates/sim-avr/harness/: avr_sim.c, eeprom.c; built by `just avr-sim`
//! into target/avr-sim/) runs one chip as a child process; [`Sim`] starts it, drives it
//! command by command and kills its process group on drop or when a command outlasts its
//! limit. What the harness models beyond simavr 1.6, and why, is at the top of the C file
//! and in docs/firmware.md ("The shipped images in simavr"): the EEPROM's modes, write times
//! and power cuts ([`eeprom`]), the SPI's byte time, buttons with pull-ups and bounce,
//! USART0 both ways with flow control, ADC noise, and the stack's low water after every
//! instruction against the end of the static data.
//!
//! The images are the exact `.hex` files `just firmware` writes ([`Image::shipped`] builds
//! them the same way, crates/firmware-avr/images.sh, and checks each byte for byte against
//! its ELF). The LCD's SPI bytes go through the ST7920 model ([`Panel`]); a
//! pseudo-terminal ([`Pty`]) lets a host program talk to USART0.
//!
//! What a power cut leaves can be rebuilt from one run's EEPROM operations:
//!
//! ```
//! use twenty48_sim_avr::eeprom::{torn, Mode, Op, Ops};
//!
//! let ops = Ops {
//!     initial: vec![0xFF; 8],
//!     ops: vec![
//!         Op { k: 1, at_ns: 10, mode: Mode::Write, addr: 0, old: 0xFF, result: 0x12 },
//!         Op { k: 2, at_ns: 20, mode: Mode::Write, addr: 1, old: 0xFF, result: 0x34 },
//!     ],
//! };
//! let cut = ops.cut_at(2, 99).unwrap();
//! assert_eq!(cut[0], 0x12); // operation 1 was done
//! assert_eq!(cut[1], torn(0xFF, Mode::Write, 0x34, 99)); // operation 2 torn
//! assert_eq!(cut[1] & 0x34, 0x34); // a write only clears bits the data clears
//! ```
//!
//! A board played by its buttons (needs the harness and the AVR toolchain):
//!
//! ```no_run
//! use twenty48_sim_avr::{board, Button, Image, Options, Sim};
//!
//! let image = Image::shipped(&board::MEGA2560)?;
//! let mut sim = Sim::start(&image, &Options::default())?;
//! sim.settle(1, 2_000_000_000)?; // booted: waiting for input
//! sim.press(Button::Left, 30, 10_000_000_000)?; // a game starts
//! println!("{} bytes of log, stack {:?}", sim.uart.len(), sim.stack()?);
//! # Ok::<(), twenty48_sim_avr::Error>(())
//! ```
// Unix only: the emulator runs as a child process group and talks over pseudo-terminals
// (crates/testkit); elsewhere this crate is empty.
#![cfg(unix)]
#![deny(missing_docs)]

pub mod board;
pub mod eeprom;
mod error;
mod event;
mod hex;
mod image;
mod link;
mod panel;
pub mod session;
mod sim;

pub use board::{Board, Button};
pub use error::Error;
pub use event::{PinEdge, SpiByte, StackBreach, Stats, Stop, Violation, Watched};
pub use image::{build_shipped, repo_root, Image};
pub use link::Pty;
pub use panel::{Panel, Picture, WireError};
pub use sim::{harness, Options, Sim, Stack, DEBOUNCE_MS};
