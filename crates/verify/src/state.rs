//! The state of a game after a move, as the verifier and the diff report it.

use twenty48_engine::{Cells, Direction, Game, Outcome, Spawn, Status};

/// A game's state after its `move_number`-th move (0 = after the opening).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Moves played so far.
    pub move_number: u32,
    /// The move that led here (`None` after the opening).
    pub direction: Option<Direction>,
    /// The spawns of this step: the opening spawns at move 0, else the one spawn.
    pub spawns: Vec<Spawn>,
    /// Points scored by this move.
    pub gained: u64,
    /// Merges made by this move.
    pub merges: u32,
    /// Score after the move.
    pub score: u64,
    /// State hash after the move (docs/rules.md).
    pub hash: u64,
    /// Status after the move.
    pub status: Status,
    /// The board after the move; `None` where only a device's report is known.
    pub cells: Option<Cells>,
}

impl State {
    /// The state of a game just after its opening.
    pub fn opening(game: &Game) -> State {
        State {
            spawns: game.opening_spawns().collect(),
            ..State::current(game)
        }
    }

    /// The state of `game` as it stands, with no move or spawn attached (used for the state
    /// before a move).
    pub fn current(game: &Game) -> State {
        State {
            move_number: game.move_count(),
            direction: None,
            spawns: Vec::new(),
            gained: 0,
            merges: 0,
            score: game.score(),
            hash: game.state_hash(),
            status: game.status(),
            cells: Some(game.cells()),
        }
    }

    /// The state of `game` just after it played `direction` with `outcome`.
    pub fn after(game: &Game, direction: Direction, outcome: &Outcome) -> State {
        State {
            move_number: game.move_count(),
            direction: Some(direction),
            spawns: outcome.spawn.into_iter().collect(),
            gained: outcome.gained,
            merges: outcome.merges,
            score: game.score(),
            hash: game.state_hash(),
            status: game.status(),
            cells: Some(game.cells()),
        }
    }
}
