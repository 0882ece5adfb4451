//! The verifier catches every kind of false log, names the move, and agrees with itself
//! across engines; the diff finds the first move where two games part.

use std::path::PathBuf;

use twenty48_bot::Bot;
use twenty48_engine::{Direction, Game, Rules, Status};
use twenty48_movelog::MoveLog;
use twenty48_verify::batch::{verify_all, Verdict};
use twenty48_verify::{diff, verify, ClaimField, Difference, EngineChoice, Problem, Trace};

type Tamper = fn(&mut MoveLog);

fn bot_game(rules: Rules, seed: u64, max: u32) -> MoveLog {
    let mut game = Game::new(rules, seed).unwrap();
    let mut bot = Bot::random(seed);
    let mut moves = Vec::new();
    while game.status() == Status::Playing && game.move_count() < max {
        let d = bot.choose(&game).unwrap();
        game.play(d).unwrap();
        moves.push(d);
    }
    MoveLog::from_moves(rules, seed, &moves, 16).unwrap()
}

#[test]
fn honest_logs_verify_on_every_engine() {
    for (rules, seed) in [
        (Rules::CLASSIC, 1),
        (Rules::ARDUINO, 2),
        (Rules::CONSOLE, 3),
    ] {
        let log = bot_game(rules, seed, 1000);
        for engines in [
            EngineChoice::Fast,
            EngineChoice::Reference,
            EngineChoice::Both,
        ] {
            let report = verify(&log, engines);
            assert!(report.is_ok(), "{:?}", report.problem);
            assert_eq!(report.moves_replayed, log.moves.len() as u32);
        }
    }
}

#[test]
fn every_false_claim_is_named() {
    let log = bot_game(Rules::CLASSIC, 5, 200);
    let cases: [(Tamper, ClaimField); 4] = [
        (|l| l.claims.score += 2, ClaimField::Score),
        (|l| l.claims.max_exponent += 1, ClaimField::MaxTile),
        (|l| l.claims.final_hash ^= 1, ClaimField::FinalHash),
        (|l| l.claims.status = Status::Won, ClaimField::Status),
    ];
    for (tamper, field) in cases {
        let mut bad = log.clone();
        tamper(&mut bad);
        match verify(&bad, EngineChoice::Both).problem {
            Some(Problem::Claim { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[test]
fn a_changed_move_is_found_at_its_checkpoint_or_as_illegal() {
    let log = bot_game(Rules::CLASSIC, 8, 300);
    assert!(
        log.moves.len() >= 48,
        "the game reaches the checkpoint after move 48"
    );
    // Change move 40 to another legal move with a different result, if any.
    let mut game = Game::new(log.rules, log.seed).unwrap();
    for &d in &log.moves[..39] {
        game.play(d).unwrap();
    }
    let other = game
        .legal_moves()
        .iter()
        .find(|d| *d != log.moves[39])
        .expect("another legal move");
    let mut bad = log.clone();
    bad.moves[39] = other;
    let problem = verify(&bad, EngineChoice::Fast).problem.unwrap();
    match problem {
        Problem::Checkpoint {
            move_number, since, ..
        } => {
            assert_eq!((since, move_number), (32, 48));
        }
        Problem::NoMove { move_number, .. } => assert!(move_number > 40),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_illegal_move_is_invalid_at_its_number() {
    let log = bot_game(Rules::CONSOLE, 4, 60);
    let mut game = Game::new(log.rules, log.seed).unwrap();
    for &d in &log.moves[..10] {
        game.play(d).unwrap();
    }
    // Find a direction that does not move the board after move 10, if the board has one.
    if let Some(blocked) = Direction::ALL.into_iter().find(|d| !game.can_play(*d)) {
        let mut bad = log.clone();
        bad.moves[10] = blocked;
        let problem = verify(&bad, EngineChoice::Both).problem.unwrap();
        assert!(
            matches!(
                problem,
                Problem::NoMove {
                    move_number: 11,
                    ..
                }
            ),
            "{problem:?}"
        );
        assert_eq!(
            problem.to_string(),
            format!(
                "move 11 ({blocked}) does not change the board, so the log is invalid at move 11"
            )
        );
    }
}

#[test]
fn moves_after_the_end_are_refused() {
    let log = bot_game(Rules::CONSOLE, 6, 10_000);
    assert_eq!(log.claims.status, Status::Over);
    let mut bad = log.clone();
    bad.moves.push(Direction::Left);
    bad.claims.move_count += 1;
    let problem = verify(&bad, EngineChoice::Fast).problem.unwrap();
    assert_eq!(
        problem,
        Problem::AfterEnd {
            move_number: bad.moves.len() as u32,
            status: Status::Over
        }
    );
}

#[test]
fn identical_games_have_no_divergence() {
    let log = bot_game(Rules::ARDUINO, 9, 100);
    let a = Trace::from_log("a", &log);
    assert_eq!(diff(&a, &a.clone()), None);
}

#[test]
fn diff_finds_the_first_different_move() {
    let log = bot_game(Rules::CLASSIC, 10, 100);
    let mut other = log.moves.clone();
    let mut game = Game::new(log.rules, log.seed).unwrap();
    for &d in &log.moves[..24] {
        game.play(d).unwrap();
    }
    other[24] = game
        .legal_moves()
        .iter()
        .find(|d| *d != log.moves[24])
        .unwrap();
    other.truncate(25);
    let a = Trace::from_log("a", &log);
    let b = Trace::replay("b", log.rules, log.seed, &other);
    let d = diff(&a, &b).unwrap();
    assert_eq!(d.move_number, 25);
    assert!(matches!(d.differences[0], Difference::Direction { .. }));
    assert_eq!(d.before.unwrap().move_number, 24);
}

#[test]
fn diff_under_other_rules_names_spawns_and_scores() {
    let log = bot_game(Rules::CLASSIC, 11, 100);
    let a = Trace::from_log("classic", &log);
    let b = Trace::replay("arduino", Rules::ARDUINO, log.seed, &log.moves);
    let d = diff(&a, &b).unwrap();
    assert!(d.differences.contains(&Difference::Rules));
    // Same seed, other four chance: the games part at the first spawn whose value differs.
    assert!(d
        .differences
        .iter()
        .any(|x| matches!(x, Difference::Spawn { .. } | Difference::Ended { .. })));
}

#[test]
fn batch_reports_every_failure_in_order() {
    let dir = std::env::temp_dir().join(format!("t48-batch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let good = bot_game(Rules::CLASSIC, 12, 50);
    let mut lie = good.clone();
    lie.claims.score += 4;
    std::fs::write(dir.join("a.t48"), good.encode()).unwrap();
    std::fs::write(dir.join("sub/b.t48"), lie.encode()).unwrap();
    std::fs::write(dir.join("sub/c.t48"), b"not a log").unwrap();
    std::fs::write(dir.join("sub/ignored.txt"), b"x").unwrap();
    let files = twenty48_verify::batch::collect(std::slice::from_ref(&dir)).unwrap();
    let names: Vec<PathBuf> = files
        .iter()
        .map(|f| f.strip_prefix(&dir).unwrap().to_path_buf())
        .collect();
    assert_eq!(
        names,
        [
            PathBuf::from("a.t48"),
            "sub/b.t48".into(),
            "sub/c.t48".into()
        ]
    );
    let verdicts = verify_all(&files, EngineChoice::Both, 2, &|_, _, _| {});
    assert!(verdicts[0].is_ok());
    assert!(matches!(&verdicts[1], Verdict::Replayed(r) if !r.is_ok()));
    assert!(matches!(verdicts[2], Verdict::Undecodable(_)));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The walk lists each directory's entries by name and walks subdirectories in place: the
/// order of the whole paths sorted, also where a name sorts between a directory and its
/// files ("a/x" before "a-b" before "a.t48").
#[test]
fn collect_lists_files_in_path_order() {
    let dir = std::env::temp_dir().join(format!("t48-collect-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["a", "a/b", "a.b", "b"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for f in [
        "a/x.t48",
        "a/b/y.t48",
        "a/b.t48",
        "a-b.t48",
        "a.t48",
        "a.b/z.t48",
        "b/0.t48",
        "B.t48",
        "a/skip.txt",
    ] {
        std::fs::write(dir.join(f), b"x").unwrap();
    }
    let files = twenty48_verify::batch::collect(std::slice::from_ref(&dir)).unwrap();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert_eq!(files.len(), 8);
    std::fs::remove_dir_all(&dir).unwrap();
}
