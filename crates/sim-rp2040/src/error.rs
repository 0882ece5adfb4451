//! What can go wrong running a board on the emulator.

use std::fmt;
use std::time::Duration;

/// An error of the emulator harness or of the firmware it runs.
#[derive(Debug)]
#[non_exhaustive]
pub enum SimError {
    /// Something the harness needs is not installed.
    Missing {
        /// What is missing.
        what: String,
        /// How to get it.
        hint: &'static str,
    },
    /// The harness process could not be started or talked to.
    Io {
        /// What was being done.
        doing: &'static str,
        /// The error.
        source: std::io::Error,
    },
    /// The harness stopped answering within its time limit (it was killed).
    Timeout {
        /// The command that did not finish.
        command: String,
        /// The limit.
        after: Duration,
    },
    /// The harness process ended by itself.
    Exited {
        /// What it printed on standard error.
        stderr: String,
    },
    /// The firmware did something a real board would not survive or the harness refuses:
    /// a flash read out of XIP, a program that sets bits, an unknown flash command, a write
    /// to the memory-mapped flash, a breakpoint.
    Firmware {
        /// The harness's account, with the program counter and the emulated time.
        message: String,
    },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Missing { what, hint } => write!(f, "{what} is missing: {hint}"),
            SimError::Io { doing, source } => write!(f, "{doing}: {source}"),
            SimError::Timeout { command, after } => write!(
                f,
                "the emulator did not finish `{command}` within {after:?} and was stopped"
            ),
            SimError::Exited { stderr } => {
                write!(f, "the emulator harness exited: {}", stderr.trim())
            }
            SimError::Firmware { message } => {
                write!(f, "the firmware failed on the emulator: {message}")
            }
        }
    }
}

impl std::error::Error for SimError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SimError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
