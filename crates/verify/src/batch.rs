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
