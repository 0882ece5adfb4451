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

/// Moves after the end are refused at the first of them, however many follow, on either
/// engine, from a decoded log or straight from its bytes.
#[test]
fn the_first_move_after_the_end_is_the_one_refused() {
    let log = bot_game(Rules::CONSOLE, 6, 10_000);
    assert_eq!(log.claims.status, Status::Over);
    let ended = log.moves.len() as u32;
    let mut bad = log.clone();
    bad.moves
        .extend([Direction::Left, Direction::Up, Direction::Right]);
    bad.claims.move_count += 3;
    let bytes = bad.encode();
    let packed = twenty48_movelog::PackedLog::decode(&bytes).unwrap();
    for engines in [
        EngineChoice::Fast,
        EngineChoice::Reference,
        EngineChoice::Both,
    ] {
        for report in [verify(&bad, engines), verify(&packed, engines)] {
            assert_eq!(
                report.problem,
                Some(Problem::AfterEnd {
                    move_number: ended + 1,
                    status: Status::Over
                }),
                "{engines:?}"
            );
            assert_eq!(report.moves_replayed, ended);
        }
    }
}

/// A false checkpoint is named at its move, with the checkpoint before it, whether the log
/// was decoded or is read straight from its bytes; the report says whether the log holds
/// the whole game.
#[test]
fn a_false_checkpoint_is_named_from_decoded_and_packed_logs() {
    let mut log = bot_game(Rules::CLASSIC, 22, 100);
    assert_eq!(log.checkpoint_interval, 16);
    assert!(log.checkpoints.len() >= 3);
    log.checkpoints[2] ^= 1;
    for complete in [true, false] {
        log.complete = complete;
        let bytes = log.encode();
        let packed = twenty48_movelog::PackedLog::decode(&bytes).unwrap();
        for engines in [EngineChoice::Fast, EngineChoice::Both] {
            for report in [verify(&log, engines), verify(&packed, engines)] {
                match report.problem {
                    Some(Problem::Checkpoint {
                        move_number, since, ..
                    }) => assert_eq!((since, move_number), (32, 48)),
                    other => panic!("{engines:?}: {other:?}"),
                }
                assert_eq!(report.complete, complete);
            }
        }
    }
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
    // Each file is reported once as it finishes, with the number finished so far.
    let done = std::sync::Mutex::new(Vec::new());
    let verdicts = verify_all(&files, EngineChoice::Both, 2, &|n, path, _| {
        done.lock().unwrap().push((n, path.to_path_buf()))
    });
    let mut done = done.into_inner().unwrap();
    done.sort();
    assert_eq!(done.iter().map(|d| d.0).collect::<Vec<_>>(), [1, 2, 3]);
    let mut reported: Vec<PathBuf> = done.into_iter().map(|d| d.1).collect();
    reported.sort();
    assert_eq!(reported, files);
    assert!(verdicts[0].is_ok());
    assert!(!verdicts[1].is_ok() && !verdicts[2].is_ok());
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

/// A trace replayed from its moves and one given as its states answer alike: the same
/// length, the same state at every move (the opening's spawns in state 0), the same last
/// state and moves; a trace under rules that cannot be played has no state at all.
#[test]
fn a_replayed_trace_and_its_states_agree() {
    let log = bot_game(Rules::CLASSIC, 13, 60);
    let mut states = Vec::new();
    twenty48_verify::replay(&log, twenty48_engine::Engine::Fast, |s| {
        states.push(s.clone())
    })
    .unwrap();
    assert_eq!(states.len(), log.moves.len() + 1);
    assert!(!states[0].spawns.is_empty(), "the opening's spawns");
    let replayed = Trace::from_log("replayed", &log);
    let given = Trace::from_states("given", log.rules, log.seed, states.clone(), None);
    for trace in [&replayed, &given] {
        assert_eq!(trace.len(), states.len());
        assert!(!trace.is_empty());
        for (i, state) in states.iter().enumerate() {
            assert_eq!(trace.state(i).as_ref(), Some(state), "state {i}");
        }
        assert_eq!(trace.state(states.len()), None);
        assert_eq!(trace.last().as_ref(), states.last());
        assert_eq!(trace.moves(), log.moves);
    }
    let mut unplayable = log.rules;
    unplayable.size = 0;
    let none = Trace::replay("unplayable", unplayable, log.seed, &log.moves);
    assert!(none.is_empty());
    assert_eq!((none.len(), none.last(), none.state(0)), (0, None, None));
    assert!(none.stopped.is_some());
}

/// Two games that differ from the opening part at move 0, where the divergence holds each
/// game's opening state, its spawns included.
#[test]
fn games_that_differ_from_the_opening_part_at_move_0() {
    let moves = bot_game(Rules::CLASSIC, 14, 20).moves;
    let a = Trace::replay("a", Rules::CLASSIC, 14, &moves);
    let b = Trace::replay("b", Rules::CLASSIC, 15, &moves);
    let d = diff(&a, &b).unwrap();
    assert_eq!(d.move_number, 0);
    assert_eq!(d.before, None);
    assert_eq!(d.a, a.state(0));
    assert_eq!(d.b, b.state(0));
    assert_eq!(d.differences[0], Difference::Seed);
    assert!(d
        .differences
        .iter()
        .any(|x| matches!(x, Difference::Spawn { .. })));
}

/// Games that differ only in their score (one rule set scores merged values, the other
/// counts merges) part at the first move that merges, on the score alone.
#[test]
fn games_that_differ_only_in_score_part_at_the_first_merge() {
    let log = bot_game(Rules::CLASSIC, 16, 40);
    let mut counted = log.rules;
    counted.scoring = twenty48_engine::Scoring::MergeCount;
    let a = Trace::from_log("values", &log);
    let b = Trace::replay("count", counted, log.seed, &log.moves);
    let first_merge = (1..a.len())
        .find(|&i| a.state(i).unwrap().merges > 0)
        .expect("a merge in 40 moves");
    let d = diff(&a, &b).unwrap();
    assert_eq!(d.move_number as usize, first_merge);
    assert_eq!(d.differences[0], Difference::Rules);
    assert!(
        matches!(d.differences[1], Difference::Merge { .. }),
        "{d:?}"
    );
    assert!(d
        .differences
        .iter()
        .all(|x| !matches!(x, Difference::Board | Difference::Spawn { .. })));
}

/// Each difference reads as a sentence that names both sides.
#[test]
fn differences_read_as_sentences() {
    use twenty48_engine::Spawn;
    let two = Spawn {
        cell: 3,
        exponent: 1,
    };
    let four = Spawn {
        cell: 12,
        exponent: 2,
    };
    let cases = [
        (Difference::Rules, "rules differ"),
        (Difference::Seed, "seeds differ"),
        (
            Difference::Direction {
                a: Some(Direction::Left),
                b: None,
            },
            "move: left against none",
        ),
        (
            Difference::Spawn {
                a: vec![two, four],
                b: vec![four],
            },
            "spawn: 2 at cell 3, 4 at cell 12 against 4 at cell 12",
        ),
        (
            Difference::Merge {
                a: (2, 12),
                b: (1, 4),
            },
            "merges: 2 (+12) against 1 (+4)",
        ),
        (Difference::Score { a: 16, b: 20 }, "score: 16 against 20"),
        (Difference::Board, "boards differ"),
        (
            Difference::Hash {
                a: 0xab,
                b: 1 << 60,
            },
            "state hash: 00000000000000ab against 1000000000000000",
        ),
        (
            Difference::Ended {
                first: true,
                why: Some("move 3: no move".into()),
            },
            "the first game has no move here (move 3: no move)",
        ),
        (
            Difference::Ended {
                first: false,
                why: None,
            },
            "the second game has no move here",
        ),
    ];
    for (difference, text) in cases {
        assert_eq!(difference.to_string(), text);
    }
}

/// A game that is the start of another parts from it at the first move it lacks, with that
/// side named as the one that ended, whichever side it is.
#[test]
fn a_game_that_is_the_start_of_another_ends_first() {
    let log = bot_game(Rules::ARDUINO, 17, 30);
    let short = Trace::replay("short", log.rules, log.seed, &log.moves[..12]);
    let long = Trace::from_log("long", &log);
    for (a, b, first) in [(&short, &long, true), (&long, &short, false)] {
        let d = diff(a, b).unwrap();
        assert_eq!(d.move_number, 13);
        assert_eq!(d.before, long.state(12));
        assert_eq!(
            d.differences,
            [Difference::Ended { first, why: None }],
            "{d:?}"
        );
        let longer = if first { &d.b } else { &d.a };
        assert_eq!(*longer, long.state(13));
    }
}

/// Games whose states agree all the way still part after their last state when one side
/// stopped at a refused move, or when their headers differ; otherwise they do not part.
#[test]
fn games_with_the_same_states_part_on_a_stop_or_a_header() {
    // The first position of a game where some move does not change the board.
    let whole = bot_game(Rules::CLASSIC, 18, 500);
    let mut game = Game::new(whole.rules, whole.seed).unwrap();
    let mut played = 0;
    let refused = loop {
        if let Some(d) = Direction::ALL
            .into_iter()
            .find(|d| !game.legal_moves().contains(*d))
        {
            break d;
        }
        game.play(whole.moves[played]).unwrap();
        played += 1;
    };
    let log = MoveLog::from_moves(whole.rules, whole.seed, &whole.moves[..played], 16).unwrap();
    let n = log.moves.len() as u32 + 1;
    let plain = Trace::from_log("plain", &log);
    // The same moves, then one the board refuses.
    let mut more = log.moves.clone();
    more.push(refused);
    let stopped = Trace::replay("stopped", log.rules, log.seed, &more);
    let why = stopped.stopped.clone();
    assert!(why.is_some());
    for (a, b, first) in [(&stopped, &plain, true), (&plain, &stopped, false)] {
        let d = diff(a, b).unwrap();
        assert_eq!(
            (d.move_number, d.before, d.a, d.b),
            (n, plain.last(), None, None)
        );
        assert_eq!(
            d.differences,
            [Difference::Ended {
                first,
                why: why.clone()
            }]
        );
    }
    assert_eq!(diff(&stopped, &stopped.clone()), None);
    // Rules that differ only in a win no move reached.
    let mut no_win = log.rules;
    no_win.win = None;
    let other = Trace::replay("no win", no_win, log.seed, &log.moves);
    let d = diff(&plain, &other).unwrap();
    assert_eq!((d.move_number, d.before), (n, plain.last()));
    assert_eq!(d.differences, [Difference::Rules]);
}

/// A device reports no boards, spawns or merges: a game it reports agrees with the replayed
/// game on everything both sides know, and parts from it only there.
#[test]
fn fields_only_one_side_knows_are_not_compared() {
    let log = bot_game(Rules::ARDUINO, 19, 40);
    let mut states = Vec::new();
    twenty48_verify::replay(&log, twenty48_engine::Engine::Fast, |s| {
        states.push(twenty48_verify::State {
            cells: None,
            spawns: Vec::new(),
            merges: 0,
            gained: 0,
            ..s.clone()
        })
    })
    .unwrap();
    let replayed = Trace::from_log("replayed", &log);
    let device = Trace::from_states("device", log.rules, log.seed, states.clone(), None);
    assert_eq!(diff(&replayed, &device), None);
    assert_eq!(diff(&device, &replayed), None);
    states[30].score += 2;
    let device = Trace::from_states("device", log.rules, log.seed, states, None);
    let d = diff(&replayed, &device).unwrap();
    assert_eq!(d.move_number, 30);
    assert!(
        matches!(d.differences[0], Difference::Score { .. }),
        "{d:?}"
    );
}

/// A log that notes every move and stretch of moves the verifier asks it for.
struct Counted<'a> {
    log: &'a MoveLog,
    asked: std::cell::RefCell<Vec<std::ops::Range<usize>>>,
}

impl twenty48_verify::Log for Counted<'_> {
    fn rules(&self) -> Rules {
        self.log.rules
    }
    fn seed(&self) -> u64 {
        self.log.seed
    }
    fn checkpoint_interval(&self) -> u32 {
        self.log.checkpoint_interval
    }
    fn claims(&self) -> &twenty48_movelog::Claims {
        &self.log.claims
    }
    fn complete(&self) -> bool {
        self.log.complete
    }
    fn move_count(&self) -> usize {
        self.log.moves.len()
    }
    fn move_at(&self, index: usize) -> Direction {
        self.asked.borrow_mut().push(index..index + 1);
        self.log.moves[index]
    }
    fn moves_in<'s>(
        &'s self,
        range: std::ops::Range<usize>,
        buffer: &'s mut twenty48_verify::Stretch,
    ) -> &'s [Direction] {
        self.asked.borrow_mut().push(range.clone());
        self.log.moves_in(range, buffer)
    }
    fn checkpoint_after(&self, moves_played: u32) -> Option<u32> {
        self.log.checkpoint_after(moves_played)
    }
}

/// Verifying an honest log is one pass over its moves, a stretch at a time in order, on one
/// engine or on both side by side.
#[test]
fn both_engines_verify_an_honest_log_in_one_pass() {
    let rules = Rules {
        size: 8,
        win: None,
        ..Rules::CLASSIC
    };
    let log = bot_game(rules, 20, 2500);
    let n = log.moves.len();
    assert!(n > twenty48_verify::STRETCH, "{n} moves");
    for engines in [EngineChoice::Fast, EngineChoice::Both] {
        let counted = Counted {
            log: &log,
            asked: Default::default(),
        };
        let report = verify(&counted, engines);
        assert!(report.is_ok(), "{:?}", report.problem);
        assert_eq!(report.moves_replayed as usize, n);
        // Each move asked for once, in order, alone or in stretches of at most STRETCH.
        let asked = counted.asked.into_inner();
        let mut next = 0;
        for range in &asked {
            assert_eq!(range.start, next, "{engines:?}: {asked:?}");
            assert!(range.end > range.start && range.len() <= twenty48_verify::STRETCH);
            next = range.end;
        }
        assert_eq!(next, n, "{engines:?}: {asked:?}");
    }
}

/// Each problem reads as a sentence, and names its move when it has one.
#[test]
fn problems_read_as_sentences_naming_the_move() {
    let log = bot_game(Rules::CLASSIC, 21, 10);
    let mut states = Vec::new();
    twenty48_verify::replay(&log, twenty48_engine::Engine::Fast, |s| {
        states.push(s.clone())
    })
    .unwrap();
    let (a, b) = (states[3].clone(), states[4].clone());
    let mut bad = Rules::CLASSIC;
    bad.size = 1;
    let cases = [
        (
            Problem::InvalidRules {
                source: bad.validate().unwrap_err(),
            },
            None,
            format!(
                "the log's rules are invalid: {}",
                bad.validate().unwrap_err()
            ),
        ),
        (
            Problem::NoMove {
                move_number: 7,
                direction: Direction::Down,
                before: Box::new(a.clone()),
            },
            Some(7),
            "move 7 (down) does not change the board, so the log is invalid at move 7".into(),
        ),
        (
            Problem::AfterEnd {
                move_number: 12,
                status: Status::Over,
            },
            Some(12),
            "move 12 comes after the game ended (over)".into(),
        ),
        (
            Problem::Checkpoint {
                move_number: 32,
                since: 16,
                logged: 0xdead_beef,
                actual: Box::new(a.clone()),
            },
            Some(32),
            format!(
                "the checkpoint after move 32 is deadbeef, but the replay gives {:08x}: the games part between moves 16 and 32",
                a.hash as u32
            ),
        ),
        (
            Problem::EnginesDisagree {
                move_number: 4,
                fast: Box::new(a.clone()),
                reference: Box::new(b.clone()),
            },
            Some(4),
            format!(
                "the fast and reference engines disagree at move 4 (hash {:016x} against {:016x}, score {} against {})",
                a.hash, b.hash, a.score, b.score
            ),
        ),
    ];
    for (problem, move_number, text) in cases {
        assert_eq!(problem.move_number(), move_number, "{problem:?}");
        assert_eq!(problem.to_string(), text);
    }
    for (field, name) in [
        (ClaimField::MoveCount, "move count"),
        (ClaimField::Score, "score"),
        (ClaimField::MaxTile, "max tile"),
        (ClaimField::FinalHash, "final state hash"),
        (ClaimField::Status, "status"),
    ] {
        let problem = Problem::Claim {
            field,
            claimed: "9".into(),
            actual: "8".into(),
        };
        assert_eq!(problem.move_number(), None);
        assert_eq!(
            problem.to_string(),
            format!("the log claims {name} 9, but the replay gives 8")
        );
    }
}

/// Verifying a batch on any number of workers, which take runs of files and read them
/// ahead, gives each file the verdict it gets on its own, in the order of the files: over
/// a directory of many small logs with false, unreadable and undecodable files among them.
#[test]
fn a_batch_gives_each_file_its_own_verdict_on_any_number_of_workers() {
    use twenty48_verify::batch::verify_file;
    let dir = std::env::temp_dir().join(format!("t48-batch-runs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for i in 0..300u64 {
        let path = dir.join(format!("g{i:03}.t48"));
        let mut log = bot_game(Rules::CLASSIC, i, 20 + (i as u32 * 7) % 90);
        match i % 37 {
            5 => log.claims.score += 2,
            11 => std::fs::create_dir(&path).unwrap(),
            17 => {}
            23 => log.seed ^= 1,
            _ => {}
        }
        match i % 37 {
            11 => {}
            17 => std::fs::write(&path, b"T48 but not a log").unwrap(),
            _ => std::fs::write(&path, log.encode()).unwrap(),
        }
        files.push(path);
    }
    files.push(dir.join("missing.t48"));
    let summary = |v: &Verdict| match v {
        Verdict::Replayed(r) => format!("{:?}", (r.moves_replayed, &r.last, &r.problem)),
        Verdict::Unreadable(e) => format!("unreadable: {e}"),
        Verdict::Undecodable(e) => format!("undecodable: {e}"),
        other => format!("{other:?}"),
    };
    let alone: Vec<String> = files
        .iter()
        .map(|f| summary(&verify_file(f, EngineChoice::Fast)))
        .collect();
    assert!(alone.iter().any(|s| s.starts_with("unreadable")));
    assert!(alone.iter().any(|s| s.starts_with("undecodable")));
    assert!(alone.iter().any(|s| s.contains("Claim")));
    for threads in [1, 2, 3, 8] {
        let batch: Vec<String> = verify_all(&files, EngineChoice::Fast, threads, &|_, _, _| {})
            .iter()
            .map(summary)
            .collect();
        assert_eq!(batch, alone, "{threads} workers");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
