//! Putting a finished temp file in its place, per platform: the one place where replacing a
//! file and refusing to replace one differ between Unix and Windows.
//!
//! - **Unix**: `rename` replaces atomically; a hard link (then the temp's removal) places
//!   without replacing, failing if the name is taken. The directory is synced afterwards by
//!   the caller, which makes the new name durable.
//! - **Windows**: to replace, the standard library's rename (a POSIX-semantics rename where
//!   the system has one, Windows 10 and later on NTFS, which also replaces a file that a
//!   reader holds open with delete sharing; else `MoveFileExW` with
//!   `MOVEFILE_REPLACE_EXISTING`). To refuse a taken name, `MoveFileExW` without it, which
//!   fails if the name exists (atomic, with no hard link, so FAT and exFAT drives work too),
//!   with `MOVEFILE_WRITE_THROUGH`, so the move is on disk when it returns (a directory
//!   cannot be synced there). A file that another program holds open without sharing its
//!   deletion (an editor, a virus scanner, an indexer) cannot be replaced: the move is tried
//!   again for about two seconds, then fails with [`held_open`]'s words.

use std::io;
use std::path::Path;

/// Moves `tmp` over `path`, replacing what is there. (Not Windows: Unix, and the targets
/// with no file system, wasm32 for the web page, where std's calls fail as unsupported.)
#[cfg(not(windows))]
pub(super) fn replace(tmp: &Path, path: &Path) -> io::Result<()> {
    std::fs::rename(tmp, path)
}

/// Puts `tmp` at `path` unless the name is taken (an [`io::ErrorKind::AlreadyExists`]
/// error), then removes the name `tmp` if it is still there: whether it was placed, and
/// whether the temp name is gone.
#[cfg(not(windows))]
pub(super) fn place_new(tmp: &Path, path: &Path) -> (io::Result<()>, io::Result<()>) {
    let linked = std::fs::hard_link(tmp, path);
    (linked, std::fs::remove_file(tmp))
}

#[cfg(windows)]
pub(super) fn replace(tmp: &Path, path: &Path) -> io::Result<()> {
    while_held_open(|| std::fs::rename(tmp, path))
}

#[cfg(windows)]
pub(super) fn place_new(tmp: &Path, path: &Path) -> (io::Result<()>, io::Result<()>) {
    match move_file(tmp, path, 0) {
        Ok(()) => (Ok(()), Ok(())),
        Err(e) => (Err(e), std::fs::remove_file(tmp)),
    }
}

/// `MoveFileExW(from, to, flags | MOVEFILE_WRITE_THROUGH)`, tried again while `to` is held
/// open by another program.
#[cfg(windows)]
fn move_file(from: &Path, to: &Path, flags: u32) -> io::Result<()> {
    use std::os::windows::ffi::OsStrExt;
    use windows_sys::Win32::Storage::FileSystem::{MoveFileExW, MOVEFILE_WRITE_THROUGH};
    let wide = |p: &Path| -> Vec<u16> { p.as_os_str().encode_wide().chain([0]).collect() };
    let (from_w, to_w) = (wide(from), wide(to));
    while_held_open(|| {
        // SAFETY: two NUL-terminated wide strings that live through the call.
        let moved = unsafe {
            MoveFileExW(
                from_w.as_ptr(),
                to_w.as_ptr(),
                flags | MOVEFILE_WRITE_THROUGH,
            )
        };
        if moved != 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    })
}

/// Runs `attempt` until it succeeds, fails otherwise than by a file held open, or has been
/// tried [`HELD_OPEN_TRIES`] times 100 ms apart (then [`held_open`]'s error).
#[cfg(windows)]
fn while_held_open(mut attempt: impl FnMut() -> io::Result<()>) -> io::Result<()> {
    let mut tries = 0;
    loop {
        match attempt() {
            Err(e) if is_sharing(&e) => {
                tries += 1;
                if tries >= HELD_OPEN_TRIES {
                    return Err(held_open(e));
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            done => return done,
        }
    }
}

/// How often a move onto a file held open is tried, 100 ms apart.
#[cfg(windows)]
const HELD_OPEN_TRIES: u32 = 20;

/// Whether a move failed because the target is open in another program (a sharing
/// violation, or access denied: what Windows says of a file open without delete sharing).
#[cfg(windows)]
fn is_sharing(e: &io::Error) -> bool {
    use windows_sys::Win32::Foundation::{ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION};
    matches!(e.raw_os_error(), Some(c) if c == ERROR_SHARING_VIOLATION as i32 || c == ERROR_ACCESS_DENIED as i32)
}

/// The error for a file another program keeps open: what to do about it, in words.
#[cfg(windows)]
fn held_open(e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!("another program has the file open, or it is read-only; close it (or clear its read-only mark) and try again ({e})"),
    )
}
