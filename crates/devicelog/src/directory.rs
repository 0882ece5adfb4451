//! A pull's folder on the file system: a directory, written by `twenty48_movelog`'s one
//! writer (a new file never over anything, a replacement atomic, every step synced). The
//! pull itself ([`pull`](crate::pull)) touches no file but through a
//! [`Folder`](crate::pull::Folder), and never names this one: the caller brings it (behind
//! the `directory` feature, on by default).

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::pull::{Created, Folder};
use twenty48_movelog::{create_dirs, write_atomic, write_unless_taken, Placed};

/// A directory of the file system (made when the first file is written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directory {
    path: PathBuf,
}

impl Directory {
    /// The directory at `path`.
    ///
    /// ```
    /// use twenty48_devicelog::pull::Folder;
    /// use twenty48_devicelog::Directory;
    ///
    /// let games = Directory::new(std::path::Path::new("games"));
    /// assert_eq!(games.shown("a.t48"), "games/a.t48");
    /// ```
    pub fn new(path: &Path) -> Directory {
        Directory {
            path: path.to_path_buf(),
        }
    }

    /// The path of the file `name` in it.
    pub fn path_of(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Folder for Directory {
    fn create(&mut self, name: &str, bytes: &[u8]) -> io::Result<Created> {
        create_dirs(&self.path)?;
        Ok(match write_unless_taken(&self.path_of(name), bytes)? {
            Some(Placed::New(_)) => Created::New,
            Some(_) => Created::Identical,
            None => Created::Taken,
        })
    }

    fn replace(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        Ok(write_atomic(&self.path_of(name), bytes)?)
    }

    fn remove(&mut self, name: &str) -> bool {
        std::fs::remove_file(self.path_of(name)).is_ok()
    }

    fn read(&self, name: &str, limit: u64) -> Option<Vec<u8>> {
        let path = self.path_of(name);
        let meta = std::fs::symlink_metadata(&path).ok()?;
        if !meta.file_type().is_file() || meta.len() > limit {
            return None;
        }
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .ok()?
            .take(limit)
            .read_to_end(&mut bytes)
            .ok()?;
        Some(bytes)
    }

    fn exists(&self, name: &str) -> bool {
        std::fs::symlink_metadata(self.path_of(name)).is_ok()
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

    fn shown(&self, name: &str) -> String {
        twenty48_movelog::shown(&self.path_of(name))
    }
}
