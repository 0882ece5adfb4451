//! Where a pull keeps its files: the [`Folder`] trait, which works on file names, and the
//! pull's one way of writing a new file into it ([`place`]: a name that holds other
//! contents sends the file to the first free name after it). The pull touches no file but
//! through a folder; the file system's folder lives with the caller (the CLI), a folder in
//! memory with the tests.

use std::fmt;
use std::io;

use twenty48_movelog::{free_file_name, MAX_FREE_NAMES};

/// Whether `name` is a file name of a folder, as every name a pull gives is: not empty,
/// not `.` or `..`, no `/`, `\\` or NUL (no path, no way out of the folder). A [`Folder`]
/// refuses any other.
pub fn is_file_name(name: &str) -> bool {
    !(name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\', '\0']))
}

/// What [`Folder::create`] found at a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Created {
    /// The name was free: the file is written there now.
    New,
    /// A regular file there already holds these very bytes: nothing done.
    Identical,
    /// Something else is there (other contents, a link, a folder): nothing done.
    Taken,
}

/// Everything a pull does with files: its output folder, file by file name (a name, never a
/// path: no `/`, no `..`).
pub trait Folder: fmt::Debug + Send {
    /// Writes `bytes` as a new file `name` unless the name is taken (never over anything,
    /// never through a link); the folder is made first if it is missing.
    ///
    /// # Errors
    /// When the folder or the file cannot be written (the error names the file).
    fn create(&mut self, name: &str, bytes: &[u8]) -> io::Result<Created>;

    /// Replaces the file `name`, one this pull wrote, by `bytes`, atomically: it holds one
    /// or the other, never a mix.
    ///
    /// # Errors
    /// When it cannot be written (the error names the file).
    fn replace(&mut self, name: &str, bytes: &[u8]) -> io::Result<()>;

    /// Removes the file `name`, one this pull wrote and another file now stands for;
    /// whether it went (a file that stays loses nothing).
    fn remove(&mut self, name: &str) -> bool;

    /// The bytes of the regular file `name` (not a link, not a folder), if it holds at most
    /// `limit` bytes.
    fn read(&self, name: &str, limit: u64) -> Option<Vec<u8>>;

    /// Whether anything is at `name` (a file, a folder, a link, even a dangling one).
    fn exists(&self, name: &str) -> bool;

    /// Calls `found` with the name of each entry of the folder that is valid UTF-8 (none
    /// when the folder is not there), from one listing.
    fn names(&self, found: &mut dyn FnMut(&str));

    /// The file `name` as messages show it to people (`games/x.t48`).
    fn shown(&self, name: &str) -> String;
}

/// Where [`place`] put a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Placed {
    /// The name that holds the bytes: the one asked for, or a free name after it.
    pub(super) name: String,
    /// Whether the file is new (else that name held these very bytes already).
    pub(super) new: bool,
}

/// Writes `bytes` into `folder` as `name`, or as the first free name after it
/// (`NAME-2.t48`, ...) when that holds other contents; a name holding these very bytes
/// counts as written.
///
/// # Errors
/// When the file cannot be written, or every one of
/// [`MAX_FREE_NAMES`](twenty48_movelog::MAX_FREE_NAMES) names is taken (the error names the
/// file).
pub(super) fn place(folder: &mut dyn Folder, name: &str, bytes: &[u8]) -> io::Result<Placed> {
    for n in 1..=MAX_FREE_NAMES {
        let candidate = free_file_name(name, n);
        let new = match folder.create(&candidate, bytes)? {
            Created::New => true,
            Created::Identical => false,
            Created::Taken => continue,
        };
        return Ok(Placed {
            name: candidate,
            new,
        });
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!(
            "cannot write {}: it and the next {} free names hold other files",
            folder.shown(name),
            MAX_FREE_NAMES - 1
        ),
    ))
}

/// The names in `folder` at `name` and the free names after it, in order, up to the first
/// name that is not there: where an earlier pull may have put a game of that name.
pub(super) fn taken_names(folder: &dyn Folder, name: &str) -> Vec<String> {
    (1..=MAX_FREE_NAMES)
        .map(|n| free_file_name(name, n))
        .take_while(|n| folder.exists(n))
        .collect()
}
