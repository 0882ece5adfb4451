//! Pulling games off a capture into verified `.t48` files: everything `twenty48 pull` does
//! except reading its arguments, talking to the port and printing.
//!
//! Protocol v2 and v3 games are keyed by (device id, game number). A game may arrive more
//! than once (live while it was played, then from the store in a pull reply; or the same
//! capture twice): which copy is kept is decided by content, never by arrival: the longer
//! verified prefix wins (a copy whose moves are all in the kept one is a duplicate), and
//! copies that part are a conflict (neither written when the pull sees both before writing,
//! as from a capture file). An acknowledgement names a copy only once every move of it is in
//! a file on disk. Protocol v1 games have no identity and are written one file per game.
//!
//! Nothing in the directory is ever replaced: a name that holds other contents sends the
//! game to the first free name after it, with a note (`twenty48_movelog::write_free`).
//!
//! Memory is bounded whatever the stream: the decoder holds at most
//! [`MAX_OPEN_GAMES`](crate::MAX_OPEN_GAMES) games in flight (each its verified moves at 2
//! bits a move), a deferred pull holds closed copies up to [`DEFER_BYTES`] before deciding
//! on them, and what the report needs is kept as runs of game numbers ([`MAX_RUNS`] runs a
//! set) and lists of their first [`LISTED`] entries, the rest counted.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use twenty48_movelog::MoveLog;

use crate::capture::CaptureDecoder;
use crate::check::Problem;
use crate::error::DeviceLogError;
use crate::event::{DamageKind, Event};
use crate::fact::DeviceFact;
use crate::received::ReceivedGame;

mod acks;
mod conversation;
mod copies;
mod files;
mod folder;
mod keeping;
mod ledger;
mod replies;
mod report;
mod runs;
mod summary;
mod verdict;

pub use acks::{AckWindow, ACKS_IN_FLIGHT, MAX_WAITING};
pub use conversation::{Conversation, State};
use copies::{choose, relation, Parting, Relation};
pub use files::{file_name, file_name_v2, save};
use files::{place, read_log, save_in, v2_name, Kept};
pub use folder::{Directory, Folder};
use ledger::Ledger;
pub use ledger::{Listed, LISTED, MAX_DEVICES};
pub use report::{Gap, Outcome, Progress, Pulled, Summary, Totals};
pub use runs::MAX_RUNS;
use runs::{key, Runs};
use twenty48_movelog::Placed;
pub use verdict::{Copies, Failure, Silence, Verdict, EXIT_FAILED};

/// How a pull writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PullOptions {
    /// Also write damaged or unfinished games: their verified moves, marked incomplete.
    pub keep_partial: bool,
    /// Write nothing until the capture ends (or [`DEFER_BYTES`] of copies are waiting),
    /// then decide on every game with all its copies in view (a capture file: a conflict is
    /// then never written at all). Without it each game is written as soon as it closes (a
    /// live port, so it can be acknowledged).
    pub defer: bool,
}

/// At most this many damaged stretches are kept and listed one by one; the rest are
/// counted (as every list of the report: [`LISTED`]).
pub const LISTED_DAMAGE: usize = LISTED;

/// A deferred pull decides on the copies waiting once they and the reports their decision
/// will make hold this many bytes (about 750 bytes a copy, and its verified moves at 2
/// bits each), and goes on deferring: a capture's games are decided with every copy in view
/// in batches this large (about 20,000 games of 1,000 moves).
pub const DEFER_BYTES: usize = 16 << 20;

/// What a copy waiting for a deferred decision costs beyond its moves: itself, and the
/// report of what became of it (its path besides).
const DEFERRED_COPY: usize =
    std::mem::size_of::<ReceivedGame>() + std::mem::size_of::<Pulled>() + 128;

/// A pull in progress: feed it capture bytes, it writes each game as it closes (or, with
/// [`PullOptions::defer`], when the capture ends).
#[derive(Debug)]
pub struct Puller {
    /// Set while the games still open at the end are handed over by [`Puller::finish`].
    finishing: bool,
    decoder: CaptureDecoder<ReceivedGame>,
    /// Where the files go: everything the pull does with files goes through it.
    folder: Box<dyn Folder>,
    options: PullOptions,
    /// Deferred copies, in closing order, and what they hold.
    pending: Vec<ReceivedGame>,
    pending_bytes: usize,
    /// Deferred: of each game with a whole verified copy waiting, the first such copy's
    /// index in `pending` (what a stray frame of it is held against).
    pending_whole: BTreeMap<u128, usize>,
    /// v2: where the copy kept of each game (the longest verified one so far) is.
    kept: Runs<Kept>,
    /// v2: games found in conflict, and how their copies part.
    conflicts: Runs<Parting>,
    /// What the report needs.
    ledger: Ledger,
    /// Whether any frame decoded yet (damage before the first one is line noise).
    decoded_any: bool,
    /// v2: the pull reply under way: (device, games announced, games closed with an end
    /// or partial frame since).
    reply: Option<(u64, u32, u32)>,
    /// v2: of each device (at most [`MAX_DEVICES`]), the games closed with an end or
    /// partial frame while no reply of it was under way, since its last hello, pull begin
    /// or pull done: what arrived of a reply whose pull begin this pull never saw.
    outside: BTreeMap<u64, u32>,
    /// The pull asked a device for its games ([`Conversation::with_device`]): a reply
    /// whose pull begin it never saw answered an earlier request, and the games of it not
    /// acknowledged come again in this pull's own reply.
    asked: bool,
    /// v2: games this pull wrote a file of (whole, prefix or damaged).
    written_here: Runs,
    /// The copy a stray frame was last held against (read from its file, or a deferred
    /// copy's moves), `None` when the game has no whole verified copy to hold it against.
    stray_cache: Option<(u128, Option<MoveLog>)>,
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

    /// A pull with options, writing into the folder `out_dir` of the file system.
    pub fn with_options(
        elf: &[u8],
        out_dir: &Path,
        options: PullOptions,
    ) -> Result<Puller, DeviceLogError> {
        Puller::with_folder(elf, Box::new(Directory::new(out_dir)), options)
    }

    /// A pull with options, keeping its files in `folder`: it touches no file but through
    /// it.
    pub fn with_folder(
        elf: &[u8],
        folder: Box<dyn Folder>,
        options: PullOptions,
    ) -> Result<Puller, DeviceLogError> {
        Ok(Puller {
            finishing: false,
            decoder: CaptureDecoder::with_record(elf)?,
            folder,
            options,
            pending: Vec::new(),
            pending_bytes: 0,
            pending_whole: BTreeMap::new(),
            kept: Runs::default(),
            conflicts: Runs::default(),
            ledger: Ledger::default(),
            decoded_any: false,
            reply: None,
            outside: BTreeMap::new(),
            asked: false,
            written_here: Runs::default(),
            stray_cache: None,
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
        self.decide_pending(&mut out)?;
        Ok(out)
    }

    /// The device's own frames (hello, lost, full, pull, acked, error), the first
    /// [`LISTED`] of them.
    pub fn facts(&self) -> &[DeviceFact] {
        &self.ledger.facts.items
    }

    /// What this pull holds beyond its fixed parts: the copies waiting for a deferred
    /// decision, in bytes, and the games open in the decoder. Both are bounded
    /// ([`DEFER_BYTES`], [`MAX_OPEN_GAMES`](crate::MAX_OPEN_GAMES)).
    pub fn in_flight(&self) -> (usize, usize) {
        (self.pending_bytes, self.decoder.open_games())
    }

    fn handle(&mut self, events: Vec<Event<ReceivedGame>>) -> io::Result<Vec<Progress>> {
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            if !matches!(event, Event::Damaged(_)) {
                self.decoded_any = true;
            }
            match event {
                Event::GameStarted { dev, number, .. } => {
                    if let Some(dev) = dev {
                        self.ledger.seen(dev, number);
                    }
                    out.push(Progress::Started(event))
                }
                Event::Moved { game, mv } => out.push(Progress::Moved {
                    game,
                    seq: mv.seq,
                    moves: 1,
                }),
                Event::StoredMoves { game, first, count } => out.push(Progress::Moved {
                    game,
                    seq: first.saturating_add(count),
                    moves: count,
                }),
                Event::GameClosed(game) => self.closed(*game, &mut out)?,
                Event::Damaged(d) => {
                    let noise = !self.decoded_any
                        && matches!(
                            d.kind,
                            DamageKind::Malformed
                                | DamageKind::Unterminated
                                | DamageKind::Oversized
                        );
                    if !noise {
                        self.ledger.damage.push(d.clone());
                    }
                    out.push(Progress::Damaged(d))
                }
                Event::Device(fact) => {
                    match fact {
                        DeviceFact::Hello { dev, next, .. } => {
                            self.reply_fact(fact);
                            self.ledger.hello(dev, next)
                        }
                        DeviceFact::PullBegin { .. } | DeviceFact::PullDone { .. } => {
                            self.reply_fact(fact)
                        }
                        DeviceFact::Lost {
                            dev: Some(dev),
                            game,
                            ..
                        } if game != 0 => self.ledger.seen(dev, game),
                        _ => {}
                    }
                    self.ledger.fact(fact);
                    out.push(Progress::Device(fact))
                }
                Event::Stray { dev, game, frame } => self.stray(dev, game, &frame),
                Event::Message(_) => {}
            }
        }
        Ok(out)
    }

    /// A copy of a game closed: written now, or deferred.
    fn closed(&mut self, game: ReceivedGame, out: &mut Vec<Progress>) -> io::Result<()> {
        self.count_closed(&game);
        if !self.options.defer {
            let pulled = self.save(game)?;
            out.push(Progress::Pulled(Box::new(pulled)));
            return Ok(());
        }
        let check = game.check();
        if let Some(dev) = game.dev {
            let k = key(dev, game.number);
            if check.is_verified() && game.end.is_some() && !game.is_partial() {
                self.pending_whole.entry(k).or_insert(self.pending.len());
                if self.stray_cache.as_ref().is_some_and(|(c, _)| *c == k) {
                    self.stray_cache = None;
                }
            }
        }
        if !self.finishing {
            // Decided on later: shown now as waiting (the games still open at the end go
            // straight to the decision, with no copy for the progress).
            out.push(Progress::Pulled(Box::new(Pulled {
                check,
                game: game.clone(),
                path: None,
                outcome: Outcome::Deferred,
                ack: None,
                replaces: None,
            })));
        }
        self.pending_bytes += DEFERRED_COPY + game.heap_bytes();
        self.pending.push(game);
        if self.pending_bytes > DEFER_BYTES {
            self.decide_pending(out)?;
        }
        Ok(())
    }

    /// Decides on every deferred copy, with all of them in view: the kept copy of each
    /// game is written first, so that the copies it holds are its duplicates whatever their
    /// order; then the rest, in closing order.
    fn decide_pending(&mut self, out: &mut Vec<Progress>) -> io::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        self.pending_bytes = 0;
        self.pending_whole.clear();
        self.stray_cache = None;
        let first = self.choose_copies(&pending);
        let mut saved: BTreeMap<usize, Pulled> = BTreeMap::new();
        for &i in &first {
            saved.insert(i, self.save(pending[i].clone())?);
        }
        out.reserve(pending.len());
        for (i, game) in pending.into_iter().enumerate() {
            let pulled = match saved.remove(&i) {
                Some(pulled) => pulled,
                None => self.save(game)?,
            };
            out.push(Progress::Pulled(Box::new(pulled)));
        }
        Ok(())
    }

    /// Deferred pulls: of each game's verified copies, the one to keep (their indices in
    /// `games`); games whose copies part are conflicts before anything is written. Only
    /// games with more than one copy are compared (one at a time, as move logs).
    fn choose_copies(&mut self, games: &[ReceivedGame]) -> Vec<usize> {
        let mut keyed: Vec<(u128, usize)> = games
            .iter()
            .enumerate()
            .filter_map(|(i, g)| Some((key(g.dev?, g.number), i)))
            .collect();
        keyed.sort_unstable();
        let mut first = Vec::new();
        for same in keyed.chunk_by(|a, b| a.0 == b.0) {
            if same.len() < 2 {
                continue;
            }
            let k = same[0].0;
            let logs: Vec<(usize, MoveLog)> = same
                .iter()
                .filter_map(|&(_, i)| Some((i, games[i].to_movelog(false)?)))
                .collect();
            match choose(logs.iter().map(|(i, log)| (*i, log))) {
                Ok(Some(i)) => first.push(i),
                Ok(None) => {}
                Err(parting) => {
                    self.conflicts.insert(k, parting);
                }
            }
        }
        first.sort_unstable();
        first
    }

    /// Checks a game and writes what is certain of it.
    fn save(&mut self, game: ReceivedGame) -> io::Result<Pulled> {
        let Some(dev) = game.dev else {
            let pulled = save_in(game, &mut *self.folder, self.options.keep_partial)?;
            if let Some(path) = &pulled.path {
                let complete = pulled.is_verified() && !pulled.game.is_partial();
                self.note_free_name(&file_name(&pulled.game, complete), path, None);
            }
            if pulled.is_verified() {
                self.ledger.received_v1 += 1;
            } else {
                self.ledger.copy(None, describe_problem(&pulled), false);
            }
            return Ok(pulled);
        };
        let check = game.check();
        let k = key(dev, game.number);
        if self.finishing
            && !self.options.defer
            && self.reply.is_none()
            && game.end.is_none()
            && matches!(check.problem, Some(Problem::Truncated { .. }))
        {
            // A live game still being played when a port pull ends (not one cut off inside a
            // pull reply): it is stored on the device.
            self.ledger.copy(
                Some(k),
                format!(
                    "device {dev:016x} game {}: still being played when the pull ended ({} moves so far, verified); it is in the device's store and the next pull brings it",
                    game.number, check.verified_moves
                ),
                true,
            );
            return Ok(Pulled {
                check,
                path: None,
                outcome: Outcome::InProgress,
                ack: None,
                replaces: None,
                game,
            });
        }
        let ack = game
            .end
            .and_then(|e| e.check)
            .map(|check| twenty48_deviceproto::Ack {
                game: game.number,
                check,
            });
        let mut pulled = Pulled {
            check,
            path: None,
            outcome: Outcome::NotWritten,
            ack: None,
            replaces: None,
            game,
        };
        if !pulled.check.is_verified() {
            if self.options.keep_partial {
                if let Some(log) = pulled.game.to_movelog(true) {
                    let name = v2_name(dev, pulled.game.number, "damaged");
                    let placed = place(&mut *self.folder, &name, &log)?;
                    self.note_free_name(&name, placed.path(), Some(k));
                    if matches!(placed, Placed::New(_)) {
                        self.written_here.add(k);
                    }
                    pulled.path = Some(placed.path().to_path_buf());
                    pulled.outcome = Outcome::DamagedPrefix;
                }
            }
            self.ledger.copy(Some(k), describe_problem(&pulled), false);
            return Ok(pulled);
        }
        let log = pulled
            .game
            .to_movelog(false)
            .expect("a verified game has a log");
        if let Some(parting) = self.conflicts.get(k) {
            self.conflict(&mut pulled, k, parting);
            return Ok(pulled);
        }
        let kept = self.kept.get(k).and_then(|at| {
            let path = at.path(self.folder.path(), dev, pulled.game.number);
            Some((read_log(&*self.folder, &path)?, path))
        });
        match kept.map(|(kept, path)| (relation(&kept, &log), path)) {
            Some((Relation::Conflict(parting), _)) => {
                self.conflicts.insert(k, parting);
                self.conflict(&mut pulled, k, parting);
            }
            Some((Relation::Contained, path)) => {
                // Every move of this copy is in the kept one's file.
                pulled.outcome = Outcome::Duplicate;
                pulled.path = Some(path);
                pulled.ack = ack;
                self.ledger.duplicates.push((dev, pulled.game.number));
            }
            Some((Relation::Extends, _)) | None => self.write(&mut pulled, dev, log, ack)?,
        }
        Ok(pulled)
    }

    /// The copy `pulled` of game `k` parts from another (`parting`): not written, not
    /// acknowledged, reported.
    fn conflict(&mut self, pulled: &mut Pulled, k: u128, parting: Parting) {
        pulled.outcome = Outcome::Conflict {
            reason: parting.to_string(),
        };
        self.ledger.conflict(k, &parting.to_string());
    }
}

/// What the report says of a copy that did not verify (or was not written).
fn describe_problem(p: &Pulled) -> String {
    match &p.check.problem {
        Some(problem) => format!("{problem}"),
        None => format!("game {}: not written", p.game.number),
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
        puller.ledger.seen(dev, 5);
        puller.ledger.seen(dev, 6);
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
