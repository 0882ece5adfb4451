//! Reading games from files, with errors that name the file and the place. `-` names
//! standard input everywhere a file is read.
//!
//! Nothing is read whole without a limit: a move log only as far as its header says it
//! extends (docs/format.md), anything else up to [`MAX_INPUT_BYTES`]. Each file is opened
//! once.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context, Result};
use twenty48_movelog::{PackedLog, MAGIC};
use twenty48_verify::batch::read_log_bytes;

/// Exit status: the input could not be read or parsed.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status: a game failed verification, or two games differ.
pub const EXIT_FAILED: u8 = 1;

/// The most bytes read from an input that is not a move log (a move list, an ELF, a device
/// capture): 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The most worker threads `--jobs` asks for: more than any machine here has cores, few
/// enough that the system never refuses them.
pub const MAX_JOBS: u64 = 256;

/// `--jobs N`: 1 to [`MAX_JOBS`].
pub fn jobs_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=MAX_JOBS)
}

/// The worker threads for `--jobs`: as asked, else one per core (at most [`MAX_JOBS`]).
pub fn jobs(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_JOBS as usize)
    })
}

/// Whether a path names standard input (or, for an output, standard output): `-`.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Set once standard input has been read: a second `-` would find it empty.
static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

fn open(path: &Path) -> Result<(Box<dyn Read>, Option<u64>)> {
    if is_stdio(path) {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            bail!("standard input (-) can be read only once in a command");
        }
        return Ok((Box::new(std::io::stdin().lock()), None));
    }
    let file = File::open(path).with_context(|| format!("cannot read {}", shown(path)))?;
    let hint = file
        .metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    Ok((Box::new(file), hint))
}

/// How an output path is named in messages: `standard output` for `-`, else as [`shown`].
pub fn output_name(path: &Path) -> String {
    if is_stdio(path) {
        "standard output".to_string()
    } else {
        shown(path)
    }
}

/// How a path is named in messages: `standard input` for `-`, else as [`shown`].
pub fn name(path: &Path) -> String {
    if is_stdio(path) {
        "standard input".to_string()
    } else {
        shown(path)
    }
}

/// A path as text for people: as it is, except what a terminal or a reader of a report
/// would take for something else. Control characters are escaped as Rust escapes them
/// (`\n`, `\t`, `\u{1b}`: a newline in a name would forge a line of `verify`'s report, an
/// escape sequence would drive the terminal), and bytes that are not UTF-8 as `\xff` (not
/// all as one replacement character). JSON shows names as strings instead, escaped by JSON.
pub fn shown(path: &Path) -> String {
    twenty48_movelog::shown(path)
}

/// Reads a file, naming it in the error: a move log (it starts with the magic) as far as
/// its header says, anything else up to [`MAX_INPUT_BYTES`].
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let (mut file, hint) = open(path)?;
    let context = || format!("cannot read {}", name(path));
    let mut bytes = Vec::new();
    (&mut file)
        .take(MAGIC.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(context)?;
    if bytes == MAGIC {
        // A log: the header says how far to read.
        let mut rest = std::io::Cursor::new(bytes).chain(file);
        let mut log = Vec::new();
        read_log_bytes(&mut rest, &mut log).with_context(context)?;
        return Ok(log);
    }
    bytes.reserve(hint.unwrap_or(0).min(MAX_INPUT_BYTES) as usize);
    file.take(MAX_INPUT_BYTES + 1 - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .with_context(context)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "{} is larger than {} MiB, the most read from an input that is not a move log",
            name(path),
            MAX_INPUT_BYTES / (1024 * 1024)
        );
    }
    Ok(bytes)
}

/// Decodes the bytes of a move log read from `path` without unpacking its moves (they stay
/// in `bytes`), naming the file in the error.
pub fn decode_packed<'a>(path: &Path, bytes: &'a [u8]) -> Result<PackedLog<'a>> {
    // A file that is not a log at all is said so once ("x: not a twenty48 move log: ..."),
    // not "x is not a valid move log: not a twenty48 move log: ...".
    PackedLog::decode(bytes).map_err(|e| match e {
        twenty48_movelog::DecodeError::NotAMoveLog { .. } => {
            anyhow::anyhow!("{}: {e}", name(path))
        }
        e => anyhow::anyhow!("{} is not a valid move log: {e}", name(path)),
    })
}

/// The bytes of what should be a move log, read once from `path` no further than its header
/// says (a file that is not a log stops after its first bytes); [`decode_packed`] checks them.
pub fn read_log_file(path: &Path) -> Result<Vec<u8>> {
    read_log_file_within(path, u64::MAX)
}

/// [`read_log_file`] for a command that takes at most `max_moves` moves: a log whose header
/// claims more is refused as soon as its header is in, before its moves are read (a 75-byte
/// file may claim 4 billion moves, and a gigabyte file hold them).
pub fn read_log_file_of_moves(path: &Path, max_moves: u32, what: &str) -> Result<Vec<u8>> {
    let (file, _) = open(path)?;
    let mut reader = MoveCountGuard {
        inner: file,
        head: Vec::new(),
        max_moves,
    };
    let mut bytes = Vec::new();
    if let Err(e) = read_log_bytes(&mut reader, &mut bytes) {
        if let Some(claim) = e.get_ref().and_then(|e| e.downcast_ref::<TooManyMoves>()) {
            bail!(
                "{}: its header claims {} moves (the move count at byte {}), more than {what} takes (at most {max_moves})",
                name(path),
                claim.moves,
                claim.offset
            );
        }
        return Err(anyhow::Error::new(e).context(format!("cannot read {}", name(path))));
    }
    Ok(bytes)
}

/// A header's move count above what a command takes.
#[derive(Debug)]
struct TooManyMoves {
    moves: u32,
    offset: usize,
}

impl std::fmt::Display for TooManyMoves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the header claims {} moves", self.moves)
    }
}

impl std::error::Error for TooManyMoves {}

/// A reader that looks at a log's header as it passes (docs/format.md: the move count `N`
/// at `H + 4`, `H = 29 + L + R`) and fails once it claims more than `max_moves`.
struct MoveCountGuard<R> {
    inner: R,
    head: Vec<u8>,
    max_moves: u32,
}

impl<R: Read> Read for MoveCountGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.head.len() < 512 {
            let take = n.min(512 - self.head.len());
            self.head.extend_from_slice(&buf[..take]);
            let h = &self.head;
            let count_at = h.get(15).and_then(|&l| {
                h.get(28 + usize::from(l))
                    .map(|&r| 29 + usize::from(l) + usize::from(r) + 4)
            });
            if h.starts_with(&twenty48_movelog::MAGIC) {
                if let Some(b) = count_at.and_then(|at| h.get(at..at + 4)) {
                    let moves = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    if moves > self.max_moves {
                        return Err(std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            TooManyMoves {
                                moves,
                                offset: count_at.unwrap_or(0),
                            },
                        ));
                    }
                }
            }
        }
        Ok(n)
    }
}

/// [`read_log_file`], reading no more than `limit` bytes in all: a caller that takes logs
/// of up to `limit - 1` bytes tells a larger file by its length, without reading it all (a
/// header may claim 4 billion moves, a gigabyte).
pub fn read_log_file_within(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let (file, _) = open(path)?;
    let mut bytes = Vec::new();
    read_log_bytes(&mut file.take(limit), &mut bytes)
        .with_context(|| format!("cannot read {}", name(path)))?;
    Ok(bytes)
}

/// A text file's bytes as text: UTF-8, with or without the byte-order mark Windows editors
/// put first, or UTF-16 with its mark (what Windows PowerShell 5 writes for `>` and
/// `Out-File`). Line ends, CRLF or LF, are the reader's business.
///
/// # Errors
/// Anything else, naming the file and the first byte that is not text.
pub fn text(bytes: &[u8], path: &Path) -> Result<String> {
    let not_text = |at: usize, code: &str| {
        anyhow::anyhow!("{}: not text (byte {at} is not {code})", name(path))
    };
    let utf16 = |body: &[u8], unit: fn([u8; 2]) -> u16| {
        let units = body.chunks_exact(2).map(|c| unit([c[0], c[1]]));
        let mut text = String::with_capacity(body.len() / 2);
        // The byte where the next character starts, counting the mark's two.
        let mut at = 2;
        for c in char::decode_utf16(units) {
            let c = c.map_err(|_| not_text(at, "UTF-16"))?;
            at += 2 * c.len_utf16();
            text.push(c);
        }
        if body.len() % 2 == 1 {
            return Err(not_text(at, "UTF-16"));
        }
        Ok(text)
    };
    match bytes {
        [0xEF, 0xBB, 0xBF, body @ ..] => std::str::from_utf8(body)
            .map(str::to_owned)
            .map_err(|e| not_text(3 + e.valid_up_to(), "UTF-8")),
        [0xFF, 0xFE, body @ ..] => utf16(body, u16::from_le_bytes),
        [0xFE, 0xFF, body @ ..] => utf16(body, u16::from_be_bytes),
        _ => std::str::from_utf8(bytes)
            .map(str::to_owned)
            .map_err(|e| not_text(e.valid_up_to(), "UTF-8")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Windows editors and shells write: marks, UTF-16 both ways, CRLF.
    #[test]
    fn text_files_from_windows_read_as_text() {
        let path = Path::new("moves.txt");
        let read = |bytes: &[u8]| text(bytes, path).map_err(|e| e.to_string());
        assert_eq!(read(b"LURD\r\nLL\r\n").unwrap(), "LURD\r\nLL\r\n");
        assert_eq!(read(b"\xEF\xBB\xBFLU\r\n").unwrap(), "LU\r\n");
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("LU\r\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(read(&le).unwrap(), "LU\r\n");
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("DR".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(read(&be).unwrap(), "DR");
        // Where it stops being text, by byte.
        assert_eq!(
            read(b"LU\xFF").unwrap_err(),
            "moves.txt: not text (byte 2 is not UTF-8)"
        );
        assert_eq!(
            read(b"\xEF\xBB\xBFL\xC0").unwrap_err(),
            "moves.txt: not text (byte 4 is not UTF-8)"
        );
        // An odd byte at the end, and a lone surrogate, of UTF-16.
        assert_eq!(
            read(&[0xFF, 0xFE, b'L', 0, b'U']).unwrap_err(),
            "moves.txt: not text (byte 4 is not UTF-16)"
        );
        assert_eq!(
            read(&[0xFF, 0xFE, b'L', 0, 0x00, 0xD8, b'U', 0]).unwrap_err(),
            "moves.txt: not text (byte 4 is not UTF-16)"
        );
    }
}
