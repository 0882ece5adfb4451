//! Pulling games off a capture into verified `.t48` files: everything `twenty48 pull` does
//! except reading its arguments and printing.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use twenty48_movelog::{write_atomic, EXTENSION};

use crate::capture::{CaptureDecoder, Damage, Event};
use crate::check::{check, GameCheck};
use crate::error::DeviceLogError;
use crate::game::DeviceGame;

/// What became of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pulled {
    /// The game as the device logged it.
    pub game: DeviceGame,
    /// Its host replay.
    pub check: GameCheck,
    /// The file written, if any: the whole game when it verified, else (with
    /// `keep_partial`) the verified moves in a log marked incomplete.
    pub path: Option<PathBuf>,
}

impl Pulled {
    /// Whether the game verified and was written whole.
    pub fn is_verified(&self) -> bool {
        self.check.is_verified()
    }
}

/// Progress of a pull, one step at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Progress {
    /// A game began (its number, seed and rules are in the event).
    Started(Event),
    /// A move frame arrived for game `game`.
    Moved {
        /// Game number.
        game: u32,
        /// The move's sequence number in its game.
        seq: u32,
    },
    /// A game was closed, checked and (perhaps) written.
    Pulled(Box<Pulled>),
    /// A damaged stretch of the capture.
    Damaged(Damage),
}

/// A pull in progress: feed it capture bytes, it writes each game as soon as it closes.
#[derive(Debug)]
pub struct Puller {
    decoder: CaptureDecoder,
    out_dir: PathBuf,
    keep_partial: bool,
}

impl Puller {
    /// A pull decoding with the firmware `elf` and writing into `out_dir` (created if
    /// missing).
    pub fn new(elf: &[u8], out_dir: &Path, keep_partial: bool) -> Result<Puller, DeviceLogError> {
        Ok(Puller {
            decoder: CaptureDecoder::new(elf)?,
            out_dir: out_dir.to_path_buf(),
            keep_partial,
        })
    }

    /// Bytes read so far.
    pub fn bytes_fed(&self) -> usize {
        self.decoder.bytes_fed()
    }

    /// Reads more capture bytes; writes the games they close.
    ///
    /// # Errors
    /// When a `.t48` file cannot be written.
    pub fn feed(&mut self, bytes: &[u8]) -> io::Result<Vec<Progress>> {
        let events = self.decoder.feed(bytes);
        self.handle(events)
    }

    /// Ends the capture: the game still open is checked (truncated) and, with
    /// `keep_partial`, its verified moves are written.
    ///
    /// # Errors
    /// When a `.t48` file cannot be written.
    pub fn finish(&mut self) -> io::Result<Vec<Progress>> {
        let events = self.decoder.finish();
        self.handle(events)
    }

    fn handle(&mut self, events: Vec<Event>) -> io::Result<Vec<Progress>> {
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            match event {
                Event::GameStarted { .. } => out.push(Progress::Started(event)),
                Event::Moved { game, mv } => out.push(Progress::Moved { game, seq: mv.seq }),
                Event::GameClosed(game) => {
                    let pulled = save(game, &self.out_dir, self.keep_partial)?;
                    out.push(Progress::Pulled(Box::new(pulled)));
                }
                Event::Damaged(d) => out.push(Progress::Damaged(d)),
                Event::Message(_) => {}
            }
        }
        Ok(out)
    }
}

/// The file name of a pulled game: `game-NNN-seed-SEED.t48`, or `...partial.t48` for an
/// incomplete log.
pub fn file_name(game: &DeviceGame, complete: bool) -> String {
    let partial = if complete { "" } else { ".partial" };
    format!(
        "game-{:03}-seed-{}{partial}.{EXTENSION}",
        game.number, game.seed
    )
}

/// Checks a game and writes what is certain of it into `out_dir` (atomically).
///
/// # Errors
/// When the directory or the file cannot be written.
pub fn save(game: DeviceGame, out_dir: &Path, keep_partial: bool) -> io::Result<Pulled> {
    let check = check(&game);
    let mut path = None;
    if let Some(log) = game.to_movelog(keep_partial) {
        fs::create_dir_all(out_dir)?;
        let p = out_dir.join(file_name(&game, log.complete));
        write_atomic(&p, &log.encode())?;
        path = Some(p);
    }
    Ok(Pulled { game, check, path })
}
