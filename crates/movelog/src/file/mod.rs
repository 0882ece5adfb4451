//! Writing files so that a crash leaves either the old file or the new one, nothing is ever
//! written through a symbolic link, and (unless asked to replace) nothing already there is
//! replaced: the one writer of every file the project creates.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

mod error;
mod place;

pub use error::{shown, WriteError};

/// Numbers the temp files of this process.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// Writes atomically: a temp file in the same directory, fsync, rename over `path`, then
/// (on Unix) fsync of the directory so the rename itself is durable. This replaces what is
/// at `path` (`--force`); [`write_new`] and [`write_free`] never do.
///
/// The temp file is `.<name>.tmp-<pid>-<n>` beside `path` (`n` counts calls in this
/// process, so concurrent writers do not share one), created exclusively (a name already
/// taken, even by a symbolic link, is passed over), and removed if writing fails.
///
/// # Errors
/// A [`WriteError`] naming `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_via_temp(path, bytes, |tmp, path| {
        place::replace(tmp, path).map_err(WriteError::io(path, "write"))
    })
}

/// Like [`write_atomic`], but never replaces anything: the finished temp file is hard-linked
/// into place, which fails with [`WriteError::Exists`] if `path` exists by then (even if it
/// was created after this call began, and even if it is a dangling symbolic link), and the
/// temp file is removed either way.
///
/// # Errors
/// A [`WriteError`] naming `path`.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_via_temp(path, bytes, |tmp, path| {
        let (placed, removed) = place::place_new(tmp, path);
        match placed {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(WriteError::Exists {
                path: path.to_path_buf(),
            }),
            Err(e) => Err(WriteError::io(path, "write")(e)),
            Ok(()) => removed.map_err(WriteError::io(tmp, "remove the temp file")),
        }
    })
}

/// Where [`write_free`] put the bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Placed {
    /// A new file, at the name asked for or at the first free name after it.
    New(PathBuf),
    /// A regular file with these very bytes was already there (at the name asked for or a
    /// free name after it): written before, nothing done.
    Identical(PathBuf),
}

impl Placed {
    /// The file that holds the bytes.
    pub fn path(&self) -> &Path {
        match self {
            Placed::New(p) | Placed::Identical(p) => p,
        }
    }
}

/// How many names [`write_free`] tries before it gives up.
pub const MAX_FREE_NAMES: u32 = 1000;

/// Writes `bytes` as a new file at `path` or, when that name holds something else, at the
/// first free name after it (`game-2.t48`, `game-3.t48`, ...: [`free_name`]); never replaces
/// anything, never writes through a link. A name that already holds these very bytes (a
/// regular file, not a link) counts as written: [`Placed::Identical`].
///
/// # Errors
/// A [`WriteError`] naming `path`; [`WriteError::NamesTaken`] after [`MAX_FREE_NAMES`]
/// names.
pub fn write_free(path: &Path, bytes: &[u8]) -> Result<Placed, WriteError> {
    write_free_except(path, bytes, &|_| false)
}

/// [`write_free`], passing over the names `reserved` says are spoken for (a game whose
/// journal is there, say) as if they held other files.
///
/// # Errors
/// As [`write_free`].
pub fn write_free_except(
    path: &Path,
    bytes: &[u8],
    reserved: &dyn Fn(&Path) -> bool,
) -> Result<Placed, WriteError> {
    for n in 1..=MAX_FREE_NAMES {
        let candidate = free_name(path, n);
        if reserved(&candidate) {
            continue;
        }
        if let Some(placed) = write_unless_taken(&candidate, bytes)? {
            return Ok(placed);
        }
    }
    Err(WriteError::NamesTaken {
        path: path.to_path_buf(),
        tried: MAX_FREE_NAMES,
    })
}

/// Writes `bytes` as a new file at `path` unless the name is taken: [`Placed::New`], or
/// [`Placed::Identical`] when a regular file there (not a link) already holds these very
/// bytes, or `None` when anything else is there (a file of other contents, a link, a
/// folder). Never replaces anything, never writes through a link. One step of
/// [`write_free`], for a caller that numbers the names itself.
///
/// # Errors
/// A [`WriteError`] naming `path`.
pub fn write_unless_taken(path: &Path, bytes: &[u8]) -> Result<Option<Placed>, WriteError> {
    if holds(path, bytes) {
        return Ok(Some(Placed::Identical(path.to_path_buf())));
    }
    if fs::symlink_metadata(path).is_ok() {
        return Ok(None);
    }
    match write_new(path, bytes) {
        Ok(()) => Ok(Some(Placed::New(path.to_path_buf()))),
        // Taken since the look: it may be these bytes, written by another pull.
        Err(WriteError::Exists { .. }) if holds(path, bytes) => {
            Ok(Some(Placed::Identical(path.to_path_buf())))
        }
        Err(WriteError::Exists { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Creates a new, empty file at `path` or the first free name after it ([`free_name`]),
/// exclusively (never opening anything already there, a symbolic link included), for a
/// file written as it grows (a raw capture); its directory is synced so the name lasts.
///
/// # Errors
/// A [`WriteError`] naming `path`.
pub fn create_free(path: &Path) -> Result<(PathBuf, File), WriteError> {
    for n in 1..=MAX_FREE_NAMES {
        let candidate = free_name(path, n);
        match File::options()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => {
                let dir = match candidate.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                sync_dir(dir)?;
                return Ok((candidate, file));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(WriteError::io(&candidate, "create")(e)),
        }
    }
    Err(WriteError::NamesTaken {
        path: path.to_path_buf(),
        tried: MAX_FREE_NAMES,
    })
}

/// The `n`th name [`write_free`] tries for `path`: `path` itself for 1, then `STEM-n.EXT`
/// beside it (`games/game.t48`, `games/game-2.t48`, ...; `x.partial.t48`,
/// `x.partial-2.t48`).
pub fn free_name(path: &Path, n: u32) -> PathBuf {
    if n <= 1 {
        return path.to_path_buf();
    }
    let name = path
        .file_name()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    path.with_file_name(free_file_name(&name, n))
}

/// [`free_name`] of a bare file name: `name` itself for 1, then `STEM-n.EXT`
/// (`game.t48`, `game-2.t48`, ...; `x.partial.t48`, `x.partial-2.t48`; `.hidden-2`).
pub fn free_file_name(name: &str, n: u32) -> String {
    if n <= 1 {
        return name.to_string();
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{stem}-{n}.{ext}"),
        _ => format!("{name}-{n}"),
    }
}

/// Whether `path` is a regular file (not a symbolic link to one) holding exactly `bytes`.
pub fn holds(path: &Path, bytes: &[u8]) -> bool {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.file_type().is_file() || meta.len() != bytes.len() as u64 {
        return false;
    }
    let Ok(file) = File::open(path) else {
        return false;
    };
    // The file opened is the one looked at (not a link put in its place since).
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match file.metadata() {
            Ok(m) if m.dev() == meta.dev() && m.ino() == meta.ino() => {}
            _ => return false,
        }
    }
    let mut found = Vec::with_capacity(bytes.len());
    file.take(bytes.len() as u64 + 1)
        .read_to_end(&mut found)
        .is_ok()
        && found == bytes
}

/// Creates `dir` and any missing parents, durably: each directory made is synced, and so is
/// the directory it was made in, so that a file written into it afterwards and synced
/// survives a power cut with the path to it. Directories already there are left as they
/// are.
///
/// # Errors
/// A [`WriteError`] naming the directory that could not be made (or `dir`, when something
/// that is not a directory is in the way).
pub fn create_dirs(dir: &Path) -> Result<(), WriteError> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if fs::metadata(dir).is_ok_and(|m| m.is_dir()) {
        return Ok(());
    }
    let missing: Vec<&Path> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| fs::symlink_metadata(a).is_err())
        .collect();
    for made in missing.into_iter().rev() {
        match fs::create_dir(made) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && made.is_dir() => continue,
            Err(e) => return Err(WriteError::io(made, "create the directory")(e)),
        }
        sync_dir(made)?;
        let parent = match made.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        sync_dir(parent)?;
    }
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(WriteError::io(dir, "create the directory")(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "something that is not a directory is in the way",
        ))),
        Err(e) => Err(WriteError::io(dir, "create the directory")(e)),
    }
}

/// Syncs a directory (its entries), on Unix; elsewhere directories cannot be opened.
fn sync_dir(dir: &Path) -> Result<(), WriteError> {
    #[cfg(test)]
    tests::SYNCED.with(|s| s.borrow_mut().push(dir.to_path_buf()));
    #[cfg(unix)]
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(WriteError::io(dir, "sync the directory"))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// The temp file's name: `.<name>.tmp-<pid>-<n>`, with `name` cut to its first
/// [`TEMP_STEM`] bytes (at a character boundary) so that the whole stays within the 255-byte
/// limit on a file name (NAME_MAX) for any name that is itself valid.
fn temp_name(name: &std::ffi::OsStr, pid: u32, n: u64) -> String {
    let name = name.to_string_lossy();
    let mut end = name.len().min(TEMP_STEM);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}.tmp-{pid}-{n}", &name[..end])
}

/// At most this many bytes of the target's name begin its temp file's name.
const TEMP_STEM: usize = 200;

/// Creates a new temp file for `path` in `dir`. A name already taken (a stale temp file of
/// an earlier process with this id, or a symbolic link planted in a shared directory) is
/// never opened, written through or removed: the next is tried.
fn create_temp(dir: &Path, path: &Path) -> Result<(PathBuf, File), WriteError> {
    let name = path.file_name().unwrap_or_default();
    let mut taken = 0;
    loop {
        let n = NEXT_TEMP.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(temp_name(name, std::process::id(), n));
        match File::options().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && taken < MAX_TAKEN_TEMPS => {
                taken += 1;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                // The names tried: those passed over, and this one.
                return Err(WriteError::TempNamesTaken {
                    path: path.to_path_buf(),
                    tried: taken + 1,
                    last: tmp,
                });
            }
            Err(e) => return Err(WriteError::io(path, "create a temp file for")(e)),
        }
    }
}

/// How many taken temp file names are passed over before a write gives up.
const MAX_TAKEN_TEMPS: u32 = 1000;

/// Writes `bytes` to `file`, syncs it, and closes it (it is dropped on return: closed before
/// it is placed, which some systems require of a file being renamed or linked).
fn write_and_close(mut file: File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.sync_all()
}

/// Writes the temp file and syncs it, then `place`s it at `path` and syncs the directory.
fn write_via_temp(
    path: &Path,
    bytes: &[u8],
    place: impl FnOnce(&Path, &Path) -> Result<(), WriteError>,
) -> Result<(), WriteError> {
    if path.file_name().is_none() {
        return Err(WriteError::NotAFileName {
            path: path.to_path_buf(),
        });
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let (tmp, file) = create_temp(dir, path)?;
    let result = (|| {
        write_and_close(file, bytes).map_err(WriteError::io(path, "write"))?;
        place(&tmp, path)?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// The directories this thread synced, in order.
        pub(super) static SYNCED: std::cell::RefCell<Vec<PathBuf>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }

    /// Issue 26: an ack may go out only when the file, its directory entry and every
    /// directory made on the way are durable: each new directory is synced, then the
    /// directory it was made in; a file's directory is synced after it is linked in.
    #[test]
    fn every_directory_made_is_synced_with_its_parent_and_the_file_with_its_directory() {
        let root = std::env::temp_dir().join(format!("t48-synced-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        let (a, b) = (root.join("a"), root.join("a").join("b"));
        SYNCED.with(|s| s.borrow_mut().clear());
        create_dirs(&b).unwrap();
        write_free(&b.join("g.t48"), b"game").unwrap();
        let synced = SYNCED.with(|s| s.take());
        assert_eq!(synced, [a.clone(), root.clone(), b.clone(), a, b]);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_name_of_255_bytes_gets_a_temp_name_within_name_max() {
        let dir = std::env::temp_dir().join(format!("t48-long-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        for len in [250, 255] {
            let path = dir.join(format!("{}.t48", "g".repeat(len - 4)));
            write_new(&path, b"long").unwrap();
            write_atomic(&path, b"longer").unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"longer");
        }
        let tmp = temp_name(
            std::ffi::OsStr::new(&"\u{e9}".repeat(200)),
            u32::MAX,
            u64::MAX,
        );
        assert!(tmp.len() <= 255, "{}", tmp.len());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2, "no temp file left");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The temp file is `.<name>.tmp-<pid>-<n>` in the target's own directory, a new `n`
    /// for each write, and a failed write removes it.
    #[test]
    fn the_temp_file_is_beside_the_target_and_new_each_time() {
        let dir = std::env::temp_dir().join(format!("t48-beside-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.t48");
        let mut seen = Vec::new();
        for _ in 0..2 {
            let err = write_via_temp(&path, b"x", |tmp, _| {
                seen.push(tmp.to_path_buf());
                Err(WriteError::io(tmp, "stop at")(io::Error::other("stop")))
            });
            assert!(err.unwrap_err().to_string().starts_with("cannot stop at"));
        }
        let prefix = format!(".game.t48.tmp-{}-", std::process::id());
        for tmp in &seen {
            assert_eq!(tmp.parent(), Some(dir.as_path()));
            let name = tmp.file_name().unwrap().to_str().unwrap();
            assert!(name.starts_with(&prefix), "{name}");
        }
        assert_ne!(seen[0], seen[1]);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "no temp file left");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A name is cut at a character boundary at or before byte TEMP_STEM.
    #[test]
    fn temp_names_cut_long_names_at_a_character() {
        assert_eq!(
            temp_name(std::ffi::OsStr::new("game.t48"), 7, 3),
            ".game.t48.tmp-7-3"
        );
        // One byte, then two-byte characters: byte 200 falls inside one.
        let long = format!("a{}", "\u{e9}".repeat(150));
        let tmp = temp_name(std::ffi::OsStr::new(&long), 1, 2);
        assert_eq!(tmp, format!(".{}.tmp-1-2", &long[..TEMP_STEM - 1]));
    }

    /// A bare file name is written in the current directory. (The only test here that
    /// changes the directory; the others use absolute paths.)
    #[test]
    fn a_bare_name_is_written_in_the_current_directory() {
        let dir = std::env::temp_dir().join(format!("t48-bare-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let old = std::env::current_dir().unwrap();
        std::env::set_current_dir(&dir).unwrap();
        let result = write_atomic(Path::new("game.t48"), b"atomic")
            .and_then(|()| write_new(Path::new("new.t48"), b"new"));
        std::env::set_current_dir(old).unwrap();
        result.unwrap();
        assert_eq!(fs::read(dir.join("game.t48")).unwrap(), b"atomic");
        assert_eq!(fs::read(dir.join("new.t48")).unwrap(), b"new");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2, "no temp file left");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A name the temp file would take that is already there (a symbolic link planted in a
    /// shared directory, or a stale temp file whose process id came round again) is never
    /// written through nor removed: the next name is taken.
    #[cfg(unix)]
    #[test]
    fn a_taken_temp_name_is_skipped_never_written_through() {
        let dir = std::env::temp_dir().join(format!("t48-planted-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        fs::write(&victim, b"victim").unwrap();
        let first = NEXT_TEMP.load(Ordering::Relaxed);
        let mut planted = Vec::new();
        for name in ["new.t48", "atomic.t48"] {
            for n in first..first + 64 {
                let tmp = dir.join(temp_name(name.as_ref(), std::process::id(), n));
                std::os::unix::fs::symlink(&victim, &tmp).unwrap();
                planted.push(tmp);
            }
        }
        write_new(&dir.join("new.t48"), b"new").unwrap();
        write_atomic(&dir.join("atomic.t48"), b"atomic").unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"victim");
        assert_eq!(fs::read(dir.join("new.t48")).unwrap(), b"new");
        assert_eq!(fs::read(dir.join("atomic.t48")).unwrap(), b"atomic");
        for tmp in &planted {
            assert!(fs::symlink_metadata(tmp).unwrap().is_symlink(), "{tmp:?}");
        }
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 3 + planted.len());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Past MAX_TAKEN_TEMPS taken names in a row a write gives up with an error that says
    /// so, and leaves every taken name as it was.
    #[cfg(unix)]
    #[test]
    fn a_write_gives_up_when_every_temp_name_is_taken() {
        let dir = std::env::temp_dir().join(format!("t48-all-taken-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // Each write passes over MAX_TAKEN_TEMPS + 1 names, and other tests advance the
        // counter too: plant names for both writes and well past that.
        let first = NEXT_TEMP.load(Ordering::Relaxed);
        let planted = (first..first + 2 * u64::from(MAX_TAKEN_TEMPS + 1) + 200)
            .map(|n| dir.join(temp_name("full.t48".as_ref(), std::process::id(), n)));
        for tmp in planted {
            std::os::unix::fs::symlink("nowhere", &tmp).unwrap();
        }
        let before = fs::read_dir(&dir).unwrap().count();
        for write in [write_new, write_atomic] {
            let err = write(&dir.join("full.t48"), b"x").unwrap_err();
            let message = err.to_string();
            let expected = format!(
                "cannot write {}: {} temp file names beside it are taken, the last ",
                dir.join("full.t48").display(),
                MAX_TAKEN_TEMPS + 1,
            );
            assert!(message.starts_with(&expected), "{message}");
            assert!(!dir.join("full.t48").exists());
            assert_eq!(fs::read_dir(&dir).unwrap().count(), before);
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Any other failure to create the temp file (here: no such directory) is the write's
    /// error as the system gives it, at once, not a tale of taken names.
    #[test]
    fn a_temp_file_that_cannot_be_created_fails_the_write_with_the_cause() {
        let dir = std::env::temp_dir().join(format!("t48-no-dir-{}/sub", std::process::id()));
        for write in [write_new, write_atomic] {
            let err = write(&dir.join("x.t48"), b"x").unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
            assert!(!err.to_string().contains("taken"), "{err}");
        }
    }

    #[test]
    fn write_new_never_replaces_and_leaves_no_temp_file() {
        let dir = std::env::temp_dir().join(format!("t48-new-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.t48");
        write_new(&path, b"one").unwrap();
        let err = write_new(&path, b"two").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert!(matches!(err, WriteError::Exists { .. }), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"one");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temp_file() {
        let dir = std::env::temp_dir().join(format!("t48-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.t48");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Every error names the file it was writing (issue 28: a full disk gave a bare "No
    /// space left on device").
    #[test]
    fn every_write_error_names_the_file() {
        let dir = std::env::temp_dir().join(format!("t48-names-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // A file where a directory should be: each write fails inside the system.
        fs::write(dir.join("plain"), b"x").unwrap();
        let path = dir.join("plain").join("game.t48");
        let shown_path = path.display().to_string();
        for err in [
            write_new(&path, b"x").unwrap_err(),
            write_atomic(&path, b"x").unwrap_err(),
            write_free(&path, b"x").unwrap_err(),
            create_dirs(&path).unwrap_err(),
        ] {
            assert!(err.to_string().contains(&shown_path), "{err}");
            assert_eq!(err.path(), path);
            let io: io::Error = err.into();
            assert!(io.to_string().contains(&shown_path), "{io}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// write_free: the name asked for when free; the same bytes already there count as
    /// written; other contents, a symbolic link (followed never, even to the same bytes) or
    /// a reserved name send the bytes to the next free name; nothing is replaced.
    #[cfg(unix)]
    #[test]
    fn write_free_takes_the_first_free_name_and_replaces_nothing() {
        let dir = std::env::temp_dir().join(format!("t48-free-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.partial.t48");
        assert_eq!(free_name(&path, 1), path);
        assert_eq!(free_name(&path, 3), dir.join("g.partial-3.t48"));
        assert_eq!(
            write_free(&path, b"one").unwrap(),
            Placed::New(path.clone())
        );
        assert_eq!(
            write_free(&path, b"one").unwrap(),
            Placed::Identical(path.clone())
        );
        let second = dir.join("g.partial-2.t48");
        assert_eq!(
            write_free(&path, b"two").unwrap(),
            Placed::New(second.clone())
        );
        assert_eq!(
            write_free(&path, b"two").unwrap(),
            Placed::Identical(second.clone())
        );
        assert_eq!(fs::read(&path).unwrap(), b"one");
        // A link to a file with the same bytes is not the file: passed over, not followed.
        let victim = dir.join("victim");
        fs::write(&victim, b"three").unwrap();
        let linked = dir.join("l.t48");
        std::os::unix::fs::symlink(&victim, &linked).unwrap();
        assert!(!holds(&linked, b"three"));
        assert_eq!(
            write_free(&linked, b"three").unwrap(),
            Placed::New(dir.join("l-2.t48"))
        );
        assert_eq!(fs::read(&victim).unwrap(), b"three");
        assert!(fs::symlink_metadata(&linked).unwrap().is_symlink());
        // A dangling link is taken too (a write through it would create its target).
        let dangling = dir.join("d.t48");
        std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
        assert_eq!(
            write_free(&dangling, b"x").unwrap(),
            Placed::New(dir.join("d-2.t48"))
        );
        assert!(!dir.join("nowhere").exists());
        let reserved = |p: &Path| p == dir.join("r.t48");
        assert_eq!(
            write_free_except(&dir.join("r.t48"), b"x", &reserved).unwrap(),
            Placed::New(dir.join("r-2.t48"))
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    /// create_dirs makes every missing directory (and leaves one already there as it is).
    #[test]
    fn create_dirs_makes_the_missing_directories() {
        let dir = std::env::temp_dir().join(format!("t48-dirs-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let deep = dir.join("a").join("b").join("c");
        create_dirs(&deep).unwrap();
        assert!(deep.is_dir());
        create_dirs(&deep).unwrap();
        write_new(&deep.join("x.t48"), b"x").unwrap();
        fs::remove_dir_all(&dir).unwrap();
    }
}
