//! Where a pull's log comes from: a board on a serial port (chosen by the caller, or the
//! one attached) or a capture; and its first frames, read to find the firmware that
//! decodes them when no `--elf` is given.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::input;
use crate::ports::board::Board;

/// How many bytes of a capture are tried with each candidate ELF when none is given.
const PROBE_BYTES: usize = 1 << 20;

/// Where the log comes from.
pub(super) enum Source {
    /// A board on a serial port (`board`: recognised by its USB identity when the port was
    /// chosen for it); `stop` is set on Ctrl-C.
    Port {
        port: String,
        board: Option<Board>,
        serial: Box<dyn serialport::SerialPort>,
        stop: Arc<AtomicBool>,
    },
    /// A capture file, or standard input.
    Capture {
        path: PathBuf,
        reader: Box<dyn Read>,
    },
}

impl Source {
    /// The port or file, as messages name it.
    pub(super) fn name(&self) -> String {
        match self {
            Source::Port { port, .. } => port.clone(),
            Source::Capture { path, .. } => input::name(path),
        }
    }

    pub(super) fn board(&self) -> Option<Board> {
        match self {
            Source::Port { board, .. } => *board,
            Source::Capture { .. } => None,
        }
    }

    /// Feeds `probe` the first frames: of a capture, its first [`PROBE_BYTES`]; of a
    /// board, what it sends after `{hello}` until a candidate reads a frame (at most
    /// `timeout` without one). Returns the bytes read.
    pub(super) fn probe(
        &mut self,
        probe: &mut twenty48_devicelog::Probe,
        timeout: Duration,
    ) -> Result<Vec<u8>> {
        let mut early = Vec::new();
        match self {
            Source::Capture { path, reader } => {
                reader
                    .take(PROBE_BYTES as u64)
                    .read_to_end(&mut early)
                    .with_context(|| format!("cannot read {}", input::shown(path)))?;
                probe.feed(&early);
            }
            Source::Port {
                port, serial, stop, ..
            } => {
                send(&mut **serial, &twenty48_devicelog::Probe::request())
                    .with_context(|| format!("cannot write to {port}"))?;
                let started = Instant::now();
                let mut buf = [0u8; 4096];
                while !probe.heard() {
                    if stop.load(Ordering::SeqCst) {
                        bail!("stopped (Ctrl-C) before the firmware of {port} was found");
                    }
                    if started.elapsed() > timeout {
                        bail!(
                            "no frame from {port} within {} s decoded with any firmware ELF tried; give --elf with the firmware the board runs",
                            timeout.as_secs()
                        );
                    }
                    match serial.read(&mut buf) {
                        Ok(n) => {
                            early.extend_from_slice(&buf[..n]);
                            probe.feed(&buf[..n]);
                        }
                        Err(e)
                            if matches!(
                                e.kind(),
                                io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                            ) => {}
                        Err(e) => return Err(e).with_context(|| format!("cannot read {port}")),
                    }
                }
            }
        }
        Ok(early)
    }
}

/// A capture file, or standard input for `-`.
pub(super) fn open_capture(path: &Path) -> Result<Box<dyn Read>> {
    Ok(if path == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(path).with_context(|| format!("cannot read {}", input::shown(path)))?)
    })
}

/// Writes `bytes` to the board and flushes them.
pub(super) fn send(serial: &mut dyn serialport::SerialPort, bytes: &[u8]) -> io::Result<()> {
    serial.write_all(bytes)?;
    serial.flush()
}
