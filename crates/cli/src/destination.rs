//! Where commands write their files: nothing is replaced without `--force`, only regular
//! files are ever replaced, an output is never one of the command's inputs, and every file is
//! written whole or not at all. `-` is standard output.

use std::fs;
use std::io;
use std::path::Path;

use anyhow::{bail, Context, Result};
use twenty48_movelog::{write_atomic, write_new, WriteError};

/// What kind of file, in words, for an error.
fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// Whether an output file may be written: anything already at `path` is refused unless
/// `force` is given, and even then only a regular file may be replaced (never a FIFO, a
/// device, a directory, a socket, or a symbolic link, which is not followed).
pub(crate) fn check_output(path: &Path, force: bool) -> Result<()> {
    if crate::input::is_stdio(path) {
        return Ok(());
    }
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot look at {}", crate::input::shown(path))),
        Ok(m) if m.file_type().is_file() && !force => bail!(
            "{} already exists (use --force to overwrite it)",
            crate::input::shown(path)
        ),
        Ok(m) if m.file_type().is_file() => Ok(()),
        // Not a regular file: --force would not help, so it is not offered.
        Ok(m) => bail!(
            "{} is {}; --force only replaces regular files (write elsewhere)",
            crate::input::shown(path),
            kind_of(m.file_type())
        ),
    }
}

/// Whether two names are one file, or the same path; `-` names standard input.
///
/// - Unix: the same device and inode (`/dev/stdin` for `-`), looked up without opening
///   either (opening a FIFO would block).
/// - Windows: the same volume and file index, from handles opened for the question (the
///   console or pipe of standard input for `-`).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = |p: &Path| {
            fs::metadata(if crate::input::is_stdio(p) {
                Path::new("/dev/stdin")
            } else {
                p
            })
        };
        if let (Ok(x), Ok(y)) = (meta(a), meta(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    #[cfg(windows)]
    {
        let handle = |p: &Path| {
            if crate::input::is_stdio(p) {
                same_file::Handle::stdin()
            } else {
                same_file::Handle::from_path(p)
            }
        };
        if let (Ok(x), Ok(y)) = (handle(a), handle(b)) {
            return x == y;
        }
    }
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Refuses an output that names one of the command's inputs, --force or not.
pub(crate) fn check_not_input(output: &Path, inputs: &[&Path]) -> Result<()> {
    if crate::input::is_stdio(output) {
        return Ok(());
    }
    if let Some(input) = inputs.iter().find(|i| same_file(output, i)) {
        bail!(
            "the output {} is the input {}; it would be lost (write elsewhere)",
            crate::input::shown(output),
            crate::input::shown(input)
        );
    }
    Ok(())
}

/// Writes an output file atomically. Without `force` nothing is ever replaced, not even a
/// file that appeared after the command started (the finished file is linked into place,
/// which fails if the name is taken); with `force` an existing file is replaced.
///
/// `-` writes to standard output; a move log (binary) is refused on a terminal.
pub(crate) fn write_output(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    if crate::input::is_stdio(path) {
        return write_stdout(bytes);
    }
    check_output(path, force)?;
    let written = if force {
        write_atomic(path, bytes)
    } else {
        write_new(path, bytes)
    };
    match written {
        Err(WriteError::Exists { .. }) => bail!(
            "{} already exists (it appeared while this command ran; use --force to overwrite it)",
            crate::input::shown(path)
        ),
        // The error names the file.
        r => Ok(r?),
    }
}

/// Writes an output to standard output (`-o -`), refusing a binary file on a terminal.
fn write_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::{IsTerminal, Write};
    let binary = bytes.starts_with(&twenty48_movelog::MAGIC);
    if binary && io::stdout().is_terminal() {
        bail!("a move log is binary and standard output is a terminal; redirect it (-o - > game.t48) or name a file");
    }
    let mut out = crate::output::stdout();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}
