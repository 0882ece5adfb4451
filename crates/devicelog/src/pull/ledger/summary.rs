//! What a pull found ([`Summary`]), gathered from what its [`Ledger`] kept of every copy
//! closed: received games, duplicates, conflicts, gaps, losses, notes. Runs in time
//! proportional to the runs and lists kept (each bounded) and one listing of the folder,
//! never to the game numbers they name.

use std::collections::BTreeMap;

use crate::fact::DeviceFact;
use crate::pull::folder::Folder;
use crate::pull::names::on_disk;
use crate::pull::runs::{key, parts, Runs, MAX_RUNS};

use super::{Ledger, LISTED, MAX_DEVICES};

impl Ledger {
    /// What the pull found: received games, duplicates, conflicts, gaps, losses, notes,
    /// the gaps checked against the names in `folder`. `overflowed`: a set kept beside the
    /// ledger ran out of room.
    pub(in crate::pull) fn summary(&self, folder: &dyn Folder, overflowed: bool) -> Summary {
        let l = self;
        let mut s = Summary::default();
        copies(l, &mut s);
        s.received = count(l.received.count_without(&[&l.conflicted])) + count(l.received_v1);
        s.partial = count(l.received.count_without(&[&l.whole, &l.conflicted]));
        s.duplicates = l.duplicates.items.clone();
        s.totals.duplicates = l.duplicates.items.len() + l.duplicates.more;
        s.conflicts = l.conflicts.items.clone();
        s.totals.conflicts = l.conflicts.items.len() + l.conflicts.more;
        more(&mut s.failed, l.conflicts.more, "games in conflict");
        facts(l, &mut s);
        s.lost.extend(l.short_replies.items.iter().cloned());
        more(&mut s.lost, l.short_replies.more, "short pull replies");
        l.cuts.report(&mut s.notes, &mut s.lost);
        if l.received_v1 > 0 {
            // v1 frames carry no check values (docs/firmware.md): bits flipped in transit
            // can make another game that still replays.
            s.notes.push(format!(
                "{} of protocol v1, whose frames carry no check values: a frame damaged on the way can give another game that still verifies; pull v1 boards over a clean link, or update their firmware",
                match l.received_v1 {
                    1 => "1 game".to_string(),
                    n => format!("{n} games"),
                }
            ));
        }
        s.notes.extend(l.earlier_replies.items.iter().cloned());
        more(
            &mut s.notes,
            l.earlier_replies.more,
            "short replies to an earlier request",
        );
        for (d, _) in l
            .damage
            .items
            .iter()
            .zip(&l.noise)
            .filter(|(_, noise)| !**noise)
        {
            let whole = d
                .game
                .is_some_and(|g| l.received_numbers.contains(u128::from(g)));
            if whole {
                s.notes.push(format!("{d}; its game arrived whole"));
            } else {
                s.damage.push(d.to_string());
            }
        }
        let unlisted = l.damage.more - l.noise_unlisted;
        if unlisted > 0 {
            s.damage.push(format!(
                "{unlisted} more damaged stretches after the first {LISTED}, counted but not listed"
            ));
        }
        self.gaps(folder, &mut s);
        more(&mut s.notes, l.duplicates.more, "duplicates");
        s.notes.extend(l.free_names.items.iter().cloned());
        more(&mut s.notes, l.free_names.more, "games sent to a free name");
        if l.overflowed() || overflowed {
            s.failed.push(format!(
                "the pull received more games than it keeps track of ({MAX_RUNS} runs of game numbers a set, {MAX_DEVICES} devices): the gaps, losses and failures above may name games that did arrive, and later copies of some games were compared with the files on disk only"
            ));
        }
        s
    }

    /// The gaps in each device's game numbers: numbers between the lowest and highest seen
    /// (and up to the one before its hello's `next`) that never arrived and are not in the
    /// directory; and a note for the game in progress when the pull began.
    fn gaps(&self, folder: &dyn Folder, s: &mut Summary) {
        let l = self;
        // Each device's lowest and highest number seen.
        let mut devices: BTreeMap<u64, (u32, u32)> = BTreeMap::new();
        let mut see = |dev: u64, lo: u32, hi: u32| {
            let range = devices.entry(dev).or_insert((lo, hi));
            *range = (range.0.min(lo), range.1.max(hi));
        };
        for (first, last, ()) in l.seen.iter() {
            let ((d0, n0), (d1, n1)) = (parts(first), parts(last));
            if d0 == d1 {
                see(d0, n0, n1);
            } else {
                see(d0, n0, u32::MAX);
                see(d1, 0, n1);
                for dev in d0 + 1..d1 {
                    see(dev, 0, u32::MAX);
                }
            }
        }
        // The numbers not seen, up to the number hello announced: candidates, which the
        // directory may hold.
        let mut candidates = Vec::new();
        let mut ranges = Vec::new();
        for (&dev, &(lo, seen_hi)) in &devices {
            let announced = l.next.get(&dev).map_or(0, |n| n.saturating_sub(1));
            let top = seen_hi.max(announced);
            let span = Runs::span(key(dev, lo), key(dev, top));
            candidates.extend(span.without(&[&l.seen, &l.received, &l.conflicted]));
            ranges.push((dev, lo, seen_hi, announced));
        }
        let candidates = Runs::from_runs(candidates);
        let mut found = Runs::default();
        on_disk(folder, |dev, number| {
            let k = key(dev, number);
            if candidates.contains(k) {
                found.add(k);
            }
        });
        let missing = Runs::from_runs(candidates.without(&[&found]));
        for (dev, lo, seen_hi, announced) in ranges {
            // The newest number hello announced is the game in progress when the host
            // asked (a pull reply leaves it out) unless it arrived: a note, not a gap.
            let in_progress = announced > seen_hi && missing.contains(key(dev, announced));
            if in_progress {
                s.notes.push(format!(
                    "device {dev:016x} game {announced}: not sent (being played when the pull began); the next pull brings it"
                ));
            }
            let hi = seen_hi.max(announced.saturating_sub(u32::from(in_progress)));
            for (first, last) in missing.within(key(dev, lo), key(dev, hi)) {
                s.totals.gaps += 1;
                if s.gaps.len() < LISTED {
                    s.gaps.push(Gap {
                        dev,
                        first: parts(first).1,
                        last: parts(last).1,
                    });
                }
            }
        }
        more(
            &mut s.lost,
            s.totals.gaps - s.gaps.len(),
            "runs of game numbers never received complete",
        );
    }
}

/// The copies that failed or were in progress: failures, or notes when another copy of the
/// game arrived whole.
fn copies(l: &Ledger, s: &mut Summary) {
    let mut listed = Runs::default();
    for c in &l.copies.items {
        if c.in_progress {
            s.notes.push(c.text.clone());
        } else if c.key.is_some_and(|k| l.received.contains(k)) {
            s.notes.push(format!(
                "{} (the game arrived whole in another copy)",
                c.text
            ));
        } else {
            s.failed.push(c.text.clone());
            if let Some(k) = c.key {
                listed.add(k);
            }
        }
    }
    let unlisted =
        count(l.failed_unlisted.count_without(&[&l.received, &listed])) + l.failed_unlisted_v1;
    more(
        &mut s.failed,
        unlisted,
        "games damaged or unfinished that never arrived whole",
    );
    more(
        &mut s.notes,
        l.in_progress_unlisted,
        "games still being played when the pull ended",
    );
}

/// The device's frames that the report names: losses (a failure unless the game arrived
/// whole), full stores and errors (notes).
fn facts(l: &Ledger, s: &mut Summary) {
    for fact in &l.facts.items {
        match *fact {
            DeviceFact::Lost {
                dev, game, frames, ..
            } => {
                let whole = game != 0
                    && dev.map_or(l.received_numbers.contains(u128::from(game)), |d| {
                        l.received.contains(key(d, game))
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
            DeviceFact::Full { .. } | DeviceFact::Error { .. } => s.notes.push(fact.to_string()),
            _ => {}
        }
    }
    let lost = l.lost_unlisted.count_without(&[&l.received])
        + l.lost_unlisted_numbers
            .count_without(&[&l.received_numbers]);
    more(
        &mut s.lost,
        count(lost),
        "games the device said it dropped frames of, and that never arrived whole",
    );
    more(
        &mut s.notes,
        l.lost_unlisted_no_game + l.notes_unlisted,
        "frames of the device (frames lost outside any game, a full store, errors)",
    );
}

/// Adds to `list` the line counting `n` more `what` past the first [`LISTED`], if any.
fn more(list: &mut Vec<String>, n: usize, what: &str) {
    if n > 0 {
        list.push(format!(
            "{what}: {n} more after the first {LISTED}, counted but not listed"
        ));
    }
}

/// A count of keys, as a count of games.
fn count(n: impl TryInto<usize>) -> usize {
    n.try_into().unwrap_or(usize::MAX)
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
///
/// Each list holds at most its first [`LISTED`](super::super::LISTED) entries (and the sentence
/// lists a last line counting the rest): a hostile stream takes no more memory for them.
/// [`Summary::totals`] has the full counts of the lists of games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games (v2: distinct device and number) received and safely in the directory.
    pub received: usize,
    /// Of those, stored games that were interrupted (partial, verified prefixes) and never
    /// came whole.
    pub partial: usize,
    /// Copies of a game received again with the same content: `(device, game)`.
    pub duplicates: Vec<(u64, u32)>,
    /// Games received with different contents under the same number.
    pub conflicts: Vec<(u64, u32, String)>,
    /// Game numbers never seen complete (between numbers seen, and up to the hello's
    /// `next`).
    pub gaps: Vec<Gap>,
    /// Games that arrived damaged or unfinished and never arrived whole; and what the pull
    /// could not account for (more devices or runs of game numbers than it keeps).
    pub failed: Vec<String>,
    /// Frames the device said it dropped, whose game never arrived whole: failures.
    pub lost: Vec<String>,
    /// Facts that do not fail the pull: live losses of games that arrived whole from the
    /// store, full stores, damage of games that arrived whole later, errors.
    pub notes: Vec<String>,
    /// Damage not accounted for by a game (after the first frame): failures.
    pub damage: Vec<String>,
    /// How many entries the lists of games have in all, listed or not.
    pub totals: Totals,
}

/// The full counts of a [`Summary`]'s lists of games (which list only their first
/// [`LISTED`](super::super::LISTED)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Duplicates.
    pub duplicates: usize,
    /// Games in conflict.
    pub conflicts: usize,
    /// Runs of game numbers never received.
    pub gaps: usize,
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
