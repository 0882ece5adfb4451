//! A recorded game: rules, seed, moves, checkpoints and the writer's claims.

use twenty48_engine::{Direction, Game, Rules};

use crate::claims::{checkpoint_hash, Claims};
use crate::error::RecordError;

/// One game as a `.t48` file holds it. [`MoveLog::encode`] and [`MoveLog::decode`] convert
/// it to and from bytes (docs/format.md); [`MoveLog::from_moves`] and
/// [`Recorder`](crate::Recorder) make one.
///
/// Invariants (kept by every constructor here and checked by `decode`):
/// `moves.len() == claims.move_count`, and `checkpoints.len()` is
/// [`checkpoint_count`]`(claims.move_count, checkpoint_interval)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLog {
    /// The full rule set.
    pub rules: Rules,
    /// The game's seed.
    pub seed: u64,
    /// The real moves, in order (no move that left the board unchanged).
    pub moves: Vec<Direction>,
    /// K: a checkpoint every K moves; 0 for none.
    pub checkpoint_interval: u32,
    /// The low 32 bits of the state hash after moves K, 2K, 3K, ... (see [`checkpoint_hash`]).
    pub checkpoints: Vec<u32>,
    /// The writer's claims about the end of the game.
    pub claims: Claims,
    /// `false` for a partial log: the writer (for example a pull from a device) could not
    /// recover the whole game, and the moves are only the start of it.
    pub complete: bool,
    /// `true` when the player was shown hints (`play --hint`): the game was not played
    /// unaided. Written as format version 2; version-1 logs have no hints.
    pub hinted: bool,
}

/// How many checkpoints a log of `move_count` moves with interval `k` has:
/// `move_count / k`, or 0 when `k` is 0.
pub const fn checkpoint_count(move_count: u32, k: u32) -> u32 {
    match move_count.checked_div(k) {
        Some(c) => c,
        None => 0,
    }
}

impl MoveLog {
    /// Replays `moves` from (rules, seed) on the fast engine, refusing no-op moves, and fills
    /// claims and checkpoints. The log is marked complete.
    pub fn from_moves(
        rules: Rules,
        seed: u64,
        moves: &[Direction],
        checkpoint_interval: u32,
    ) -> Result<MoveLog, RecordError> {
        let mut game =
            Game::new(rules, seed).map_err(|source| RecordError::InvalidRules { source })?;
        let mut checkpoints = Vec::new();
        for (i, &dir) in moves.iter().enumerate() {
            let move_number = u32::try_from(i + 1).unwrap_or(u32::MAX);
            match game.play(dir) {
                Err(_) => {
                    return Err(RecordError::GameEnded {
                        move_number,
                        status: game.status(),
                    })
                }
                Ok(o) if !o.moved => {
                    return Err(RecordError::NoMove {
                        move_number,
                        direction: dir,
                    })
                }
                Ok(_) => {}
            }
            if checkpoint_interval > 0 && game.move_count() % checkpoint_interval == 0 {
                checkpoints.push(checkpoint_hash(game.state_hash()));
            }
        }
        Ok(MoveLog {
            rules,
            seed,
            moves: moves.to_vec(),
            checkpoint_interval,
            checkpoints,
            claims: Claims::of(&game),
            complete: true,
            hinted: false,
        })
    }

    /// Which checkpoint (if any) falls after move number `moves_played` (1-based count of
    /// moves played): the stored low 32 bits of the state hash, when `moves_played` is a
    /// non-zero multiple of the interval and the log has that checkpoint.
    pub fn checkpoint_after(&self, moves_played: u32) -> Option<u32> {
        let k = self.checkpoint_interval;
        if k == 0 || moves_played == 0 || moves_played % k != 0 {
            return None;
        }
        self.checkpoints
            .get((moves_played / k - 1) as usize)
            .copied()
    }
}
