//! `verify` plays the moves between checkpoints in one `play_all` call and builds states
//! only where it needs them; its reports are exactly those of the plain move-by-move
//! verifier below (the one it replaced), for honest and tampered logs alike.

use proptest::prelude::*;
use twenty48_bot::Bot;
use twenty48_engine::{
    tile_value, Direction, Engine, FourChance, Game, Opening, OpeningSpawn, Rules, Scoring, Status,
    Win,
};
use twenty48_movelog::MoveLog;
use twenty48_verify::{replay, verify, ClaimField, EngineChoice, Problem, Report, State};

/// The move-by-move verifier: a full state after every move, every state of the fast engine
/// compared with the reference engine's for `EngineChoice::Both`.
fn stepwise(log: &MoveLog, engines: EngineChoice) -> Report {
    let primary = match engines {
        EngineChoice::Reference => Engine::Reference,
        _ => Engine::Fast,
    };
    let mut states: Vec<State> = Vec::new();
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
    report.problem =
        checks
            .into_iter()
            .find(|(_, ok, _, _)| !ok)
            .map(|(field, _, claimed, actual)| Problem::Claim {
                field,
                claimed,
                actual,
            });
    report
}

fn rule_sets() -> Vec<Rules> {
    vec![
        Rules::CLASSIC,
        Rules::ARDUINO,
        Rules::CONSOLE,
        Rules {
            size: 3,
            win: None,
            ..Rules::CLASSIC
        },
        Rules {
            size: 5,
            ..Rules::ARDUINO
        },
        Rules {
            win: Some(Win {
                exponent: 2,
                ends_game: true,
            }),
            four_chance: FourChance::new(1, 2),
            ..Rules::CLASSIC
        },
        Rules {
            win: Some(Win {
                exponent: 6,
                ends_game: true,
            }),
            ..Rules::CLASSIC
        },
        Rules {
            scoring: Scoring::MergeCount,
            opening: Opening::new(&[OpeningSpawn::Two]).unwrap(),
            four_chance: FourChance::new(1, 1),
            ..Rules::CLASSIC
        },
    ]
}

/// A random bot's game under `rules`, logged with checkpoint interval `k`.
fn bot_game(rules: Rules, seed: u64, max: u32, k: u32) -> MoveLog {
    let mut game = Game::new(rules, seed).unwrap();
    let mut bot = Bot::random(seed);
    let mut moves = Vec::new();
    while game.status() == Status::Playing && game.move_count() < max {
        let d = bot.choose(&game).unwrap();
        game.play(d).unwrap();
        moves.push(d);
    }
    MoveLog::from_moves(rules, seed, &moves, k).unwrap()
}

/// Ways to make a log lie; `at` picks a move, `what` a value.
fn tamper(log: &mut MoveLog, kind: u8, at: usize, what: u8) {
    let n = log.moves.len();
    match kind {
        0 => {}
        1 if n > 0 => log.moves[at % n] = Direction::ALL[what as usize % 4],
        2 if n > 0 => log.moves.truncate(at % n),
        3 => log.moves.push(Direction::ALL[what as usize % 4]),
        4 if !log.checkpoints.is_empty() => {
            let i = at % log.checkpoints.len();
            log.checkpoints[i] ^= 1 << (what % 32);
        }
        5 => log.claims.score += 2,
        6 => log.claims.max_exponent += 1,
        7 => log.claims.final_hash ^= 1 << (what % 64),
        8 => log.claims.status = Status::Won,
        9 => log.claims.move_count += 1,
        10 => log.complete = false,
        11 if n > 1 => log.moves.swap(at % n, (at + 1 + what as usize) % n),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn verify_reports_what_the_move_by_move_verifier_reports(
        rules in prop::sample::select(rule_sets()),
        seed in 0u64..1000,
        max in prop::sample::select(vec![0u32, 1, 2, 5, 40, 300, 2000]),
        k in prop::sample::select(vec![0u32, 1, 2, 3, 16, 256]),
        kind in 0u8..12,
        at in 0usize..10_000,
        what in any::<u8>(),
    ) {
        let mut log = bot_game(rules, seed, max, k);
        tamper(&mut log, kind, at, what);
        for engines in [EngineChoice::Fast, EngineChoice::Reference, EngineChoice::Both] {
            prop_assert_eq!(verify(&log, engines), stepwise(&log, engines), "{:?}", engines);
        }
    }
}

/// A change of one move early in a long game, found at the checkpoint after it, in a
/// stretch the fast verifier played in one call.
#[test]
fn a_changed_move_in_a_long_game_reports_like_move_by_move() {
    let log = bot_game(Rules::CLASSIC, 3, 3000, 256);
    for at in [0, 1, 254, 255, 256, 300, 511, 512] {
        for d in Direction::ALL {
            let mut bad = log.clone();
            if bad.moves.len() > at {
                bad.moves[at] = d;
            }
            for engines in [EngineChoice::Fast, EngineChoice::Both] {
                assert_eq!(verify(&bad, engines), stepwise(&bad, engines), "{at} {d}");
            }
        }
    }
}

/// Rules the engine refuses are reported before anything is played.
#[test]
fn invalid_rules_report_like_move_by_move() {
    let mut log = bot_game(Rules::CLASSIC, 1, 10, 4);
    log.rules.size = 9;
    for engines in [
        EngineChoice::Fast,
        EngineChoice::Reference,
        EngineChoice::Both,
    ] {
        assert_eq!(verify(&log, engines), stepwise(&log, engines));
    }
}
