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
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use twenty48_movelog::{write_atomic, MoveLog, EXTENSION};

use crate::capture::{CaptureDecoder, Damage, DamageKind, DeviceFact, Event};
use crate::check::{check, GameCheck};
use crate::error::DeviceLogError;
use crate::game::DeviceGame;

/// What became of one game received.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Verified and written to a new file.
    Written,
    /// Verified; the directory already held the very same file (pulled before).
    AlreadyPulled,
    /// Verified; the same game with the same content was received earlier in this pull.
    Duplicate,
    /// Verified, but another copy of the same game (same device and number) differs: not
    /// written as complete, never overwriting a file.
    Conflict {
        /// What differs.
        reason: String,
    },
    /// Not verified: its verified moves were written marked incomplete (`--keep-partial`).
    DamagedPrefix,
    /// Not verified and not written.
    NotWritten,
    /// Not checked yet: the pull writes when the capture ends (capture files).
    Deferred,
}

/// What became of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pulled {
    /// The game as the device logged it.
    pub game: DeviceGame,
    /// Its host replay.
    pub check: GameCheck,
    /// The file written (or already there), if any: the whole game when it verified, a
    /// stored interrupted game as a verified prefix marked incomplete (`.partial.t48`),
    /// else (with `keep_partial`) the verified moves of a damaged game marked incomplete.
    pub path: Option<PathBuf>,
    /// What was done with it.
    pub outcome: Outcome,
    /// Protocol v2: the acknowledgement to send the device, `(game, check)`, once the game
    /// is safely on disk (written, already pulled or a duplicate of either).
    pub ack: Option<(u32, u32)>,
}

impl Pulled {
    /// Whether the game verified (whole, or as the stored prefix of an interrupted game).
    pub fn is_verified(&self) -> bool {
        self.check.is_verified()
    }

    /// Whether the game is safely in the directory: verified and written now or before.
    pub fn is_received(&self) -> bool {
        self.is_verified()
            && matches!(
                self.outcome,
                Outcome::Written | Outcome::AlreadyPulled | Outcome::Duplicate
            )
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
    /// Protocol v2: the device's own frames (hello, lost, full, pull, acked, error).
    Device(DeviceFact),
}

/// A run of game numbers of one device never received complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    /// Device id.
    pub dev: u64,
    /// First missing number.
    pub first: u32,
    /// Last missing number.
    pub last: u32,
}

/// Everything a pull found, in the terms of the report: what was received, what was lost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games (v2: distinct device and number) received and safely in the directory.
    pub received: usize,
    /// Of those, stored games that were interrupted (partial, verified prefixes).
    pub partial: usize,
    /// Copies of a game received again with the same content: `(device, game)`.
    pub duplicates: Vec<(u64, u32)>,
    /// Games received with different contents under the same number.
    pub conflicts: Vec<(u64, u32, String)>,
    /// Game numbers never seen complete (between numbers seen, and up to the hello's
    /// `next`).
    pub gaps: Vec<Gap>,
    /// Games that arrived damaged or unfinished and never arrived whole.
    pub failed: Vec<String>,
    /// Frames the device said it dropped, whose game never arrived whole: failures.
    pub lost: Vec<String>,
    /// Facts that do not fail the pull: live losses of games that arrived whole from the
    /// store, full stores, damage of games that arrived whole later, errors.
    pub notes: Vec<String>,
    /// Damage not accounted for by a game (after the first frame): failures.
    pub damage: Vec<String>,
}

impl Summary {
    /// Whether every game arrived and verified (notes allowed).
    pub fn is_ok(&self) -> bool {
        self.conflicts.is_empty()
            && self.gaps.is_empty()
            && self.failed.is_empty()
            && self.lost.is_empty()
            && self.damage.is_empty()
    }
}

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

/// A pull in progress: feed it capture bytes, it writes each game as it closes (or, with
/// [`PullOptions::defer`], when the capture ends).
#[derive(Debug)]
pub struct Puller {
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
    damage: Vec<Damage>,
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
            decoder: CaptureDecoder::new(elf)?,
            out_dir: out_dir.to_path_buf(),
            options,
            pending: Vec::new(),
            pulled: Vec::new(),
            verified: BTreeMap::new(),
            conflicts: BTreeMap::new(),
            damage: Vec::new(),
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
        let mut out = self.handle(events)?;
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
                    if !noise {
                        self.damage.push(d.clone());
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
                    pulled.path = Some(self.out_dir.join(file_name_v2(
                        dev,
                        pulled.game.number,
                        first.complete,
                    )));
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
        for (&dev, numbers) in &self.seen {
            let Some(&lo) = numbers.iter().next() else {
                continue;
            };
            let hi = numbers
                .iter()
                .next_back()
                .copied()
                .unwrap_or(lo)
                .max(self.next.get(&dev).map_or(0, |n| n.saturating_sub(1)));
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

/// Why two verified copies of one game are not the same game, or `None` when they are
/// (a partial copy that is a prefix of a complete one is the same game).
fn differs(a: &MoveLog, b: &MoveLog) -> Option<String> {
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

fn v2_name(dev: u64, game: u32, kind: &str) -> String {
    let dot = if kind.is_empty() { "" } else { "." };
    format!("{dev:016x}-g{game:06}{dot}{kind}.{EXTENSION}")
}

/// What [`write_new`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    /// The file is new.
    New,
    /// The file was there with the same bytes.
    Identical,
    /// The file was there with other bytes; left as it was.
    Differs,
}

/// Writes `bytes` to `path` durably (synced, then linked into place, then the directory
/// synced) unless `path` exists; never overwrites.
fn write_new(path: &Path, bytes: &[u8]) -> io::Result<Written> {
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
}
