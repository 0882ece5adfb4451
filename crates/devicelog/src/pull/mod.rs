//! Pulling games off a capture into verified `.t48` files: everything `twenty48 pull` does
//! except reading its arguments, talking to the port and printing.
//!
//! Protocol v2 games are keyed by (device id, game number). A game may arrive more than
//! once (live while it was played, then from the store in a pull reply; or the same capture
//! twice): which copy is kept is decided by content, never by arrival: the longer verified
//! prefix wins (a copy whose moves are all in the kept one is a duplicate), and copies that
//! part are a conflict (neither written when the pull sees both before writing, as from a
//! capture file). An acknowledgement names a copy only once every move of it is in a file
//! on disk. Protocol v1 games have no identity and are written one file per game.
//!
//! Nothing in the directory is ever replaced: a name that holds other contents sends the
//! game to the first free name after it, with a note (`twenty48_movelog::write_free`).

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

use twenty48_movelog::MoveLog;

use crate::capture::{CaptureDecoder, Damage, DamageKind, Event};
use crate::check::{check, Problem};
use crate::error::DeviceLogError;
use crate::fact::DeviceFact;
use crate::game::DeviceGame;

mod copies;
mod files;
mod gaps;
mod report;
mod summary;

use copies::{choose, relation, Relation};
pub use files::{file_name, file_name_v2, save};
use files::{place, read_log, taken_names, v2_name};
pub use report::{Gap, Outcome, Progress, Pulled, Summary};
use twenty48_movelog::Placed;

/// How a pull writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PullOptions {
    /// Also write damaged or unfinished games: their verified moves, marked incomplete.
    pub keep_partial: bool,
    /// Write nothing until the capture ends, then decide on every game with all its copies
    /// in view (a capture file: a conflict is then never written at all). Without it each
    /// game is written as soon as it closes (a live port, so it can be acknowledged).
    pub defer: bool,
}

/// At most this many damaged stretches are kept and listed one by one; the rest are
/// counted.
pub const LISTED_DAMAGE: usize = 1000;

/// A pull in progress: feed it capture bytes, it writes each game as it closes (or, with
/// [`PullOptions::defer`], when the capture ends).
#[derive(Debug)]
pub struct Puller {
    /// Set while the games still open at the end are handed over by [`Puller::finish`].
    finishing: bool,
    decoder: CaptureDecoder,
    out_dir: PathBuf,
    options: PullOptions,
    /// Deferred games, in closing order.
    pending: Vec<DeviceGame>,
    /// Every game closed, with what became of it.
    pulled: Vec<Pulled>,
    /// v2: the copy kept of each game (the longest verified one so far) and its file.
    kept: BTreeMap<(u64, u32), (MoveLog, PathBuf)>,
    /// Names that held other contents, and where the game went instead: notes.
    free_names: Vec<String>,
    /// v2: games found in conflict.
    conflicts: BTreeMap<(u64, u32), String>,
    /// The first [`LISTED_DAMAGE`] damaged stretches (after the first frame).
    damage: Vec<Damage>,
    /// How many more there were: counted, not kept, so that endless noise on the line
    /// takes no more memory.
    unlisted_damage: usize,
    facts: Vec<DeviceFact>,
    /// Whether any frame decoded yet (damage before the first one is line noise).
    decoded_any: bool,
    /// v2: every game number seen per device, and the highest hello `next`.
    seen: BTreeMap<u64, BTreeSet<u32>>,
    next: BTreeMap<u64, u32>,
    /// v2: the pull reply under way: (device, games announced, games closed with an end
    /// or partial frame since).
    reply: Option<(u64, u32, u32)>,
    /// v2: pull replies that did not hold what they announced.
    short_replies: Vec<String>,
}

impl Puller {
    /// A pull decoding with the firmware `elf` and writing into `out_dir` (created if
    /// missing), games written as they close.
    pub fn new(elf: &[u8], out_dir: &Path, keep_partial: bool) -> Result<Puller, DeviceLogError> {
        Puller::with_options(
            elf,
            out_dir,
            PullOptions {
                keep_partial,
                defer: false,
            },
        )
    }

    /// A pull with options.
    pub fn with_options(
        elf: &[u8],
        out_dir: &Path,
        options: PullOptions,
    ) -> Result<Puller, DeviceLogError> {
        Ok(Puller {
            finishing: false,
            decoder: CaptureDecoder::new(elf)?,
            out_dir: out_dir.to_path_buf(),
            options,
            pending: Vec::new(),
            pulled: Vec::new(),
            kept: BTreeMap::new(),
            free_names: Vec::new(),
            conflicts: BTreeMap::new(),
            damage: Vec::new(),
            unlisted_damage: 0,
            facts: Vec::new(),
            decoded_any: false,
            seen: BTreeMap::new(),
            next: BTreeMap::new(),
            reply: None,
            short_replies: Vec::new(),
        })
    }

    /// Bytes read so far.
    pub fn bytes_fed(&self) -> usize {
        self.decoder.bytes_fed()
    }

    /// Every game closed so far, with what became of it.
    pub fn pulled(&self) -> &[Pulled] {
        &self.pulled
    }

    /// Reads more capture bytes; writes the games they close.
    ///
    /// # Errors
    /// When a `.t48` file cannot be written.
    pub fn feed(&mut self, bytes: &[u8]) -> io::Result<Vec<Progress>> {
        let events = self.decoder.feed(bytes);
        self.handle(events)
    }

    /// Ends the capture: the games still open are checked (truncated) and, with
    /// `keep_partial`, their verified moves are written; deferred games are written.
    ///
    /// # Errors
    /// When a `.t48` file cannot be written.
    pub fn finish(&mut self) -> io::Result<Vec<Progress>> {
        let events = self.decoder.finish();
        self.finishing = true;
        let handled = self.handle(events);
        self.finishing = false;
        let mut out = handled?;
        if self.options.defer {
            let pending = std::mem::take(&mut self.pending);
            // The kept copy of each game is written first, so that the copies it holds are
            // its duplicates whatever their order; then the rest, in closing order.
            let first = self.choose_copies(&pending);
            let mut saved: Vec<Option<Pulled>> = vec![None; pending.len()];
            for &i in &first {
                saved[i] = Some(self.save(pending[i].clone())?);
            }
            for (i, game) in pending.into_iter().enumerate() {
                if saved[i].is_none() {
                    saved[i] = Some(self.save(game)?);
                }
            }
            for pulled in saved.into_iter().flatten() {
                self.pulled.push(pulled.clone());
                out.push(Progress::Pulled(Box::new(pulled)));
            }
        }
        Ok(out)
    }

    fn handle(&mut self, events: Vec<Event>) -> io::Result<Vec<Progress>> {
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            if !matches!(event, Event::Damaged(_)) {
                self.decoded_any = true;
            }
            match event {
                Event::GameStarted { dev, number, .. } => {
                    if let Some(dev) = dev {
                        self.seen.entry(dev).or_default().insert(number);
                    }
                    out.push(Progress::Started(event))
                }
                Event::Moved { game, mv } => out.push(Progress::Moved { game, seq: mv.seq }),
                Event::GameClosed(game) => {
                    if let Some((dev, _, closed)) = &mut self.reply {
                        if game.dev == Some(*dev) && game.end.is_some() {
                            *closed += 1;
                        }
                    }
                    if self.options.defer && self.finishing {
                        // Decided on below, in `finish`: no progress to show for it yet (and
                        // no second copy of every game still open at the end).
                        self.pending.push(game);
                    } else if self.options.defer {
                        self.pending.push(game.clone());
                        let check = check(&game);
                        out.push(Progress::Pulled(Box::new(Pulled {
                            game,
                            check,
                            path: None,
                            outcome: Outcome::Deferred,
                            ack: None,
                        })));
                    } else {
                        let pulled = self.save(game)?;
                        self.pulled.push(pulled.clone());
                        out.push(Progress::Pulled(Box::new(pulled)));
                    }
                }
                Event::Damaged(d) => {
                    let noise = !self.decoded_any
                        && matches!(
                            d.kind,
                            DamageKind::Malformed
                                | DamageKind::Unterminated
                                | DamageKind::Oversized
                        );
                    if noise {
                    } else if self.damage.len() < LISTED_DAMAGE {
                        self.damage.push(d.clone());
                    } else {
                        self.unlisted_damage += 1;
                    }
                    out.push(Progress::Damaged(d))
                }
                Event::Device(fact) => {
                    match fact {
                        DeviceFact::Hello { dev, next, .. } => {
                            let n = self.next.entry(dev).or_default();
                            *n = (*n).max(next);
                        }
                        DeviceFact::PullBegin { dev, games } => {
                            self.end_reply(None);
                            self.reply = Some((dev, games, 0));
                        }
                        DeviceFact::PullDone { sent, .. } => self.end_reply(Some(sent)),
                        DeviceFact::Lost {
                            dev: Some(dev),
                            game,
                            ..
                        } if game != 0 => {
                            self.seen.entry(dev).or_default().insert(game);
                        }
                        _ => {}
                    }
                    self.facts.push(fact);
                    out.push(Progress::Device(fact))
                }
                Event::Message(_) => {}
            }
        }
        Ok(out)
    }

    /// A pull reply ends (its done frame came with `sent`, or it was cut off): it must have
    /// held every game it announced.
    fn end_reply(&mut self, sent: Option<u32>) {
        let Some((_, announced, closed)) = self.reply.take() else {
            return;
        };
        match sent {
            None => self.short_replies.push(format!(
                "a pull reply announced {announced} games and was cut off after {closed}"
            )),
            Some(sent) if sent != announced || closed != announced => {
                self.short_replies.push(format!(
                    "a pull reply announced {announced} games, the device sent {sent}, {closed} arrived"
                ))
            }
            Some(_) => {}
        }
    }

    /// Deferred pulls: of each game's verified copies, the one to keep (their indices in
    /// `games`); games whose copies part are conflicts before anything is written.
    fn choose_copies(&mut self, games: &[DeviceGame]) -> BTreeSet<usize> {
        let mut copies: BTreeMap<(u64, u32), Vec<(usize, MoveLog)>> = BTreeMap::new();
        for (i, game) in games.iter().enumerate() {
            let Some(dev) = game.dev else { continue };
            if let Some(log) = game.to_movelog(false) {
                copies.entry((dev, game.number)).or_default().push((i, log));
            }
        }
        let mut first = BTreeSet::new();
        for (key, logs) in copies {
            match choose(logs.iter().map(|(i, log)| (*i, log))) {
                Ok(Some(i)) => {
                    first.insert(i);
                }
                Ok(None) => {}
                Err(reason) => {
                    self.conflicts.insert(key, reason);
                }
            }
        }
        first
    }

    /// Checks a game and writes what is certain of it.
    fn save(&mut self, game: DeviceGame) -> io::Result<Pulled> {
        let Some(dev) = game.dev else {
            let pulled = save(game, &self.out_dir, self.options.keep_partial)?;
            if let Some(path) = &pulled.path {
                let complete = pulled.is_verified() && !pulled.game.is_partial();
                self.note_free_name(&file_name(&pulled.game, complete), path);
            }
            return Ok(pulled);
        };
        let check = check(&game);
        if self.finishing
            && !self.options.defer
            && self.reply.is_none()
            && game.end.is_none()
            && matches!(check.problem, Some(Problem::Truncated { .. }))
        {
            // A live game still being played when a port pull ends (not one cut off inside a
            // pull reply): it is stored on the device.
            return Ok(Pulled {
                check,
                path: None,
                outcome: Outcome::InProgress,
                ack: None,
                game,
            });
        }
        let key = (dev, game.number);
        let ack = game.end.and_then(|e| e.check).map(|c| (game.number, c));
        let mut pulled = Pulled {
            check,
            path: None,
            outcome: Outcome::NotWritten,
            ack: None,
            game,
        };
        if !pulled.check.is_verified() {
            if self.options.keep_partial {
                if let Some(log) = pulled.game.to_movelog(true) {
                    let name = v2_name(dev, pulled.game.number, "damaged");
                    let placed = place(&self.out_dir, &name, &log)?;
                    self.note_free_name(&name, placed.path());
                    pulled.path = Some(placed.path().to_path_buf());
                    pulled.outcome = Outcome::DamagedPrefix;
                }
            }
            return Ok(pulled);
        }
        let log = pulled
            .game
            .to_movelog(false)
            .expect("a verified game has a log");
        if let Some(reason) = self.conflicts.get(&key) {
            pulled.outcome = Outcome::Conflict {
                reason: reason.clone(),
            };
            return Ok(pulled);
        }
        match self
            .kept
            .get(&key)
            .map(|(kept, path)| (relation(kept, &log), path))
        {
            Some((Relation::Conflict(reason), _)) => {
                self.conflicts.insert(key, reason.clone());
                pulled.outcome = Outcome::Conflict { reason };
            }
            Some((Relation::Contained, path)) => {
                // Every move of this copy is in the kept one's file.
                pulled.outcome = Outcome::Duplicate;
                pulled.path = Some(path.clone());
                pulled.ack = ack;
            }
            Some((Relation::Extends, _)) | None => self.write(&mut pulled, dev, log, ack)?,
        }
        Ok(pulled)
    }

    /// Notes that `wanted` held other contents when the file went to `placed` instead.
    fn note_free_name(&mut self, wanted: &str, placed: &Path) {
        if placed.file_name().is_some_and(|n| n != wanted) {
            self.free_names.push(format!(
                "{} was already there with other contents and is left as it is; the game is in {}",
                twenty48_movelog::shown(&self.out_dir.join(wanted)),
                twenty48_movelog::shown(placed)
            ));
        }
    }

    /// Writes the verified v2 copy `log`, the one now kept of its game, unless a file an
    /// earlier pull wrote holds it already (the same bytes, or for an interrupted game a
    /// longer copy it begins); a name that holds another game sends it to a free name.
    fn write(
        &mut self,
        pulled: &mut Pulled,
        dev: u64,
        log: MoveLog,
        ack: Option<(u32, u32)>,
    ) -> io::Result<()> {
        let number = pulled.game.number;
        if !log.complete {
            let on_disk = [true, false]
                .into_iter()
                .flat_map(|complete| {
                    taken_names(&self.out_dir, &file_name_v2(dev, number, complete))
                })
                .find_map(|path| {
                    let other = read_log(&path)?;
                    (relation(&other, &log) == Relation::Contained).then_some((other, path))
                });
            if let Some((other, path)) = on_disk {
                pulled.path = Some(path.clone());
                pulled.outcome = Outcome::AlreadyPulled;
                pulled.ack = ack;
                self.kept.insert((dev, number), (other, path));
                return Ok(());
            }
        }
        let name = file_name_v2(dev, number, log.complete);
        let placed = place(&self.out_dir, &name, &log)?;
        self.note_free_name(&name, placed.path());
        pulled.outcome = match placed {
            Placed::Identical(_) => Outcome::AlreadyPulled,
            _ => Outcome::Written,
        };
        let path = placed.path().to_path_buf();
        pulled.path = Some(path.clone());
        pulled.ack = ack;
        self.kept.insert((dev, number), (log, path));
        Ok(())
    }

    /// The device's pull replies: each begin's announced count against the games that
    /// came before its done. Mismatches are losses.
    pub fn facts(&self) -> &[DeviceFact] {
        &self.facts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn v2_names_carry_device_and_number() {
        assert_eq!(
            file_name_v2(0x7e57_0000_0000_0001, 12, true),
            "7e57000000000001-g000012.t48"
        );
        assert_eq!(
            file_name_v2(0x7e57_0000_0000_0001, 12, false),
            "7e57000000000001-g000012.partial.t48"
        );
    }

    /// Frames lost outside any game (a lost frame naming game 0) are no game number: they
    /// make no gap below the games the device did send.
    #[test]
    fn frames_lost_outside_a_game_make_no_gap() {
        let elf = fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/v2/twenty48-qemu.elf"
        ))
        .unwrap();
        let dir = std::env::temp_dir().join(format!("t48-lost-no-game-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut puller = Puller::new(&elf, &dir, false).unwrap();
        let dev = 0x7e57_0000_0000_0001;
        // The device sent games 5 and 6 (their copies did not verify: no files), and said
        // it lost frames outside any game.
        puller.seen.entry(dev).or_default().extend([5, 6]);
        let lost = DeviceFact::Lost {
            dev: Some(dev),
            game: 0,
            at_move: 0,
            frames: 3,
        };
        puller.handle(vec![Event::Device(lost)]).unwrap();
        assert_eq!(puller.summary().gaps, []);
        assert_eq!(puller.facts(), [lost]);
        let _ = fs::remove_dir_all(&dir);
    }
}
