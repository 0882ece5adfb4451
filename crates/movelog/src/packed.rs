//! A move log read straight from its file's bytes: the moves stay packed, four to a byte,
//! and are unpacked only as a reader walks them, so reading a log takes no memory beyond
//! the file's own bytes however many moves it holds.

use twenty48_engine::packed::{move_at, unpack_into};
use twenty48_engine::{Direction, Rules};

use crate::claims::Claims;
use crate::log::MoveLog;

/// A decoded log whose moves and checkpoints are borrowed, still packed, from the file's
/// bytes. [`PackedLog::decode`] checks exactly what [`MoveLog::decode`] checks (that is
/// `PackedLog::decode` followed by [`PackedLog::to_log`]).
///
/// ```
/// use twenty48_engine::{Direction, Rules};
/// use twenty48_movelog::{MoveLog, PackedLog};
///
/// let moves = [Direction::Left, Direction::Up, Direction::Right];
/// let bytes = MoveLog::from_moves(Rules::CLASSIC, 1, &moves, 2).unwrap().encode();
/// let log = PackedLog::decode(&bytes).unwrap();
/// assert_eq!(log.move_count(), 3);
/// assert_eq!(log.moves().collect::<Vec<_>>(), moves);
/// assert_eq!(log.checkpoint_after(2), MoveLog::decode(&bytes).unwrap().checkpoint_after(2));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedLog<'a> {
    /// The format version the file states (bytes 4-5): 1 or 2. A version-2 file need not
    /// have hints ([`PackedLog::hinted`]): this is what the file says, not the version a
    /// writer would choose for the log ([`version_for`](crate::version_for)).
    pub format_version: u16,
    /// The full rule set.
    pub rules: Rules,
    /// The game's seed.
    pub seed: u64,
    /// K: a checkpoint every K moves; 0 for none.
    pub checkpoint_interval: u32,
    /// The writer's claims about the end of the game.
    pub claims: Claims,
    /// `false` for a partial log (see [`MoveLog::complete`]).
    pub complete: bool,
    /// Whether hints were shown (see [`MoveLog::hinted`]).
    pub hinted: bool,
    /// `ceil(move_count / 4)` bytes of moves (docs/format.md), the unused slots zero.
    pub(crate) packed: &'a [u8],
    /// `4 * checkpoint_count` bytes: the checkpoints, little-endian.
    pub(crate) checkpoints: &'a [u8],
}

impl<'a> PackedLog<'a> {
    /// The number of moves (equal to `claims.move_count`).
    pub fn move_count(&self) -> u32 {
        self.claims.move_count
    }

    /// The move at `index` (0-based).
    ///
    /// # Panics
    /// When `index` is not below [`PackedLog::move_count`].
    pub fn move_at(&self, index: usize) -> Direction {
        assert!(
            index < self.move_count() as usize,
            "move {index} of {}",
            self.move_count()
        );
        move_at(self.packed, index)
    }

    /// Unpacks the moves from index `start` on into all of `out` (`out.len()` moves).
    ///
    /// # Panics
    /// When the log has fewer than `start + out.len()` moves.
    pub fn unpack_into(&self, start: usize, out: &mut [Direction]) {
        assert!(
            start + out.len() <= self.move_count() as usize,
            "moves {start}..{} of {}",
            start + out.len(),
            self.move_count()
        );
        unpack_into(self.packed, start, out);
    }

    /// The moves in order, unpacked one at a time.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Direction> + '_ {
        (0..self.move_count() as usize).map(|i| move_at(self.packed, i))
    }

    /// The packed moves as the file holds them: move `i` in byte `i / 4`, bits `2 * (i % 4)`
    /// and up.
    pub fn packed_moves(&self) -> &'a [u8] {
        self.packed
    }

    /// How many checkpoints the log holds.
    pub fn checkpoint_count(&self) -> u32 {
        (self.checkpoints.len() / 4) as u32
    }

    /// Checkpoint `i` (0-based: the one after move `(i + 1) * K`), if the log has it.
    pub fn checkpoint(&self, i: usize) -> Option<u32> {
        let b = self.checkpoints.get(4 * i..4 * i + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The checkpoint stored after move number `moves_played`, as
    /// [`MoveLog::checkpoint_after`] gives it.
    pub fn checkpoint_after(&self, moves_played: u32) -> Option<u32> {
        let k = self.checkpoint_interval;
        if k == 0 || moves_played == 0 || moves_played % k != 0 {
            return None;
        }
        self.checkpoint((moves_played / k - 1) as usize)
    }

    /// The log with its moves and checkpoints unpacked (one byte a move).
    pub fn to_log(&self) -> MoveLog {
        let mut moves = vec![Direction::Up; self.move_count() as usize];
        unpack_into(self.packed, 0, &mut moves);
        MoveLog {
            rules: self.rules,
            seed: self.seed,
            moves,
            checkpoint_interval: self.checkpoint_interval,
            checkpoints: (0..self.checkpoint_count() as usize)
                .filter_map(|i| self.checkpoint(i))
                .collect(),
            claims: self.claims.clone(),
            complete: self.complete,
            hinted: self.hinted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::Game;

    fn game(presses: usize) -> MoveLog {
        let mut g = Game::new(Rules::CLASSIC, 11).unwrap();
        let mut moves = Vec::new();
        for (i, d) in Direction::ALL.iter().cycle().enumerate().take(presses) {
            let d = if i % 5 == 0 {
                Direction::ALL[(i / 5) % 4]
            } else {
                *d
            };
            if g.status().is_finished() {
                break;
            }
            if g.play(d).unwrap().moved {
                moves.push(d);
            }
        }
        MoveLog::from_moves(Rules::CLASSIC, 11, &moves, 7).unwrap()
    }

    /// Every way of reading the moves gives the log's own, at every start and length.
    #[test]
    fn every_reading_agrees_with_the_unpacked_log() {
        let log = game(200);
        let bytes = log.encode();
        let packed = PackedLog::decode(&bytes).unwrap();
        assert_eq!(packed.to_log(), log);
        assert_eq!(packed.moves().collect::<Vec<_>>(), log.moves);
        let n = log.moves.len();
        for start in 0..n {
            assert_eq!(packed.move_at(start), log.moves[start]);
            for len in [0, 1, 2, 3, 4, 5, 9, 17]
                .into_iter()
                .filter(|l| start + l <= n)
            {
                let mut out = vec![Direction::Up; len];
                packed.unpack_into(start, &mut out);
                assert_eq!(out, log.moves[start..start + len], "{start} {len}");
            }
        }
        for m in 0..=n as u32 + 8 {
            assert_eq!(packed.checkpoint_after(m), log.checkpoint_after(m), "{m}");
        }
    }
}
