//! A game replayed into the positions its moves were played in.

use twenty48_engine::{Direction, Game, Rules};

use crate::error::AnalysisError;
use crate::rating::Position;

/// The positions of a game, in order: the board before each move and the move. Replays the
/// moves as it goes (one game in memory, however long the list); the first move that cannot
/// be played ends it with an error.
#[derive(Debug)]
pub struct Positions<I> {
    game: Game,
    moves: I,
    failed: bool,
}

impl<I: Iterator<Item = Direction>> Positions<I> {
    /// The positions of the game of `rules` and `seed` that plays `moves`.
    pub fn new(rules: Rules, seed: u64, moves: I) -> Result<Positions<I>, AnalysisError> {
        if rules.size != 4 {
            return Err(AnalysisError::Size { size: rules.size });
        }
        let game = Game::new(rules, seed).map_err(AnalysisError::Rules)?;
        Ok(Positions {
            game,
            moves,
            failed: false,
        })
    }

    /// The positions of `moves` played on from `game` (a game of the 4x4 board, whose
    /// next move is the first of `moves`): an analysis taken up where it stopped.
    pub fn from_game(game: Game, moves: I) -> Positions<I> {
        Positions {
            game,
            moves,
            failed: false,
        }
    }

    /// The game after the moves yielded so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The board after the moves yielded so far: 16 exponents, row by row.
    pub fn cells(&self) -> [u8; 16] {
        let mut cells = [0u8; 16];
        cells.copy_from_slice(&self.game.cells().exponents()[..16]);
        cells
    }

    /// The game after the moves yielded so far, given back.
    pub fn into_game(self) -> Game {
        self.game
    }
}

impl<I: Iterator<Item = Direction>> Iterator for Positions<I> {
    type Item = Result<Position, AnalysisError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let played = self.moves.next()?;
        let move_number = self.game.move_count().saturating_add(1);
        let mut cells = [0u8; 16];
        cells.copy_from_slice(&self.game.cells().exponents()[..16]);
        let result = match self.game.play(played) {
            Ok(outcome) if outcome.moved => Ok(Position {
                move_number,
                cells,
                played,
            }),
            Ok(_) => Err(AnalysisError::Illegal {
                move_number,
                direction: played,
            }),
            Err(_) => Err(AnalysisError::Ended { move_number }),
        };
        self.failed = result.is_err();
        Some(result)
    }
}
