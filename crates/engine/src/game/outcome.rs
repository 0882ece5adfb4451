//! What a move did, why one was refused, where a game stands, and which engine plays it.

use core::fmt;

use crate::direction::Direction;
use crate::spawn::Spawn;

/// Which implementation slides the tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Engine {
    /// The 4x4 bitboard (other sizes use the reference engine, which is the only one they have).
    #[default]
    Fast,
    /// The reference engine, for every size.
    Reference,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Status {
    /// Moves can be made.
    Playing = 0,
    /// The game ended as a win (rules whose win ends the game).
    Won = 1,
    /// No move changes the board.
    Over = 2,
}

impl Status {
    /// The lower-case name: `playing`, `won`, `over`.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Over => "over",
        }
    }

    /// Whether the game has ended.
    pub const fn is_finished(self) -> bool {
        !matches!(self, Status::Playing)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one call to [`Game::play`](super::Game::play) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Outcome {
    /// Whether the board changed. When `false` nothing else happened: no spawn, no score,
    /// the move count is unchanged, and the game state is exactly as before.
    pub moved: bool,
    /// Points the move scored.
    pub gained: u64,
    /// Number of merges.
    pub merges: u32,
    /// The tile spawned after the move (`None` when it did not move).
    pub spawn: Option<Spawn>,
    /// Whether this move made the winning tile for the first time in this game.
    pub reached_win: bool,
    /// The game's status after the move.
    pub status: Status,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum PlayError {
    /// The game has ended; no move is accepted.
    Finished {
        /// How it ended.
        status: Status,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Finished { status } => {
                write!(
                    f,
                    "the game has ended ({status}); no further move is possible"
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PlayError {}

/// Why [`Game::play_all`](super::Game::play_all) stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Refusal {
    /// The move at `index` (0-based) does not change the board.
    NoMove {
        /// Position in the list.
        index: usize,
        /// The move.
        direction: Direction,
    },
    /// The move at `index` came after the game had ended.
    Finished {
        /// Position in the list.
        index: usize,
        /// How the game ended.
        status: Status,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::NoMove { index, direction } => write!(
                f,
                "move {} ({direction}) does not change the board",
                index + 1
            ),
            Refusal::Finished { index, status } => {
                write!(
                    f,
                    "move {} comes after the game ended ({status})",
                    index + 1
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::string::ToString;

    #[test]
    fn refusals_name_the_move_from_1_and_why() {
        assert_eq!(
            Refusal::NoMove {
                index: 0,
                direction: Direction::Left
            }
            .to_string(),
            "move 1 (left) does not change the board"
        );
        assert_eq!(
            Refusal::Finished {
                index: 41,
                status: Status::Over
            }
            .to_string(),
            "move 42 comes after the game ended (over)"
        );
        assert_eq!(
            PlayError::Finished {
                status: Status::Won
            }
            .to_string(),
            "the game has ended (won); no further move is possible"
        );
    }
}
