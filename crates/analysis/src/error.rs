//! What can stop an analysis.

use twenty48_engine::{Direction, RulesError};

/// Why a game cannot be analysed (further).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The bot searches 4x4 boards only.
    Size {
        /// The rules' board size.
        size: u8,
    },
    /// The rules are not a valid rule set.
    Rules(RulesError),
    /// A move of the game does not change the board: the game cannot be replayed past it.
    Illegal {
        /// The move's number (1 for the first).
        move_number: u32,
        /// The move.
        direction: Direction,
    },
    /// A move after the game ended.
    Ended {
        /// The move's number (1 for the first).
        move_number: u32,
    },
}

impl core::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            AnalysisError::Size { size } => write!(
                f,
                "the analysis rates moves on 4x4 boards only (the bot searches those); this game is {size}x{size}"
            ),
            AnalysisError::Rules(e) => write!(f, "invalid rules: {e}"),
            AnalysisError::Illegal { move_number, direction } => write!(
                f,
                "move {move_number} ({direction}) does not change the board"
            ),
            AnalysisError::Ended { move_number } => {
                write!(f, "move {move_number} comes after the game ended")
            }
        }
    }
}

impl std::error::Error for AnalysisError {}
