//! Reading log files: a worker's [`Reader`], and [`read_log_bytes`], the bounded read of
//! one log from any source.

use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::path::Path;

#[cfg(doc)]
use twenty48_movelog::MoveLog;
use twenty48_movelog::{PackedLog, MAGIC};

use crate::verdict::Verdict;

/// What a worker reads its files with: one buffer for all of them (reading allocates only
/// when a file is larger than any before it), and, on Unix, the directory of the last file
/// read, kept open so the next file in it is opened by its name alone (`openat`): the
/// system does not walk the whole path again for every file of a directory.
///
/// A reader can also read a run of small files ahead of their turn ([`Reader::read_ahead`]),
/// so that a worker makes its calls to the system for several files together and then
/// replays them together: each call to the system disturbs the processor's caches and
/// predictors, and the replay after it runs slower for a while.
#[derive(Debug, Default)]
pub struct Reader {
    buffer: Vec<u8>,
    #[cfg(unix)]
    directory: Option<(std::path::PathBuf, std::os::fd::OwnedFd)>,
    /// The files read ahead, in order, each with its path and its bytes (or why they could
    /// not be read): where they lie in `ahead_bytes`.
    ahead: std::collections::VecDeque<Ahead>,
    /// The paths and bytes of the files read ahead, one after the other.
    ahead_bytes: Vec<u8>,
}

/// A file read ahead: its path's bytes in [`Reader::ahead_bytes`], and its log's bytes
/// there or the error reading it gave.
#[derive(Debug)]
struct Ahead {
    path: Range<usize>,
    bytes: std::io::Result<Range<usize>>,
}

/// How many bytes of files a reader reads ahead at most (plus the last file's own, however
/// large it is): a few dozen logs of thousands of moves.
pub const AHEAD_BYTES: usize = 64 * 1024;

/// The most files a batch worker (`batch::for_each_file`) takes and reads ahead at a
/// time.
pub const AHEAD_FILES: usize = 32;

/// The read buffer a reader keeps between files (a log of 200,000 moves fits): memory stays
/// bounded by the files in flight, as a buffer grown for one large file is given back.
const KEEP_BUFFER: usize = 64 * 1024;

impl Reader {
    /// A reader with an empty buffer and no directory open.
    pub fn new() -> Reader {
        Reader::default()
    }

    /// A reader whose buffers already hold what reading ahead a run of small logs takes,
    /// or `None` when the system cannot give that memory now: a worker that starts with
    /// one does not ask for more unless a file is large.
    pub fn with_room() -> Option<Reader> {
        let mut reader = Reader::default();
        reader.ahead_bytes.try_reserve_exact(2 * AHEAD_BYTES).ok()?;
        reader.buffer.try_reserve_exact(KEEP_BUFFER).ok()?;
        reader.ahead.try_reserve_exact(AHEAD_FILES).ok()?;
        Some(reader)
    }

    /// Reads one file and decodes it, the moves left packed in the reader's buffer: the log,
    /// or the verdict on a file that cannot be read ([`Verdict::Unreadable`]) or is not a
    /// valid log ([`Verdict::Undecodable`]). One open and, for a log of up to about 16,000
    /// moves, one read ([`read_log_bytes`]): a file that is not a log, or that goes on
    /// forever (a device, a pipe), is rejected after its first bytes.
    ///
    /// When `path` is the next file read ahead ([`Reader::read_ahead`]), its bytes read then
    /// are decoded (or the error reading it gave is its verdict); files read ahead but passed
    /// over are let go.
    pub fn decode(&mut self, path: &Path) -> Result<PackedLog<'_>, Verdict> {
        let wanted = path.as_os_str().as_encoded_bytes();
        while let Some(next) = self.ahead.pop_front() {
            if &self.ahead_bytes[next.path.clone()] != wanted {
                continue;
            }
            return match next.bytes {
                Err(e) => Err(Verdict::Unreadable(e)),
                Ok(bytes) => {
                    PackedLog::decode(&self.ahead_bytes[bytes]).map_err(Verdict::Undecodable)
                }
            };
        }
        if self.buffer.capacity() > KEEP_BUFFER {
            self.buffer = Vec::new();
        }
        match self
            .open(path)
            .and_then(|mut f| read_log_bytes(&mut f, &mut self.buffer))
        {
            Err(e) => Err(Verdict::Unreadable(e)),
            Ok(()) => PackedLog::decode(&self.buffer).map_err(Verdict::Undecodable),
        }
    }

    /// Reads `paths` ahead of their turn, in order, until [`AHEAD_BYTES`] are in: each is
    /// opened, read ([`read_log_bytes`]) and closed now, and [`Reader::decode`] on it later
    /// takes the bytes read now. Files read ahead before and not decoded are let go; the
    /// files past the limit are read when their turn comes.
    pub fn read_ahead(&mut self, paths: &[impl AsRef<Path>]) {
        self.ahead.clear();
        if self.ahead_bytes.capacity() > 2 * AHEAD_BYTES {
            self.ahead_bytes = Vec::new();
        }
        self.ahead_bytes.clear();
        for path in paths {
            if self.ahead_bytes.len() >= AHEAD_BYTES {
                break;
            }
            let path = path.as_ref();
            let start = self.ahead_bytes.len();
            self.ahead_bytes
                .extend_from_slice(path.as_os_str().as_encoded_bytes());
            let end = self.ahead_bytes.len();
            let bytes = self.open(path).and_then(|mut f| {
                append_log_bytes(&mut f, &mut self.ahead_bytes)
                    .map(|()| end..self.ahead_bytes.len())
            });
            if bytes.is_err() {
                self.ahead_bytes.truncate(end);
            }
            self.ahead.push_back(Ahead {
                path: start..end,
                bytes,
            });
        }
    }

    /// Opens `path` for reading: by its name in its directory, kept open, when the path is
    /// that directory and a name (on Unix); else by the whole path. Either way the same file,
    /// or the same error.
    #[cfg(unix)]
    fn open(&mut self, path: &Path) -> std::io::Result<File> {
        use rustix::fs::{Mode, OFlags};
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        // Only a path that is exactly a directory, a slash and a name (not `.` or `..`, no
        // trailing slash) is opened by name. (Split at its last slash: asking the path for
        // its parent and its name parses every component, a tenth of reading a small log.)
        let whole = path.as_os_str().as_encoded_bytes();
        let Some(slash) = whole.iter().rposition(|&b| b == b'/') else {
            return File::open(path);
        };
        let (parent, name) = (&whole[..slash], &whole[slash + 1..]);
        if parent.is_empty() || matches!(name, b"" | b"." | b"..") {
            return File::open(path);
        }
        if self
            .directory
            .as_ref()
            .is_none_or(|(d, _)| d.as_os_str().as_encoded_bytes() != parent)
        {
            self.directory = None;
            let parent = Path::new(OsStr::from_bytes(parent));
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            match rustix::fs::open(parent, flags, Mode::empty()) {
                Ok(fd) => self.directory = Some((parent.to_path_buf(), fd)),
                // The whole path says what is wrong with it.
                Err(_) => return File::open(path),
            }
        }
        let name = OsStr::from_bytes(name);
        let (_, directory) = self.directory.as_ref().expect("opened above");
        let fd = rustix::fs::openat(
            directory,
            name,
            OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(File::from(fd))
    }

    #[cfg(not(unix))]
    fn open(&mut self, path: &Path) -> std::io::Result<File> {
        File::open(path)
    }
}

/// How many bytes the first read of a source asks for, before its header is known (a log of
/// up to about 16,000 moves comes whole in that one read; the buffer is zeroed this far for
/// each read, so it is not larger).
const FIRST_READ: u64 = 4 * 1024;

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
/// source that is not a log stops after its first read (4 KiB at most), and a short one
/// where it ends: in both cases [`MoveLog::decode`] on `out` names the problem.
///
/// Few calls to the system: no `fstat` (the header sizes the reads), one read for a log of up
/// to about 16,000 moves. A read that returns less than it asked for, once the whole log is
/// in, is taken as the end of the source (a regular file returns less only at its end), so
/// a small log costs one read; a source that gives more after such a short read (a pipe
/// written in pieces) is not read on. Bytes after the log in the same read are counted.
///
/// # Errors
/// The read's own errors, and [`std::io::ErrorKind::InvalidData`] when more than
/// [`MAX_TRAILING_BYTES`] follow the log.
pub fn read_log_bytes(file: &mut impl Read, out: &mut Vec<u8>) -> std::io::Result<()> {
    out.clear();
    append_log_bytes(file, out)
}

/// [`read_log_bytes`] after the bytes already in `out`, which stay: the log is appended
/// (and on an error, some of its bytes may be).
fn append_log_bytes(file: &mut impl Read, out: &mut Vec<u8>) -> std::io::Result<()> {
    // `out` may hold zeros past the bytes read (`filled`): a read into them never fills
    // them again, so a source that gives little at a time (a pipe, 64 KiB a read) costs
    // time in proportion to its bytes, not to their square.
    let mut filled = out.len();
    let result = append_into(file, out, &mut filled);
    out.truncate(filled);
    result
}

/// [`append_log_bytes`]' reads: the bytes read are `out[..filled]`.
fn append_into(file: &mut impl Read, out: &mut Vec<u8>, filled: &mut usize) -> std::io::Result<()> {
    let base = *filled;
    // How many bytes of the source may be in `out`: at first one read's worth, then (once
    // the header is in) the log's end plus the trailing bytes counted, plus one to tell
    // there are more.
    let mut limit = FIRST_READ;
    let mut end = None;
    loop {
        let have = (*filled - base) as u64;
        if have >= limit {
            break;
        }
        // Grow by doubling, never past the limit: a 75-byte file may claim 4 billion moves,
        // and the buffer only grows as bytes actually arrive.
        let want = (limit - have).min(have.max(FIRST_READ));
        let got = read_once(file, out, filled, want as usize)?;
        if got == 0 {
            return Ok(());
        }
        // The header is looked at as soon as it is in, so a small log ends with this read.
        if end.is_none() {
            match log_end(&out[base..*filled]) {
                Some(Err(())) => return Ok(()),
                Some(Ok(e)) => {
                    end = Some(e);
                    limit = e.saturating_add(MAX_TRAILING_BYTES + 1);
                }
                None => {}
            }
        }
        if end.is_some_and(|e| (*filled - base) as u64 >= e) && (got as u64) < want {
            // The whole log is in and the source gave less than asked: its end.
            return Ok(());
        }
    }
    Err(too_many_trailing(end.unwrap_or(0)))
}

/// The error of a log at `end` followed by more than [`MAX_TRAILING_BYTES`].
fn too_many_trailing(end: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "more than {MAX_TRAILING_BYTES} unexpected trailing bytes after the end of the move log at byte {end}"
        ),
    )
}

/// [`read_log_bytes`]' rule for bytes already in memory (a file the web page was given):
/// the error it gives for them, when more than [`MAX_TRAILING_BYTES`] follow the end the
/// log's header gives; `Ok` otherwise (the decoder then names any other problem).
///
/// # Errors
/// [`std::io::ErrorKind::InvalidData`], in the words [`read_log_bytes`] uses.
pub fn check_log_bytes(bytes: &[u8]) -> std::io::Result<()> {
    match log_end(bytes) {
        Some(Ok(end)) if bytes.len() as u64 > end.saturating_add(MAX_TRAILING_BYTES) => {
            Err(too_many_trailing(end))
        }
        _ => Ok(()),
    }
}

/// One read of at most `want` bytes into `out` after its first `filled` (retried when
/// interrupted), `filled` moved past them; the number read, 0 at the end of the source.
/// `out` grows to `filled + want` where it is shorter, exactly (no more memory than the
/// reads ask for), and only the bytes it grows by are zeroed.
fn read_once(
    file: &mut impl Read,
    out: &mut Vec<u8>,
    filled: &mut usize,
    want: usize,
) -> std::io::Result<usize> {
    let need = *filled + want;
    if out.len() < need {
        #[cfg(test)]
        tests::ZEROED.with(|z| z.set(z.get() + need - out.len()));
        out.reserve_exact(need - out.len());
        out.resize(need, 0);
    }
    let got = loop {
        match file.read(&mut out[*filled..need]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => break r,
        }
    }?;
    *filled += got;
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use twenty48_engine::{Direction, Rules};
    use twenty48_movelog::MoveLog;

    /// A source that hands out at most what is asked, counting the calls.
    struct Counted<'a> {
        bytes: &'a [u8],
        calls: usize,
    }

    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.calls += 1;
            let n = buf.len().min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn log_bytes(moves: usize) -> Vec<u8> {
        let dirs = [
            Direction::Left,
            Direction::Up,
            Direction::Right,
            Direction::Down,
        ];
        let moves: Vec<_> = (0..moves).map(|i| dirs[i % 4]).collect();
        // Moves past the game's end are not checked by encoding.
        MoveLog::from_moves(Rules::CLASSIC, 1, &moves, 16)
            .map(|log| log.encode())
            .unwrap_or_default()
    }

    /// A random game's log on the 8x8 board (games that last), `moves` long, a checkpoint
    /// every `k` moves.
    fn game_bytes(moves: u32, k: u32) -> Vec<u8> {
        let rules = Rules {
            size: 8,
            win: None,
            ..Rules::CLASSIC
        };
        let mut game = twenty48_engine::Game::new(rules, 3).unwrap();
        let mut bot = twenty48_bot::Bot::random(3);
        let mut played = Vec::new();
        while game.move_count() < moves {
            let d = bot.choose(&game).unwrap();
            game.play(d).unwrap();
            played.push(d);
        }
        MoveLog::from_moves(rules, 3, &played, k).unwrap().encode()
    }

    thread_local! {
        /// Bytes of buffer zeroed by this thread's reads.
        pub(super) static ZEROED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// A source that gives at most `chunk` bytes a read, as a pipe does.
    struct Chunked<'a> {
        bytes: &'a [u8],
        chunk: usize,
    }

    impl Read for Chunked<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.bytes.len()).min(self.chunk);
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// A long log from a source that gives a little at a time (a pipe) zeroes each byte of
    /// its buffer once: work in proportion to the log, not to its square (each read zeroed
    /// the whole buffer again, so a 1 GB log through a pipe took minutes).
    #[test]
    fn a_log_read_a_little_at_a_time_zeroes_its_buffer_once() {
        // A header claiming 4,000,000 moves (no checkpoints), then that many moves' bytes:
        // the reader sizes its reads by the header alone.
        let mut bytes = log_bytes(6);
        let l = usize::from(bytes[15]);
        let h = 29 + l + usize::from(bytes[28 + l]);
        bytes[h..h + 4].copy_from_slice(&0u32.to_le_bytes());
        bytes[h + 4..h + 8].copy_from_slice(&4_000_000u32.to_le_bytes());
        let Some(Ok(end)) = log_end(&bytes) else {
            panic!("the header gives the log's end")
        };
        bytes.resize(end as usize, 0x1B);
        assert!(bytes.len() > 1_000_000);
        let mut source = Chunked {
            bytes: &bytes,
            chunk: 4096,
        };
        let mut out = Vec::new();
        ZEROED.with(|z| z.set(0));
        read_log_bytes(&mut source, &mut out).unwrap();
        assert_eq!(out, bytes);
        let zeroed = ZEROED.with(|z| z.get());
        assert!(
            zeroed <= bytes.len() + MAX_TRAILING_BYTES as usize + 1,
            "{zeroed} bytes zeroed for a log of {}",
            bytes.len()
        );
    }

    /// The header is looked at in the bytes of the first read: a small log takes one call.
    #[test]
    fn a_small_log_is_read_in_one_call() {
        let bytes = log_bytes(6);
        assert!(!bytes.is_empty());
        let mut source = Counted {
            bytes: &bytes,
            calls: 0,
        };
        let mut out = Vec::new();
        read_log_bytes(&mut source, &mut out).unwrap();
        assert_eq!(out, bytes);
        assert_eq!(source.calls, 1);
        // A log longer than the first read: the rest in one more call, sized by the header.
        let mut big = bytes.clone();
        big.resize(FIRST_READ as usize + 100, 0);
        let mut source = Counted {
            bytes: &big,
            calls: 0,
        };
        read_log_bytes(&mut source, &mut out).unwrap();
        assert_eq!(out.len(), big.len());
    }

    /// A log that fills most of the first read still comes in that one read.
    #[test]
    fn a_log_of_thousands_of_moves_is_read_in_one_call() {
        let bytes = game_bytes(12_000, 0);
        assert!(bytes.len() > 3000 && bytes.len() as u64 <= FIRST_READ);
        let mut source = Counted {
            bytes: &bytes,
            calls: 0,
        };
        let mut out = Vec::new();
        read_log_bytes(&mut source, &mut out).unwrap();
        assert_eq!((out.len(), source.calls), (bytes.len(), 1));
    }

    /// The log's end, as its header gives it (opening, checkpoints, a move count that is not
    /// a multiple of 4), is where the trailing bytes start to count: up to
    /// MAX_TRAILING_BYTES are read, one more is an error that names the end, and nothing
    /// past that one is read.
    #[test]
    fn trailing_bytes_are_counted_from_the_end_the_header_gives() {
        for moves in [6, 41, 130] {
            let bytes = game_bytes(moves, 16);
            let mut out = Vec::new();
            let mut source = bytes.clone();
            source.resize(bytes.len() + MAX_TRAILING_BYTES as usize, 0);
            read_log_bytes(&mut &source[..], &mut out).unwrap();
            assert_eq!(out.len(), source.len());
            // Far more trailing bytes: read no further than the one too many.
            source.resize(bytes.len() + 3 * MAX_TRAILING_BYTES as usize, 0);
            let err = read_log_bytes(&mut &source[..], &mut out).unwrap_err();
            assert_eq!(
                out.len() as u64,
                bytes.len() as u64 + MAX_TRAILING_BYTES + 1
            );
            assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
            assert_eq!(
                err.to_string(),
                format!(
                    "more than {MAX_TRAILING_BYTES} unexpected trailing bytes after the end of the move log at byte {}",
                    bytes.len()
                )
            );
        }
    }

    /// Issue 46: bytes in memory get the error `read_log_bytes` gives for them, and only
    /// past the same limit.
    #[test]
    fn bytes_in_memory_meet_the_same_trailing_rule() {
        for moves in [6, 41, 130] {
            let bytes = game_bytes(moves, 16);
            let mut source = bytes.clone();
            source.resize(bytes.len() + MAX_TRAILING_BYTES as usize, 0);
            check_log_bytes(&source).unwrap();
            for extra in [1, 4 * MAX_TRAILING_BYTES as usize] {
                source.resize(bytes.len() + MAX_TRAILING_BYTES as usize + extra, 0);
                let read = read_log_bytes(&mut &source[..], &mut Vec::new()).unwrap_err();
                let checked = check_log_bytes(&source).unwrap_err();
                assert_eq!(
                    (checked.kind(), checked.to_string()),
                    (read.kind(), read.to_string())
                );
            }
        }
        // Not a log, or too short to tell: for the decoder to name.
        check_log_bytes(&[0; 5 << 20]).unwrap();
        check_log_bytes(b"T48").unwrap();
    }

    /// A source that fails with each of `errors` in turn, then reads from `bytes`.
    struct Failing<'a> {
        errors: Vec<std::io::ErrorKind>,
        bytes: &'a [u8],
    }

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if !self.errors.is_empty() {
                return Err(self.errors.remove(0).into());
            }
            self.bytes.read(buf)
        }
    }

    /// An interrupted read is tried again; any other error ends the read with that error.
    #[test]
    fn interrupted_reads_are_retried_and_other_errors_returned() {
        use std::io::ErrorKind::{Interrupted, PermissionDenied};
        let bytes = log_bytes(6);
        let mut out = Vec::new();
        let mut source = Failing {
            errors: vec![Interrupted, Interrupted],
            bytes: &bytes,
        };
        read_log_bytes(&mut source, &mut out).unwrap();
        assert_eq!(out, bytes);
        let mut source = Failing {
            errors: vec![PermissionDenied],
            bytes: &bytes,
        };
        let err = read_log_bytes(&mut source, &mut out).unwrap_err();
        assert_eq!(err.kind(), PermissionDenied);
        assert!(out.is_empty());
    }

    /// Opening by name in the directory kept open finds the same files, and the same errors,
    /// as opening by the whole path.
    #[test]
    fn a_reader_opens_what_the_path_names() {
        let root = std::env::temp_dir().join(format!("twenty48-reader-{}", std::process::id()));
        let (a, b) = (root.join("a"), root.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let (one, two) = (log_bytes(5), log_bytes(9));
        std::fs::write(a.join("x.t48"), &one).unwrap();
        std::fs::write(b.join("x.t48"), &two).unwrap();
        let mut reader = Reader::new();
        for (path, expected) in [
            (a.join("x.t48"), &one),
            (b.join("x.t48"), &two),
            (a.join("x.t48"), &one),
            (a.join("../b/x.t48"), &two),
            (a.join("../b/./x.t48"), &two),
            (PathBuf::from(format!("{}//x.t48", a.display())), &one),
            (PathBuf::from(format!("{}/./../a/x.t48", b.display())), &one),
        ] {
            let log = reader.decode(&path).unwrap();
            assert_eq!(
                log.move_count() as usize,
                if *expected == one { 5 } else { 9 }
            );
        }
        let mut unopenable = vec![a.join("missing.t48"), root.join("none/x.t48")];
        // A file named as a directory: refused on Unix; Windows drops a trailing `/` and `/.`
        // from a path, so there these name the file itself, which the reader opens as
        // File::open does.
        if cfg!(unix) {
            unopenable.extend([a.join("x.t48/"), a.join("x.t48/.")]);
        }
        for path in unopenable {
            let Err(Verdict::Unreadable(e)) = reader.decode(&path) else {
                panic!("{} read", path.display());
            };
            let plain = File::open(&path).unwrap_err();
            assert_eq!(e.to_string(), plain.to_string(), "{}", path.display());
        }
        // A directory, named with a trailing slash or as `.` or `..` in one: it opens, and
        // reading it fails, as by the whole path.
        for path in [
            PathBuf::from(format!("{}/", a.display())),
            a.join("."),
            b.join(".."),
        ] {
            let Err(Verdict::Unreadable(e)) = reader.decode(&path) else {
                panic!("{} read", path.display());
            };
            let mut bytes = Vec::new();
            // (Windows refuses to open a directory as a file; Unix opens it and fails the read.)
            let plain = File::open(&path)
                .and_then(|mut f| read_log_bytes(&mut f, &mut bytes))
                .unwrap_err();
            assert_eq!(e.to_string(), plain.to_string(), "{}", path.display());
        }
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// A log appended after bytes already there (as files read ahead are) is read whole from
    /// a source that gives it in small pieces (a pipe written a little at a time): the bytes
    /// before it do not count towards it.
    #[test]
    fn a_log_appended_after_other_bytes_is_read_whole_from_small_pieces() {
        /// Hands out at most 100 bytes a call.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.0.len()).min(100);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let log = game_bytes(3000, 16);
        assert!(log.len() > 700);
        let mut out = vec![7u8; 10_000];
        append_log_bytes(&mut Trickle(&log), &mut out).unwrap();
        assert_eq!(out.len(), 10_000 + log.len());
        assert_eq!(&out[10_000..], &log[..]);
    }

    /// What a reader gives for each path: the log's move count, or the verdict's kind with
    /// the error's text.
    fn outcome(reader: &mut Reader, path: &Path) -> String {
        match reader.decode(path) {
            Ok(log) => format!("{} moves", log.move_count()),
            Err(Verdict::Unreadable(e)) => format!("unreadable: {e}"),
            Err(Verdict::Undecodable(e)) => format!("undecodable: {e}"),
            Err(v) => format!("{v:?}"),
        }
    }

    /// Files read ahead give what reading them in turn gives (logs, a missing file, a
    /// directory, a file that is not a log, a log with bytes after it), in order, and also
    /// when some are passed over or a file that was not read ahead is asked for; the bytes
    /// read ahead stop once AHEAD_BYTES are in.
    #[test]
    fn files_read_ahead_give_what_reading_them_in_turn_gives() {
        let root = std::env::temp_dir().join(format!("twenty48-ahead-{}", std::process::id()));
        std::fs::create_dir_all(root.join("dir.t48")).unwrap();
        let mut trailing = log_bytes(7);
        trailing.extend_from_slice(b"after");
        let big = game_bytes(200_000, 0);
        assert!(big.len() > AHEAD_BYTES / 2);
        for (name, bytes) in [
            ("a.t48", log_bytes(5)),
            ("b.t48", b"not a log".to_vec()),
            ("c.t48", trailing),
            ("d.t48", log_bytes(11)),
            ("big1.t48", big.clone()),
            ("big2.t48", big.clone()),
            ("big3.t48", big),
        ] {
            std::fs::write(root.join(name), bytes).unwrap();
        }
        let paths: Vec<_> = [
            "a.t48",
            "missing.t48",
            "b.t48",
            "dir.t48",
            "c.t48",
            "d.t48",
            "big1.t48",
            "big2.t48",
            "big3.t48",
        ]
        .map(|name| root.join(name))
        .to_vec();
        let in_turn: Vec<String> = paths
            .iter()
            .map(|p| outcome(&mut Reader::new(), p))
            .collect();
        assert_eq!(in_turn[0], "5 moves");
        assert!(in_turn[1].starts_with("unreadable"), "{}", in_turn[1]);
        assert!(in_turn[2].starts_with("undecodable"), "{}", in_turn[2]);
        assert!(in_turn[3].starts_with("unreadable"), "{}", in_turn[3]);
        assert!(in_turn[4].starts_with("undecodable"), "{}", in_turn[4]);
        assert_eq!(in_turn[8], "200000 moves");

        let mut reader = Reader::new();
        reader.read_ahead(&paths);
        // Two large files pass the limit: the third is not read ahead.
        assert_eq!(reader.ahead.len(), 8);
        assert!(reader.ahead_bytes.len() >= AHEAD_BYTES);
        let ahead: Vec<String> = paths.iter().map(|p| outcome(&mut reader, p)).collect();
        assert_eq!(ahead, in_turn);
        assert!(reader.ahead.is_empty());

        // Passed over: files 1-3 are let go, and file 2 asked for afterwards is read then.
        reader.read_ahead(&paths[..6]);
        assert_eq!(outcome(&mut reader, &paths[0]), in_turn[0]);
        assert_eq!(outcome(&mut reader, &paths[4]), in_turn[4]);
        assert_eq!(reader.ahead.len(), 1);
        assert_eq!(outcome(&mut reader, &paths[2]), in_turn[2]);
        assert!(reader.ahead.is_empty());
        assert_eq!(outcome(&mut reader, &paths[5]), in_turn[5]);
        // A new run lets the last one go.
        reader.read_ahead(&paths[..2]);
        reader.read_ahead(&paths[5..6]);
        assert_eq!(reader.ahead.len(), 1);
        assert_eq!(outcome(&mut reader, &paths[0]), in_turn[0]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
