//! A game as the device logged it.

use twenty48_engine::{Direction, Rules, Status};
use twenty48_movelog::{MoveLog, DEFAULT_CHECKPOINT_INTERVAL};

use crate::check::check;

/// One move frame: a move that changed the board on the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceMove {
    /// The move's number in its game, 1 for the first.
    pub seq: u32,
    /// The direction.
    pub dir: Direction,
    /// The score after the move, as the device counted it.
    pub score: u64,
    /// The state hash after the move (spawn included), as the device computed it.
    pub hash: u64,
}

/// The game-end frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// How the game ended: [`Status::Won`], [`Status::Over`], or [`Status::Playing`] for a
    /// game abandoned for another one (QEMU only).
    pub status: Status,
    /// The final score.
    pub score: u64,
    /// The number of moves played.
    pub moves: u32,
    /// The final state hash.
    pub hash: u64,
}

/// One game found in a capture: its start frame and what followed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceGame {
    /// The game's number within the capture, from 1.
    pub number: u32,
    /// The rules from the game-start frame.
    pub rules: Rules,
    /// The seed from the game-start frame.
    pub seed: u64,
    /// The move frames, in the order they arrived.
    pub moves: Vec<DeviceMove>,
    /// The game-end frame; `None` when the capture has none (truncated game).
    pub end: Option<GameEnd>,
    /// Byte offset of the game-start frame in the capture.
    pub offset: usize,
}

impl DeviceGame {
    /// A move log of what is certain about this game.
    ///
    /// A game that [checks](check) clean gives a complete log of all its moves. Otherwise,
    /// with `keep_partial`, the log holds the moves before the first problem and is marked
    /// incomplete (`complete == false`); without it, `None`. Never a log with a move the
    /// host could not confirm.
    pub fn to_movelog(&self, keep_partial: bool) -> Option<MoveLog> {
        let result = check(self);
        if !result.is_verified() && !keep_partial {
            return None;
        }
        let moves: Vec<Direction> = self.moves[..result.verified_moves as usize]
            .iter()
            .map(|m| m.dir)
            .collect();
        let mut log =
            MoveLog::from_moves(self.rules, self.seed, &moves, DEFAULT_CHECKPOINT_INTERVAL).ok()?;
        log.complete = result.is_verified();
        Some(log)
    }
}
