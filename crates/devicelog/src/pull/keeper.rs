//! The copies kept: of each game, which copy is in the folder and where (the verified copy
//! written, or found there already; a longer copy of an interrupted game taking the place
//! of this pull's own prefix), the games found in conflict, and stray frames of a game kept
//! whole held against its file. Every file the pull writes is written here, through its
//! [`Folder`].

use std::io;

use twenty48_movelog::{free_file_name, MoveLog, MAX_FREE_NAMES};

use crate::check::Problem;
use crate::event::StrayFrame;
use crate::received::ReceivedGame;

use super::copies::{contradiction, relation, Parting, Relation};
use super::folder::{place, taken_names, Folder};
use super::ledger::Ledger;
use super::names::{file_name, file_name_v2, read_log, v2_name};
use super::pulled::{Outcome, Pulled};
use super::runs::{key, Runs};

/// Where a pull keeps a game: the `index`th name (1: the name itself, 2: `NAME-2`, ...) of
/// its whole or (`complete` false) interrupted name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kept {
    complete: bool,
    index: u16,
    /// This pull wrote the file (it was not in the folder before).
    ours: bool,
}

impl Kept {
    /// The `index`th name of the whole or interrupted game's name.
    fn at(complete: bool, index: u32, ours: bool) -> Kept {
        Kept {
            complete,
            index: u16::try_from(index).unwrap_or(u16::MAX),
            ours,
        }
    }

    /// Where `placed`, written for `name`, is among the names tried for it.
    fn placed(name: &str, complete: bool, placed: &str, ours: bool) -> Kept {
        let index = (1..=MAX_FREE_NAMES)
            .find(|&n| free_file_name(name, n) == placed)
            .unwrap_or(1);
        Kept::at(complete, index, ours)
    }

    /// The file name of game `number` of `dev` kept here.
    fn name(self, dev: u64, number: u32) -> String {
        free_file_name(
            &file_name_v2(dev, number, self.complete),
            u32::from(self.index),
        )
    }
}

/// The copies a pull kept, and the games in conflict.
#[derive(Debug)]
pub(super) struct Keeper {
    /// Where the files go: everything the pull does with files goes through it.
    folder: Box<dyn Folder>,
    /// Also write the verified moves of damaged or unfinished games, marked incomplete.
    keep_partial: bool,
    /// v2: where the copy kept of each game (the longest verified one so far) is.
    kept: Runs<Kept>,
    /// v2: games found in conflict, and how their copies part.
    conflicts: Runs<Parting>,
    /// v2: games this pull wrote a file of (whole, prefix or damaged).
    written_here: Runs,
    /// The copy a stray frame was last held against (read from its file, or a waiting
    /// copy's moves), `None` when the game has no whole verified copy to hold it against.
    stray_cache: Option<(u128, Option<MoveLog>)>,
}

impl Keeper {
    /// Keeps the copies in `folder`.
    pub(super) fn new(folder: Box<dyn Folder>, keep_partial: bool) -> Keeper {
        Keeper {
            folder,
            keep_partial,
            kept: Runs::default(),
            conflicts: Runs::default(),
            written_here: Runs::default(),
            stray_cache: None,
        }
    }

    /// The folder the files are in.
    pub(super) fn folder(&self) -> &dyn Folder {
        &*self.folder
    }

    /// Whether a set of games kept here ran out of room.
    pub(super) fn overflowed(&self) -> bool {
        self.kept.overflowed() || self.conflicts.overflowed()
    }

    /// Game `k` is found in conflict before any copy of it is kept (copies waiting for a
    /// decision that part).
    pub(super) fn conflict_found(&mut self, k: u128, parting: Parting) {
        self.conflicts.insert(k, parting);
    }

    /// A copy waiting for a decision changed: a stray frame is held against it afresh.
    pub(super) fn forget_stray(&mut self, k: Option<u128>) {
        if k.is_none()
            || self
                .stray_cache
                .as_ref()
                .is_some_and(|(c, _)| Some(*c) == k)
        {
            self.stray_cache = None;
        }
    }

    /// Checks a game and writes what is certain of it. `in_progress`: a live game still
    /// being played when a port pull ended (every move so far verified, no end yet) is in
    /// the device's store, not a failure.
    pub(super) fn save(
        &mut self,
        game: ReceivedGame,
        in_progress: bool,
        ledger: &mut Ledger,
    ) -> io::Result<Pulled> {
        let Some(dev) = game.dev else {
            return self.save_v1(game, ledger);
        };
        let check = game.check();
        let k = key(dev, game.number);
        if in_progress
            && !game.is_stored()
            && game.end.is_none()
            && matches!(check.problem, Some(Problem::Truncated { .. }))
        {
            ledger.copy(
                Some(k),
                format!(
                    "device {dev:016x} game {}: still being played when the pull ended ({} moves so far, verified); it is in the device's store and the next pull brings it",
                    game.number, check.verified_moves
                ),
                true,
            );
            return Ok(Pulled {
                outcome: Outcome::InProgress,
                ..Pulled::unwritten(game, check)
            });
        }
        let ack = game
            .end
            .and_then(|e| e.check)
            .map(|check| twenty48_deviceproto::Ack {
                game: game.number,
                check,
            });
        let mut pulled = Pulled::unwritten(game, check);
        if !pulled.check.is_verified() {
            if self.keep_partial {
                if let Some(log) = pulled.game.to_movelog(true) {
                    let name = v2_name(dev, pulled.game.number, "damaged");
                    let placed = place(&mut *self.folder, &name, &log.encode())?;
                    self.note_free_name(&name, &placed.name, Some(k), ledger);
                    if placed.new {
                        self.written_here.add(k);
                    }
                    pulled.file = Some(placed.name);
                    pulled.outcome = Outcome::DamagedPrefix;
                }
            }
            ledger.copy(Some(k), describe_problem(&pulled), false);
            return Ok(pulled);
        }
        let log = pulled
            .game
            .to_movelog(false)
            .expect("a verified game has a log");
        if let Some(parting) = self.conflicts.get(k) {
            conflict(&mut pulled, k, parting, ledger);
            return Ok(pulled);
        }
        let kept = self.kept.get(k).and_then(|at| {
            let name = at.name(dev, pulled.game.number);
            Some((read_log(&*self.folder, &name)?, name))
        });
        match kept.map(|(kept, name)| (relation(&kept, &log), name)) {
            Some((Relation::Conflict(parting), _)) => {
                self.conflicts.insert(k, parting);
                conflict(&mut pulled, k, parting, ledger);
            }
            Some((Relation::Contained, name)) => {
                // Every move of this copy is in the kept one's file.
                pulled.outcome = Outcome::Duplicate;
                pulled.file = Some(name);
                pulled.ack = ack;
                ledger.duplicate(dev, pulled.game.number);
            }
            Some((Relation::Extends, _)) | None => {
                self.write(&mut pulled, dev, log, ack, ledger)?
            }
        }
        Ok(pulled)
    }

    /// Protocol v1: one file per game received, never over another file.
    fn save_v1(&mut self, game: ReceivedGame, ledger: &mut Ledger) -> io::Result<Pulled> {
        let check = game.check();
        let mut pulled = Pulled::unwritten(game, check);
        if let Some(log) = pulled.game.to_movelog(self.keep_partial) {
            let name = file_name(&pulled.game, log.complete);
            let placed = place(&mut *self.folder, &name, &log.encode())?;
            self.note_free_name(&name, &placed.name, None, ledger);
            pulled.outcome = match (placed.new, pulled.is_verified()) {
                (_, false) => Outcome::DamagedPrefix,
                (false, true) => Outcome::AlreadyPulled,
                (true, true) => Outcome::Written,
            };
            pulled.file = Some(placed.name);
        }
        if pulled.is_verified() {
            ledger.received_v1();
        } else {
            ledger.copy(None, describe_problem(&pulled), false);
        }
        Ok(pulled)
    }

    /// Writes the verified v2 copy `log`, the one now kept of its game, unless a file an
    /// earlier pull wrote holds it already (the same bytes, or for an interrupted game a
    /// longer copy it begins); a name that holds another game sends it to a free name.
    ///
    /// One game, one file: when the copy kept so far is an interrupted game's prefix that
    /// this pull wrote (so this copy extends it), this copy takes its place: a longer
    /// prefix replaces that file (atomically: the file holds one or the other), a whole
    /// game is written under its own name and the prefix's file is then removed. A file an
    /// earlier pull wrote is never touched.
    fn write(
        &mut self,
        pulled: &mut Pulled,
        dev: u64,
        log: MoveLog,
        ack: Option<twenty48_deviceproto::Ack>,
        ledger: &mut Ledger,
    ) -> io::Result<()> {
        let number = pulled.game.number;
        let k = key(dev, number);
        if !log.complete {
            let on_disk = [true, false].into_iter().find_map(|complete| {
                let name = file_name_v2(dev, number, complete);
                taken_names(&*self.folder, &name)
                    .into_iter()
                    .enumerate()
                    .find_map(|(i, taken)| {
                        let other = read_log(&*self.folder, &taken)?;
                        (relation(&other, &log) == Relation::Contained)
                            .then_some((taken, Kept::at(complete, i as u32 + 1, false)))
                    })
            });
            if let Some((name, at)) = on_disk {
                pulled.file = Some(name);
                pulled.outcome = Outcome::AlreadyPulled;
                pulled.ack = ack;
                self.keep(k, at, false, ledger);
                return Ok(());
            }
        }
        // This pull's own shorter prefix of the game, which this copy extends.
        let own_prefix = self
            .kept
            .get(k)
            .filter(|at| at.ours && !at.complete)
            .map(|at| at.name(dev, number));
        if let (Some(prefix), false) = (&own_prefix, log.complete) {
            self.folder.replace(prefix, &log.encode())?;
            pulled.outcome = Outcome::Written;
            pulled.file = Some(prefix.clone());
            pulled.replaces = Some(prefix.clone());
            pulled.ack = ack;
            self.stray_cache = None;
            ledger.received(k, false);
            return Ok(());
        }
        let name = file_name_v2(dev, number, log.complete);
        let placed = place(&mut *self.folder, &name, &log.encode())?;
        self.note_free_name(&name, &placed.name, Some(k), ledger);
        let at = Kept::placed(&name, log.complete, &placed.name, placed.new);
        pulled.outcome = if placed.new {
            self.written_here.add(k);
            Outcome::Written
        } else {
            Outcome::AlreadyPulled
        };
        if let Some(prefix) = own_prefix.filter(|p| *p != placed.name) {
            // The whole game is in the folder now: the prefix this pull wrote goes.
            // (Should it stay, for want of the right to remove it, nothing is lost.)
            self.folder.remove(&prefix);
            pulled.replaces = Some(prefix);
        }
        pulled.file = Some(placed.name);
        pulled.ack = ack;
        self.keep(k, at, log.complete, ledger);
        Ok(())
    }

    /// Game `k` is safely in the folder, its kept copy at `at` (`whole`: this copy is a
    /// whole game, not an interrupted one's prefix).
    fn keep(&mut self, k: u128, at: Kept, whole: bool, ledger: &mut Ledger) {
        self.kept.insert(k, at);
        self.stray_cache = None;
        ledger.received(k, whole);
    }

    /// A frame of game `number` of `dev` came with no such game open. When this pull kept
    /// that game whole, or holds a whole verified copy of it waiting (`waiting`), and the
    /// frame contradicts it (a move after its end, another move, a second end that
    /// differs), the game is in conflict: reported, its later copies not acknowledged, and
    /// a waiting game not written at all. (A file written stays as it is: nothing in the
    /// folder is replaced.)
    pub(super) fn stray(
        &mut self,
        dev: u64,
        number: u32,
        frame: &StrayFrame,
        waiting: Option<&ReceivedGame>,
        ledger: &mut Ledger,
    ) {
        let k = key(dev, number);
        if self.conflicts.get(k).is_some() {
            return;
        }
        let name = self
            .kept
            .get(k)
            .filter(|at| at.complete)
            .map(|at| at.name(dev, number));
        if self.stray_cache.as_ref().is_none_or(|(key, _)| *key != k) {
            let log = match &name {
                Some(name) => read_log(&*self.folder, name),
                None => waiting.and_then(|g| g.to_movelog(false)),
            };
            self.stray_cache = Some((k, log));
        }
        let Some((_, Some(kept))) = &self.stray_cache else {
            return;
        };
        if let Some(why) = contradiction(kept, frame) {
            self.conflicts.insert(k, Parting::Frame);
            let kept = match &name {
                Some(name) => format!(
                    "the copy kept, {}, is left as it was written",
                    self.folder.shown(name)
                ),
                None => "no copy of the game is written".to_string(),
            };
            ledger.conflict(k, &format!("{why} ({kept})"));
        }
    }

    /// Notes that `wanted` held other contents when the file of a copy of game `k` (v2)
    /// went to `placed` instead, and whose contents: another copy this pull wrote, or a
    /// file that was there before.
    fn note_free_name(&self, wanted: &str, placed: &str, k: Option<u128>, ledger: &mut Ledger) {
        if placed == wanted {
            return;
        }
        let wanted = self.folder.shown(wanted);
        let placed = self.folder.shown(placed);
        ledger.free_name(match k {
            Some(k) if self.written_here.contains(k) => format!(
                "{wanted} holds another copy of this game that this pull wrote; this copy is in {placed}"
            ),
            _ => format!(
                "{wanted} was already there with other contents and is left as it is; the game is in {placed}"
            ),
        });
    }
}

/// The copy `pulled` of game `k` parts from another (`parting`): not written, not
/// acknowledged, reported.
fn conflict(pulled: &mut Pulled, k: u128, parting: Parting, ledger: &mut Ledger) {
    pulled.outcome = Outcome::Conflict {
        reason: parting.to_string(),
    };
    ledger.conflict(k, &parting.to_string());
}

/// What the report says of a copy that did not verify (or was not written).
fn describe_problem(p: &Pulled) -> String {
    match &p.check.problem {
        Some(problem) => format!("{problem}"),
        None => format!("game {}: not written", p.game.number),
    }
}
