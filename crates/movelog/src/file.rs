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
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    let n = NEXT_TEMP.fetch_add(1, Ordering::Relaxed);
    tmp_name.push(format!(".tmp-{}-{n}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut file = File::create(&tmp)?;
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
