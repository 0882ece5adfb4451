//! The files a pull writes: their names, where each game is kept among them, and the
//! reading and writing of them through the pull's [`Folder`].

use std::io;
use std::path::{Path, PathBuf};

use twenty48_movelog::{free_name, MoveLog, Placed, EXTENSION};

use crate::received::ReceivedGame;

use super::folder::{Directory, Folder};
use super::{Outcome, Pulled};

/// The file name of a pulled v1 game: `game-NNN-seed-SEED.t48`, or `...partial.t48` for an
/// incomplete log.
pub fn file_name(game: &ReceivedGame, complete: bool) -> String {
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
/// When the name holds another file, the game goes to the first free name after it
/// (`DEVICE-gNNNNNN-2.t48`, `DEVICE-gNNNNNN.partial-2.t48`).
pub fn file_name_v2(dev: u64, game: u32, complete: bool) -> String {
    v2_name(dev, game, if complete { "" } else { "partial" })
}

pub(super) fn v2_name(dev: u64, game: u32, kind: &str) -> String {
    let dot = if kind.is_empty() { "" } else { "." };
    format!("{dev:016x}-g{game:06}{dot}{kind}.{EXTENSION}")
}

/// The device and game number of a file name a pull gives a whole or interrupted v2 game
/// (at its own name or a free name after it; not a damaged game's `.damaged.t48`).
fn parse_v2_name(name: &str) -> Option<(u64, u32)> {
    let (dev, rest) = (name.get(..16)?, name.get(16..)?);
    let dev = u64::from_str_radix(dev, 16).ok()?;
    let rest = rest.strip_prefix("-g")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let number: u32 = rest[..digits].parse().ok()?;
    let tail = &rest[digits..];
    let tail = tail.strip_prefix(".partial").unwrap_or(tail);
    let tail = tail.strip_suffix(EXTENSION)?.strip_suffix('.')?;
    let free = match tail.strip_prefix('-') {
        Some(n) => !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        None => tail.is_empty(),
    };
    free.then_some((dev, number))
}

/// Calls `found` with the device and game number of each whole or interrupted v2 game in
/// `dir` (at its own name or a free name after it), from one listing of the directory,
/// keeping none of them: the gap report's look at what earlier pulls wrote, in time
/// proportional to the directory, never to the numbers the device named.
pub(super) fn on_disk(folder: &dyn Folder, mut found: impl FnMut(u64, u32)) {
    folder.names(&mut |name| {
        if let Some((dev, number)) = parse_v2_name(name) {
            found(dev, number);
        }
    });
}

/// Where a pull keeps a game: the `index`th name (1: the name itself, 2: `NAME-2`, ...) of
/// its whole or (`complete` false) interrupted name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kept {
    complete: bool,
    index: u16,
    /// This pull wrote the file (it was not in the directory before).
    ours: bool,
}

impl Kept {
    /// Whether the copy kept is a whole game (not an interrupted game's prefix).
    pub(super) fn is_whole(&self) -> bool {
        self.complete
    }

    /// The `index`th name of the whole or interrupted game's name.
    pub(super) fn at(complete: bool, index: usize) -> Kept {
        Kept {
            complete,
            index: u16::try_from(index).unwrap_or(u16::MAX),
            ours: false,
        }
    }

    /// The same place, a file this pull wrote.
    pub(super) fn written_here(self) -> Kept {
        Kept { ours: true, ..self }
    }

    /// Whether this pull wrote the file.
    pub(super) fn is_ours(&self) -> bool {
        self.ours
    }

    /// The file of game `number` of `dev` in `dir`.
    pub(super) fn path(self, dir: &Path, dev: u64, number: u32) -> PathBuf {
        free_name(
            &dir.join(file_name_v2(dev, number, self.complete)),
            u32::from(self.index),
        )
    }
}

/// Where `path`, written for `name` in `dir`, is among the names tried for it.
pub(super) fn kept_at(dir: &Path, name: &str, complete: bool, path: &Path) -> Kept {
    let base = dir.join(name);
    let index = (1..=twenty48_movelog::MAX_FREE_NAMES)
        .find(|&n| free_name(&base, n) == path)
        .unwrap_or(1);
    Kept::at(complete, index as usize)
}

/// Writes `log` into `dir` under `name`, or the first free name after it when that holds
/// another file; the directory (and every directory made on the way) is made durably
/// first. The path written, and whether it is new or was there with these very bytes.
pub(super) fn place(folder: &mut dyn Folder, name: &str, log: &MoveLog) -> io::Result<Placed> {
    folder.write_free(name, &log.encode())
}

/// The files in `dir` at `name` and the free names after it, in order, up to the first
/// name that is not there: where an earlier pull may have put a game of that name.
pub(super) fn taken_names(folder: &dyn Folder, name: &str) -> Vec<PathBuf> {
    let base = folder.path().join(name);
    (1..=twenty48_movelog::MAX_FREE_NAMES)
        .map(|n| free_name(&base, n))
        .take_while(|p| folder.exists(p))
        .collect()
}

/// The largest file read back as an earlier pull's game: a device game's log is far smaller;
/// anything larger planted under a game's name is not read.
const MAX_LOG_READ: u64 = 16 << 20;

/// The move log in the regular file `path` (not a link), if it is one.
pub(super) fn read_log(folder: &dyn Folder, path: &Path) -> Option<MoveLog> {
    let bytes = folder.read(path, MAX_LOG_READ)?;
    MoveLog::decode(&bytes).ok()
}

/// Checks a game and writes what is certain of it into `dir`: the v1 path, one file per
/// game received, never over another file (a name taken by other contents sends the game
/// to a free name).
///
/// # Errors
/// When the directory or the file cannot be written (the error names it).
pub fn save(game: ReceivedGame, dir: &Path, keep_partial: bool) -> io::Result<Pulled> {
    save_in(game, &mut Directory::new(dir), keep_partial)
}

/// [`save`] into `folder`.
pub(super) fn save_in(
    game: ReceivedGame,
    folder: &mut dyn Folder,
    keep_partial: bool,
) -> io::Result<Pulled> {
    let check = game.check();
    let mut path = None;
    let mut outcome = Outcome::NotWritten;
    if let Some(log) = game.to_movelog(keep_partial) {
        let placed = place(folder, &file_name(&game, log.complete), &log)?;
        outcome = match (&placed, check.is_verified()) {
            (_, false) => Outcome::DamagedPrefix,
            (Placed::Identical(_), true) => Outcome::AlreadyPulled,
            (_, true) => Outcome::Written,
        };
        path = Some(placed.path().to_path_buf());
    }
    Ok(Pulled {
        game,
        check,
        path,
        outcome,
        ack: None,
        replaces: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v2_names_read_back_at_their_own_and_free_names_only() {
        let dev = 0x7e57_0000_0000_0001;
        for (name, read) in [
            ("7e57000000000001-g000012.t48", Some((dev, 12))),
            ("7e57000000000001-g000012.partial.t48", Some((dev, 12))),
            ("7e57000000000001-g000012-2.t48", Some((dev, 12))),
            (
                "7e57000000000001-g4294967295.partial-31.t48",
                Some((dev, u32::MAX)),
            ),
            ("7e57000000000001-g000012.damaged.t48", None),
            ("7e57000000000001-g000012-.t48", None),
            ("7e57000000000001-g.t48", None),
            ("7e57000000000001-g000012.t48.tmp-1-2", None),
            ("capture-1.bin", None),
            ("é", None),
        ] {
            assert_eq!(parse_v2_name(name), read, "{name}");
        }
    }
}
