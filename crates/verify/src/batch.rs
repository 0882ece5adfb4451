//! Verifying many files at once, on every core, reporting every failure.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use twenty48_movelog::{DecodeError, MoveLog, EXTENSION, MAGIC};

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
    // Open once, read only as far as the header says the log extends: a file that is not a
    // log, or that goes on forever (a device, a pipe), is rejected after its first bytes.
    let read = fs::File::open(path).and_then(|mut f| {
        let hint = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        read_log_bytes(&mut f, hint, buffer)
    });
    let verdict = match read {
        Err(e) => Verdict::Unreadable(e),
        Ok(()) => match MoveLog::decode(buffer) {
            Err(e) => Verdict::Undecodable(e),
            Ok(log) => Verdict::Replayed(Box::new(verify(&log, engines))),
        },
    };
    // Memory stays bounded by the files in flight: a buffer grown for one large file is
    // given back.
    if buffer.capacity() > KEEP_BUFFER {
        *buffer = Vec::with_capacity(KEEP_BUFFER);
    }
    verdict
}

/// The read buffer a worker keeps between files (a log of 200,000 moves fits).
const KEEP_BUFFER: usize = 64 * 1024;

/// How many bytes after the end of a log [`read_log_bytes`] reads to count them; past this
/// it stops and reports that many and more.
pub const MAX_TRAILING_BYTES: u64 = 1024 * 1024;

/// Reads a move log from `file` into `out` (cleared first), no further than the log's header
/// says the log extends (docs/format.md: `60 + L + R + ceil(N / 4) + 4 * floor(N / K)`
/// bytes), plus at most [`MAX_TRAILING_BYTES`] to count any bytes after it. A source that is
/// not a log stops after its first 4 bytes, and a short one where it ends: in both cases
/// [`MoveLog::decode`] on `out` names the problem. `size_hint` (a regular file's length)
/// lets the buffer be allocated once; it is never trusted beyond the header.
///
/// # Errors
/// The read's own errors, and [`std::io::ErrorKind::InvalidData`] when more than
/// [`MAX_TRAILING_BYTES`] follow the log.
pub fn read_log_bytes(
    file: &mut impl Read,
    size_hint: Option<u64>,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    out.clear();
    // Reads until `out` holds `upto` bytes; false when the source ended first.
    let mut fill = |out: &mut Vec<u8>, upto: u64| -> std::io::Result<bool> {
        let have = out.len() as u64;
        if have >= upto {
            return Ok(true);
        }
        // Reserve no more than the file is known to hold (a 75-byte file may claim 4 billion
        // moves): `read_to_end` grows the buffer as bytes actually arrive.
        let known = size_hint.map_or(0, |len| len.min(upto + 1).saturating_sub(have));
        out.reserve(usize::try_from(known).unwrap_or(0));
        file.by_ref().take(upto - have).read_to_end(out)?;
        Ok(out.len() as u64 >= upto)
    };
    if !fill(out, 4)? || out[..4] != MAGIC || !fill(out, 6)? {
        return Ok(());
    }
    if u16::from_le_bytes([out[4], out[5]]) != twenty48_movelog::FORMAT_VERSION {
        return Ok(());
    }
    // Version 1: the opening length L at byte 15, the RNG name length R at 28 + L, then at
    // H = 29 + L + R the checkpoint interval K and the move count N.
    if !fill(out, 16)? {
        return Ok(());
    }
    let l = u64::from(out[15]);
    if !fill(out, 29 + l)? {
        return Ok(());
    }
    let h = 29 + l + u64::from(out[28 + l as usize]);
    if !fill(out, h + 8)? {
        return Ok(());
    }
    let at = h as usize;
    let k = u64::from(u32::from_le_bytes(
        out[at..at + 4].try_into().expect("4 bytes"),
    ));
    let n = u64::from(u32::from_le_bytes(
        out[at + 4..at + 8].try_into().expect("4 bytes"),
    ));
    let checkpoints = n.checked_div(k).unwrap_or(0);
    let end = h + 31 + n.div_ceil(4) + 4 * checkpoints;
    if !fill(out, end)? {
        return Ok(());
    }
    // Anything after the end is an error the decoder reports with its count: count up to
    // the limit.
    if !fill(out, end + MAX_TRAILING_BYTES + 1)? {
        return Ok(());
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "more than {MAX_TRAILING_BYTES} unexpected trailing bytes after the end of the move log at byte {end}"
        ),
    ))
}

/// What [`list`] found under the paths it was given.
#[derive(Debug, Default)]
pub struct Listing {
    /// The files to verify, each once, in order: the paths as given, directories walked
    /// recursively with each directory's entries sorted by name.
    pub files: Vec<PathBuf>,
    /// Paths that could not be read (a missing path, a directory that cannot be listed, a
    /// broken link to a `.t48` name), each with its cause: each is an unreadable entry of
    /// the report, and the others are verified all the same.
    pub unreadable: Vec<(PathBuf, std::io::Error)>,
    /// What was left out, and why (a FIFO, a device, a directory reached a second time
    /// through a link, a file named twice): one note each.
    pub skipped: Vec<(PathBuf, Skip)>,
}

/// Why [`list`] left a path out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Skip {
    /// A `.t48` name found in a directory that is not a regular file (a FIFO, a socket or a
    /// device: reading one could wait forever).
    NotRegular,
    /// A directory already walked, reached again through a symbolic link (a loop, or a
    /// second name for it).
    DirectoryAgain,
    /// A file already listed under another name, or named twice.
    FileAgain,
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Skip::NotRegular => "not a regular file (a FIFO, socket or device)",
            Skip::DirectoryAgain => {
                "a directory already walked (a symbolic link loop or a second name)"
            }
            Skip::FileAgain => "the same file as one already listed",
        })
    }
}

/// What identifies a file or directory whatever its name: (device, inode) on Unix, the
/// canonical path elsewhere.
#[cfg(unix)]
fn identity(_path: &Path, meta: &fs::Metadata) -> Option<(u64, u64, PathBuf)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino(), PathBuf::new()))
}

#[cfg(not(unix))]
fn identity(path: &Path, _meta: &fs::Metadata) -> Option<(u64, u64, PathBuf)> {
    fs::canonicalize(path).ok().map(|p| (0, 0, p))
}

/// Walks `paths` for `.t48` files. Never stops at a path it cannot read: that path is
/// reported in [`Listing::unreadable`] and the walk goes on. Symbolic links are followed,
/// but a directory is walked once (so a link loop ends), a file is listed once however it is
/// named, and a non-regular file met in a directory is skipped unopened.
pub fn list(paths: &[PathBuf]) -> Listing {
    #[derive(Default)]
    struct Walk {
        out: Listing,
        seen_dirs: std::collections::HashSet<(u64, u64, PathBuf)>,
        seen_files: std::collections::HashSet<(u64, u64, PathBuf)>,
    }
    impl Walk {
        fn file(&mut self, path: PathBuf, meta: &fs::Metadata) {
            let again = identity(&path, meta).is_some_and(|id| !self.seen_files.insert(id));
            if again {
                self.out.skipped.push((path, Skip::FileAgain));
            } else {
                self.out.files.push(path);
            }
        }

        fn dir(&mut self, dir: &Path, meta: &fs::Metadata) {
            if let Some(id) = identity(dir, meta) {
                if !self.seen_dirs.insert(id) {
                    self.out
                        .skipped
                        .push((dir.to_path_buf(), Skip::DirectoryAgain));
                    return;
                }
            }
            let listed = fs::read_dir(dir).and_then(|entries| {
                entries
                    .map(|e| e.map(|e| (e.file_name(), e.path())))
                    .collect::<std::io::Result<Vec<_>>>()
            });
            let mut entries = match listed {
                Ok(entries) => entries,
                Err(e) => {
                    let cause =
                        std::io::Error::new(e.kind(), format!("cannot list the directory: {e}"));
                    self.out.unreadable.push((dir.to_path_buf(), cause));
                    return;
                }
            };
            // Each directory's entries sorted by name, subdirectories walked in place: the
            // same order as sorting the whole paths.
            entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            for (_, path) in entries {
                let is_log = path.extension().and_then(|e| e.to_str()) == Some(EXTENSION);
                // Follows links: what the entry is, not what it is called.
                match fs::metadata(&path) {
                    Ok(meta) if meta.is_dir() => self.dir(&path, &meta),
                    Ok(_) if !is_log => {}
                    Ok(meta) if meta.is_file() => self.file(path, &meta),
                    Ok(_) => self.out.skipped.push((path, Skip::NotRegular)),
                    Err(e) if is_log => self.out.unreadable.push((path, e)),
                    Err(_) => {}
                }
            }
        }
    }
    let mut walk = Walk::default();
    for p in paths {
        match fs::metadata(p) {
            Ok(meta) if meta.is_dir() => walk.dir(p, &meta),
            // A path named on its own is read whatever it is (a pipe from a shell, say):
            // the bounded read stops a device that never ends.
            Ok(meta) => walk.file(p.clone(), &meta),
            Err(e) => walk.out.unreadable.push((p.clone(), e)),
        }
    }
    walk.out
}

/// The `.t48` files under `paths`, as [`list`] finds them; the first unreadable path is an
/// error.
pub fn collect(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let listing = list(paths);
    match listing.unreadable.into_iter().next() {
        Some((_, e)) => Err(e),
        None => Ok(listing.files),
    }
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
                let mut buffer = Vec::with_capacity(KEEP_BUFFER);
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
