//! The game loop: start screen, games, result screens, and the log of every game.

use twenty48_engine::{Game, Rules, Status};

use crate::board::{Board, GameSetup, Input};
use crate::log_ring::drain;
use crate::protocol;
use crate::screen::Screen;

/// The rules of a game started by a button: the `arduino` preset, as the original sketch.
pub const DEFAULT_RULES: Rules = Rules::ARDUINO;

/// How long "You Win!" / "Game Over" stays up.
pub const RESULT_SCREEN_MS: u32 = 2000;
/// How long "Your score: N" stays up.
pub const SCORE_SCREEN_MS: u32 = 3000;

/// How a game stopped.
enum Stop {
    /// It ended (won, over, or abandoned) and was logged.
    Finished,
    /// Another game was asked for; it is the next to start.
    Replaced(GameSetup),
    /// The input ended.
    InputEnded,
}

/// Runs the application until the board's input ends (never, on a real board).
///
/// Start screen; any button starts a game with `rules` (the boards pass
/// [`DEFAULT_RULES`], the `arduino` preset) and a seed from the board's entropy
/// ([`Input::NewGame`] picks rules and seed instead); the game screen until the game is won
/// or over; the result, then the final score; back to the start screen.
pub fn run<B: Board>(board: &mut B, rules: Rules) {
    let mut next: Option<GameSetup> = None;
    loop {
        let setup = match next.take() {
            Some(setup) => setup,
            None => {
                board.show(&Screen::Start);
                drain(board);
                match board.next_input() {
                    Input::Press(_) => GameSetup {
                        rules,
                        seed: board.entropy(),
                    },
                    Input::NewGame(setup) => setup,
                    Input::Abandon => continue,
                    Input::End => break,
                }
            }
        };
        match play(board, setup) {
            Stop::Finished => {}
            Stop::Replaced(setup) => next = Some(setup),
            Stop::InputEnded => break,
        }
    }
    drain(board);
}

/// Plays one game, logging its start, every move that changed the board, and its end.
fn play<B: Board>(board: &mut B, setup: GameSetup) -> Stop {
    let mut game = match Game::new(setup.rules, setup.seed) {
        Ok(game) => game,
        Err(_) => {
            defmt::warn!("t48 rules refused");
            return Stop::Finished;
        }
    };
    protocol::game_start(&setup.rules, setup.seed);
    loop {
        if game.status().is_finished() {
            protocol::game_end(&game);
            finish(board, &game);
            return Stop::Finished;
        }
        board.show(&Screen::Board {
            cells: game.cells(),
            score: game.score(),
        });
        drain(board);
        match board.next_input() {
            Input::Press(dir) => {
                if let Ok(outcome) = game.play(dir) {
                    if outcome.moved {
                        protocol::moved(game.move_count(), dir, game.score(), game.state_hash());
                    }
                }
            }
            Input::NewGame(next) => {
                // Abandoned: the end frame says result 0 (still playing).
                protocol::game_end(&game);
                drain(board);
                return Stop::Replaced(next);
            }
            Input::Abandon => {
                protocol::game_end(&game);
                drain(board);
                return Stop::Finished;
            }
            Input::End => return Stop::InputEnded,
        }
    }
}

/// The screens after a game: the result, then the final score.
fn finish<B: Board>(board: &mut B, game: &Game) {
    board.show(&Screen::Board {
        cells: game.cells(),
        score: game.score(),
    });
    drain(board);
    board.show(&Screen::Result {
        won: game.status() == Status::Won,
    });
    board.pause(RESULT_SCREEN_MS);
    board.show(&Screen::FinalScore {
        score: game.score(),
    });
    board.pause(SCORE_SCREEN_MS);
}
