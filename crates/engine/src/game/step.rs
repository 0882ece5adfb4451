//! One move of a replay as [`Game::play_all_observed`] hands it out: what the move did and
//! the game after it, without a [`Game`] built per move.

use core::fmt;
use core::ops::ControlFlow;

use crate::direction::Direction;
use crate::reference::MAX_CELLS;

use super::{Cells, Game, Outcome, Refusal, State};

/// A move [`Game::play_all_observed`] played: its place in the list, what it did (what
/// [`Game::play`] would have returned) and the score, move count and board after it.
#[derive(Clone, Copy)]
pub struct Step {
    /// The move's index in the list (0-based).
    pub index: usize,
    /// The move.
    pub direction: Direction,
    /// What it did, as [`Game::play`] reports it.
    pub outcome: Outcome,
    /// The score after it.
    pub score: u64,
    /// The number of moves played after it.
    pub move_count: u32,
    /// The board after it.
    pub(super) board: State,
}

impl Step {
    /// The board after the move (what [`Game::cells`] would give).
    pub fn cells(&self) -> Cells {
        self.board.cells()
    }

    /// Whether `game`'s board is this move's board (the same [`Cells`]), whatever engine
    /// `game` plays on: for comparing the engines move by move, cheaper than building both
    /// boards.
    #[inline]
    pub fn same_cells(&self, game: &Game) -> bool {
        self.board.same_cells(&game.state)
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Step")
            .field("index", &self.index)
            .field("direction", &self.direction)
            .field("outcome", &self.outcome)
            .field("score", &self.score)
            .field("move_count", &self.move_count)
            .field("cells", &self.cells())
            .finish()
    }
}

impl State {
    /// The board's cells.
    pub(super) fn cells(&self) -> Cells {
        let mut cells = [0u8; MAX_CELLS];
        let size = match self {
            #[cfg(not(feature = "compact-state"))]
            State::Packed(p) => {
                cells[..16].copy_from_slice(&p.cells());
                4
            }
            #[cfg(not(feature = "compact-state"))]
            State::Wide(w) => {
                cells[..16].copy_from_slice(&w.0);
                4
            }
            State::Reference(b) => {
                cells[..b.cells().len()].copy_from_slice(b.cells());
                b.size()
            }
        };
        Cells { size, cells }
    }

    /// Whether both boards have the same cells, whatever engine holds each.
    #[inline]
    pub(super) fn same_cells(&self, other: &State) -> bool {
        match (self, other) {
            #[cfg(not(feature = "compact-state"))]
            // The packed board's 16 exponents against the array's: one 16-byte comparison.
            (State::Packed(p), State::Reference(b)) | (State::Reference(b), State::Packed(p)) => {
                <[u8; 16]>::try_from(b.cells())
                    .is_ok_and(|cells| u128::from_le_bytes(cells) == u128::from_le_bytes(p.cells()))
            }
            _ => self.cells() == other.cells(),
        }
    }
}

impl Game {
    /// Plays every move of `moves` in order like [`Game::play_all`], and hands each move
    /// played to `on_move` as a [`Step`]; `on_move` may stop the replay after any move
    /// ([`ControlFlow::Break`]). Returns how many moves were played: all of them, unless
    /// `on_move` stopped (the game then stands after the move it stopped at).
    ///
    /// On the 4x4 fast path this is [`Game::play_all`]'s own loop with `on_move` called in
    /// it: a [`Game`] is neither built nor updated per move.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use twenty48_engine::{Direction, Game, Rules};
    ///
    /// let moves = [Direction::Left, Direction::Up, Direction::Right];
    /// let mut game = Game::new(Rules::CLASSIC, 1).unwrap();
    /// let mut score = 0;
    /// let played = game
    ///     .play_all_observed(&moves, |step| {
    ///         score += step.outcome.gained;
    ///         assert_eq!(step.score, score);
    ///         ControlFlow::Continue(())
    ///     })
    ///     .unwrap();
    /// assert_eq!((played, game.score()), (3, score));
    ///
    /// // Stopped after the second move.
    /// let mut game = Game::new(Rules::CLASSIC, 1).unwrap();
    /// let stop_at_2 = |step: &twenty48_engine::Step| match step.move_count {
    ///     2 => ControlFlow::Break(()),
    ///     _ => ControlFlow::Continue(()),
    /// };
    /// assert_eq!(game.play_all_observed(&moves, stop_at_2), Ok(2));
    /// assert_eq!(game.move_count(), 2);
    /// ```
    pub fn play_all_observed(
        &mut self,
        moves: &[Direction],
        mut on_move: impl FnMut(&Step) -> ControlFlow<()>,
    ) -> Result<usize, Refusal> {
        #[cfg(not(feature = "compact-state"))]
        return self.play_all_with(moves, &mut on_move, Game::play_all_packed);
        #[cfg(feature = "compact-state")]
        self.play_each(moves, &mut on_move)
    }

    /// [`Game::play_all_observed`] move by move through [`Game::play`]: the replay of
    /// `compact-state`, which has no packed board.
    #[cfg(feature = "compact-state")]
    fn play_each(
        &mut self,
        moves: &[Direction],
        on_move: &mut impl FnMut(&Step) -> ControlFlow<()>,
    ) -> Result<usize, Refusal> {
        for (index, &direction) in moves.iter().enumerate() {
            if self.play_step(index, direction, on_move)?.is_break() {
                return Ok(index + 1);
            }
        }
        Ok(moves.len())
    }

    /// Plays `direction`, move `index` of a list, with [`Game::play`] and hands it to
    /// `on_move`: the replays' general path. Refuses a move that changes nothing or comes
    /// after the end.
    pub(super) fn play_step(
        &mut self,
        index: usize,
        direction: Direction,
        on_move: &mut impl FnMut(&Step) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Refusal> {
        let outcome = match self.play(direction) {
            Ok(outcome) if outcome.moved => outcome,
            Ok(_) => return Err(Refusal::NoMove { index, direction }),
            Err(super::PlayError::Finished { status }) => {
                return Err(Refusal::Finished { index, status })
            }
        };
        Ok(on_move(&Step {
            index,
            direction,
            outcome,
            score: self.score,
            move_count: self.moves,
            board: self.state,
        }))
    }
}
