//! Why a file could not be written: every error names the file.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Why [`write_new`](crate::write_new), [`write_atomic`](crate::write_atomic),
/// [`write_free`](crate::write_free) or [`create_dirs`](crate::create_dirs) did not write.
/// Every variant names the file (or directory) it was writing, so that a full disk reads
/// "cannot write games/x.t48: No space left on device", never a bare system error.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// `path` is already there and this write never replaces anything.
    Exists {
        /// The file asked for.
        path: PathBuf,
    },
    /// The system refused a step of writing `path`.
    Io {
        /// The file (or directory) being written.
        path: PathBuf,
        /// The step, in words: "write", "create the directory", ...
        step: &'static str,
        /// What the system said.
        source: io::Error,
    },
    /// Every temp file name tried beside `path` was taken (symbolic links planted in a
    /// shared directory, or stale temp files); none was opened, written through or removed.
    TempNamesTaken {
        /// The file being written.
        path: PathBuf,
        /// How many names were tried.
        tried: u32,
        /// The last name tried.
        last: PathBuf,
    },
    /// [`write_free`](crate::write_free): `path` and every free name tried after it hold
    /// other contents (or are not regular files).
    NamesTaken {
        /// The file asked for.
        path: PathBuf,
        /// How many names were tried.
        tried: u32,
    },
    /// `path` does not end in a file name (`..`, `/`, an empty path).
    NotAFileName {
        /// The path given.
        path: PathBuf,
    },
}

impl WriteError {
    /// The file (or directory) the write was for.
    pub fn path(&self) -> &Path {
        match self {
            WriteError::Exists { path }
            | WriteError::Io { path, .. }
            | WriteError::TempNamesTaken { path, .. }
            | WriteError::NamesTaken { path, .. }
            | WriteError::NotAFileName { path } => path,
        }
    }

    /// The kind of I/O error this is (`AlreadyExists` for [`WriteError::Exists`]).
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            WriteError::Exists { .. } | WriteError::TempNamesTaken { .. } => {
                io::ErrorKind::AlreadyExists
            }
            WriteError::NamesTaken { .. } => io::ErrorKind::AlreadyExists,
            WriteError::Io { source, .. } => source.kind(),
            WriteError::NotAFileName { .. } => io::ErrorKind::InvalidInput,
        }
    }

    /// The error without the file's name, for a caller whose own message names it: the
    /// system's error for [`WriteError::Io`], else this error as an [`io::Error`].
    pub fn into_cause(self) -> io::Error {
        match self {
            WriteError::Io { source, .. } => source,
            other => other.into(),
        }
    }

    pub(super) fn io(path: &Path, step: &'static str) -> impl FnOnce(io::Error) -> WriteError {
        let path = path.to_path_buf();
        move |source| WriteError::Io { path, step, source }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Exists { path } => write!(f, "{} already exists", shown(path)),
            WriteError::Io { path, step, source } => {
                write!(f, "cannot {step} {}: {source}", shown(path))
            }
            WriteError::TempNamesTaken { path, tried, last } => write!(
                f,
                "cannot write {}: {tried} temp file names beside it are taken, the last {}",
                shown(path),
                shown(last)
            ),
            WriteError::NamesTaken { path, tried } => write!(
                f,
                "cannot write {}: it and the next {} free names hold other files",
                shown(path),
                tried - 1
            ),
            WriteError::NotAFileName { path } => {
                write!(f, "{} does not name a file", shown(path))
            }
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<WriteError> for io::Error {
    fn from(e: WriteError) -> io::Error {
        io::Error::new(e.kind(), e)
    }
}

/// A path as messages show it: control characters escaped (a name with a newline or an
/// escape sequence cannot forge or hide a line), bytes that are not UTF-8 as `\xNN`.
pub fn shown(path: &Path) -> String {
    let mut out = String::new();
    for chunk in path.as_os_str().as_encoded_bytes().utf8_chunks() {
        for ch in chunk.valid().chars() {
            if ch.is_control() {
                out.extend(ch.escape_default());
            } else {
                out.push(ch);
            }
        }
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out
}
