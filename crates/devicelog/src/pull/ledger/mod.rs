//! What a pull remembers for its report, in bounded room: sets of games as runs of numbers
//! ([`Runs`]), and every list (failures, notes, duplicates, conflicts, the device's frames,
//! damage) kept up to its first [`LISTED`] entries, the rest counted.

use std::collections::BTreeMap;

use crate::event::Damage;
use crate::fact::DeviceFact;

use super::runs::{key, Runs};

/// Each list of a pull's report keeps its first this many entries and counts the rest.
pub const LISTED: usize = 1000;

/// The most devices whose hello a pull remembers (the number of their next game, for the
/// gaps); a stream naming more is reported as such.
pub const MAX_DEVICES: usize = 64;

/// A list that keeps its first [`LISTED`] entries and counts the rest: every list of a
/// pull's report (and of the CLI's), so that no stream can grow one without bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed<T> {
    /// The first [`LISTED`] entries.
    pub items: Vec<T>,
    /// Entries past the first [`LISTED`], counted only.
    pub more: usize,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Listed {
            items: Vec::new(),
            more: 0,
        }
    }
}

impl<T> Listed<T> {
    /// Keeps `item` if there is room, else counts it; whether it was kept.
    pub fn push(&mut self, item: T) -> bool {
        if self.items.len() < LISTED {
            self.items.push(item);
            true
        } else {
            self.more += 1;
            false
        }
    }

    /// Every entry pushed, listed or not.
    pub fn total(&self) -> usize {
        self.items.len() + self.more
    }

    /// The line saying how many `what` (a plural: "games received") the list left out,
    /// if it left any out.
    pub fn unlisted(&self, what: &str) -> Option<String> {
        (self.more > 0).then(|| {
            format!(
                "{} more {what} after the first {LISTED}, counted but not listed",
                self.more
            )
        })
    }
}

/// A copy of a game that did not come safely into the directory, or one still being played:
/// what the report says of it, once it knows whether another copy made it good.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CopyNote {
    /// Protocol v2: the game's key (v1 games have none: their failures stand).
    pub(super) key: Option<u128>,
    /// The problem, by game and move (or the note, for a game in progress).
    pub(super) text: String,
    /// A live game still being played when a port pull ended: a note, never a failure.
    pub(super) in_progress: bool,
}

/// Everything a pull has seen that its report needs.
#[derive(Debug, Default)]
pub(super) struct Ledger {
    /// v2: games safely in the directory (written, already pulled, or a copy contained in
    /// such a one), by key and by number alone (for frames that name no device).
    pub(super) received: Runs,
    pub(super) received_numbers: Runs,
    /// v2: of those, games received in a whole copy (not only interrupted ones).
    pub(super) whole: Runs,
    /// v1: games received and verified.
    pub(super) received_v1: u64,
    /// v2: every game number seen (started, or named by a lost frame), by key.
    pub(super) seen: Runs,
    /// v2: the highest `next` each device's hello announced (at most [`MAX_DEVICES`]).
    pub(super) next: BTreeMap<u64, u32>,
    /// A hello of a device past [`MAX_DEVICES`] came.
    pub(super) devices_overflowed: bool,
    pub(super) duplicates: Listed<(u64, u32)>,
    pub(super) conflicts: Listed<(u64, u32, String)>,
    /// v2: the games listed (or counted) as conflicts.
    pub(super) conflicted: Runs,
    /// Copies that failed or are in progress, in closing order.
    pub(super) copies: Listed<CopyNote>,
    /// Of the copies past the listed ones: v2 failures by key, v1 failures and games in
    /// progress counted.
    pub(super) failed_unlisted: Runs,
    pub(super) failed_unlisted_v1: usize,
    pub(super) in_progress_unlisted: usize,
    /// The device's own frames, in order.
    pub(super) facts: Listed<DeviceFact>,
    /// Of the lost frames past the listed facts: their games, by key or (no device known)
    /// by number, and how many named no game; the full and error frames past them.
    pub(super) lost_unlisted: Runs,
    pub(super) lost_unlisted_numbers: Runs,
    pub(super) lost_unlisted_no_game: usize,
    pub(super) notes_unlisted: usize,
    /// Pull replies that did not hold what they announced, or what the device says it
    /// sent.
    pub(super) short_replies: Listed<String>,
    /// On a port, ends of replies to an earlier request that arrived short (notes: their
    /// games not acknowledged come again).
    pub(super) earlier_replies: Listed<String>,
    /// Damaged stretches after the first frame.
    pub(super) damage: Listed<Damage>,
    /// Names that held other contents, and where the game went instead.
    pub(super) free_names: Listed<String>,
}

impl Ledger {
    /// Game `number` of `dev` was seen.
    pub(super) fn seen(&mut self, dev: u64, number: u32) {
        self.seen.add(key(dev, number));
    }

    /// A hello of `dev` announced `next`.
    pub(super) fn hello(&mut self, dev: u64, next: u32) {
        if let Some(n) = self.next.get_mut(&dev) {
            *n = (*n).max(next);
        } else if self.next.len() < MAX_DEVICES {
            self.next.insert(dev, next);
        } else {
            self.devices_overflowed = true;
        }
    }

    /// A v2 copy of game `k` came safely into the directory (`whole`: not an interrupted
    /// game's prefix).
    pub(super) fn received(&mut self, k: u128, whole: bool) {
        self.received.add(k);
        self.received_numbers.add(u128::from(k as u32));
        if whole {
            self.whole.add(k);
        }
    }

    /// A copy of game `k` (v1: `None`) that failed, or (`in_progress`) is still being
    /// played, with what the report says of it.
    pub(super) fn copy(&mut self, k: Option<u128>, text: String, in_progress: bool) {
        let note = CopyNote {
            key: k,
            text,
            in_progress,
        };
        if !self.copies.push(note) {
            match (in_progress, k) {
                (true, _) => self.in_progress_unlisted += 1,
                (false, Some(k)) => {
                    self.failed_unlisted.add(k);
                }
                (false, None) => self.failed_unlisted_v1 += 1,
            }
        }
    }

    /// Game `k` is in conflict (`reason`); listed once.
    pub(super) fn conflict(&mut self, k: u128, reason: &str) {
        if self.conflicted.contains(k) {
            return;
        }
        self.conflicted.add(k);
        let (dev, number) = super::runs::parts(k);
        self.conflicts.push((dev, number, reason.to_string()));
    }

    /// A frame of the device about itself.
    pub(super) fn fact(&mut self, fact: DeviceFact) {
        if self.facts.push(fact) {
            return;
        }
        match fact {
            DeviceFact::Lost { game: 0, .. } => self.lost_unlisted_no_game += 1,
            DeviceFact::Lost {
                dev: Some(dev),
                game,
                ..
            } => {
                self.lost_unlisted.add(key(dev, game));
            }
            DeviceFact::Lost { game, .. } => {
                self.lost_unlisted_numbers.add(u128::from(game));
            }
            DeviceFact::Full { .. } | DeviceFact::Error { .. } => self.notes_unlisted += 1,
            _ => {}
        }
    }

    /// Whether any set ran out of room: what the report says of the games is then
    /// uncertain, and it says so.
    pub(super) fn overflowed(&self) -> bool {
        [
            &self.received,
            &self.received_numbers,
            &self.whole,
            &self.seen,
            &self.conflicted,
            &self.failed_unlisted,
            &self.lost_unlisted,
            &self.lost_unlisted_numbers,
        ]
        .iter()
        .any(|r| r.overflowed())
            || self.devices_overflowed
    }
}
