//! The names of the files a pull writes, read back from a listing of its folder, and the
//! move logs read back from them.

use twenty48_movelog::{MoveLog, EXTENSION};

use crate::received::ReceivedGame;

use super::folder::Folder;

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

/// The largest file read back as an earlier pull's game: a device game's log is far smaller;
/// anything larger planted under a game's name is not read.
const MAX_LOG_READ: u64 = 16 << 20;

/// The move log in the regular file `name` (not a link), if it is one.
pub(super) fn read_log(folder: &dyn Folder, name: &str) -> Option<MoveLog> {
    let bytes = folder.read(name, MAX_LOG_READ)?;
    MoveLog::decode(&bytes).ok()
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
