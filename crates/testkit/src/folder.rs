//! A pull's folder held in memory ([`Memory`]): what a pull writes, kept by name, with links
//! and folders that can be planted in it, so that the pull's tests and its fuzz target see
//! every file it touches without a file system.

use std::collections::BTreeMap;
use std::io;
use std::sync::{Arc, Mutex};

use twenty48_devicelog::pull::{is_file_name, Created, Folder};

/// An entry of a [`Memory`] folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A regular file and its bytes.
    File(Vec<u8>),
    /// A symbolic link (to the target named): there, but never read or written through.
    Link(String),
    /// A folder: there, but no file.
    Folder,
}

/// A folder in memory. Clones share their entries: keep one to look at what the pull wrote
/// through another.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    entries: Arc<Mutex<BTreeMap<String, Entry>>>,
    /// Writes that fail with this error, from the `n`th on (`None`: none fails).
    fail_from: Option<(usize, io::ErrorKind)>,
    writes: Arc<Mutex<usize>>,
}

impl Memory {
    /// An empty folder.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Plants `entry` at `name` (before the pull, as a user or an earlier pull left it).
    pub fn plant(&self, name: &str, entry: Entry) {
        self.lock().insert(name.to_string(), entry);
    }

    /// Every entry, by name.
    pub fn entries(&self) -> BTreeMap<String, Entry> {
        self.lock().clone()
    }

    /// The regular files, by name, and their bytes.
    pub fn files(&self) -> BTreeMap<String, Vec<u8>> {
        self.lock()
            .iter()
            .filter_map(|(name, e)| match e {
                Entry::File(bytes) => Some((name.clone(), bytes.clone())),
                _ => None,
            })
            .collect()
    }

    /// A folder whose writes fail with `kind` from the `n`th on (1: every write), as a
    /// full disk does.
    pub fn failing_from(n: usize, kind: io::ErrorKind) -> Memory {
        Memory {
            fail_from: Some((n, kind)),
            ..Memory::default()
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a write; the error it fails with, if it fails.
    fn write(&self, name: &str) -> io::Result<()> {
        let mut writes = self.writes.lock().unwrap_or_else(|e| e.into_inner());
        *writes += 1;
        match self.fail_from {
            Some((n, kind)) if *writes >= n => Err(io::Error::new(
                kind,
                format!("cannot write {}: {kind}", self.shown(name)),
            )),
            _ => Ok(()),
        }
    }
}

/// Panics on a name that is no file name of the folder: a pull must never name one (a
/// path, a way out of the folder). The fuzz target's promise "nothing outside the folder".
fn file_name(name: &str) -> &str {
    assert!(
        is_file_name(name),
        "the pull named {name:?}, which is no file name of its folder"
    );
    name
}

impl Folder for Memory {
    fn create(&mut self, name: &str, bytes: &[u8]) -> io::Result<Created> {
        let name = file_name(name);
        match self.lock().get(name) {
            Some(Entry::File(b)) if b == bytes => return Ok(Created::Identical),
            Some(_) => return Ok(Created::Taken),
            None => {}
        }
        self.write(name)?;
        self.lock()
            .insert(name.to_string(), Entry::File(bytes.to_vec()));
        Ok(Created::New)
    }

    fn replace(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let name = file_name(name);
        if matches!(self.lock().get(name), Some(Entry::Folder)) {
            // As a rename over a folder fails.
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                format!("cannot write {}: a folder is there", self.shown(name)),
            ));
        }
        self.write(name)?;
        self.lock()
            .insert(name.to_string(), Entry::File(bytes.to_vec()));
        Ok(())
    }

    fn remove(&mut self, name: &str) -> bool {
        let name = file_name(name);
        let mut entries = self.lock();
        match entries.get(name) {
            // As removing a file does: a link goes too, its target stays.
            Some(Entry::File(_) | Entry::Link(_)) => entries.remove(name).is_some(),
            _ => false,
        }
    }

    fn read(&self, name: &str, limit: u64) -> Option<Vec<u8>> {
        match self.lock().get(file_name(name)) {
            Some(Entry::File(b)) if b.len() as u64 <= limit => Some(b.clone()),
            _ => None,
        }
    }

    fn exists(&self, name: &str) -> bool {
        self.lock().contains_key(file_name(name))
    }

    fn names(&self, found: &mut dyn FnMut(&str)) {
        let names: Vec<String> = self.lock().keys().cloned().collect();
        for name in &names {
            found(name);
        }
    }

    fn shown(&self, name: &str) -> String {
        format!("memory/{name}")
    }
}
