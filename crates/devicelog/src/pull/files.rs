//! The files a pull writes: their names, written durably and never over another file.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use twenty48_movelog::{write_atomic, MoveLog, EXTENSION};

use crate::check::check;
use crate::game::DeviceGame;

use super::{Outcome, Pulled};

/// Why two verified copies of one game are not the same game, or `None` when they are
/// (a partial copy that is a prefix of a complete one is the same game).
pub(super) fn differs(a: &MoveLog, b: &MoveLog) -> Option<String> {
    if a.rules != b.rules || a.seed != b.seed {
        return Some("the copies have different rules or seeds".into());
    }
    let (short, long) = if a.moves.len() <= b.moves.len() {
        (a, b)
    } else {
        (b, a)
    };
    if long.moves[..short.moves.len()] != short.moves[..] {
        return Some("the copies have different moves".into());
    }
    if short.moves.len() != long.moves.len() && short.complete {
        return Some("a complete copy is shorter than another copy".into());
    }
    if a.complete && b.complete && a.encode() != b.encode() {
        return Some("the copies differ".into());
    }
    None
}

/// The file name of a pulled v1 game: `game-NNN-seed-SEED.t48`, or `...partial.t48` for an
/// incomplete log.
pub fn file_name(game: &DeviceGame, complete: bool) -> String {
    if let Some(dev) = game.dev {
        return file_name_v2(dev, game.number, complete);
    }
    let partial = if complete { "" } else { ".partial" };
    format!(
        "game-{:03}-seed-{}{partial}.{EXTENSION}",
        game.number, game.seed
    )
}

/// The file name of a protocol v2 game: `DEVICE-gNNNNNN.t48` (device id in 16 hex digits,
/// game number in at least 6 digits), `.partial.t48` for a stored game that was interrupted.
pub fn file_name_v2(dev: u64, game: u32, complete: bool) -> String {
    v2_name(dev, game, if complete { "" } else { "partial" })
}

pub(super) fn v2_name(dev: u64, game: u32, kind: &str) -> String {
    let dot = if kind.is_empty() { "" } else { "." };
    format!("{dev:016x}-g{game:06}{dot}{kind}.{EXTENSION}")
}

/// What [`write_new`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Written {
    /// The file is new.
    New,
    /// The file was there with the same bytes.
    Identical,
    /// The file was there with other bytes; left as it was.
    Differs,
}

/// Writes `bytes` to `path` durably (synced, then linked into place, then the directory
/// synced) unless `path` exists; never overwrites.
pub(super) fn write_new(path: &Path, bytes: &[u8]) -> io::Result<Written> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let existing = |path: &Path| -> io::Result<Written> {
        Ok(if fs::read(path)? == bytes {
            Written::Identical
        } else {
            Written::Differs
        })
    };
    if path.exists() {
        return existing(path);
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        // A hard link fails when the name exists: no exists-then-rename race.
        match fs::hard_link(&tmp, path) {
            Ok(()) => {
                #[cfg(unix)]
                File::open(dir)?.sync_all()?;
                Ok(Written::New)
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => existing(path),
            Err(e) => Err(e),
        }
    })();
    let _ = fs::remove_file(&tmp);
    result
}

/// Checks a game and writes what is certain of it into `out_dir` (atomically): the v1
/// path, one file per game received.
///
/// # Errors
/// When the directory or the file cannot be written.
pub fn save(game: DeviceGame, out_dir: &Path, keep_partial: bool) -> io::Result<Pulled> {
    let check = check(&game);
    let mut path = None;
    let mut outcome = Outcome::NotWritten;
    if let Some(log) = game.to_movelog(keep_partial) {
        fs::create_dir_all(out_dir)?;
        let p = out_dir.join(file_name(&game, log.complete));
        write_atomic(&p, &log.encode())?;
        path = Some(p);
        outcome = if check.is_verified() {
            Outcome::Written
        } else {
            Outcome::DamagedPrefix
        };
    }
    Ok(Pulled {
        game,
        check,
        path,
        outcome,
        ack: None,
    })
}
