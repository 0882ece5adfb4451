//! Scratch directories for the device-log tests: unique to the test process and removed
//! when dropped, also when a test fails.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// A scratch directory unique to this test process, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        Scratch::under(std::env::temp_dir(), name)
    }

    /// In memory (`/dev/shm`, a tmpfs, when there is one): for tests that write thousands
    /// of files, whose syncs cost nothing there (tests/memory.rs).
    #[allow(dead_code)]
    pub fn in_memory(name: &str) -> Scratch {
        match std::path::Path::new("/dev/shm") {
            shm if shm.is_dir() => Scratch::under(shm.to_path_buf(), name),
            _ => Scratch::new(name),
        }
    }

    fn under(base: PathBuf, name: &str) -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("t48-devicelog-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }

    /// The names of the files in it, sorted.
    pub fn names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.0) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
