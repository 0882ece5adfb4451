//! What the project's tests share, so that no test includes another crate's test file by its
//! path: pseudo-terminals ([`pty`]), the frames a board sends, built with the firmware's own
//! defmt table and checks ([`frames`]), a pull's folder held in memory ([`folder`]), and a fake board on a pseudo-terminal that plays a
//! script of them and answers the host's requests ([`board`]). Host only, never published; a
//! dev-dependency of the crates whose tests use it (the emulator crates, which are test
//! harnesses themselves, depend on it for their serial ports). The frames and buttons build
//! everywhere (the Windows build's tests use them); the pseudo-terminals, the fake board and
//! the child harness only on Unix.
//!
//! ```
//! use std::io::{Read, Write};
//! use twenty48_testkit::pty::{Options, Pty};
//!
//! // A serial port for a board: bytes written on the host end come out of the path.
//! let mut pty = Pty::open(Options { raw: true, ..Options::default() })?;
//! let mut port = std::fs::File::open(pty.path())?;
//! pty.host.write_all(b"t48")?;
//! let mut got = [0; 3];
//! port.read_exact(&mut got)?;
//! assert_eq!(&got, b"t48");
//! # Ok::<(), std::io::Error>(())
//! ```
#![deny(missing_docs)]

#[cfg(unix)]
pub mod board;
pub mod button;
pub mod folder;
pub mod frames;
#[cfg(unix)]
pub mod harness;
#[cfg(unix)]
pub mod pty;

pub use button::Button;
