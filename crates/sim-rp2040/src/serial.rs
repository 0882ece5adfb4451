//! The board's USB serial port on this machine: a pseudo-terminal whose other end carries the
//! emulated USB CDC bytes, so a program that opens serial ports (`twenty48 pull --port`) talks
//! to the firmware as to a board on a cable.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::time::Duration;

use twenty48_testkit::pty::{Options, Pty};

use crate::{Nano, SimError};

/// A pseudo-terminal standing for the board's serial port.
pub struct SerialPort {
    master: File,
    /// Kept open so the master side never reads end-of-file between two users of the port.
    _slave: OwnedFd,
    path: PathBuf,
    /// Host bytes not yet given to the board.
    pending: Vec<u8>,
    /// Board bytes the port's reader has not taken yet.
    outbox: Vec<u8>,
}

impl SerialPort {
    /// Opens a pseudo-terminal in raw mode (no echo, no line discipline: bytes pass as they
    /// are).
    pub fn open() -> Result<SerialPort, SimError> {
        let io = |source| SimError::Io {
            doing: "opening a pseudo-terminal for the board's serial port",
            source,
        };
        let pty = Pty::open(Options {
            raw: true,
            size: None,
            nonblocking: true,
        })
        .map_err(io)?;
        let path = pty.path().to_path_buf();
        Ok(SerialPort {
            master: pty.host,
            _slave: pty.terminal,
            path,
            pending: Vec::new(),
            outbox: Vec::new(),
        })
    }

    /// The port's device path, for `--port`.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// Runs the board for `time` of emulated time, `step` at a time: between steps, bytes a
    /// program wrote to the port go to the board and the board's bytes come out of the port.
    /// Returns what the board sent meanwhile.
    pub fn serve(
        &mut self,
        nano: &mut Nano,
        time: Duration,
        step: Duration,
    ) -> Result<Vec<u8>, SimError> {
        let mut sent = Vec::new();
        let end = nano.now() + time;
        while nano.now() < end {
            self.pump(nano, &mut sent)?;
            nano.run(step.min(end - nano.now()))?;
        }
        self.pump(nano, &mut sent)?;
        Ok(sent)
    }

    /// Moves bytes both ways once.
    pub fn pump(&mut self, nano: &mut Nano, sent: &mut Vec<u8>) -> Result<(), SimError> {
        let mut buf = [0u8; 4096];
        loop {
            match self.master.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
                // EIO: nobody has the port open now (the slave kept here keeps this rare).
                Err(e)
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.raw_os_error() == Some(libc::EIO) =>
                {
                    break
                }
                Err(source) => {
                    return Err(SimError::Io {
                        doing: "reading the serial port's pseudo-terminal",
                        source,
                    })
                }
            }
        }
        if !self.pending.is_empty() {
            nano.send(&std::mem::take(&mut self.pending))?;
        }
        let out = nano.take_usb();
        sent.extend_from_slice(&out);
        self.outbox.extend_from_slice(&out);
        // As much as the port's reader takes now; the rest waits for the next pump.
        while !self.outbox.is_empty() {
            match self.master.write(&self.outbox) {
                Ok(n) => {
                    self.outbox.drain(..n);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(source) => {
                    return Err(SimError::Io {
                        doing: "writing the board's bytes to the serial port's pseudo-terminal",
                        source,
                    })
                }
            }
        }
        Ok(())
    }

    /// Forgets the board's bytes the port's reader has not taken (a reader that went away).
    pub fn discard_unread(&mut self) {
        self.outbox.clear();
    }
}
