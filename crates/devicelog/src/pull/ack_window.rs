//! The acknowledgements of a port pull: waiting for room, sent, answered, refused. At most
//! [`ACKS_IN_FLIGHT`] are out unanswered at once (a board reads requests from a small
//! ring); the games written meanwhile wait in a queue of at most [`MAX_WAITING`]; every list
//! keeps its first [`LISTED`] entries and counts the rest. So a board that never answers, or
//! a reply of more games than any store holds, costs no more memory however many games it
//! sends; acknowledgements that find no room are counted as unanswered (the games come again
//! next time and are recognised), and the pull fails for them.

use std::collections::VecDeque;

use twenty48_deviceproto::Ack;

use super::ledger::{Listed, LISTED};

/// How many acknowledgements may be out unanswered at once. A board reads requests only
/// between the frames of its reply, from a receive ring that loses what finds no room: 64
/// bytes on the AVR boards (with 2 more in the USART), 256 on the Nano. Two acks of at most
/// 27 bytes (`{ack 4294967295 4294967295}`) fit in the smallest.
pub const ACKS_IN_FLIGHT: usize = 2;

/// How many games written may wait for their acknowledgement to be sent: twice a full
/// Nano store (34,560 games), 8 bytes each.
pub const MAX_WAITING: usize = 65_536;

/// The acknowledgements of a pull: which wait, which are out, which the device answered.
#[derive(Debug, Default)]
pub struct AckWindow {
    /// Games safely on disk whose acks wait for room among those in flight, in order.
    unsent: VecDeque<Ack>,
    /// Games written while [`MAX_WAITING`] were waiting: never acknowledged, so counted as
    /// unanswered.
    dropped: usize,
    /// Sent, not yet answered, in order (at most [`ACKS_IN_FLIGHT`]; two copies of one
    /// game may both be out).
    pending: Vec<Ack>,
    /// Answered `acked`: the first [`LISTED`] games, and how many more.
    done: Listed<u32>,
    /// Refused by the device (an error frame naming the game, or a refusal of every ack
    /// in flight): what it said, the first [`LISTED`], and how many more.
    refused: Listed<String>,
}

impl AckWindow {
    /// The game of `ack` is safely on disk: acknowledge it when there is room.
    pub fn queue(&mut self, ack: Ack) {
        if self.unsent.len() < MAX_WAITING {
            self.unsent.push_back(ack);
        } else {
            self.dropped += 1;
        }
    }

    /// The acks to send now: as many waiting ones as the window has room for, each marked
    /// sent.
    pub fn take_sendable(&mut self) -> Vec<Ack> {
        let room = ACKS_IN_FLIGHT.saturating_sub(self.pending.len());
        let n = room.min(self.unsent.len());
        let sent: Vec<Ack> = self.unsent.drain(..n).collect();
        self.pending.extend(&sent);
        sent
    }

    /// The device marked `game` as pulled; whether it answered an acknowledgement sent.
    pub fn acked(&mut self, game: u32) -> bool {
        if !self.answer(game) {
            return false;
        }
        self.done.push(game);
        true
    }

    /// Takes the first ack in flight for `game`; whether there was one.
    fn answer(&mut self, game: u32) -> bool {
        match self.pending.iter().position(|ack| ack.game == game) {
            Some(i) => {
                self.pending.remove(i);
                true
            }
            None => false,
        }
    }

    /// The device refused a request naming `game` (`fact` says how); whether it was an
    /// acknowledgement waiting for its answer.
    pub fn refused(&mut self, game: u32, fact: String) -> bool {
        if !self.answer(game) {
            return false;
        }
        self.refused.push(fact);
        true
    }

    /// The device refused every acknowledgement in flight at once (`fact` says how: an
    /// error that names no game of them); how many it refused.
    pub fn refuse_in_flight(&mut self, fact: &str) -> usize {
        let acks = std::mem::take(&mut self.pending);
        for ack in &acks {
            self.refused.push(format!("game {}: {fact}", ack.game));
        }
        acks.len()
    }

    /// Forgets every ack not answered (the device forgot them): the games come again.
    pub fn forget(&mut self) {
        self.pending.clear();
        self.unsent.clear();
        self.dropped = 0;
    }

    /// Whether any acknowledgement is unanswered: sent, or waiting to be (or dropped for
    /// want of room).
    pub fn waiting(&self) -> bool {
        !self.pending.is_empty() || !self.unsent.is_empty() || self.dropped > 0
    }

    /// Whether any acknowledgement may still be answered: sent, or waiting for room (those
    /// dropped for want of room never go out, so a pull does not wait for them).
    pub fn outstanding(&self) -> bool {
        !self.pending.is_empty() || !self.unsent.is_empty()
    }

    /// Whether any was refused.
    pub fn any_refused(&self) -> bool {
        self.refused.total() > 0
    }

    /// The games the device answered `acked`, the first [`LISTED`], and how many more.
    pub fn answered(&self) -> &Listed<u32> {
        &self.done
    }

    /// What the device said refusing acknowledgements, the first [`LISTED`], and how many
    /// more.
    pub fn refusals(&self) -> &Listed<String> {
        &self.refused
    }

    /// The games whose acks the device has not answered (sent, or waiting to be), the
    /// first [`LISTED`] of them, and how many more.
    pub fn unanswered(&self) -> (Vec<u32>, usize) {
        let all = self.pending.iter().chain(&self.unsent).map(|a| a.game);
        let listed: Vec<u32> = all.take(LISTED).collect();
        let more = self.pending.len() + self.unsent.len() + self.dropped - listed.len();
        (listed, more)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(n: u32) -> Ack {
        Ack { game: n, check: n }
    }

    /// Issue 26: every acknowledgement waiting (or sent) was kept until the end. A board
    /// that answers none holds at most ACKS_IN_FLIGHT sent and MAX_WAITING queued; the rest
    /// are counted as unanswered, and the pull still fails for them.
    #[test]
    fn acknowledgements_are_kept_in_bounded_room_and_none_is_forgotten() {
        let mut acks = AckWindow::default();
        let n = (MAX_WAITING + 3 * LISTED) as u32;
        for game in 1..=n {
            acks.queue(ack(game));
        }
        assert_eq!(acks.unsent.len(), MAX_WAITING);
        assert_eq!(acks.dropped, 3 * LISTED);
        assert_eq!(acks.take_sendable(), [ack(1), ack(2)]);
        assert_eq!(acks.take_sendable(), [], "two in flight at most");
        assert!(acks.waiting());
        let (listed, more) = acks.unanswered();
        assert_eq!(listed[..3], [1, 2, 3]);
        assert_eq!(more, n as usize - LISTED);
        // The device refuses one and answers the other (games 1 and 2, no longer
        // unanswered); then two more go out.
        assert!(acks.refused(1, "error 4".into()));
        assert!(!acks.refused(1, "again".into()), "answered already");
        assert!(acks.acked(2));
        assert!(!acks.acked(n), "never sent: not an answer to anything");
        assert_eq!(acks.take_sendable(), [ack(3), ack(4)]);
        assert!(acks.any_refused());
        assert_eq!(acks.answered().items, [2]);
        assert_eq!(acks.refusals().items, ["error 4"]);
        // A refusal of all in flight (error 6 naming no game): both refused.
        assert_eq!(acks.refuse_in_flight("error 6"), 2);
        assert_eq!(acks.refusals().total(), 3);
        // Once the device answered every ack sent, only the dropped ones are unanswered:
        // nothing more to wait for, and still a failure.
        loop {
            let sent: Vec<u32> = acks.pending.iter().map(|a| a.game).collect();
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
