//! Where a pull keeps its files: the [`Folder`] trait, everything the pull does with files,
//! and [`Directory`], a folder of the file system written by `twenty48_movelog`'s one
//! writer. The pull itself ([`Puller`](super::Puller), and the
//! [`Conversation`](super::Conversation) above it) never touches a file but through it.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use twenty48_movelog::{create_dirs, write_atomic, write_free, Placed};

/// Everything a pull does with files: its output folder. Paths are full paths inside the
/// folder ([`Folder::path`] joined with a name).
pub trait Folder: fmt::Debug + Send {
    /// The folder's path.
    fn path(&self) -> &Path;

    /// Writes `bytes` as a new file at `name`, or at the first free name after it when that
    /// holds another file (`NAME-2.t48`, ...), never over anything and never through a link;
    /// the folder (and every folder on the way) is made first. A name that already holds
    /// these very bytes counts as written ([`Placed::Identical`]).
    ///
    /// # Errors
    /// When the folder or the file cannot be written, or every free name is taken (the
    /// error names the file).
    fn write_free(&mut self, name: &str, bytes: &[u8]) -> io::Result<Placed>;

    /// Replaces the file at `path`, one this pull wrote, by `bytes`, atomically: it holds one
    /// or the other, never a mix.
    ///
    /// # Errors
    /// When it cannot be written (the error names the file).
    fn replace(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()>;

    /// Removes the file at `path`, one this pull wrote and another file now stands for;
    /// whether it went (a file that stays loses nothing).
    fn remove(&mut self, path: &Path) -> bool;

    /// The bytes of the regular file at `path` (not a link, not a folder), if it holds at
    /// most `limit` bytes.
    fn read(&self, path: &Path, limit: u64) -> Option<Vec<u8>>;

    /// Whether anything is at `path` (a file, a folder, a link, even a dangling one).
    fn exists(&self, path: &Path) -> bool;

    /// Calls `found` with the name of each entry of the folder that is valid UTF-8 (none
    /// when the folder is not there), from one listing.
    fn names(&self, found: &mut dyn FnMut(&str));
}

/// A folder of the file system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directory {
    path: PathBuf,
}

impl Directory {
    /// The folder at `path` (made when the first file is written).
    pub fn new(path: &Path) -> Directory {
        Directory {
            path: path.to_path_buf(),
        }
    }
}

impl Folder for Directory {
    fn path(&self) -> &Path {
        &self.path
    }

    fn write_free(&mut self, name: &str, bytes: &[u8]) -> io::Result<Placed> {
        create_dirs(&self.path)?;
        Ok(write_free(&self.path.join(name), bytes)?)
    }

    fn replace(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        Ok(write_atomic(path, bytes)?)
    }

    fn remove(&mut self, path: &Path) -> bool {
        std::fs::remove_file(path).is_ok()
    }

    fn read(&self, path: &Path, limit: u64) -> Option<Vec<u8>> {
        use std::io::Read;
        let meta = std::fs::symlink_metadata(path).ok()?;
        if !meta.file_type().is_file() || meta.len() > limit {
            return None;
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .ok()?
            .take(limit)
            .read_to_end(&mut bytes)
            .ok()?;
        Some(bytes)
    }

    fn exists(&self, path: &Path) -> bool {
        std::fs::symlink_metadata(path).is_ok()
    }

    fn names(&self, found: &mut dyn FnMut(&str)) {
        let Ok(entries) = std::fs::read_dir(&self.path) else {
            return;
        };
        for entry in entries.flatten() {
            if let Some(name) = entry.file_name().to_str() {
                found(name);
            }
        }
    }
}
