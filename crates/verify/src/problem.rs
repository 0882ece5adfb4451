//! What can be wrong with a game log.

use core::fmt;

use twenty48_engine::{Direction, RulesError, Status};

use crate::state::State;

/// A claim a log makes about the end of its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClaimField {
    /// The number of moves.
    MoveCount,
    /// The final score.
    Score,
    /// The largest tile (as an exponent).
    MaxTile,
    /// The final state hash.
    FinalHash,
    /// The final status.
    Status,
}

impl fmt::Display for ClaimField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClaimField::MoveCount => "move count",
            ClaimField::Score => "score",
            ClaimField::MaxTile => "max tile",
            ClaimField::FinalHash => "final state hash",
            ClaimField::Status => "status",
        })
    }
}

/// The first thing found wrong while verifying a log.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The rules in the log cannot be played.
    InvalidRules {
        /// Why.
        source: RulesError,
    },
    /// A logged move does not change the board: the log is invalid at that move.
    NoMove {
        /// The 1-based move number.
        move_number: u32,
        /// The move.
        direction: Direction,
        /// The state before the move.
        before: Box<State>,
    },
    /// A move was logged after the game had ended.
    AfterEnd {
        /// The 1-based move number.
        move_number: u32,
        /// How the game had ended.
        status: Status,
    },
    /// A checkpoint hash differs from the replay.
    Checkpoint {
        /// The move after which the checkpoint was taken.
        move_number: u32,
        /// The move after the previous checkpoint: the divergence lies in between.
        since: u32,
        /// The hash stored in the log (low 32 bits of the state hash).
        logged: u32,
        /// The replay's state.
        actual: Box<State>,
    },
    /// The fast and the reference engines disagree (an engine bug, not a bad log).
    EnginesDisagree {
        /// The 1-based move number (0 = the opening).
        move_number: u32,
        /// The fast engine's state.
        fast: Box<State>,
        /// The reference engine's state.
        reference: Box<State>,
    },
    /// A claim about the end of the game is false.
    Claim {
        /// Which claim.
        field: ClaimField,
        /// What the log says.
        claimed: String,
        /// What the replay gives.
        actual: String,
    },
}

impl Problem {
    /// The move at which the problem shows, if it is tied to one.
    pub fn move_number(&self) -> Option<u32> {
        match self {
            Problem::NoMove { move_number, .. }
            | Problem::AfterEnd { move_number, .. }
            | Problem::Checkpoint { move_number, .. }
            | Problem::EnginesDisagree { move_number, .. } => Some(*move_number),
            Problem::InvalidRules { .. } | Problem::Claim { .. } => None,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::InvalidRules { source } => write!(f, "the log's rules are invalid: {source}"),
            Problem::NoMove {
                move_number,
                direction,
                ..
            } => write!(
                f,
                "move {move_number} ({direction}) does not change the board, so the log is invalid at move {move_number}"
            ),
            Problem::AfterEnd {
                move_number,
                status,
            } => write!(
                f,
                "move {move_number} comes after the game ended ({status})"
            ),
            Problem::Checkpoint {
                move_number,
                since,
                logged,
                actual,
            } => write!(
                f,
                "the checkpoint after move {move_number} is {logged:08x}, but the replay gives {:08x}: the games part between moves {since} and {move_number}",
                actual.hash as u32
            ),
            Problem::EnginesDisagree {
                move_number,
                fast,
                reference,
            } => write!(
                f,
                "the fast and reference engines disagree at move {move_number} (hash {:016x} against {:016x}, score {} against {})",
                fast.hash, reference.hash, fast.score, reference.score
            ),
            Problem::Claim {
                field,
                claimed,
                actual,
            } => write!(
                f,
                "the log claims {field} {claimed}, but the replay gives {actual}"
            ),
        }
    }
}
