//! Which engines verify a log: [`verify`] on the fast or the reference engine, or on both
//! compared move by move ([`EngineChoice::Both`], an engine test run over a log).

use core::ops::ControlFlow;

use twenty48_engine::{Direction, Engine, Game, Outcome, PlayError, Step};
use twenty48_movelog::checkpoint_hash;

use crate::problem::Problem;
use crate::replay::{check_claims, verify_on, Report};
use crate::source::{Log, STRETCH};
use crate::state::State;

/// Which engine(s) replay a log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineChoice {
    /// The 4x4 bitboard (other sizes always use the reference engine). The default: one
    /// engine verifies a log, and this one replays at the speed of [`Game::play_all`].
    #[default]
    Fast,
    /// The reference engine.
    Reference,
    /// Both, compared after every move: a test of the engines more than of the log. The log
    /// is verified on the fast engine while the reference engine plays beside it.
    Both,
}

/// Verifies `log`: replays it (on both engines compared after every move, when asked),
/// checks each move is legal, each checkpoint, and each claim. Takes no memory in proportion
/// to the moves: a [`PackedLog`](twenty48_movelog::PackedLog) is unpacked a stretch at a
/// time.
pub fn verify(log: &impl Log, engines: EngineChoice) -> Report {
    match engines {
        EngineChoice::Fast => verify_on(log, Engine::Fast),
        EngineChoice::Reference => verify_on(log, Engine::Reference),
        EngineChoice::Both => verify_both(log),
    }
}

/// Both engines, in one pass: the fast engine verifies the log (every move, checkpoint and
/// claim) while the reference engine plays beside it, compared after the opening and after
/// every move. A problem with the log comes first: when the fast engine meets one, the log
/// is verified again on it alone for the report one engine gives. Otherwise the first
/// disagreement of the engines is the problem.
///
/// The fast engine replays stretches ending at checkpoints with
/// [`Game::play_all_observed`], which hands each move to the comparison without building a
/// game per move. It stops at the first disagreement, described from the two games standing
/// after that move, then goes on verifying the log alone.
fn verify_both(log: &impl Log) -> Report {
    let (Ok(mut fast), Ok(mut reference)) = (
        Game::with_engine(log.rules(), log.seed(), Engine::Fast),
        Game::with_engine(log.rules(), log.seed(), Engine::Reference),
    ) else {
        return verify_on(log, Engine::Fast);
    };
    let (f, r) = (State::opening(&fast), State::opening(&reference));
    let mut disagreement = (f != r).then_some((f, r));
    // The log's last move and what it did on the fast engine.
    let mut last = None;
    let n = log.move_count();
    let k = log.checkpoint_interval() as usize;
    let mut buffer = [Direction::Up; STRETCH];
    let mut at = 0;
    while at < n {
        // The moves up to the next checkpoint (or the end).
        let end = match k {
            0 => n,
            k => (at / k + 1).saturating_mul(k).min(n),
        };
        let moves = log.moves_in(at..end.min(at + STRETCH), &mut buffer);
        let comparing = disagreement.is_none();
        let mut differ = None;
        let played = fast.play_all_observed(moves, |step| {
            if at + step.index + 1 == n {
                last = Some((step.direction, step.outcome));
            }
            if comparing {
                let b = reference.play(step.direction);
                if !same(step, &reference, &b) {
                    differ = Some((*step, b));
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        let Ok(played) = played else {
            return verify_on(log, Engine::Fast);
        };
        if let Some((step, b)) = differ {
            let (dir, a) = (step.direction, &step.outcome);
            disagreement = Some(describe(&fast, a, &reference, &b, dir, step.move_count));
        }
        at += played;
        if let Some(logged) = log.checkpoint_after(at as u32).filter(|_| at == end) {
            if logged != checkpoint_hash(fast.state_hash()) {
                return verify_on(log, Engine::Fast);
            }
        }
    }
    let last = match last {
        Some((dir, a)) => State::after(&fast, dir, &a),
        None => State::opening(&fast),
    };
    let problem = check_claims(log, &fast, last.hash).or_else(|| {
        disagreement.map(|(fast, reference)| Problem::EnginesDisagree {
            move_number: reference.move_number,
            fast: Box::new(fast),
            reference: Box::new(reference),
        })
    });
    Report {
        moves_replayed: last.move_number,
        last: Some(last),
        problem,
        complete: log.complete(),
    }
}

/// Whether the engines agree after a move the fast one played (`step`) and the reference
/// engine played with `b`: everything a [`State`] holds (the move's points, merges and
/// spawn, then the board, score and status; the hash follows from the board, the score and
/// the move count), without building one.
fn same(step: &Step, reference: &Game, b: &Result<Outcome, PlayError>) -> bool {
    let a = &step.outcome;
    b.as_ref().is_ok_and(|b| {
        (a.moved, a.gained, a.merges, a.spawn, a.status)
            == (b.moved, b.gained, b.merges, b.spawn, b.status)
            && step.score == reference.score()
            && step.move_count == reference.move_count()
            && step.same_cells(reference)
    })
}

/// The states of a disagreement after move `move_number` (towards `dir`): the fast
/// engine's, then the reference engine's.
fn describe(
    fast: &Game,
    a: &Outcome,
    reference: &Game,
    b: &Result<Outcome, PlayError>,
    dir: Direction,
    move_number: u32,
) -> (State, State) {
    let r = match b {
        Ok(b) if b.moved => State::after(reference, dir, b),
        // The reference engine refuses a move the fast one played.
        _ => State {
            move_number,
            ..State::current(reference)
        },
    };
    (State::after(fast, dir, a), r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::Rules;

    /// A game on `engine` after `moves` moves that change the board, and the last outcome.
    fn played(engine: Engine, seed: u64, moves: usize) -> (Game, Outcome, Direction) {
        let (game, step) = observed(engine, seed, moves);
        (game, step.outcome, step.direction)
    }

    /// [`played`], with the last move played by `play_all_observed`: the step it handed out.
    fn observed(engine: Engine, seed: u64, moves: usize) -> (Game, Step) {
        let mut game = Game::with_engine(Rules::CLASSIC, seed, engine).unwrap();
        let first_legal = |game: &Game| game.legal_moves().iter().next().unwrap();
        while game.move_count() + 1 < moves as u32 {
            game.play(first_legal(&game)).unwrap();
        }
        let mut last = None;
        let dir = first_legal(&game);
        game.play_all_observed(&[dir], |step| {
            last = Some(*step);
            ControlFlow::Continue(())
        })
        .unwrap();
        (game, last.unwrap())
    }

    /// What playing on a finished game gives.
    fn refusal() -> PlayError {
        let rules = Rules {
            size: 3,
            win: None,
            ..Rules::CLASSIC
        };
        let mut game = Game::with_engine(rules, 1, Engine::Reference).unwrap();
        while let Some(dir) = game.legal_moves().iter().next() {
            game.play(dir).unwrap();
        }
        game.play(Direction::Up).unwrap_err()
    }

    /// The engines agree exactly when the moves' outcomes and the games' boards, scores and
    /// move counts all agree.
    #[test]
    fn same_needs_every_part_to_agree() {
        let (fast, a) = observed(Engine::Fast, 3, 6);
        let (reference, b, _) = played(Engine::Reference, 3, 6);
        assert!(same(&a, &reference, &Ok(b)));
        // The same games, but another move's outcome on one side.
        let (_, other, _) = played(Engine::Reference, 3, 5);
        assert_ne!(other, b);
        assert!(!same(&a, &reference, &Ok(other)));
        // The same outcome, but another board (another seed, the same moves made).
        let (elsewhere, _, _) = played(Engine::Reference, 4, 6);
        assert_eq!(elsewhere.move_count(), fast.move_count());
        assert!(!a.same_cells(&elsewhere));
        assert!(!same(&a, &elsewhere, &Ok(b)));
        // The same move, but the score or move count of another game on the reference side.
        let (later, _, _) = played(Engine::Reference, 3, 7);
        assert!(!same(&a, &later, &Ok(b)));
        // The reference engine refused the move.
        assert!(!same(&a, &reference, &Err(refusal())));
    }

    /// A disagreement holds the fast engine's state after the move and, when the reference
    /// engine did not move, its state before the move under the move's number.
    #[test]
    fn a_disagreement_shows_both_sides_of_the_move() {
        let (fast, a, dir) = played(Engine::Fast, 5, 8);
        let (reference, b, _) = played(Engine::Reference, 5, 8);
        let (f, r) = describe(&fast, &a, &reference, &Ok(b), dir, 8);
        assert_eq!(f, State::after(&fast, dir, &a));
        assert_eq!(r, State::after(&reference, dir, &b));
        assert_eq!(r.direction, Some(dir));
        // The reference engine refuses the move: its board as it stands, at move 8. (The
        // first opening with a move that does not change the board.)
        let (mut stuck, blocked) = (1..)
            .find_map(|seed| {
                let g = Game::with_engine(Rules::CLASSIC, seed, Engine::Reference).unwrap();
                let blocked = Direction::ALL
                    .into_iter()
                    .find(|&d| !g.legal_moves().contains(d));
                blocked.map(|d| (g, d))
            })
            .unwrap();
        let before = State::current(&stuck);
        let refused = stuck.play(blocked).unwrap();
        assert!(!refused.moved);
        let (_, r) = describe(&fast, &a, &stuck, &Ok(refused), dir, 8);
        assert_eq!((r.move_number, r.direction), (8, None));
        assert_eq!(r.cells, before.cells);
        let (_, r) = describe(&fast, &a, &reference, &Err(refusal()), dir, 8);
        assert_eq!((r.move_number, r.direction), (8, None));
        assert_eq!(r.cells, State::current(&reference).cells);
    }
}
