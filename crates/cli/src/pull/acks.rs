//! The acknowledgements of a port pull: waiting for room, sent, answered, refused. At most
//! [`ACKS_IN_FLIGHT`] are out unanswered at once (a board reads requests from a small
//! ring); the games written meanwhile wait in a queue of at most [`MAX_WAITING`]; every list
//! keeps its first [`LISTED`] entries and counts the rest. So a board that never answers, or
//! a reply of more games than any store holds, costs no more memory however many games it
//! sends; acknowledgements that find no room are counted as unanswered (the games come again
//! next time and are recognised), and the pull fails for them, saying so.

use std::collections::{BTreeMap, VecDeque};

use twenty48_devicelog::pull::{Listed, LISTED};

/// How many acknowledgements may be out unanswered at once. A board reads requests only
/// between the frames of its reply, from a receive ring that loses what finds no room: 64
/// bytes on the AVR boards (with 2 more in the USART), 256 on the Nano. Two acks of at most
/// 27 bytes (`{ack 4294967295 4294967295}`) fit in the smallest.
const ACKS_IN_FLIGHT: usize = 2;

/// How many games written may wait for their acknowledgement to be sent: twice a full
/// Nano store (34,560 games), 8 bytes each.
const MAX_WAITING: usize = 65_536;

/// Acknowledgements sent and answered, by (game, check).
#[derive(Default)]
pub(super) struct Acks {
    /// Games safely on disk whose acks wait for room among those in flight, in order.
    unsent: VecDeque<(u32, u32)>,
    /// Games written while [`MAX_WAITING`] were waiting: never acknowledged, so counted as
    /// unanswered.
    dropped: usize,
    /// Sent, not yet answered: game and check (at most [`ACKS_IN_FLIGHT`]).
    pending: BTreeMap<u32, u32>,
    /// Answered `acked`: the first [`LISTED`] games, and how many more.
    done: Listed<u32>,
    /// Refused by the device (an error frame naming the game): the first [`LISTED`], and
    /// how many more.
    refused: Listed<String>,
    /// The device keeps no game store (error 6): nothing to pull or acknowledge;
    /// its games come live only.
    pub(super) no_store: bool,
}

impl Acks {
    /// The game of `ack` (game, check) is safely on disk: acknowledge it when there is room.
    pub(super) fn queue(&mut self, ack: (u32, u32)) {
        if self.unsent.len() < MAX_WAITING {
            self.unsent.push_back(ack);
        } else {
            self.dropped += 1;
        }
    }

    /// The acks to send now: as many waiting ones as the window has room for, each marked
    /// sent.
    pub(super) fn take_sendable(&mut self) -> Vec<(u32, u32)> {
        let room = ACKS_IN_FLIGHT.saturating_sub(self.pending.len());
        let n = room.min(self.unsent.len());
        let sent: Vec<(u32, u32)> = self.unsent.drain(..n).collect();
        self.pending.extend(sent.iter().copied());
        sent
    }

    /// The device marked `game` as pulled; whether it answered an acknowledgement sent.
    pub(super) fn acked(&mut self, game: u32) -> bool {
        if self.pending.remove(&game).is_none() {
            return false;
        }
        self.done.push(game);
        true
    }

    /// The device refused a request naming `game` (`fact` says how); whether it was an
    /// acknowledgement waiting for its answer.
    pub(super) fn refused(&mut self, game: u32, fact: String) -> bool {
        if self.pending.remove(&game).is_none() {
            return false;
        }
        self.refused.push(fact);
        true
    }

    /// Forgets every ack not answered (the device forgot them, or keeps no store): the
    /// games come again.
    pub(super) fn forget(&mut self) {
        self.pending.clear();
        self.unsent.clear();
        self.dropped = 0;
    }

    /// Whether any acknowledgement is still unanswered: sent, or waiting to be.
    pub(super) fn waiting(&self) -> bool {
        !self.pending.is_empty() || !self.unsent.is_empty() || self.dropped > 0
    }

    /// Whether any acknowledgement may still be answered: sent, or waiting for room (those
    /// dropped for want of room never go out, so a pull does not wait for them).
    pub(super) fn outstanding(&self) -> bool {
        !self.pending.is_empty() || !self.unsent.is_empty()
    }

    /// Whether any was refused.
    pub(super) fn any_refused(&self) -> bool {
        self.refused.total() > 0
    }

    /// The games whose acks the device has not answered (sent, or waiting to be), the
    /// first [`LISTED`] of them, and how many more.
    fn unanswered(&self) -> (Vec<u32>, usize) {
        let all = self
            .pending
            .keys()
            .copied()
            .chain(self.unsent.iter().map(|a| a.0));
        let listed: Vec<u32> = all.take(LISTED).collect();
        let more = self.pending.len() + self.unsent.len() + self.dropped - listed.len();
        (listed, more)
    }

    /// The report's lines about them, for people.
    pub(super) fn findings(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .refused
            .items
            .iter()
            .map(|r| format!("ACK FAILED: {r}"))
            .collect();
        if let Some(line) = self.refused.unlisted("acknowledgements refused") {
            out.push(format!("ACK FAILED: {line}"));
        }
        if self.waiting() {
            let (games, more) = self.unanswered();
            let games: Vec<String> = games.iter().map(u32::to_string).collect();
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            out.push(format!(
                "not acknowledged by the device: games {}{more} (written; they come again next time and are recognised)",
                games.join(", ")
            ));
        }
        out
    }

    /// The JSON `acks` object and the notes counting what its lists leave out.
    pub(super) fn json(&self) -> (serde_json::Value, Vec<String>) {
        let mut notes: Vec<String> = self
            .done
            .unlisted("games acknowledged by the device")
            .into_iter()
            .collect();
        let (unanswered, more) = self.unanswered();
        if more > 0 {
            notes.push(format!(
                "{more} more games not acknowledged by the device after the first {LISTED}, counted but not listed"
            ));
        }
        notes.extend(self.refused.unlisted("acknowledgements refused"));
        // In order of game number, each once (a game acknowledged twice: two copies).
        let mut acked = self.done.items.clone();
        acked.sort_unstable();
        acked.dedup();
        let value = serde_json::json!({
            "acked": acked,
            "unanswered": unanswered,
            "refused": self.refused.items,
        });
        (value, notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 26: every acknowledgement waiting (or sent) was kept until the end. A board
    /// that answers none holds at most ACKS_IN_FLIGHT sent and MAX_WAITING queued; the rest
    /// are counted as unanswered, and the pull still fails for them.
    #[test]
    fn acknowledgements_are_kept_in_bounded_room_and_none_is_forgotten() {
        let mut acks = Acks::default();
        let n = (MAX_WAITING + 3 * LISTED) as u32;
        for game in 1..=n {
            acks.queue((game, game));
        }
        assert_eq!(acks.unsent.len(), MAX_WAITING);
        assert_eq!(acks.dropped, 3 * LISTED);
        assert_eq!(acks.take_sendable(), [(1, 1), (2, 2)]);
        assert_eq!(acks.take_sendable(), [], "two in flight at most");
        assert!(acks.waiting());
        let findings = acks.findings().join("\n");
        let more = n as usize - LISTED;
        assert!(
            findings.contains("games 1, 2, 3, ")
                && findings.contains(&format!(" and {more} more (written")),
            "{findings}"
        );
        // The device refuses one and answers the other (games 1 and 2, no longer
        // unanswered); then two more go out.
        assert!(acks.refused(1, "error 4".into()));
        assert!(!acks.refused(1, "again".into()), "answered already");
        assert!(acks.acked(2));
        assert!(!acks.acked(n), "never sent: not an answer to anything");
        assert_eq!(acks.take_sendable(), [(3, 3), (4, 4)]);
        assert!(acks.any_refused());
        let (json, notes) = acks.json();
        assert_eq!(json["acked"], serde_json::json!([2]));
        assert_eq!(json["unanswered"].as_array().unwrap().len(), LISTED);
        assert_eq!(json["refused"][0], "error 4");
        assert!(
            notes.iter().any(|line| line.starts_with(&format!(
                "{} more games not acknowledged",
                n as usize - 2 - LISTED
            ))),
            "{notes:?}"
        );
        // Once the device answered every ack sent, only the dropped ones are unanswered:
        // nothing more to wait for, and still a failure.
        loop {
            let sent: Vec<u32> = acks.pending.keys().copied().collect();
            for game in sent {
                assert!(acks.acked(game));
            }
            if acks.take_sendable().is_empty() {
                break;
            }
        }
        assert!(!acks.outstanding());
        assert!(acks.waiting(), "the dropped ones are unanswered");
        // The board went away: what was unanswered comes again, nothing is waiting now.
        acks.forget();
        assert!(!acks.waiting());
    }
}
