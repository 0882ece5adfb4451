//! The crash-safe journal of a game being played: a header, then one byte per move, each
//! written and synced before the next key is read.
//!
//! Layout (all of it append-only):
//!
//! | bytes | what |
//! | --- | --- |
//! | 4 | magic `T48J` |
//! | 1 | journal version, 1 |
//! | 4 | `n`, little-endian: length of the log that follows |
//! | n | a `.t48` move log with no moves: rules, seed, checkpoint interval, and whether hints are shown (docs/format.md) |
//! | 1 each | the moves, as direction codes 0 up, 1 right, 2 down, 3 left |

use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use twenty48_engine::{Direction, Rules};
use twenty48_movelog::{DecodeError, MoveLog, Recorder};

/// The first bytes of a journal.
pub const JOURNAL_MAGIC: [u8; 4] = *b"T48J";
const VERSION: u8 = 1;
const PREFIX: usize = 9;

/// The journal kept beside `target` while a game is played: `game.t48.journal`.
pub fn journal_path(target: &Path) -> PathBuf {
    let mut name = OsString::from(target.as_os_str());
    name.push(".journal");
    PathBuf::from(name)
}

/// Why a journal could not be written or read.
#[derive(Debug)]
#[non_exhaustive]
pub enum JournalError {
    /// Creating, writing, syncing or removing failed.
    Io {
        /// The journal.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The bytes do not start like a journal.
    NotAJournal {
        /// The journal.
        path: PathBuf,
    },
    /// The journal ends inside its header.
    Cut {
        /// The journal.
        path: PathBuf,
        /// Where the cut field starts, in the journal.
        offset: usize,
        /// The field.
        what: &'static str,
        /// Bytes the field needs.
        needed: usize,
        /// Bytes the journal has from `offset`.
        available: usize,
    },
    /// A journal of another version (a newer build's).
    Version {
        /// The journal.
        path: PathBuf,
        /// The version it states.
        version: u8,
    },
    /// The header's move log holds moves: a journal's header holds none (its moves follow
    /// it, a byte each), so these are not a game this journal recorded.
    HeaderMoves {
        /// The journal.
        path: PathBuf,
        /// How many.
        moves: u32,
    },
    /// The header's move log cannot be decoded.
    Header {
        /// The journal.
        path: PathBuf,
        /// Why.
        source: DecodeError,
    },
    /// Another process holds the journal's lock: its game is being played right now.
    InUse {
        /// The journal.
        path: PathBuf,
    },
    /// A move was to be appended to a damaged journal, whose moves after the damage are
    /// lost: its game can only be saved, as a partial log ([`Recovered`]).
    Damaged {
        /// The journal.
        path: PathBuf,
    },
    /// The rules in the header cannot start a game.
    Rules {
        /// The journal.
        path: PathBuf,
        /// Why.
        source: twenty48_movelog::RecordError,
    },
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JournalError::Io { path, source } => {
                write!(f, "journal {}: {source}", path.display())
            }
            JournalError::NotAJournal { path } => write!(
                f,
                "{} is not a twenty48 journal (it does not start with T48J version 1)",
                path.display()
            ),
            JournalError::Cut {
                path,
                offset,
                what,
                needed,
                available,
            } => write!(
                f,
                "journal {} is cut short: its {what} at byte {offset} needs {needed} bytes, {available} are there",
                path.display()
            ),
            JournalError::Version { path, version } => write!(
                f,
                "{} is a journal of version {version}; this build reads version {VERSION}",
                path.display()
            ),
            JournalError::HeaderMoves { path, moves } => write!(
                f,
                "the header of journal {} holds {moves} moves; a journal's header holds none (bytes {PREFIX} on are its log)",
                path.display()
            ),
            JournalError::Header { path, source } => write!(
                f,
                "the header of journal {} is damaged (its log starts at byte {PREFIX}; offsets are within that log): {source}",
                path.display()
            ),
            JournalError::Rules { path, source } => {
                write!(f, "journal {}: {source}", path.display())
            }
            JournalError::Damaged { path } => write!(
                f,
                "journal {} is damaged: its game can be saved as a partial log, not played on",
                path.display()
            ),
            JournalError::InUse { path } => write!(
                f,
                "{} is in use: its game is being played in another twenty48 session (finish or quit that one first)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for JournalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JournalError::Io { source, .. } => Some(source),
            JournalError::Header { source, .. } => Some(source),
            JournalError::Rules { source, .. } => Some(source),
            JournalError::NotAJournal { .. }
            | JournalError::Version { .. }
            | JournalError::HeaderMoves { .. }
            | JournalError::Cut { .. }
            | JournalError::InUse { .. }
            | JournalError::Damaged { .. } => None,
        }
    }
}

/// Takes the exclusive lock on an open journal without waiting (`flock`; released when the
/// file is closed, also when the process dies). `Ok(false)`: another process holds it.
#[cfg(unix)]
fn try_lock(file: &File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: flock on a descriptor this File owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) => return Ok(false),
            _ => return Err(e),
        }
    }
}

/// Takes the exclusive lock on an open journal without waiting (`LockFileEx` on one byte far
/// past any journal's end, so that other programs can still read the moves; released when
/// the handle is closed, also when the process dies). `Ok(false)`: another process holds it.
#[cfg(windows)]
fn try_lock(file: &File) -> io::Result<bool> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Foundation::{ERROR_LOCK_VIOLATION, HANDLE};
    use windows_sys::Win32::Storage::FileSystem::{
        LockFileEx, LOCKFILE_EXCLUSIVE_LOCK, LOCKFILE_FAIL_IMMEDIATELY,
    };
    use windows_sys::Win32::System::IO::OVERLAPPED;
    // SAFETY: OVERLAPPED is plain data; all zero but the offset of the byte locked.
    let mut at: OVERLAPPED = unsafe { std::mem::zeroed() };
    at.Anonymous.Anonymous.Offset = 0xFFFF_FFFE;
    at.Anonymous.Anonymous.OffsetHigh = 0x7FFF_FFFF;
    let flags = LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY;
    // SAFETY: a handle this File owns, and an OVERLAPPED that lives through the call.
    let ok = unsafe { LockFileEx(file.as_raw_handle() as HANDLE, flags, 0, 1, 0, &mut at) };
    if ok != 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        Some(code) if code == ERROR_LOCK_VIOLATION as i32 => Ok(false),
        _ => Err(e),
    }
}

/// Takes the journal's exclusive lock: [`JournalError::InUse`] if another session holds it.
fn lock(file: &File, path: &Path) -> Result<(), JournalError> {
    match try_lock(file) {
        Ok(true) => Ok(()),
        Ok(false) => Err(JournalError::InUse {
            path: path.to_path_buf(),
        }),
        Err(source) => Err(JournalError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// A journal open for appending moves. It holds an exclusive lock on the file while it is
/// open, so one game is never played in two sessions at once.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
    /// Whether the journal holds bytes after its last good move: then nothing is appended.
    damaged: bool,
}

fn sync_dir(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl Journal {
    /// Creates a new journal at `path` (refusing to overwrite one) and makes its header
    /// durable: file and directory are synced before this returns.
    pub fn create(
        path: &Path,
        rules: Rules,
        seed: u64,
        checkpoint_interval: u32,
    ) -> Result<Journal, JournalError> {
        Journal::create_with_hints(path, rules, seed, checkpoint_interval, false)
    }

    /// [`Journal::create`] for a game whose player is shown hints (`hinted`): the header's
    /// log carries the flag (format version 2), so a recovered game keeps it.
    pub fn create_with_hints(
        path: &Path,
        rules: Rules,
        seed: u64,
        checkpoint_interval: u32,
        hinted: bool,
    ) -> Result<Journal, JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut header =
            MoveLog::from_moves(rules, seed, &[], checkpoint_interval).map_err(|source| {
                JournalError::Rules {
                    path: path.to_path_buf(),
                    source,
                }
            })?;
        header.hinted = hinted;
        let header = header.encode();
        let mut bytes = Vec::with_capacity(PREFIX + header.len());
        bytes.extend_from_slice(&JOURNAL_MAGIC);
        bytes.push(VERSION);
        bytes.extend_from_slice(&(header.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&header);
        let mut file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)
            .map_err(io)?;
        lock(&file, path)?;
        file.write_all(&bytes).map_err(io)?;
        file.sync_all().map_err(io)?;
        sync_dir(path).map_err(io)?;
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            damaged: false,
        })
    }

    /// Reopens an existing journal to go on playing its game, taking its lock first
    /// ([`JournalError::InUse`] if another session holds it; the journal is then not
    /// touched). A damaged journal (bytes after the last good move, [`Recovered::damage`])
    /// is left as it is, and its game cannot be played on: the moves after the damage are
    /// lost, so [`Journal::append`] refuses ([`JournalError::Damaged`]) and the game can
    /// only be saved, as the partial log [`Recovered::log`] is. The damage stays in the
    /// file until the journal is removed, so a session that dies before then leaves it to
    /// be found again.
    pub fn resume(path: &Path) -> Result<(Journal, Recovered), JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        lock(&file, path)?;
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
        let recovered = recover(path, &bytes)?;
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
                damaged: recovered.damage.is_some(),
            },
            recovered,
        ))
    }

    /// Appends one move and syncs it to disk before returning; refused on a damaged
    /// journal ([`Journal::resume`]).
    pub fn append(&mut self, dir: Direction) -> Result<(), JournalError> {
        if self.damaged {
            return Err(JournalError::Damaged {
                path: self.path.clone(),
            });
        }
        let io = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        self.file.write_all(&[dir.code()]).map_err(io)?;
        self.file.sync_data().map_err(io)
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Deletes the journal (once its game is safely written elsewhere).
    pub fn remove(self) -> Result<(), JournalError> {
        remove_locked(self.path, self.file)
    }
}

/// Removes a journal whose lock `file` holds, then lets the lock go: no other session can
/// take the lock of a journal that is about to go.
fn remove_locked(path: PathBuf, file: File) -> Result<(), JournalError> {
    fs::remove_file(&path).map_err(|source| JournalError::Io {
        path: path.clone(),
        source,
    })?;
    drop(file);
    let _ = sync_dir(&path);
    Ok(())
}

/// A journal opened to recover its game (`twenty48 recover`): read once, under its exclusive
/// lock, which is held until this is dropped or [removed](LockedJournal::remove). A journal
/// whose game a running session is playing is refused ([`JournalError::InUse`]) and left as
/// it is.
#[derive(Debug)]
pub struct LockedJournal {
    path: PathBuf,
    file: File,
}

impl LockedJournal {
    /// Opens the journal at `path` for reading, takes its lock without waiting, and reads
    /// the game it holds ([`recover`]). Nothing is written to it.
    pub fn open(path: &Path) -> Result<(LockedJournal, Recovered), JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::open(path).map_err(io)?;
        lock(&file, path)?;
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
        let recovered = recover(path, &bytes)?;
        let journal = LockedJournal {
            path: path.to_path_buf(),
            file,
        };
        Ok((journal, recovered))
    }

    /// Deletes the journal (once its game is safely written elsewhere), still under its lock.
    pub fn remove(self) -> Result<(), JournalError> {
        remove_locked(self.path, self.file)
    }
}

/// What a journal held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovered {
    /// The game as a move log of the moves recovered: complete when the journal is whole,
    /// partial (`complete` false) when it is damaged, since moves after the damage are lost.
    pub log: MoveLog,
    /// Bytes at the end that were not good moves, if any.
    pub damage: Option<Damage>,
}

/// Bytes after the last good move of a journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// Where the first bad byte is.
    pub offset: usize,
    /// How many bytes were left out from there.
    pub dropped: usize,
    /// Why the first one is not a move, in words.
    pub reason: String,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (bytes, were) = if self.dropped == 1 {
            ("byte", "was")
        } else {
            ("bytes", "were")
        };
        write!(
            f,
            "{} {bytes} from offset {} {were} left out ({})",
            self.dropped, self.offset, self.reason
        )
    }
}

/// Reads a journal's bytes (`path` only names it in errors): the moves up to the first byte
/// that is not a legal move make the recovered game; anything after that is reported as
/// damage, not an error.
///
/// ```
/// use twenty48_engine::{Direction, Rules};
/// use twenty48_tui::{journal_path, recover, Journal};
///
/// let dir = std::env::temp_dir().join(format!("t48-journal-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = journal_path(&dir.join("game.t48"));
/// let mut journal = Journal::create(&path, Rules::CLASSIC, 5, 256).unwrap();
/// let mut game = twenty48_engine::Game::new(Rules::CLASSIC, 5).unwrap();
/// for dir in [Direction::Left, Direction::Up, Direction::Right] {
///     if game.play(dir).unwrap().moved {
///         journal.append(dir).unwrap();
///     }
/// }
/// let recovered = recover(&path, &std::fs::read(&path).unwrap()).unwrap();
/// assert_eq!(recovered.log.claims.move_count, game.move_count());
/// assert_eq!(recovered.log.claims.score, game.score());
/// assert!(recovered.damage.is_none() && recovered.log.complete);
/// journal.remove().unwrap();
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn recover(path: &Path, bytes: &[u8]) -> Result<Recovered, JournalError> {
    if bytes.len() < 5 || bytes[..4] != JOURNAL_MAGIC {
        return Err(JournalError::NotAJournal {
            path: path.to_path_buf(),
        });
    }
    if bytes[4] != VERSION {
        return Err(JournalError::Version {
            path: path.to_path_buf(),
            version: bytes[4],
        });
    }
    if bytes.len() < PREFIX {
        return Err(JournalError::Cut {
            path: path.to_path_buf(),
            offset: 5,
            what: "header's length",
            needed: 4,
            available: bytes.len() - 5,
        });
    }
    let n = u32::from_le_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]) as usize;
    let header_end = PREFIX.saturating_add(n);
    let header = bytes
        .get(PREFIX..header_end)
        .ok_or_else(|| JournalError::Cut {
            path: path.to_path_buf(),
            offset: PREFIX,
            what: "header's log",
            needed: n,
            available: bytes.len() - PREFIX,
        })?;
    let start = MoveLog::decode(header).map_err(|source| JournalError::Header {
        path: path.to_path_buf(),
        source,
    })?;
    if !start.moves.is_empty() {
        return Err(JournalError::HeaderMoves {
            path: path.to_path_buf(),
            moves: start.moves.len() as u32,
        });
    }
    let mut recorder = Recorder::new(start.rules, start.seed)
        .map_err(|source| JournalError::Rules {
            path: path.to_path_buf(),
            source,
        })?
        .with_checkpoint_interval(start.checkpoint_interval);
    let mut damage = None;
    for (i, &byte) in bytes[header_end..].iter().enumerate() {
        let offset = header_end + i;
        let reason = match Direction::from_code(byte) {
            None => Some(format!("{byte:#04x} is not a move code")),
            Some(dir) => match recorder.play(dir) {
                Err(e) => Some(e.to_string()),
                Ok(o) if !o.moved => Some(format!("{} does not change the board", dir.name())),
                Ok(_) => None,
            },
        };
        if let Some(reason) = reason {
            damage = Some(Damage {
                offset,
                dropped: bytes.len() - offset,
                reason,
            });
            break;
        }
    }
    let mut log = recorder.finish();
    log.hinted = start.hinted;
    log.complete = damage.is_none();
    Ok(Recovered { log, damage })
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::Game;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("t48-journal-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Plays a cycle of moves, journaling the real ones; returns the journal bytes and game.
    fn played(path: &Path, presses: usize) -> Game {
        let mut journal = Journal::create(path, Rules::CONSOLE, 99, 4).unwrap();
        let mut game = Game::new(Rules::CONSOLE, 99).unwrap();
        for dir in Direction::ALL.iter().cycle().take(presses) {
            if game.status().is_finished() {
                break;
            }
            if game.play(*dir).unwrap().moved {
                journal.append(*dir).unwrap();
            }
        }
        game
    }

    /// Recovery takes the journal's lock: refused while a session holds the journal, and
    /// a session cannot take the journal up while it is being recovered.
    #[cfg(unix)]
    #[test]
    fn a_journal_in_play_is_not_recovered() {
        let dir = temp("locked");
        let path = dir.join("g.t48.journal");
        let mut journal = Journal::create(&path, Rules::CLASSIC, 5, 4).unwrap();
        journal.append(Direction::Left).unwrap();
        let before = fs::read(&path).unwrap();
        let err = LockedJournal::open(&path).unwrap_err();
        assert!(matches!(err, JournalError::InUse { .. }), "{err}");
        assert!(err.to_string().contains("is in use"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), before, "untouched");
        drop(journal);

        let (locked, recovered) = LockedJournal::open(&path).unwrap();
        assert_eq!(recovered.log.moves, [Direction::Left]);
        let err = Journal::resume(&path).unwrap_err();
        assert!(matches!(err, JournalError::InUse { .. }), "{err}");
        locked.remove().unwrap();
        assert!(!path.exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_prefix_of_a_journal_recovers_its_moves() {
        let dir = temp("prefix");
        let path = dir.join("g.t48.journal");
        let game = played(&path, 60);
        let bytes = fs::read(&path).unwrap();
        let moves = game.move_count() as usize;
        let header = bytes.len() - moves;
        // A kill can happen at any byte after the header is durable.
        for cut in header..=bytes.len() {
            let r = recover(&path, &bytes[..cut]).unwrap();
            assert_eq!(r.log.moves.len(), cut - header);
            assert!(r.damage.is_none());
            let again = MoveLog::from_moves(Rules::CONSOLE, 99, &r.log.moves, 4).unwrap();
            assert_eq!(again, r.log);
        }
        let full = recover(&path, &bytes).unwrap();
        assert_eq!(full.log.claims.score, game.score());
        assert_eq!(full.log.claims.final_hash, game.state_hash());
        // A torn header is not a journal we can read.
        assert!(recover(&path, &bytes[..header - 1]).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_hinted_journal_recovers_a_hinted_game() {
        let dir = temp("hinted");
        let path = dir.join("g.t48.journal");
        let mut journal = Journal::create_with_hints(&path, Rules::CLASSIC, 3, 4, true).unwrap();
        journal.append(Direction::Left).unwrap();
        let r = recover(&path, &fs::read(&path).unwrap()).unwrap();
        assert!(r.log.hinted);
        assert_eq!(r.log.encode()[4], 2, "a hinted log is format version 2");
        journal.remove().unwrap();
        let plain = played(&path, 8);
        let r = recover(&path, &fs::read(&path).unwrap()).unwrap();
        assert!(!r.log.hinted);
        assert_eq!(r.log.claims.move_count, plain.move_count());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_journal_gives_a_partial_game_and_is_not_played_on() {
        let dir = temp("damage");
        let path = dir.join("g.t48.journal");
        let game = played(&path, 20);
        let mut bytes = fs::read(&path).unwrap();
        let good = bytes.len();
        bytes.extend_from_slice(&[7, 0, 1]);
        fs::write(&path, &bytes).unwrap();
        let (mut journal, r) = Journal::resume(&path).unwrap();
        let damage = r.damage.clone().expect("damage");
        assert_eq!((damage.offset, damage.dropped), (good, 3));
        assert!(
            damage.to_string().contains("0x07 is not a move code"),
            "{damage}"
        );
        assert_eq!(r.log.claims.move_count, game.move_count());
        assert!(
            !r.log.complete,
            "moves after the damage are lost: a partial log"
        );
        // The journal keeps its damage (a session dying now leaves it to be found again)
        // and takes no more moves.
        assert_eq!(fs::read(&path).unwrap(), bytes);
        let dir_ok = Direction::ALL
            .into_iter()
            .find(|d| game.can_play(*d))
            .unwrap();
        let err = journal.append(dir_ok).unwrap_err();
        assert!(matches!(err, JournalError::Damaged { .. }), "{err}");
        assert!(err.to_string().contains("partial"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), bytes);
        let again = recover(&path, &fs::read(&path).unwrap()).unwrap();
        assert_eq!(again, r);
        journal.remove().unwrap();
        assert!(!path.exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A journal's header errors say what and where: another version by its number, a cut
    /// header by its byte in the journal, a damaged header's log with where that log starts
    /// (its own offsets count from there), and a header log holding moves is refused.
    #[test]
    fn header_errors_say_what_and_where() {
        let dir = temp("header-errors");
        let path = dir.join("g.t48.journal");
        played(&path, 6);
        let good = fs::read(&path).unwrap();
        let err = |bytes: &[u8]| recover(&path, bytes).unwrap_err().to_string();
        let mut v2 = good.clone();
        v2[4] = 2;
        let e = err(&v2);
        assert!(
            e.contains("journal of version 2; this build reads version 1"),
            "{e}"
        );
        let e = err(&good[..7]);
        assert!(
            e.contains("cut short: its header's length at byte 5"),
            "{e}"
        );
        let e = err(&good[..20]);
        assert!(e.contains("its header's log at byte 9"), "{e}");
        let mut crc = good.clone();
        let n = u32::from_le_bytes(good[5..9].try_into().unwrap()) as usize;
        crc[PREFIX + n - 1] ^= 1;
        let e = err(&crc);
        assert!(e.contains("its log starts at byte 9"), "{e}");
        // A header log with moves: a .t48 log put where the header goes.
        let log = MoveLog::from_moves(Rules::CONSOLE, 99, &[Direction::Left], 4).unwrap();
        let log = log.encode();
        let mut with_moves = JOURNAL_MAGIC.to_vec();
        with_moves.push(VERSION);
        with_moves.extend_from_slice(&(log.len() as u32).to_le_bytes());
        with_moves.extend_from_slice(&log);
        let e = err(&with_moves);
        assert!(
            e.contains("holds 1 moves; a journal's header holds none"),
            "{e}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn not_a_journal_and_refusing_to_overwrite() {
        let dir = temp("errors");
        let path = dir.join("x.journal");
        fs::write(&path, b"T48\x1a not a journal").unwrap();
        let err = recover(&path, &fs::read(&path).unwrap()).unwrap_err();
        assert!(
            err.to_string().contains("is not a twenty48 journal"),
            "{err}"
        );
        let err = Journal::create(&path, Rules::CLASSIC, 1, 0).unwrap_err();
        assert!(matches!(err, JournalError::Io { .. }), "{err}");
        // One session at a time: a live journal cannot be resumed, and is left as it is.
        let live = dir.join("live.t48.journal");
        let journal = Journal::create(&live, Rules::CLASSIC, 1, 0).unwrap();
        let before = fs::read(&live).unwrap();
        let err = Journal::resume(&live).unwrap_err();
        assert!(matches!(err, JournalError::InUse { .. }), "{err}");
        assert!(err.to_string().contains("in use"), "{err}");
        assert_eq!(fs::read(&live).unwrap(), before);
        drop(journal);
        let (journal, _) = Journal::resume(&live).unwrap();
        journal.remove().unwrap();
        assert_eq!(
            journal_path(Path::new("a/game.t48")),
            PathBuf::from("a/game.t48.journal")
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
