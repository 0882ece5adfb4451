//! What a pull remembers for its report, in bounded room: sets of games as runs of numbers
//! ([`Runs`]), and every list (failures, notes, duplicates, conflicts, the device's frames,
//! damage) kept up to its first [`LISTED`] entries, the rest counted.

use std::collections::BTreeMap;

use crate::fact::DeviceFact;

use crate::event::{Damage, DamageKind};
use crate::pull::pulled::{Outcome, Pulled};
use crate::pull::runs::{key, parts, Runs};
use crate::reply::Reply;

mod cuts;
pub(in crate::pull) mod summary;

use cuts::Cuts;

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

/// How many copies of games a pull received (a game may come more than once: live while it
/// was played, then from the store; the [`Summary`](summary::Summary) counts games, this counts copies).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Copies {
    /// Copies received: every copy closed and decided on.
    pub received: usize,
    /// Of those, the copies that verified (whole, or as a stored interrupted game's
    /// prefix).
    pub verified: usize,
    /// Of those, the copies written to a new file (whole, or, with `keep_partial`, the
    /// verified moves of a damaged one).
    pub written: usize,
    /// Of those, the copies whose very file the folder held already.
    pub already_pulled: usize,
}

impl Copies {
    /// The copies that did not verify (damaged or unfinished).
    pub fn unverified(&self) -> usize {
        self.received - self.verified
    }
}

/// A copy of a game that did not come safely into the directory, or one still being played:
/// what the report says of it, once it knows whether another copy made it good.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CopyNote {
    /// Protocol v2: the game's key (v1 games have none: their failures stand).
    key: Option<u128>,
    /// The problem, by game and move (or the note, for a game in progress).
    text: String,
    /// A live game still being played when a port pull ended: a note, never a failure.
    in_progress: bool,
}

/// Everything a pull has seen that its report needs.
#[derive(Debug, Default)]
pub(in crate::pull) struct Ledger {
    /// v2: games safely in the directory (written, already pulled, or a copy contained in
    /// such a one), by key and by number alone (for frames that name no device).
    received: Runs,
    received_numbers: Runs,
    /// v2: of those, games received in a whole copy (not only interrupted ones).
    whole: Runs,
    /// v1: games received and verified.
    received_v1: u64,
    /// v2: every game number seen (started, or named by a lost frame), by key.
    seen: Runs,
    /// v2: the highest `next` each device's hello announced (at most [`MAX_DEVICES`]).
    next: BTreeMap<u64, u32>,
    /// A hello of a device past [`MAX_DEVICES`] came.
    devices_overflowed: bool,
    duplicates: Listed<(u64, u32)>,
    conflicts: Listed<(u64, u32, String)>,
    /// v2: the games listed (or counted) as conflicts.
    conflicted: Runs,
    /// Copies that failed or are in progress, in closing order.
    copies: Listed<CopyNote>,
    /// Of the copies past the listed ones: v2 failures by key, v1 failures and games in
    /// progress counted.
    failed_unlisted: Runs,
    failed_unlisted_v1: usize,
    in_progress_unlisted: usize,
    /// The device's own frames, in order.
    facts: Listed<DeviceFact>,
    /// Of the lost frames past the listed facts: their games, by key or (no device known)
    /// by number, and how many named no game; the full and error frames past them.
    lost_unlisted: Runs,
    lost_unlisted_numbers: Runs,
    lost_unlisted_no_game: usize,
    notes_unlisted: usize,
    /// Pull replies that did not hold what they announced, or what the device says it
    /// sent.
    short_replies: Listed<String>,
    /// On a port, replies cut off (a reconnection, a restart) and not yet followed by a
    /// whole reply: losses unless one follows, whose games are every one not acknowledged.
    cuts: Cuts,
    /// On a port, ends of replies to an earlier request that arrived short (notes: their
    /// games not acknowledged come again).
    earlier_replies: Listed<String>,
    /// Every damaged stretch, and of each listed whether it is line noise (before the
    /// first frame decoded), and how many unlisted ones are.
    damage: Listed<Damage>,
    noise: Vec<bool>,
    noise_unlisted: usize,
    /// The copies received, decided on.
    counts: Copies,
    /// Names that held other contents, and where the game went instead.
    free_names: Listed<String>,
}

impl Ledger {
    /// Game `number` of `dev` was seen.
    pub(in crate::pull) fn seen(&mut self, dev: u64, number: u32) {
        self.seen.add(key(dev, number));
    }

    /// A hello of `dev` announced `next`.
    pub(in crate::pull) fn hello(&mut self, dev: u64, next: u32) {
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
    pub(in crate::pull) fn received(&mut self, k: u128, whole: bool) {
        self.received.add(k);
        self.received_numbers.add(u128::from(k as u32));
        if whole {
            self.whole.add(k);
        }
    }

    /// A copy of game `k` (v1: `None`) that failed, or (`in_progress`) is still being
    /// played, with what the report says of it.
    pub(in crate::pull) fn copy(&mut self, k: Option<u128>, text: String, in_progress: bool) {
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
    pub(in crate::pull) fn conflict(&mut self, k: u128, reason: &str) {
        if self.conflicted.contains(k) {
            return;
        }
        self.conflicted.add(k);
        let (dev, number) = parts(k);
        self.conflicts.push((dev, number, reason.to_string()));
    }

    /// A frame of the device about itself.
    pub(in crate::pull) fn fact(&mut self, fact: DeviceFact) {
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

    /// A copy of game `dev`/`number` was received again with the same content.
    pub(in crate::pull) fn duplicate(&mut self, dev: u64, number: u32) {
        self.duplicates.push((dev, number));
    }

    /// A protocol v1 game was received and verified.
    pub(in crate::pull) fn received_v1(&mut self) {
        self.received_v1 += 1;
    }

    /// A damaged stretch of the bytes; what comes before the first frame decoded is line
    /// noise, not damage (`decoded_any`).
    pub(in crate::pull) fn damage(&mut self, damage: &Damage, decoded_any: bool) {
        let noise = !decoded_any
            && matches!(
                damage.kind,
                DamageKind::Malformed | DamageKind::Unterminated | DamageKind::Oversized
            );
        if self.damage.push(damage.clone()) {
            self.noise.push(noise);
        } else if noise {
            self.noise_unlisted += 1;
        }
    }

    /// Every damaged stretch, the noise before the first frame too.
    pub(in crate::pull) fn all_damage(&self) -> &Listed<Damage> {
        &self.damage
    }

    /// A copy was decided on (written, or not): counted.
    pub(in crate::pull) fn copy_pulled(&mut self, p: &Pulled) {
        let c = &mut self.counts;
        c.received += 1;
        c.verified += usize::from(p.is_verified());
        c.written += usize::from(matches!(
            p.outcome,
            Outcome::Written | Outcome::DamagedPrefix
        ));
        c.already_pulled += usize::from(p.outcome == Outcome::AlreadyPulled);
        if let (Some(dev), true) = (p.game.dev, p.is_received() && p.game.is_stored()) {
            self.cuts.stored_game_safe(key(dev, p.game.number));
        }
    }

    /// The copies received.
    pub(in crate::pull) fn copies(&self) -> Copies {
        self.counts
    }

    /// A game went to a free name instead of `wanted`: the note saying so.
    pub(in crate::pull) fn free_name(&mut self, note: String) {
        self.free_names.push(note);
    }

    /// The device's own frames, the first [`LISTED`] of them.
    pub(in crate::pull) fn facts(&self) -> &Listed<DeviceFact> {
        &self.facts
    }

    /// The pull asked the device again (the link came back): a whole reply begun after
    /// this may make good the replies cut off before it.
    pub(in crate::pull) fn asked_again(&mut self) {
        self.cuts.asked_again();
    }

    /// A pull reply ended ([`Reply`]): one that held less than it should is a loss, or
    /// (`asked`: this pull asked the device, so a reply whose pull begin it never saw
    /// answered an earlier request, and the games of it not acknowledged come again) a note.
    pub(in crate::pull) fn reply(&mut self, reply: Reply, asked: bool) {
        match reply {
            Reply::Began { dev, .. } => self.cuts.began(dev),
            Reply::Ended { sent: None, .. } => {}
            _ => self.cuts.ended(),
        }
        if reply.is_short() != Some(true) {
            return;
        }
        match reply {
            Reply::Ended {
                dev,
                announced,
                sent: None,
                arrived,
            } => {
                let text = format!(
                    "a pull reply announced {announced} games and was cut off after {arrived}"
                );
                if asked {
                    self.cuts.cut(dev, announced, text);
                } else {
                    self.short_replies.push(text);
                }
            }
            Reply::Ended {
                announced,
                sent: Some(sent),
                arrived,
                ..
            } => {
                self.short_replies.push(format!(
                    "a pull reply announced {announced} games, the device sent {sent}, {arrived} arrived"
                ));
            }
            Reply::Headless { dev, sent, arrived } => {
                if arrived.is_none() {
                    // Past the devices counted: the reply may be reported short although
                    // it was not, and the report says it lost track.
                    self.devices_overflowed = true;
                }
                let arrived = match arrived {
                    Some(n) => n.to_string(),
                    None => "an uncounted number".to_string(),
                };
                let short = format!(
                    "a pull reply of device {dev:016x} whose pull begin did not arrive ended: the device says it sent {sent} games, {arrived} arrived"
                );
                if asked {
                    self.earlier_replies.push(format!(
                        "{short} (a reply to an earlier request: the games of it not acknowledged come again in this pull's reply)"
                    ));
                } else {
                    self.short_replies.push(short);
                }
            }
            _ => {}
        }
    }

    /// Whether any set ran out of room: what the report says of the games is then
    /// uncertain, and it says so.
    pub(in crate::pull) fn overflowed(&self) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pull::folder::{Created, Folder};

    /// A folder with nothing in it.
    #[derive(Debug)]
    struct Empty;

    impl Folder for Empty {
        fn create(&mut self, _: &str, _: &[u8]) -> std::io::Result<Created> {
            Ok(Created::Taken)
        }
        fn replace(&mut self, _: &str, _: &[u8]) -> std::io::Result<()> {
            Ok(())
        }
        fn remove(&mut self, _: &str) -> bool {
            false
        }
        fn read(&self, _: &str, _: u64) -> Option<Vec<u8>> {
            None
        }
        fn exists(&self, _: &str) -> bool {
            false
        }
        fn names(&self, _: &mut dyn FnMut(&str)) {}
        fn shown(&self, name: &str) -> String {
            name.to_string()
        }
    }

    /// Frames lost outside any game (a lost frame naming game 0) are no game number: they
    /// make no gap below the games the device did send.
    #[test]
    fn frames_lost_outside_a_game_make_no_gap() {
        let mut ledger = Ledger::default();
        let dev = 0x7e57_0000_0000_0001;
        // The device sent games 5 and 6 (their copies did not verify: no files), and said
        // it lost frames outside any game.
        ledger.seen(dev, 5);
        ledger.seen(dev, 6);
        let lost = DeviceFact::Lost {
            dev: Some(dev),
            game: 0,
            at_move: 0,
            frames: 3,
        };
        ledger.fact(lost);
        assert_eq!(ledger.summary(&Empty, false).gaps, []);
        assert_eq!(ledger.facts().items, [lost]);
    }
}
