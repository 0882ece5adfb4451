//! Replaying a log and verifying it.

use twenty48_engine::{tile_value, Engine, Game, PlayError};
use twenty48_movelog::{checkpoint_hash, MoveLog};

use crate::problem::{ClaimField, Problem};
use crate::state::State;

/// Which engine(s) replay a log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineChoice {
    /// The 4x4 bitboard (other sizes always use the reference engine).
    Fast,
    /// The reference engine.
    Reference,
    /// Both, compared after every move.
    #[default]
    Both,
}

/// The result of verifying one log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Moves replayed before stopping (all of them when the log verifies).
    pub moves_replayed: u32,
    /// The replay's last state.
    pub last: Option<State>,
    /// The first problem found; `None` when the log verifies.
    pub problem: Option<Problem>,
    /// Whether the log says it holds the whole game (`false`: a partial device log, whose
    /// moves are a verified beginning).
    pub complete: bool,
}

impl Report {
    /// Whether the log verifies.
    pub fn is_ok(&self) -> bool {
        self.problem.is_none()
    }
}

/// Replays `log` on `engine`, calling `on_state` after the opening and after every move,
/// and checking every move's legality and every checkpoint.
///
/// Returns the final game, or the first problem (the states before it were reported).
pub fn replay(
    log: &MoveLog,
    engine: Engine,
    mut on_state: impl FnMut(&State),
) -> Result<Game, Problem> {
    let mut game = Game::with_engine(log.rules, log.seed, engine)
        .map_err(|source| Problem::InvalidRules { source })?;
    on_state(&State::opening(&game));
    for (i, &dir) in log.moves.iter().enumerate() {
        let move_number = i as u32 + 1;
        match game.play(dir) {
            Err(PlayError::Finished { status }) => {
                return Err(Problem::AfterEnd {
                    move_number,
                    status,
                })
            }
            Err(_) => unreachable!("PlayError has one variant"),
            // A move that changes nothing leaves the game as it was: its state is the one
            // before the move.
            Ok(outcome) if !outcome.moved => {
                return Err(Problem::NoMove {
                    move_number,
                    direction: dir,
                    before: Box::new(State::current(&game)),
                })
            }
            Ok(outcome) => {
                let state = State::after(&game, dir, &outcome);
                on_state(&state);
                if let Some(logged) = log.checkpoint_after(move_number) {
                    if logged != checkpoint_hash(state.hash) {
                        return Err(Problem::Checkpoint {
                            move_number,
                            since: move_number.saturating_sub(log.checkpoint_interval),
                            logged,
                            actual: Box::new(state),
                        });
                    }
                }
            }
        }
    }
    Ok(game)
}

/// Verifies `log`: replays it (on both engines compared after every move, when asked),
/// checks each move is legal, each checkpoint, and each claim.
pub fn verify(log: &MoveLog, engines: EngineChoice) -> Report {
    let primary = match engines {
        EngineChoice::Reference => Engine::Reference,
        EngineChoice::Fast | EngineChoice::Both => Engine::Fast,
    };
    let mut states = Vec::new();
    let result = replay(log, primary, |s| states.push(s.clone()));
    let mut report = Report {
        moves_replayed: states.last().map_or(0, |s| s.move_number),
        last: states.last().cloned(),
        problem: None,
        complete: log.complete,
    };
    let game = match result {
        Ok(game) => game,
        Err(problem) => {
            report.problem = Some(problem);
            return report;
        }
    };
    if engines == EngineChoice::Both {
        let mut i = 0;
        let mut disagreement = None;
        // The reference replay is checked state by state against the fast one.
        let _ = replay(log, Engine::Reference, |s| {
            if disagreement.is_none() && states.get(i) != Some(s) {
                disagreement = Some((states.get(i).cloned(), s.clone()));
            }
            i += 1;
        });
        if let Some((fast, reference)) = disagreement {
            report.problem = Some(Problem::EnginesDisagree {
                move_number: reference.move_number,
                fast: Box::new(fast.unwrap_or_else(|| reference.clone())),
                reference: Box::new(reference),
            });
            return report;
        }
    }
    report.problem = check_claims(log, &game);
    report
}

fn check_claims(log: &MoveLog, game: &Game) -> Option<Problem> {
    let c = &log.claims;
    let checks = [
        (
            ClaimField::MoveCount,
            c.move_count == game.move_count(),
            c.move_count.to_string(),
            game.move_count().to_string(),
        ),
        (
            ClaimField::Score,
            c.score == game.score(),
            c.score.to_string(),
            game.score().to_string(),
        ),
        (
            ClaimField::MaxTile,
            c.max_exponent == game.max_exponent(),
            tile_value(c.max_exponent).to_string(),
            game.max_tile().to_string(),
        ),
        (
            ClaimField::FinalHash,
            c.final_hash == game.state_hash(),
            format!("{:016x}", c.final_hash),
            format!("{:016x}", game.state_hash()),
        ),
        (
            ClaimField::Status,
            c.status == game.status(),
            c.status.to_string(),
            game.status().to_string(),
        ),
    ];
    checks
        .into_iter()
        .find(|(_, ok, _, _)| !ok)
        .map(|(field, _, claimed, actual)| Problem::Claim {
            field,
            claimed,
            actual,
        })
}
