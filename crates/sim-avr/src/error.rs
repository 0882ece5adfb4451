//! What can go wrong building, loading or running a simulated board.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// An error of the harness, of an image, or of the firmware under it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The harness binary is not built.
    HarnessMissing {
        /// Where it was looked for.
        path: PathBuf,
    },
    /// The harness binary is older than one of its sources.
    HarnessStale {
        /// The binary.
        path: PathBuf,
    },
    /// A file could not be read or written, or a program not started.
    Io {
        /// What was being done, with the file's name.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The firmware images could not be built.
    Build {
        /// The command that failed and how.
        what: String,
    },
    /// A `.hex` file is not a well-formed Intel HEX image.
    Hex {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The firmware ELF cannot be used (not an AVR ELF, a symbol missing).
    Elf {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The `.hex` is not the ELF's program: they differ at a flash address.
    ImageMismatch {
        /// The `.hex`.
        hex: PathBuf,
        /// The ELF.
        elf: PathBuf,
        /// The first flash address where they differ.
        address: u32,
    },
    /// The harness said something this crate does not understand, or refused a command.
    Protocol {
        /// The line.
        line: String,
    },
    /// The harness ended (or was never started properly).
    Exited {
        /// What it wrote to its standard error last.
        stderr: String,
    },
    /// The harness took longer than its limit (it was killed).
    Timeout {
        /// The wall-clock time waited.
        waited: Duration,
        /// What it was doing.
        doing: String,
    },
    /// The firmware did not do what a step waited for (the emulated time ran out first).
    Firmware {
        /// What was waited for, and where the emulation stood.
        what: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::HarnessMissing { path } => write!(
                f,
                "the AVR simulator harness {} is not built: run `just avr-sim` (it needs \
                 Debian's libsimavr-dev, libelf-dev and pkg-config)",
                path.display()
            ),
            Error::HarnessStale { path } => write!(
                f,
                "the AVR simulator harness {} is older than its sources in crates/sim-avr/harness: \
                 run `just avr-sim` again",
                path.display()
            ),
            Error::Io { what, source } => write!(f, "{what}: {source}"),
            Error::Build { what } => write!(f, "building the AVR firmware images: {what}"),
            Error::Hex {
                path,
                line,
                problem,
            } => write!(f, "{}, line {line}: {problem}", path.display()),
            Error::Elf { path, problem } => write!(f, "{}: {problem}", path.display()),
            Error::ImageMismatch { hex, elf, address } => write!(
                f,
                "{} is not the program of {}: they differ at flash address {address:#07x} \
                 (rebuild both with `just firmware`)",
                hex.display(),
                elf.display()
            ),
            Error::Protocol { line } => write!(f, "the AVR simulator harness said {line:?}"),
            Error::Exited { stderr } => {
                write!(f, "the AVR simulator harness ended unexpectedly")?;
                if !stderr.trim().is_empty() {
                    write!(f, "; it said: {}", stderr.trim())?;
                }
                Ok(())
            }
            Error::Timeout { waited, doing } => write!(
                f,
                "the AVR simulator harness took more than {waited:?} {doing}; it was stopped"
            ),
            Error::Firmware { what } => write!(f, "the firmware under simavr: {what}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// An [`Error::Io`] saying what was being done.
pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
    let what = what.into();
    move |source| Error::Io { what, source }
}
