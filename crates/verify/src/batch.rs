//! Verifying many files at once, on every core, reporting every failure.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use twenty48_movelog::{DecodeError, MoveLog, EXTENSION};

use crate::replay::{verify, EngineChoice, Report};

/// The verdict on one file.
#[derive(Debug)]
#[non_exhaustive]
pub enum Verdict {
    /// The file was read and replayed; the report says whether it verifies.
    Replayed(Box<Report>),
    /// The file could not be read.
    Unreadable(std::io::Error),
    /// The file is not a valid move log.
    Undecodable(DecodeError),
}

impl Verdict {
    /// Whether the file verifies.
    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Replayed(r) if r.is_ok())
    }
}

/// Verifies one file.
pub fn verify_file(path: &Path, engines: EngineChoice) -> Verdict {
    match fs::read(path) {
        Err(e) => Verdict::Unreadable(e),
        Ok(bytes) => match MoveLog::decode(&bytes) {
            Err(e) => Verdict::Undecodable(e),
            Ok(log) => Verdict::Replayed(Box::new(verify(&log, engines))),
        },
    }
}

/// The `.t48` files under `paths`: files are taken as given, directories are walked
/// recursively. Sorted by path, so every run reports in the same order.
pub fn collect(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.extension().and_then(|e| e.to_str()) == Some(EXTENSION) {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found)?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Verifies `files` on `threads` worker threads (at least 1). `on_done` is called once per
/// file as it finishes, from the worker threads, in completion order, with the number of files
/// finished so far. The result is in the order of `files`.
pub fn verify_all(
    files: &[PathBuf],
    engines: EngineChoice,
    threads: usize,
    on_done: &(dyn Fn(usize, &Path, &Verdict) + Sync),
) -> Vec<Verdict> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Verdict>>> = Mutex::new((0..files.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(files.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = files.get(i) else { break };
                let verdict = verify_file(path, engines);
                let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                on_done(done, path, &verdict);
                results.lock().expect("no worker panics holding the lock")[i] = Some(verdict);
            });
        }
    });
    results
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|v| v.expect("every file was verified"))
        .collect()
}
