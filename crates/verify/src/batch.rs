//! Verifying many files at once, on every core, reporting every failure.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use twenty48_movelog::EXTENSION;

use crate::engines::{verify, EngineChoice};
pub use crate::reader::{
    check_log_bytes, read_log_bytes, Reader, AHEAD_BYTES, AHEAD_FILES, MAX_TRAILING_BYTES,
};
pub use crate::verdict::Verdict;

/// Verifies one file.
pub fn verify_file(path: &Path, engines: EngineChoice) -> Verdict {
    verify_file_with(path, engines, &mut Reader::new())
}

/// Verifies one file with `reader` (a worker keeps one for all its files). The moves stay
/// packed in the file's bytes: nothing else grows with the number of moves.
fn verify_file_with(path: &Path, engines: EngineChoice, reader: &mut Reader) -> Verdict {
    match reader.decode(path) {
        Ok(log) => Verdict::Replayed(Box::new(verify(&log, engines))),
        Err(verdict) => verdict,
    }
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
#[derive(Debug, PartialEq, Eq, Hash)]
enum Identity {
    /// A device and an inode on it (Unix), or a volume and a file index on it (Windows).
    #[cfg_attr(not(any(unix, windows)), allow(dead_code))]
    Inode(u64, u64),
    /// A canonical path.
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

#[cfg(unix)]
fn identity(_path: &Path, meta: &fs::Metadata) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    Some(Identity::Inode(meta.dev(), meta.ino()))
}

/// Windows: (volume serial number, file index), from a handle opened for no access (a
/// directory's too); the canonical path where the file system gives no index.
#[cfg(windows)]
fn identity(path: &Path, _meta: &fs::Metadata) -> Option<Identity> {
    use std::os::windows::fs::OpenOptionsExt;
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{
        GetFileInformationByHandle, BY_HANDLE_FILE_INFORMATION, FILE_FLAG_BACKUP_SEMANTICS,
    };
    let by_path = || fs::canonicalize(path).ok().map(Identity::Path);
    let Ok(file) = fs::OpenOptions::new()
        .access_mode(0)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)
    else {
        return by_path();
    };
    // SAFETY: plain data, filled by the call below before it is read.
    let mut info: BY_HANDLE_FILE_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: a handle this File owns, and a struct that lives through the call.
    if unsafe { GetFileInformationByHandle(file.as_raw_handle() as _, &mut info) } == 0 {
        return by_path();
    }
    let index = (u64::from(info.nFileIndexHigh) << 32) | u64::from(info.nFileIndexLow);
    Some(Identity::Inode(u64::from(info.dwVolumeSerialNumber), index))
}

/// Elsewhere: the canonical path (a hard link is not seen as the file it links).
#[cfg(not(any(unix, windows)))]
fn identity(path: &Path, _meta: &fs::Metadata) -> Option<Identity> {
    fs::canonicalize(path).ok().map(Identity::Path)
}

/// The identities met so far. Only ever asked whether it holds one (never walked, so its
/// order does not matter), and hashed cheaply: a listing of thousands of files asks once a
/// file, and the default hasher (made to resist chosen keys, which inode numbers are not)
/// was a fifth of the listing's time.
type Seen = std::collections::HashSet<Identity, std::hash::BuildHasherDefault<IdentityHasher>>;

/// A hasher for [`Identity`]: each word multiplied into the state (the high bits of a
/// product mix all the bits below them), bytes taken eight at a time.
#[derive(Default)]
struct IdentityHasher(u64);

impl std::hash::Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
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

/// Where the last part of `path`, a directory's entry joined to it, starts: after its last
/// separator (a name holds none).
fn name_start(path: &Path) -> usize {
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes
        .iter()
        .rposition(|&b| std::path::is_separator(char::from(b)))
        .map_or(0, |at| at + 1)
}

/// The name of an entry listed with the place its name starts in its path.
fn entry_name<T>((path, start, _): &(PathBuf, usize, T)) -> &[u8] {
    &path.as_os_str().as_encoded_bytes()[*start..]
}

/// The identity of a directory entry that the listing itself says is a regular file (not a
/// link): (device of its directory, inode), with no call to the system on file systems that
/// report entry types. `None` for anything else, which is then looked at.
fn plain_file(entry: &fs::DirEntry, dev: u64) -> Option<Identity> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirEntryExt;
        let file_type = entry.file_type().ok()?;
        file_type
            .is_file()
            .then(|| Identity::Inode(dev, entry.ino()))
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
        seen_dirs: Seen,
        seen_files: Seen,
    }
    impl Walk {
        fn file(&mut self, path: PathBuf, meta: &fs::Metadata) {
            let id = identity(&path, meta);
            self.file_with(path, id);
        }

        fn file_with(&mut self, path: PathBuf, id: Option<Identity>) {
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
            // Each entry's path, where its name starts in it, and its identity when the
            // listing says it is a plain file.
            let listed = fs::read_dir(dir).and_then(|entries| {
                entries
                    .map(|e| {
                        e.map(|e| {
                            let path = e.path();
                            let name = name_start(&path);
                            (path, name, plain_file(&e, dev))
                        })
                    })
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
            // same order as sorting the whole paths. (By the name where the listing says it
            // starts: taking it from the path again in every comparison was 3 % of
            // verifying a corpus.)
            entries.sort_unstable_by(|a, b| entry_name(a).cmp(entry_name(b)));
            for (path, _, plain) in entries {
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
        |path, reader| verify_file_with(path, engines, reader),
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

/// The batch machinery under [`verify_all`]: `threads` workers (at least 1; the calling
/// thread is one of them, and fewer when the system refuses to start more) take the next
/// files in turn (work stealing: a long game never holds up the rest), each with a
/// [`Reader`] it keeps. `work` runs on each file; `done` is called with the number of files
/// finished so far, the file's index in `files` and what `work` gave, from the worker
/// threads in completion order.
///
/// A worker takes a run of files at a time ([`AHEAD_FILES`] at most, fewer as the files
/// left run out, so that the workers finish together) and reads them ahead of their turn
/// ([`Reader::read_ahead`]): its calls to the system for the run come together, and then the
/// replays. Memory is bounded by the files in flight, whatever their number: a run's bytes,
/// [`AHEAD_BYTES`] at most beyond its last file.
pub fn for_each_file<T>(
    files: &[PathBuf],
    threads: usize,
    work: impl Fn(&Path, &mut Reader) -> T + Sync,
    done: impl Fn(usize, usize, T) + Sync,
) {
    let threads = threads.max(1).min(files.len().max(1));
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let worker = |mut reader: Reader| loop {
        let left = files.len().saturating_sub(next.load(Ordering::Relaxed));
        let take = run_length(left, threads);
        let start = next.fetch_add(take, Ordering::Relaxed);
        let Some(run) = files.get(start..(start + take).min(files.len())) else {
            break;
        };
        if run.is_empty() {
            break;
        }
        reader.read_ahead(run);
        for (i, path) in (start..).zip(run) {
            let result = work(path, &mut reader);
            let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
            done(n, i, result);
        }
    };
    // Workers wait at this gate until every worker that will run has started: while the
    // threads are started one by one, none of them allocates.
    let gate = (Mutex::new(false), std::sync::Condvar::new());
    let wait_at_gate = || {
        let (open, opened) = &gate;
        let mut open = open.lock().unwrap_or_else(|e| e.into_inner());
        while !*open {
            open = opened.wait(open).unwrap_or_else(|e| e.into_inner());
        }
    };
    std::thread::scope(|scope| {
        // The calling thread is a worker too. A thread the system refuses (too many, or no
        // memory for its stack) is no error: the workers that did start do all the files.
        // A thread is started only while there is room for it: one whose stack the system
        // gave but not the rest of what a thread needs at its start (its signal stack), or
        // a worker refused memory as it works, would abort the process. So each is started
        // only once WORKER_ROOM could be had, it takes its buffers before it says it runs,
        // and the next is started only then.
        let (started, running) = std::sync::mpsc::channel::<bool>();
        for _ in 1..threads {
            if !room_for_a_worker() {
                break;
            }
            let started = started.clone();
            let spawned = std::thread::Builder::new()
                .name("twenty48-worker".into())
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    // A send fails only when the spawning loop is over; nothing to say then.
                    let Some(reader) = Reader::with_room() else {
                        let _ = started.send(false);
                        return;
                    };
                    let _ = started.send(true);
                    drop(started);
                    wait_at_gate();
                    worker(reader);
                });
            if spawned.is_err() || running.recv() != Ok(true) {
                break;
            }
        }
        let (open, opened) = &gate;
        *open.lock().unwrap_or_else(|e| e.into_inner()) = true;
        opened.notify_all();
        worker(Reader::new());
    });
}

/// The stack of each worker [`for_each_file`] starts: verifying keeps a stretch of moves
/// (1 KiB) and a few states on it, and nothing recurses; a small stack lets many workers
/// start where address space is limited.
const WORKER_STACK: usize = 512 * 1024;

/// The address space that must be free before [`for_each_file`] starts another worker: its
/// stack and buffers are small, but the C allocator may reserve a new arena for a thread
/// (64 MiB, aligned: up to twice that while it is placed), and a worker that cannot have
/// memory when it needs it aborts the whole process.
const WORKER_ROOM: usize = 144 * 1024 * 1024;

/// Whether [`WORKER_ROOM`] bytes of address space can be had now (under `ulimit -v`, for
/// instance, they may not): asked for and given back at once, never touched (an
/// allocation this large is mapped apart and unmapped when freed).
fn room_for_a_worker() -> bool {
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(WORKER_ROOM).is_ok()
}

/// How many files a worker takes when `left` are left for `threads` workers: a quarter of
/// its share, so that the last runs are short and the workers finish together, and at
/// least one and at most [`AHEAD_FILES`].
fn run_length(left: usize, threads: usize) -> usize {
    (left / (4 * threads)).clamp(1, AHEAD_FILES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// The listing's cheap hasher still tells identities apart: consecutive inodes, the same
    /// inode on other devices, and paths that differ in one byte all hash differently.
    #[test]
    fn identities_hash_apart() {
        let hasher = std::hash::BuildHasherDefault::<IdentityHasher>::default();
        let mut hashes: Vec<u64> = (0..10_000)
            .map(|ino| Identity::Inode(2049, ino))
            .chain((0..100).map(|dev| Identity::Inode(dev, 7)))
            .chain((0..100).map(|i| Identity::Path(PathBuf::from(format!("/logs/{i:08}.t48")))))
            .map(|id| hasher.hash_one(&id))
            .collect();
        let n = hashes.len();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), n);
    }

    /// Runs are a quarter of a worker's share of the files left, at least one and at most
    /// AHEAD_FILES: the last runs are short, so that workers finish together.
    #[test]
    fn runs_shorten_as_the_files_run_out() {
        assert_eq!(run_length(0, 1), 1);
        assert_eq!(run_length(3, 2), 1);
        assert_eq!(run_length(8, 2), 1);
        assert_eq!(run_length(24, 2), 3);
        assert_eq!(run_length(100, 1), 25);
        assert_eq!(run_length(255, 2), 31);
        assert_eq!(run_length(256, 2), AHEAD_FILES);
        assert_eq!(run_length(1_000_000, 2), AHEAD_FILES);
    }

    /// Every file is worked on once and reported once, whatever the number of workers and
    /// files.
    #[test]
    fn every_file_is_done_once() {
        for n in [0, 1, 5, 33, 300] {
            let files: Vec<PathBuf> = (0..n)
                .map(|i| PathBuf::from(format!("/none/{i}")))
                .collect();
            for threads in [1, 2, 3] {
                let seen = Mutex::new(vec![0u32; n]);
                let counts = Mutex::new(Vec::new());
                for_each_file(
                    &files,
                    threads,
                    |path, _| path.to_path_buf(),
                    |done, i, path| {
                        assert_eq!(path, files[i]);
                        seen.lock().unwrap()[i] += 1;
                        counts.lock().unwrap().push(done);
                    },
                );
                assert!(seen.into_inner().unwrap().iter().all(|&s| s == 1));
                let mut counts = counts.into_inner().unwrap();
                counts.sort();
                assert_eq!(counts, (1..=n).collect::<Vec<_>>());
            }
        }
    }
}
