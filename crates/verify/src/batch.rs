//! Verifying many files at once, on every core, reporting every failure.

use std::fs;
use std::io::Read;
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
    verify_file_with(path, engines, &mut Vec::new())
}

/// Verifies one file, read into `buffer` (a worker keeps one for all its files, so reading
/// allocates only when a file is larger than any before it).
fn verify_file_with(path: &Path, engines: EngineChoice, buffer: &mut Vec<u8>) -> Verdict {
    // Open, read to the end, close: no size query, no allocation for a file that fits.
    let read = fs::File::open(path).and_then(|mut f| read_all(&mut f, buffer));
    let verdict = match read {
        Err(e) => Verdict::Unreadable(e),
        Ok(len) => match MoveLog::decode(&buffer[..len]) {
            Err(e) => Verdict::Undecodable(e),
            Ok(log) => Verdict::Replayed(Box::new(verify(&log, engines))),
        },
    };
    // Memory stays bounded by the files in flight: a buffer grown for one large file is
    // given back.
    if buffer.len() > KEEP_BUFFER {
        *buffer = vec![0; KEEP_BUFFER];
    }
    verdict
}

/// The read buffer a worker keeps between files (a log of 200,000 moves fits).
const KEEP_BUFFER: usize = 64 * 1024;

/// Reads everything `file` holds into the start of `buffer` (whose whole length is usable
/// and is doubled when full); returns the number of bytes read.
fn read_all(file: &mut impl Read, buffer: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut len = 0;
    loop {
        if len == buffer.len() {
            buffer.resize((2 * len).max(4096), 0);
        }
        match file.read(&mut buffer[len..]) {
            Ok(0) => return Ok(len),
            Ok(n) => len += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The `.t48` files under `paths`: files are taken as given, directories are walked
/// recursively. Sorted by path, so every run reports in the same order.
pub fn collect(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    // Each directory's entries sorted by name, subdirectories walked in place: the same
    // order as sorting the whole paths, without comparing them component by component.
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        let mut entries = Vec::new();
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            // The entry's type comes with the directory listing; only a symbolic link
            // needs a look at what it points to.
            let kind = entry.file_type()?;
            let path = entry.path();
            let is_dir = if kind.is_symlink() {
                path.is_dir()
            } else {
                kind.is_dir()
            };
            entries.push((entry.file_name(), is_dir, path));
        }
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (_, is_dir, path) in entries {
            if is_dir {
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
            walk(p, &mut out)?;
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
            scope.spawn(|| {
                let mut buffer = vec![0; KEEP_BUFFER];
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let verdict = verify_file_with(path, engines, &mut buffer);
                    let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    on_done(done, path, &verdict);
                    results.lock().expect("no worker panics holding the lock")[i] = Some(verdict);
                }
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
