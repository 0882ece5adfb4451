//! The copies of a capture's pull waiting for a decision: a capture is seen whole (or
//! [`DEFER_BYTES`] of it at a time) before anything is written, so that two copies of one
//! game that part are both left out, and the copy kept of each game is chosen with all its
//! copies in view.

use std::collections::BTreeMap;

use twenty48_movelog::MoveLog;

use crate::received::ReceivedGame;

use super::copies::{choose, Parting};
use super::pulled::Pulled;
use super::runs::key;

/// A capture's pull decides on the copies waiting once they and the reports their decision
/// will make hold this many bytes (about 750 bytes a copy, and its verified moves at 2
/// bits each), and goes on waiting: a capture's games are decided with every copy in view
/// in batches this large (about 20,000 games of 1,000 moves).
pub const DEFER_BYTES: usize = 16 << 20;

/// What a copy waiting for a decision costs beyond its moves: itself, and the report of
/// what became of it (its file name besides).
const WAITING_COPY: usize =
    std::mem::size_of::<ReceivedGame>() + std::mem::size_of::<Pulled>() + 128;

/// The copies waiting, in closing order, and what they hold.
#[derive(Debug, Default)]
pub(super) struct Waiting {
    copies: Vec<ReceivedGame>,
    bytes: usize,
    /// Of each game with a whole verified copy waiting, the first such copy's index in
    /// `copies` (what a stray frame of it is held against).
    whole: BTreeMap<u128, usize>,
}

/// The copies taken for a decision, and what was decided before any is written.
pub(super) struct Decision {
    /// The copies, in closing order.
    pub(super) copies: Vec<ReceivedGame>,
    /// The indices of the copies to keep, written first (so that the other copies of their
    /// games are their duplicates whatever their order).
    pub(super) first: Vec<usize>,
    /// The games whose copies part: conflicts before anything is written.
    pub(super) conflicts: Vec<(u128, Parting)>,
}

impl Waiting {
    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// A copy closed; whether the copies waiting now hold more than [`DEFER_BYTES`]. The
    /// key of its game when it is a whole verified copy.
    pub(super) fn push(&mut self, game: ReceivedGame) -> (bool, Option<u128>) {
        let mut whole = None;
        if let Some(dev) = game.dev {
            let k = key(dev, game.number);
            if game.end.is_some() && !game.is_partial() && game.check().is_verified() {
                self.whole.entry(k).or_insert(self.copies.len());
                whole = Some(k);
            }
        }
        self.bytes += WAITING_COPY + game.heap_bytes();
        self.copies.push(game);
        (self.bytes > DEFER_BYTES, whole)
    }

    /// The first whole verified copy of game `k` waiting, if any.
    pub(super) fn whole(&self, k: u128) -> Option<&ReceivedGame> {
        self.whole.get(&k).map(|&i| &self.copies[i])
    }

    /// Takes every copy waiting and decides, with all of them in view, which copy of each
    /// game to keep; games whose copies part are conflicts. Only games with more than one
    /// copy are compared (one at a time, as move logs).
    pub(super) fn decide(&mut self) -> Decision {
        let copies = std::mem::take(&mut self.copies);
        self.bytes = 0;
        self.whole.clear();
        let mut keyed: Vec<(u128, usize)> = copies
            .iter()
            .enumerate()
            .filter_map(|(i, g)| Some((key(g.dev?, g.number), i)))
            .collect();
        keyed.sort_unstable();
        let mut first = Vec::new();
        let mut conflicts = Vec::new();
        for same in keyed.chunk_by(|a, b| a.0 == b.0) {
            if same.len() < 2 {
                continue;
            }
            let logs: Vec<(usize, MoveLog)> = same
                .iter()
                .filter_map(|&(_, i)| Some((i, copies[i].to_movelog(false)?)))
                .collect();
            match choose(logs.iter().map(|(i, log)| (*i, log))) {
                Ok(Some(i)) => first.push(i),
                Ok(None) => {}
                Err(parting) => conflicts.push((same[0].0, parting)),
            }
        }
        first.sort_unstable();
        Decision {
            copies,
            first,
            conflicts,
        }
    }
}
