//! A pseudo-terminal wired to the simulated USART0, so that a host program (`twenty48 pull
//! --port`) talks to the board as to a USB serial port.

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use crate::error::{io, Error};
use crate::sim::Sim;

/// A pseudo-terminal: the host program opens [`Pty::path`]; [`Pty::serve`] moves bytes
/// between it and the board while the board runs.
pub struct Pty {
    master: File,
    /// Kept open, so the terminal stays up between the host program's opens and closes.
    _slave: OwnedFd,
    path: PathBuf,
    /// USART bytes already written to the terminal.
    sent: usize,
    /// Bytes waiting for room in the terminal.
    pending: Vec<u8>,
}

impl Pty {
    /// Opens a pseudo-terminal in raw mode (no echo, no line editing, 8-bit clean).
    pub fn open() -> Result<Pty, Error> {
        let pty = twenty48_testkit::pty::Pty::open(twenty48_testkit::pty::Options {
            raw: true,
            size: None,
            nonblocking: true,
        })
        .map_err(io("opening a pseudo-terminal"))?;
        let path = pty.path().to_path_buf();
        Ok(Pty {
            master: pty.host,
            _slave: pty.terminal,
            path,
            sent: 0,
            pending: Vec::new(),
        })
    }

    /// The terminal's path (`/dev/pts/N`), for the host program.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// One exchange: what the host wrote goes to the board's USART0 input, the board runs
    /// `ns` of emulated time, and what it sent goes to the host.
    pub fn serve(&mut self, sim: &mut Sim, ns: u64) -> Result<(), Error> {
        let mut buf = [0u8; 4096];
        loop {
            match self.master.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => sim.send(&buf[..n])?,
                // EIO: the host program has the terminal closed for now.
                Err(e) if e.kind() == ErrorKind::WouldBlock || e.raw_os_error() == Some(5) => break,
                Err(e) => return Err(io("reading the pseudo-terminal")(e)),
            }
        }
        sim.run_for(ns)?;
        self.pending.extend_from_slice(&sim.uart[self.sent..]);
        self.sent = sim.uart.len();
        while !self.pending.is_empty() {
            match self.master.write(&self.pending) {
                Ok(n) => {
                    self.pending.drain(..n);
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock || e.raw_os_error() == Some(5) => break,
                Err(e) => return Err(io("writing the pseudo-terminal")(e)),
            }
        }
        Ok(())
    }
}
