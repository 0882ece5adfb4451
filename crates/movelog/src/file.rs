//! Writing a log to disk so that a crash leaves either the old file or the new one.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers the temp files of this process.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// Writes atomically: a temp file in the same directory, fsync, rename over `path`, then
/// (on Unix) fsync of the directory so the rename itself is durable.
///
/// The temp file is `.<name>.tmp-<pid>-<n>` beside `path` (`n` counts calls in this
/// process, so concurrent writers do not share one); it is removed if writing fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_via_temp(path, bytes, |tmp, path| fs::rename(tmp, path))
}

/// Like [`write_atomic`], but never replaces anything: the finished temp file is hard-linked
/// into place, which fails with [`io::ErrorKind::AlreadyExists`] if `path` exists by then
/// (even if it was created after this call began), and the temp file is removed either way.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_via_temp(path, bytes, |tmp, path| {
        let linked = fs::hard_link(tmp, path);
        fs::remove_file(tmp)?;
        linked
    })
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

/// Creates a new temp file for `name` in `dir`. A name already taken (a stale temp file of
/// an earlier process with this id, or a symbolic link planted in a shared directory) is
/// never opened, written through or removed: the next is tried.
fn create_temp(dir: &Path, name: &std::ffi::OsStr) -> io::Result<(std::path::PathBuf, File)> {
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
                return Err(io::Error::other(format!(
                    "{} temp file names in {} are taken, the last {}",
                    taken + 1,
                    dir.display(),
                    tmp.display()
                )));
            }
            Err(e) => return Err(e),
        }
    }
}

/// How many taken temp file names are passed over before a write gives up.
const MAX_TAKEN_TEMPS: u32 = 1000;

/// Writes the temp file and syncs it, then `place`s it at `path` and syncs the directory.
fn write_via_temp(
    path: &Path,
    bytes: &[u8],
    place: impl FnOnce(&Path, &Path) -> io::Result<()>,
) -> io::Result<()> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let (tmp, mut file) = create_temp(dir, name)?;
    let result = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        place(&tmp, path)?;
        #[cfg(unix)]
        File::open(dir)?.sync_all()?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

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
                Err(io::Error::other("stop"))
            });
            assert_eq!(err.unwrap_err().to_string(), "stop");
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
                "{} temp file names in {} are taken, the last ",
                MAX_TAKEN_TEMPS + 1,
                dir.display()
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
}
