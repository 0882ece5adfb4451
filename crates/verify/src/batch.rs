//! Verifying many files at once, on every core, reporting every failure.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[cfg(doc)]
use twenty48_movelog::MoveLog;
use twenty48_movelog::{DecodeError, PackedLog, EXTENSION, MAGIC};

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
/// allocates only when a file is larger than any before it). The moves stay packed in the
/// file's bytes: nothing else grows with the number of moves.
fn verify_file_with(path: &Path, engines: EngineChoice, buffer: &mut Vec<u8>) -> Verdict {
    let verdict = match decode_file(path, buffer) {
        Ok(log) => Verdict::Replayed(Box::new(verify(&log, engines))),
        Err(verdict) => verdict,
    };
    shrink(buffer);
    verdict
}

/// Memory stays bounded by the files in flight: a buffer grown for one large file is given
/// back.
fn shrink(buffer: &mut Vec<u8>) {
    if buffer.capacity() > KEEP_BUFFER {
        *buffer = Vec::with_capacity(KEEP_BUFFER);
    }
}

/// Reads one file into `buffer` and decodes it, the moves left packed in the buffer: the
/// log, or the verdict on a file that cannot be read ([`Verdict::Unreadable`]) or is not a
/// valid log ([`Verdict::Undecodable`]). Open once, read only as far as the header says the
/// log extends: a file that is not a log, or that goes on forever (a device, a pipe), is
/// rejected after its first bytes. For [`for_each_file`]'s workers.
pub fn decode_file<'a>(path: &Path, buffer: &'a mut Vec<u8>) -> Result<PackedLog<'a>, Verdict> {
    match fs::File::open(path).and_then(|mut f| read_log_bytes(&mut f, buffer)) {
        Err(e) => Err(Verdict::Unreadable(e)),
        Ok(()) => PackedLog::decode(buffer).map_err(Verdict::Undecodable),
    }
}

/// The read buffer a worker keeps between files (a log of 200,000 moves fits).
const KEEP_BUFFER: usize = 64 * 1024;

/// How many bytes the first read of a source asks for, before its header is known (a log of
/// up to about 32,000 moves comes whole in that one read).
const FIRST_READ: u64 = 8 * 1024;

/// How many bytes after the end of a log [`read_log_bytes`] reads to count them; past this
/// it stops and reports that many and more.
pub const MAX_TRAILING_BYTES: u64 = 1024 * 1024;

/// How far the log at the start of `bytes` extends, by its header (docs/format.md:
/// `60 + L + R + ceil(N / 4) + 4 * floor(N / K)` bytes): `Some(Ok(end))`, `Some(Err(()))`
/// when the bytes are not a log of this version (the decoder names the problem), `None`
/// when more bytes are needed to tell.
fn log_end(bytes: &[u8]) -> Option<Result<u64, ()>> {
    let have = bytes.len().min(MAGIC.len());
    if bytes[..have] != MAGIC[..have] {
        return Some(Err(()));
    }
    let version = bytes.get(4..6)?;
    let version = u16::from_le_bytes([version[0], version[1]]);
    if !(twenty48_movelog::OLDEST_FORMAT_VERSION..=twenty48_movelog::FORMAT_VERSION)
        .contains(&version)
    {
        return Some(Err(()));
    }
    // Versions 1 and 2 (one layout): the opening length L at byte 15, the RNG name length R at 28 + L, then at
    // H = 29 + L + R the checkpoint interval K and the move count N.
    let l = usize::from(*bytes.get(15)?);
    let h = 29 + l + usize::from(*bytes.get(28 + l)?);
    let word = |at: usize| -> Option<u64> {
        let b = bytes.get(at..at + 4)?;
        Some(u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    };
    let (k, n) = (word(h)?, word(h + 4)?);
    let checkpoints = n.checked_div(k).unwrap_or(0);
    Some(Ok(h as u64 + 31 + n.div_ceil(4) + 4 * checkpoints))
}

/// Reads a move log from `file` into `out` (cleared first), no further than the log's header
/// says the log extends, plus at most [`MAX_TRAILING_BYTES`] to count any bytes after it. A
/// source that is not a log stops after its first read (8 KiB at most), and a short one
/// where it ends: in both cases [`MoveLog::decode`] on `out` names the problem.
///
/// Few calls to the system: no `fstat` (the header sizes the reads), one read for a log of up
/// to about 32,000 moves. A read that returns less than it asked for, once the whole log is
/// in, is taken as the end of the source (a regular file returns less only at its end), so
/// a small log costs one read; a source that gives more after such a short read (a pipe
/// written in pieces) is not read on. Bytes after the log in the same read are counted.
///
/// # Errors
/// The read's own errors, and [`std::io::ErrorKind::InvalidData`] when more than
/// [`MAX_TRAILING_BYTES`] follow the log.
pub fn read_log_bytes(file: &mut impl Read, out: &mut Vec<u8>) -> std::io::Result<()> {
    out.clear();
    // How many bytes may be in `out`: at first one read's worth, then (once the header is
    // in) the log's end plus the trailing bytes counted, plus one to tell there are more.
    let mut limit = FIRST_READ;
    let mut end = None;
    loop {
        if end.is_none() {
            match log_end(out) {
                Some(Err(())) => return Ok(()),
                Some(Ok(e)) => {
                    end = Some(e);
                    limit = e.saturating_add(MAX_TRAILING_BYTES + 1);
                }
                None => {}
            }
        }
        let have = out.len() as u64;
        if have >= limit {
            break;
        }
        // Grow by doubling, never past the limit: a 75-byte file may claim 4 billion moves,
        // and the buffer only grows as bytes actually arrive.
        let want = (limit - have).min(have.max(FIRST_READ));
        let got = read_once(file, out, want as usize)?;
        if got == 0 {
            return Ok(());
        }
        if end.is_some_and(|e| out.len() as u64 >= e) && (got as u64) < want {
            // The whole log is in and the source gave less than asked: its end.
            return Ok(());
        }
    }
    let end = end.unwrap_or(0);
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "more than {MAX_TRAILING_BYTES} unexpected trailing bytes after the end of the move log at byte {end}"
        ),
    ))
}

/// One read of at most `want` bytes appended to `out` (retried when interrupted); the
/// number read, 0 at the end of the source.
fn read_once(file: &mut impl Read, out: &mut Vec<u8>, want: usize) -> std::io::Result<usize> {
    let have = out.len();
    out.reserve_exact(want);
    out.resize(have + want, 0);
    let got = loop {
        match file.read(&mut out[have..]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => break r,
        }
    };
    out.truncate(have + *got.as_ref().unwrap_or(&0));
    got
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

/// The device a directory is on (Unix; 0 elsewhere).
fn device(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.dev()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        0
    }
}

/// The identity of a directory entry that the listing itself says is a regular file (not a
/// link): (device of its directory, inode), with no call to the system on file systems that
/// report entry types. `None` for anything else, which is then looked at.
fn plain_file(entry: &fs::DirEntry, dev: u64) -> Option<(u64, u64, PathBuf)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirEntryExt;
        let file_type = entry.file_type().ok()?;
        file_type
            .is_file()
            .then(|| (dev, entry.ino(), PathBuf::new()))
    }
    #[cfg(not(unix))]
    {
        let _ = (entry, dev);
        None
    }
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
            let id = identity(&path, meta);
            self.file_with(path, id);
        }

        fn file_with(&mut self, path: PathBuf, id: Option<(u64, u64, PathBuf)>) {
            let again = id.is_some_and(|id| !self.seen_files.insert(id));
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
            let dev = device(meta);
            let listed = fs::read_dir(dir).and_then(|entries| {
                entries
                    .map(|e| e.map(|e| (e.file_name(), e.path(), plain_file(&e, dev))))
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
            for (_, path, plain) in entries {
                let is_log = path.extension().and_then(|e| e.to_str()) == Some(EXTENSION);
                if let (true, Some(id)) = (is_log, plain) {
                    // A regular file, as the directory listing says: no look at it needed.
                    self.file_with(path, Some(id));
                    continue;
                }
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
    let results: Mutex<Vec<Option<Verdict>>> = Mutex::new((0..files.len()).map(|_| None).collect());
    for_each_file(
        files,
        threads,
        |path, buffer| verify_file_with(path, engines, buffer),
        |done, i, verdict| {
            on_done(done, &files[i], &verdict);
            results.lock().expect("no worker panics holding the lock")[i] = Some(verdict);
        },
    );
    results
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|v| v.expect("every file was verified"))
        .collect()
}

/// The batch machinery under [`verify_all`]: `threads` workers (at least 1) take the next
/// file in turn (work stealing: a long game never holds up the rest), each with a read
/// buffer it keeps (see [`decode_file`]). `work` runs on each file; `done` is called with
/// the number of files finished so far, the file's index in `files` and what `work` gave,
/// from the worker threads in completion order. Nothing is kept between files: memory is
/// bounded by the files in flight, whatever their number.
pub fn for_each_file<T>(
    files: &[PathBuf],
    threads: usize,
    work: impl Fn(&Path, &mut Vec<u8>) -> T + Sync,
    done: impl Fn(usize, usize, T) + Sync,
) {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(files.len().max(1)) {
            scope.spawn(|| {
                let mut buffer = Vec::with_capacity(KEEP_BUFFER);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let result = work(path, &mut buffer);
                    shrink(&mut buffer);
                    let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    done(n, i, result);
                }
            });
        }
    });
}
