//! A pull's folder on the file system: a directory, written by `twenty48_movelog`'s one
//! writer (a new file never over anything, a replacement atomic, every step synced). The
//! pull itself ([`pull`](crate::pull)) touches no file but through a
//! [`Folder`](crate::pull::Folder), and never names this one: the caller brings it (behind
//! the `directory` feature, on by default).

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::pull::{is_file_name, Created, Folder};
use twenty48_movelog::{create_dirs, shown, write_atomic, write_unless_taken, Placed};

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

    /// The path of the file `name` in it, refused when `name` is no file name of the
    /// folder (empty, `.`, `..`, a path, a NUL): nothing is ever written outside it.
    fn file(&self, name: &str) -> io::Result<PathBuf> {
        if !is_file_name(name) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{name:?} is no file name in {}", shown(&self.path)),
            ));
        }
        Ok(self.path_of(name))
    }
}

impl Folder for Directory {
    fn create(&mut self, name: &str, bytes: &[u8]) -> io::Result<Created> {
        let path = self.file(name)?;
        create_dirs(&self.path)?;
        Ok(match write_unless_taken(&path, bytes)? {
            Some(Placed::New(_)) => Created::New,
            Some(_) => Created::Identical,
            None => Created::Taken,
        })
    }

    fn replace(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        Ok(write_atomic(&self.file(name)?, bytes)?)
    }

    fn remove(&mut self, name: &str) -> bool {
        self.file(name)
            .is_ok_and(|path| std::fs::remove_file(path).is_ok())
    }

    fn read(&self, name: &str, limit: u64) -> Option<Vec<u8>> {
        let path = self.file(name).ok()?;
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
        self.file(name)
            .is_ok_and(|path| std::fs::symlink_metadata(path).is_ok())
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
        shown(&self.path_of(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name that is a path, or a way out, is refused before anything is touched.
    #[test]
    fn a_name_that_is_no_file_name_is_refused() {
        let dir = std::env::temp_dir().join(format!("t48-directory-{}", std::process::id()));
        let mut folder = Directory::new(&dir);
        for name in [
            "", ".", "..", "../x.t48", "a/b.t48", "a\\b.t48", "/etc/x", "a\0b",
        ] {
            let err = folder.create(name, b"x").unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{name:?}");
            assert!(folder.replace(name, b"x").is_err(), "{name:?}");
            assert!(!folder.remove(name) && !folder.exists(name), "{name:?}");
            assert_eq!(folder.read(name, 10), None, "{name:?}");
        }
        assert!(!dir.exists(), "nothing made");
    }
}
