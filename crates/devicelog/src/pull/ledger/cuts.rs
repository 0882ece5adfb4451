//! On a port, the pull replies cut off (a pulled cable, a board that restarted) and whether
//! the replies to the requests made again brought every game each of them owed. A cut reply
//! owes the games it announced and did not bring safely; each distinct stored game of its
//! device that comes safely into the folder in a reply begun after a later request pays one
//! of them (a board asked again sends every stored game not acknowledged). Copies of a game
//! already counted pay nothing, so no repeat or resent copy can stand for a game lost.

use crate::pull::runs::{parts, Runs};

/// The most cut replies a pull follows (one a reconnection: a cable pulled eight times in
/// one pull); past it, a cut reply is a loss as it stands. Each keeps its games as a set of
/// runs ([`MAX_RUNS`](crate::pull::MAX_RUNS) at most), so this bounds their memory.
pub(super) const MAX_CUT_REPLIES: usize = 8;

/// The reply under way: its device, the requests made again before it began, and the
/// distinct stored games of it that came safely.
#[derive(Debug)]
struct Tally {
    dev: u64,
    began_at: u32,
    brought: Runs,
}

/// A reply cut off, and what it still owes.
#[derive(Debug)]
struct CutReply {
    dev: u64,
    /// The games it announced that no reply has brought yet.
    owed: u32,
    /// The requests made again before it began: only replies begun after a later one pay.
    requests: u32,
    /// The games counted for it (those it brought, and those that paid).
    counted: Runs,
    /// What the report says of it.
    text: String,
}

/// The cut replies of a port's pull.
#[derive(Debug, Default)]
pub(super) struct Cuts {
    requests: u32,
    tally: Option<Tally>,
    cut: Vec<CutReply>,
    /// Cut replies past [`MAX_CUT_REPLIES`]: losses, the next [`MAX_CUT_REPLIES`] of them
    /// said, the rest counted.
    past: Vec<String>,
    past_more: usize,
}

impl Cuts {
    /// The pull asked the device again (the link came back).
    pub(super) fn asked_again(&mut self) {
        self.requests = self.requests.saturating_add(1);
    }

    /// A reply of `dev` began.
    pub(super) fn began(&mut self, dev: u64) {
        self.tally = Some(Tally {
            dev,
            began_at: self.requests,
            brought: Runs::default(),
        });
    }

    /// The reply under way ended whole, or a reply whose begin never came ended.
    pub(super) fn ended(&mut self) {
        self.tally = None;
    }

    /// The reply under way, of `dev`, announcing `announced` games, was cut off; `text`
    /// says so.
    pub(super) fn cut(&mut self, dev: u64, announced: u32, text: String) {
        let tally = self.tally.take().filter(|t| t.dev == dev);
        let (requests, counted) = match tally {
            Some(t) => (t.began_at, t.brought),
            None => (self.requests, Runs::default()),
        };
        let brought = u32::try_from(counted.count_without(&[])).unwrap_or(u32::MAX);
        if self.cut.len() < MAX_CUT_REPLIES {
            self.cut.push(CutReply {
                dev,
                owed: announced.saturating_sub(brought),
                requests,
                counted,
                text,
            });
        } else if self.past.len() < MAX_CUT_REPLIES {
            self.past.push(text);
        } else {
            self.past_more += 1;
        }
    }

    /// Stored game `k` came safely into the folder.
    pub(super) fn stored_game_safe(&mut self, k: u128) {
        let (dev, _) = parts(k);
        let Some(tally) = self.tally.as_mut().filter(|t| t.dev == dev) else {
            return;
        };
        tally.brought.add(k);
        for c in &mut self.cut {
            if c.dev == dev && c.requests < tally.began_at && !c.counted.contains(k) {
                c.counted.add(k);
                c.owed = c.owed.saturating_sub(1);
            }
        }
    }

    /// What the report says: a cut reply paid in full is a note, any other a loss.
    pub(super) fn report(&self, notes: &mut Vec<String>, lost: &mut Vec<String>) {
        for c in &self.cut {
            if c.owed == 0 && !c.counted.overflowed() {
                notes.push(format!(
                    "{}; the replies to the requests made again brought every game it did not",
                    c.text
                ));
            } else {
                lost.push(c.text.clone());
            }
        }
        lost.extend(self.past.iter().cloned());
        if self.past_more > 0 {
            lost.push(format!(
                "pull replies cut off: {} more after the first {}, counted but not listed",
                self.past_more,
                2 * MAX_CUT_REPLIES
            ));
        }
    }
}
