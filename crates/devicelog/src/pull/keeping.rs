//! Where each game's copy is kept: the verified copy written (or found on disk already),
//! a longer copy of an interrupted game taking the place of this pull's own prefix, the
//! notes on names taken, and stray frames of a game kept whole held against its file.

use std::io;
use std::path::Path;

use twenty48_movelog::{MoveLog, Placed};

use super::copies::{contradiction, relation, Parting, Relation};
use super::files::{kept_at, place, read_log, taken_names, Kept};
use super::runs::key;
use super::{file_name_v2, Outcome, Pulled, Puller};
use crate::event::StrayFrame;

impl Puller {
    /// A frame of game `number` of `dev` came with no such game open. When this pull kept
    /// that game whole, or (deferred) holds a whole verified copy of it waiting, and the
    /// frame contradicts it (a move after its end, another move, a second end that
    /// differs), the game is in conflict: reported, its later copies not acknowledged, and a
    /// deferred game not written at all. (A file written stays as it is: nothing in the
    /// directory is replaced.)
    pub(super) fn stray(&mut self, dev: u64, number: u32, frame: &StrayFrame) {
        let k = key(dev, number);
        if self.conflicts.get(k).is_some() {
            return;
        }
        let path = self
            .kept
            .get(k)
            .filter(Kept::is_whole)
            .map(|at| at.path(self.folder.path(), dev, number));
        if self.stray_cache.as_ref().is_none_or(|(key, _)| *key != k) {
            let log = match &path {
                Some(path) => read_log(&*self.folder, path),
                None => self
                    .pending_whole
                    .get(&k)
                    .and_then(|&i| self.pending[i].to_movelog(false)),
            };
            self.stray_cache = Some((k, log));
        }
        let Some((_, Some(kept))) = &self.stray_cache else {
            return;
        };
        if let Some(why) = contradiction(kept, frame) {
            self.conflicts.insert(k, Parting::Frame);
            let kept = match &path {
                Some(path) => format!(
                    "the copy kept, {}, is left as it was written",
                    twenty48_movelog::shown(path)
                ),
                None => "no copy of the game is written".to_string(),
            };
            self.ledger.conflict(k, &format!("{why} ({kept})"));
        }
    }

    /// Notes that `wanted` held other contents when the file of a copy of game `k` (v2)
    /// went to `placed` instead, and whose contents: another copy this pull wrote, or a
    /// file that was there before.
    pub(super) fn note_free_name(&mut self, wanted: &str, placed: &Path, k: Option<u128>) {
        if placed.file_name().is_none_or(|n| n == wanted) {
            return;
        }
        let wanted = twenty48_movelog::shown(&self.folder.path().join(wanted));
        let placed = twenty48_movelog::shown(placed);
        self.ledger.free_names.push(match k {
            Some(k) if self.written_here.contains(k) => format!(
                "{wanted} holds another copy of this game that this pull wrote; this copy is in {placed}"
            ),
            _ => format!(
                "{wanted} was already there with other contents and is left as it is; the game is in {placed}"
            ),
        });
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
    pub(super) fn write(
        &mut self,
        pulled: &mut Pulled,
        dev: u64,
        log: MoveLog,
        ack: Option<twenty48_deviceproto::Ack>,
    ) -> io::Result<()> {
        let number = pulled.game.number;
        let k = key(dev, number);
        if !log.complete {
            let on_disk = [true, false].into_iter().find_map(|complete| {
                let name = file_name_v2(dev, number, complete);
                taken_names(&*self.folder, &name)
                    .into_iter()
                    .enumerate()
                    .find_map(|(i, path)| {
                        let other = read_log(&*self.folder, &path)?;
                        (relation(&other, &log) == Relation::Contained)
                            .then_some((path, Kept::at(complete, i + 1)))
                    })
            });
            if let Some((path, at)) = on_disk {
                pulled.path = Some(path);
                pulled.outcome = Outcome::AlreadyPulled;
                pulled.ack = ack;
                self.keep(k, at, false);
                return Ok(());
            }
        }
        // This pull's own shorter prefix of the game, which this copy extends.
        let own_prefix = self
            .kept
            .get(k)
            .filter(|at| at.is_ours() && !at.is_whole())
            .map(|at| at.path(self.folder.path(), dev, number));
        if let (Some(path), false) = (&own_prefix, log.complete) {
            self.folder.replace(path, &log.encode())?;
            pulled.outcome = Outcome::Written;
            pulled.path = Some(path.clone());
            pulled.replaces = Some(path.clone());
            pulled.ack = ack;
            self.stray_cache = None;
            self.ledger.received(k, false);
            return Ok(());
        }
        let name = file_name_v2(dev, number, log.complete);
        let placed = place(&mut *self.folder, &name, &log)?;
        self.note_free_name(&name, placed.path(), Some(k));
        let mut at = kept_at(self.folder.path(), &name, log.complete, placed.path());
        pulled.outcome = match placed {
            Placed::Identical(_) => Outcome::AlreadyPulled,
            _ => {
                at = at.written_here();
                self.written_here.add(k);
                Outcome::Written
            }
        };
        if let Some(prefix) = own_prefix.filter(|p| p != placed.path()) {
            // The whole game is on disk now: the prefix this pull wrote goes. (Should it
            // stay, for want of the right to remove it, nothing is lost.)
            self.folder.remove(&prefix);
            pulled.replaces = Some(prefix);
        }
        pulled.path = Some(placed.path().to_path_buf());
        pulled.ack = ack;
        self.keep(k, at, log.complete);
        Ok(())
    }

    /// Game `k` is safely in the directory, its kept copy at `at` (`whole`: this copy is a
    /// whole game, not an interrupted one's prefix).
    pub(super) fn keep(&mut self, k: u128, at: Kept, whole: bool) {
        self.kept.insert(k, at);
        self.stray_cache = None;
        self.ledger.received(k, whole);
    }
}
