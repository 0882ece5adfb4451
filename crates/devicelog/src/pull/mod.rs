//! Pulling games off a capture into verified `.t48` files: everything `twenty48 pull` does
//! except reading its arguments, talking to the port and printing.
//!
//! Protocol v2 games are keyed by (device id, game number). A game may arrive more than
//! once (live while it was played, then from the store in a pull reply; or the same capture
//! twice): the first verified copy is written, an identical later copy is a duplicate, a
//! different one a conflict (neither written as complete when the pull sees both before
//! writing, as from a capture file; a file already in the directory is never overwritten).
//! Protocol v1 games have no identity and are written as before, one file per game.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use twenty48_movelog::MoveLog;

use crate::capture::{CaptureDecoder, Damage, DamageKind, DeviceFact, Event};
use crate::check::{check, Problem};
use crate::error::DeviceLogError;
use crate::game::DeviceGame;

mod files;
mod report;

use files::{differs, v2_name, write_new, Written};
pub use files::{file_name, file_name_v2, save};
pub use report::{Gap, Outcome, Progress, Pulled, Summary};

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
    /// v2: the first verified copy of each game: its log bytes and its moves.
    verified: BTreeMap<(u64, u32), MoveLog>,
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
            verified: BTreeMap::new(),
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
            self.find_conflicts(&pending);
            for game in pending {
                let pulled = self.save(game)?;
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
                    if self.options.defer {
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
                        out.push(Progress::Pulled(Box::new(pulled)));
                    }
                }
                Event::Damaged(d) => {
                    let noise = !self.decoded_any
                        && matches!(d.kind, DamageKind::Malformed | DamageKind::Unterminated);
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

    /// Deferred pulls: games whose verified copies differ are conflicts before anything
    /// is written.
    fn find_conflicts(&mut self, games: &[DeviceGame]) {
        let mut first: BTreeMap<(u64, u32), MoveLog> = BTreeMap::new();
        for game in games {
            let Some(dev) = game.dev else { continue };
            if !check(game).is_verified() {
                continue;
            }
            let Some(log) = game.to_movelog(false) else {
                continue;
            };
            let key = (dev, game.number);
            match first.get(&key) {
                None => {
                    first.insert(key, log);
                }
                Some(other) => {
                    if let Some(reason) = differs(other, &log) {
                        self.conflicts.entry(key).or_insert(reason);
                    } else if !other.complete && log.complete {
                        first.insert(key, log);
                    }
                }
            }
        }
    }

    /// Checks a game and writes what is certain of it.
    fn save(&mut self, game: DeviceGame) -> io::Result<Pulled> {
        let Some(dev) = game.dev else {
            let pulled = save(game, &self.out_dir, self.options.keep_partial)?;
            self.pulled.push(pulled.clone());
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
            let pulled = Pulled {
                check,
                path: None,
                outcome: Outcome::InProgress,
                ack: None,
                game,
            };
            self.pulled.push(pulled.clone());
            return Ok(pulled);
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
                    let path = self
                        .out_dir
                        .join(v2_name(dev, pulled.game.number, "damaged"));
                    if write_new(&path, &log.encode())? != Written::Differs {
                        pulled.path = Some(path);
                        pulled.outcome = Outcome::DamagedPrefix;
                    }
                }
            }
            self.pulled.push(pulled.clone());
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
        } else if let Some(first) = self.verified.get(&key) {
            match differs(first, &log) {
                Some(reason) => {
                    self.conflicts.insert(key, reason.clone());
                    pulled.outcome = Outcome::Conflict { reason };
                }
                None if first.complete || !log.complete => {
                    pulled.outcome = Outcome::Duplicate;
                    // The file of the copy it repeats (an interrupted game's copy may have
                    // found its whole game on disk).
                    pulled.path = self
                        .pulled
                        .iter()
                        .rev()
                        .find(|p| {
                            p.is_received() && p.game.dev == Some(dev) && p.game.number == key.1
                        })
                        .and_then(|p| p.path.clone());
                    pulled.ack = ack;
                }
                None => self.write(&mut pulled, dev, &log, ack)?,
            }
        } else {
            self.write(&mut pulled, dev, &log, ack)?;
        }
        if pulled.is_received() {
            let keep = match self.verified.get(&key) {
                Some(first) => !first.complete && log.complete,
                None => true,
            };
            if keep {
                self.verified.insert(key, log);
            }
        }
        self.pulled.push(pulled.clone());
        Ok(pulled)
    }

    /// Writes a verified v2 game unless the directory has it already; a file that differs
    /// is a conflict and stays as it is.
    fn write(
        &mut self,
        pulled: &mut Pulled,
        dev: u64,
        log: &MoveLog,
        ack: Option<(u32, u32)>,
    ) -> io::Result<()> {
        let number = pulled.game.number;
        let path = self.out_dir.join(file_name_v2(dev, number, log.complete));
        // An interrupted game whose whole copy is already here was pulled before.
        if !log.complete {
            let whole = self.out_dir.join(file_name_v2(dev, number, true));
            if let Ok(bytes) = fs::read(&whole) {
                match MoveLog::decode(&bytes) {
                    Ok(other) if differs(&other, log).is_none() => {
                        pulled.path = Some(whole);
                        pulled.outcome = Outcome::AlreadyPulled;
                        pulled.ack = ack;
                        return Ok(());
                    }
                    _ => {
                        let reason = format!("{} differs from this copy", whole.display());
                        self.conflicts.insert((dev, number), reason.clone());
                        pulled.outcome = Outcome::Conflict { reason };
                        return Ok(());
                    }
                }
            }
        }
        match write_new(&path, &log.encode())? {
            Written::New => pulled.outcome = Outcome::Written,
            Written::Identical => pulled.outcome = Outcome::AlreadyPulled,
            Written::Differs => {
                let reason = format!("{} is already there with other contents", path.display());
                self.conflicts.insert((dev, number), reason.clone());
                pulled.outcome = Outcome::Conflict { reason };
                return Ok(());
            }
        }
        pulled.path = Some(path);
        pulled.ack = ack;
        Ok(())
    }

    /// What the pull found: received games, duplicates, conflicts, gaps, losses, notes.
    /// Pull replies are checked too: each must hold the games it announced.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        let received: BTreeSet<(u64, u32)> = self
            .pulled
            .iter()
            .filter(|p| p.is_received())
            .filter_map(|p| p.game.dev.map(|d| (d, p.game.number)))
            .collect();
        let received_numbers: BTreeSet<u32> = received.iter().map(|k| k.1).collect();
        let mut counted = BTreeSet::new();
        for p in &self.pulled {
            match p.game.dev {
                None => {
                    if p.is_verified() {
                        s.received += 1;
                    } else {
                        s.failed.push(describe_problem(p));
                    }
                }
                Some(dev) => {
                    let key = (dev, p.game.number);
                    match &p.outcome {
                        Outcome::InProgress => s.notes.push(format!(
                            "device {dev:016x} game {}: still being played when the pull ended ({} moves so far, verified); it is in the device's store and the next pull brings it",
                            p.game.number, p.check.verified_moves
                        )),
                        Outcome::Duplicate => s.duplicates.push(key),
                        Outcome::Conflict { reason } => {
                            if !s.conflicts.iter().any(|c| (c.0, c.1) == key) {
                                s.conflicts.push((dev, p.game.number, reason.clone()));
                            }
                        }
                        _ if p.is_received() => {
                            if counted.insert(key) {
                                s.received += 1;
                                if p.game.is_partial() {
                                    s.partial += 1;
                                }
                            }
                        }
                        _ if received.contains(&key) => s.notes.push(format!(
                            "{} (the game arrived whole in another copy)",
                            describe_problem(p)
                        )),
                        _ => s.failed.push(describe_problem(p)),
                    }
                }
            }
        }
        // A game received in one copy and conflicting in another is not received.
        for c in &s.conflicts {
            if counted.remove(&(c.0, c.1)) {
                s.received -= 1;
            }
        }
        for fact in &self.facts {
            match *fact {
                DeviceFact::Lost {
                    dev, game, frames, ..
                } => {
                    let whole = game != 0
                        && dev.map_or(received_numbers.contains(&game), |d| {
                            received.contains(&(d, game))
                        });
                    if whole {
                        s.notes
                            .push(format!("{fact}; game {game} arrived whole from the store"));
                    } else if game == 0 {
                        s.notes
                            .push(format!("{fact} (no game's frames among them)"));
                    } else {
                        s.lost
                            .push(format!("{fact} ({frames} frames never received)"));
                    }
                }
                DeviceFact::Full { .. } | DeviceFact::Error { .. } => {
                    s.notes.push(fact.to_string())
                }
                _ => {}
            }
        }
        s.lost.extend(self.short_replies.iter().cloned());
        if let Some((_, announced, closed)) = self.reply {
            s.lost.push(format!(
                "a pull reply announced {announced} games and was cut off after {closed}"
            ));
        }
        for d in &self.damage {
            let whole = d.game.is_some_and(|g| received_numbers.contains(&g));
            if whole {
                s.notes.push(format!("{d}; its game arrived whole"));
            } else {
                s.damage.push(d.to_string());
            }
        }
        if self.unlisted_damage > 0 {
            s.damage.push(format!(
                "{} more damaged stretches after the first {LISTED_DAMAGE}, counted but not listed",
                self.unlisted_damage
            ));
        }
        for (&dev, numbers) in &self.seen {
            let Some(&lo) = numbers.iter().next() else {
                continue;
            };
            let seen_hi = numbers.iter().next_back().copied().unwrap_or(lo);
            // The newest number hello announced is the game in progress when the host asked
            // (a pull reply leaves it out) unless it arrived: a note, not a gap.
            let announced = self.next.get(&dev).map_or(0, |n| n.saturating_sub(1));
            let in_progress = announced > seen_hi
                && !received.contains(&(dev, announced))
                && !self
                    .out_dir
                    .join(file_name_v2(dev, announced, true))
                    .exists()
                && !self
                    .out_dir
                    .join(file_name_v2(dev, announced, false))
                    .exists();
            if in_progress {
                s.notes.push(format!(
                    "device {dev:016x} game {announced}: not sent (being played when the pull began); the next pull brings it"
                ));
            }
            let hi = seen_hi.max(announced.saturating_sub(in_progress as u32));
            let mut run: Option<(u32, u32)> = None;
            for n in lo..=hi {
                let have = received.contains(&(dev, n))
                    || s.conflicts.iter().any(|c| (c.0, c.1) == (dev, n))
                    || self.out_dir.join(file_name_v2(dev, n, true)).exists()
                    || self.out_dir.join(file_name_v2(dev, n, false)).exists();
                let unverified_copy = numbers.contains(&n);
                if have || unverified_copy {
                    // Unverified copies are reported as failed games already.
                    if let Some((first, last)) = run.take() {
                        s.gaps.push(Gap { dev, first, last });
                    }
                } else {
                    run = Some(run.map_or((n, n), |(f, _)| (f, n)));
                }
            }
            if let Some((first, last)) = run {
                s.gaps.push(Gap { dev, first, last });
            }
        }
        s
    }

    /// The device's pull replies: each begin's announced count against the games that
    /// came before its done. Mismatches are losses.
    pub fn facts(&self) -> &[DeviceFact] {
        &self.facts
    }
}

fn describe_problem(p: &Pulled) -> String {
    match &p.check.problem {
        Some(problem) => format!("{problem}"),
        None => format!("game {}: not written", p.game.number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn write_new_never_overwrites() {
        let dir = std::env::temp_dir().join(format!("t48-write-new-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let path = dir.join("a.t48");
        assert_eq!(write_new(&path, b"one").unwrap(), Written::New);
        assert_eq!(write_new(&path, b"one").unwrap(), Written::Identical);
        assert_eq!(write_new(&path, b"two").unwrap(), Written::Differs);
        assert_eq!(fs::read(&path).unwrap(), b"one");
        let names: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left");
        fs::remove_dir_all(&dir).unwrap();
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
