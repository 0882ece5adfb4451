//! Replaying a log and verifying it.
//!
//! [`verify`](crate::verify) on one engine does per move only what the log asks for: the
//! moves up to each checkpoint are played with [`Game::play_all`], the state hash is computed
//! where a checkpoint or a claim needs it, and a [`State`] is built only for the last move or
//! when a problem has to be described (then the moves up to the one before it are played
//! again from the start). [`replay`] is the move-by-move walk for callers that want every
//! state.

use core::fmt;
use core::ops::Range;

use twenty48_engine::{Direction, Engine, Game, PlayError, Refusal};
use twenty48_movelog::checkpoint_hash;

use crate::problem::{ClaimField, Problem};
use crate::source::{Log, Stretch, STRETCH};
use crate::state::State;

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

    /// The verdict in words, as `twenty48 verify` and the web page print it after the file's
    /// name: for a log that verifies, its moves, score and hash (`8 moves, score 20, hash
    /// b0dc11b9f783233d`, and a note when the log is partial); else the problem.
    ///
    /// ```
    /// use twenty48_engine::{Direction, Rules};
    /// use twenty48_movelog::MoveLog;
    /// use twenty48_verify::{verify, EngineChoice};
    ///
    /// let log = MoveLog::from_moves(Rules::CLASSIC, 1, &[Direction::Left], 2).unwrap();
    /// let report = verify(&log, EngineChoice::Fast);
    /// assert!(report.summary().to_string().starts_with("1 move, score "));
    /// ```
    pub fn summary(&self) -> Summary<'_> {
        Summary(self)
    }

    /// How many of the log's `logged` moves verify: all of them when the log verifies or
    /// only a claim about its end is false; those before the move a problem names (a move
    /// that cannot be played, a checkpoint that disagrees); none when the rules are invalid.
    /// What `twenty48 analyse` and the web page analyse.
    ///
    /// ```
    /// use twenty48_engine::{Direction, Rules};
    /// use twenty48_movelog::MoveLog;
    /// use twenty48_verify::{verify, EngineChoice};
    ///
    /// let mut log = MoveLog::from_moves(Rules::CLASSIC, 9, &[Direction::Left], 2).unwrap();
    /// // A false claim: every move still verifies.
    /// log.claims.score += 4;
    /// assert_eq!(verify(&log, EngineChoice::Fast).verified_moves(1), 1);
    /// // Under seed 9 a second left changes nothing: the first move verifies.
    /// log.moves.push(Direction::Left);
    /// log.claims.move_count = 2;
    /// assert_eq!(verify(&log, EngineChoice::Fast).verified_moves(2), 1);
    /// ```
    pub fn verified_moves(&self, logged: u32) -> u32 {
        match &self.problem {
            None | Some(Problem::Claim { .. }) => logged,
            Some(Problem::InvalidRules { .. }) => 0,
            Some(p) => p
                .move_number()
                .map_or(logged, |m| m.saturating_sub(1).min(logged)),
        }
    }

    /// How many of the `logged` moves replay, each changing the board: the moves
    /// [`Report::verified_moves`] counts, and when a checkpoint disagrees, the moves up to it
    /// too (they all play; the game diverged somewhere before it). What the analysis rates.
    pub fn replayed_moves(&self, logged: u32) -> u32 {
        match &self.problem {
            Some(Problem::Checkpoint { move_number, .. }) => (*move_number).min(logged),
            _ => self.verified_moves(logged),
        }
    }
}

/// [`Report::summary`]: a report's verdict in words.
#[derive(Clone, Copy, Debug)]
pub struct Summary<'a>(&'a Report);

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let report = self.0;
        match (&report.problem, &report.last) {
            (Some(problem), _) => problem.fmt(f),
            (None, Some(last)) => {
                let noun = if last.move_number == 1 {
                    "move"
                } else {
                    "moves"
                };
                write!(
                    f,
                    "{} {noun}, score {}, hash {:016x}",
                    last.move_number, last.score, last.hash
                )?;
                if !report.complete {
                    f.write_str(
                        "; a partial log: these moves are a verified beginning of the game",
                    )?;
                }
                Ok(())
            }
            (None, None) => f.write_str("verified"),
        }
    }
}

/// Replays `log` on `engine`, calling `on_state` after the opening and after every move,
/// and checking every move's legality and every checkpoint. Builds a [`State`] (with its
/// hash) per move: use it to show every move; [`verify`](crate::verify) checks a log without
/// that work.
///
/// Returns the final game, or the first problem (the states before it were reported).
/// Takes no memory in proportion to the moves: a [`PackedLog`](twenty48_movelog::PackedLog)
/// is read a move at a time.
pub fn replay(
    log: &impl Log,
    engine: Engine,
    mut on_state: impl FnMut(&State),
) -> Result<Game, Problem> {
    let mut game = Game::with_engine(log.rules(), log.seed(), engine)
        .map_err(|source| Problem::InvalidRules { source })?;
    on_state(&State::opening(&game));
    for move_number in 1..=log.move_count() as u32 {
        let state = play_one(&mut game, log, move_number)?;
        on_state(&state);
        check_checkpoint(log, state)?;
    }
    Ok(game)
}

/// Plays move `move_number` (1-based) of `log` on `game` and returns the state after it, or
/// the problem that move is.
fn play_one(game: &mut Game, log: &impl Log, move_number: u32) -> Result<State, Problem> {
    let dir = log.move_at(move_number as usize - 1);
    match game.play(dir) {
        Err(PlayError::Finished { status }) => Err(Problem::AfterEnd {
            move_number,
            status,
        }),
        Err(_) => unreachable!("PlayError has one variant"),
        // A move that changes nothing leaves the game as it was: its state is the one
        // before the move.
        Ok(outcome) if !outcome.moved => Err(Problem::NoMove {
            move_number,
            direction: dir,
            before: Box::new(State::current(game)),
        }),
        Ok(outcome) => Ok(State::after(game, dir, &outcome)),
    }
}

/// Checks the checkpoint after `state`'s move, if the log has one there; hands the state
/// back when it holds.
fn check_checkpoint(log: &impl Log, state: State) -> Result<State, Problem> {
    let move_number = state.move_number;
    match log.checkpoint_after(move_number) {
        Some(logged) if logged != checkpoint_hash(state.hash) => Err(Problem::Checkpoint {
            move_number,
            since: move_number.saturating_sub(log.checkpoint_interval()),
            logged,
            actual: Box::new(state),
        }),
        _ => Ok(state),
    }
}

/// A log verified on one engine: the moves up to each checkpoint played in one
/// [`Game::play_all`] call each (or a few, [`STRETCH`] moves at most each), the state hash
/// computed at checkpoints only, and the last move played on its own for the state after it.
/// Nothing else is built unless there is a problem to describe ([`failed`]).
pub(crate) fn verify_on(log: &impl Log, engine: Engine) -> Report {
    let mut game = match Game::with_engine(log.rules(), log.seed(), engine) {
        Ok(game) => game,
        Err(source) => {
            return Report {
                moves_replayed: 0,
                last: None,
                problem: Some(Problem::InvalidRules { source }),
                complete: log.complete(),
            }
        }
    };
    let n = log.move_count();
    let k = log.checkpoint_interval() as usize;
    let mut buffer = [Direction::Up; STRETCH];
    // Every move but the last, in stretches that end at checkpoints.
    let mut at = 0;
    while at + 1 < n {
        let end = match k {
            0 => n - 1,
            k => (at / k + 1).saturating_mul(k).min(n - 1),
        };
        if let Err(problem) = play_range(&mut game, log, at..end, &mut buffer) {
            return failed(log, engine, problem);
        }
        if let Some(logged) = log.checkpoint_after(end as u32) {
            if logged != checkpoint_hash(game.state_hash()) {
                let state = state_after(log, engine, end as u32);
                let problem = check_checkpoint(log, state).expect_err("the hash differs");
                return failed(log, engine, problem);
            }
        }
        at = end;
    }
    let last = if n == 0 {
        State::opening(&game)
    } else {
        match play_one(&mut game, log, n as u32).and_then(|state| check_checkpoint(log, state)) {
            Ok(state) => state,
            Err(problem) => return failed(log, engine, problem),
        }
    };
    Report {
        moves_replayed: last.move_number,
        problem: check_claims(log, &game, last.hash),
        last: Some(last),
        complete: log.complete(),
    }
}

/// The report on a log whose replay on `engine` met `problem`: with the state after the last
/// move that was played right (after the move before the problem, played again from the
/// start), or the checkpoint's own state.
fn failed(log: &impl Log, engine: Engine, problem: Problem) -> Report {
    let last = match &problem {
        Problem::Checkpoint { actual, .. } => (**actual).clone(),
        _ => state_after(log, engine, problem_move(&problem).map_or(0, |m| m - 1)),
    };
    Report {
        moves_replayed: last.move_number,
        last: Some(last),
        problem: Some(problem),
        complete: log.complete(),
    }
}

/// The state after move `moves` of `log` (0: the opening), replayed from the start: for
/// describing a problem. The moves up to it were played without a problem once.
fn state_after(log: &impl Log, engine: Engine, moves: u32) -> State {
    let played_once = "the moves before the problem were played once";
    let mut game = Game::with_engine(log.rules(), log.seed(), engine).expect(played_once);
    if moves == 0 {
        return State::opening(&game);
    }
    let mut buffer = [Direction::Up; STRETCH];
    play_range(&mut game, log, 0..moves as usize - 1, &mut buffer).expect(played_once);
    play_one(&mut game, log, moves).expect(played_once)
}

/// Plays the moves in `range` with [`Game::play_all`], [`STRETCH`] moves a call at most
/// (unpacked into `buffer` when the log is packed); the first that cannot be played is the
/// problem, with `game` standing before it.
fn play_range(
    game: &mut Game,
    log: &impl Log,
    range: Range<usize>,
    buffer: &mut Stretch,
) -> Result<(), Problem> {
    let mut at = range.start;
    while at < range.end {
        let upto = (at + STRETCH).min(range.end);
        game.play_all(log.moves_in(at..upto, buffer))
            .map_err(|refusal| refused(game, at, refusal))?;
        at = upto;
    }
    Ok(())
}

/// The problem a refusal of [`Game::play_all`] over the moves from index `start` is; `game` stands
/// where it stopped, before the refused move.
fn refused(game: &Game, start: usize, refusal: Refusal) -> Problem {
    match refusal {
        Refusal::NoMove { index, direction } => Problem::NoMove {
            move_number: (start + index) as u32 + 1,
            direction,
            before: Box::new(State::current(game)),
        },
        Refusal::Finished { index, status } => Problem::AfterEnd {
            move_number: (start + index) as u32 + 1,
            status,
        },
        _ => unreachable!("Refusal has two variants"),
    }
}

/// The move a problem met while playing stands at (`None` for a checkpoint, whose state is
/// the problem's own).
fn problem_move(problem: &Problem) -> Option<u32> {
    match problem {
        Problem::NoMove { move_number, .. } | Problem::AfterEnd { move_number, .. } => {
            Some(*move_number)
        }
        _ => None,
    }
}

/// The first false claim, in file order; `hash` is the game's state hash. The messages are
/// formatted for that claim only.
pub(crate) fn check_claims(log: &impl Log, game: &Game, hash: u64) -> Option<Problem> {
    let c = log.claims();
    let claim = |field, claimed: String, actual: String| {
        Some(Problem::Claim {
            field,
            claimed,
            actual,
        })
    };
    if c.move_count != game.move_count() {
        return claim(
            ClaimField::MoveCount,
            c.move_count.to_string(),
            game.move_count().to_string(),
        );
    }
    if c.score != game.score() {
        return claim(
            ClaimField::Score,
            c.score.to_string(),
            game.score().to_string(),
        );
    }
    if c.max_exponent != game.max_exponent() {
        return claim(
            ClaimField::MaxTile,
            twenty48_engine::TileName(c.max_exponent).to_string(),
            game.max_tile().to_string(),
        );
    }
    if c.final_hash != hash {
        return claim(
            ClaimField::FinalHash,
            format!("{:016x}", c.final_hash),
            format!("{hash:016x}"),
        );
    }
    if c.status != game.status() {
        return claim(
            ClaimField::Status,
            c.status.to_string(),
            game.status().to_string(),
        );
    }
    None
}
