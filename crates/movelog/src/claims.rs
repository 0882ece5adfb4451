//! What the writer of a log says about the end of its game.

use twenty48_engine::{Game, Status};

/// The writer's claims about the game after the last logged move. A verifier replays the
/// moves and compares; decoding does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claims {
    /// Real moves played (equal to the number of moves in the log).
    pub move_count: u32,
    /// The final score.
    pub score: u64,
    /// The exponent of the largest tile (11 for 2048).
    pub max_exponent: u8,
    /// The final [state hash](twenty48_engine::Game::state_hash), all 64 bits.
    pub final_hash: u64,
    /// Where the game stands.
    pub status: Status,
}

impl Claims {
    /// The claims that describe `game` as it is now.
    pub fn of(game: &Game) -> Claims {
        Claims {
            move_count: game.move_count(),
            score: game.score(),
            max_exponent: game.max_exponent(),
            final_hash: game.state_hash(),
            status: game.status(),
        }
    }
}

/// The checkpoint stored for a state hash: its low 32 bits.
pub const fn checkpoint_hash(state_hash: u64) -> u32 {
    state_hash as u32
}
