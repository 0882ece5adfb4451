//! The fixture corpus (fixtures/) against the engine, the move log and the verifier alone, so
//! that `just check` answers "did my engine change alter any recorded game?" without building
//! the CLI: every game replays and verifies on both engines and matches its transcript
//! snapshot (`cargo insta review` to accept a change), fixtures/expected.csv rebuilds every
//! game from its row, and every broken file is refused for the reason
//! fixtures/broken/expected-errors.csv gives. The CLI's own fixture test
//! (crates/cli/tests/fixtures.rs) checks what `inspect` and `verify` print for them.

use std::path::{Path, PathBuf};

use twenty48_engine::{
    Direction, Engine, FourChance, Game, Opening, OpeningSpawn, Preset, Rules, Scoring, Win,
};
use twenty48_movelog::MoveLog;
use twenty48_verify::{replay, verify, EngineChoice};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Games longer than this are transcribed in part (see [`transcript`]).
const FULL_TRANSCRIPT: usize = 2000;

/// One line per move: number, direction, points, spawn, score, hash. For a game of more than
/// [`FULL_TRANSCRIPT`] moves (the expectimax games past 16384), the opening, every 250th
/// move, each move that makes a new largest tile, and the last 10 moves: the hash chains
/// every move before each line, so a changed move still changes the snapshot.
fn transcript(log: &MoveLog) -> String {
    let mut out = String::new();
    let n = log.moves.len() as u32;
    let full = log.moves.len() <= FULL_TRANSCRIPT;
    let mut largest = 0u64;
    replay(log, Engine::Fast, |s| {
        let top = s.cells.as_ref().map_or(0, |c| {
            c.exponents().iter().copied().max().unwrap_or(0) as u64
        });
        let new_largest = top > largest;
        largest = largest.max(top);
        let keep = full || s.move_number % 250 == 0 || new_largest || s.move_number + 10 >= n;
        if !keep {
            return;
        }
        let spawns: Vec<String> = s
            .spawns
            .iter()
            .map(|sp| format!("{}@{}", sp.value(), sp.cell))
            .collect();
        out.push_str(&format!(
            "{:>4} {:<5} +{:<5} {:<11} {:>7} {:016x} {}\n",
            s.move_number,
            s.direction.map_or("open", |d| d.name()),
            s.gained,
            spawns.join(","),
            s.score,
            s.hash,
            s.status
        ));
    })
    .expect("fixture games replay");
    out
}

#[test]
fn every_game_replays_on_both_engines_and_matches_its_transcript() {
    insta::glob!("../../../fixtures", "games/*.t48", |path| {
        let name = path.file_name().unwrap().to_str().unwrap();
        let log = MoveLog::decode(&std::fs::read(path).unwrap()).unwrap();
        let report = verify(&log, EngineChoice::Both);
        assert!(report.is_ok(), "{name}: {:?}", report.problem);
        insta::assert_snapshot!(transcript(&log));
    });
}

/// fixtures/broken/expected-errors.csv: file, exit status of `twenty48 verify` (2: the file
/// cannot be read as a log, 1: it does not verify), a phrase the reason must contain.
#[test]
fn every_broken_file_is_refused_for_its_listed_reason() {
    let csv = std::fs::read_to_string(fixtures().join("broken/expected-errors.csv")).unwrap();
    let mut rows = 0;
    for line in csv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let mut cols = line.splitn(3, ',');
        let (file, code, phrase) = (
            cols.next().unwrap(),
            cols.next().unwrap(),
            cols.next().unwrap().trim_matches('"'),
        );
        let bytes = std::fs::read(fixtures().join("broken").join(file)).unwrap();
        let reason = match (code, MoveLog::decode(&bytes)) {
            ("2", Err(e)) => e.to_string(),
            ("1", Ok(log)) => {
                let fast = verify(&log, EngineChoice::Fast).problem;
                let both = verify(&log, EngineChoice::Both).problem;
                assert_eq!(fast, both, "{file}: both engines find the same problem");
                fast.map(|p| p.to_string()).unwrap_or_default()
            }
            (code, decoded) => panic!("{file}: exit {code} listed, decoded: {decoded:?}"),
        };
        assert!(
            reason.contains(phrase),
            "{file}: {reason:?} lacks {phrase:?}"
        );
        rows += 1;
    }
    let files = std::fs::read_dir(fixtures().join("broken"))
        .unwrap()
        .filter(|e| {
            let path = e.as_ref().unwrap().path();
            path.extension().is_some_and(|x| x == "t48")
        })
        .count();
    assert_eq!(rows, files, "every broken file has a row");
}

/// Parses the rules column of expected.csv: a preset name, or
/// `size=N;four=P/Q;opening=normal+two;win=TILE-ends|TILE-plays-on|none;scoring=values|merges`.
fn parse_rules(text: &str) -> Rules {
    if let Some(p) = Preset::from_name(text) {
        return p.rules();
    }
    let mut rules = Rules::CLASSIC;
    for field in text.split(';') {
        let (key, value) = field.split_once('=').unwrap();
        match key {
            "size" => rules.size = value.parse().unwrap(),
            "four" => {
                let (p, q) = value.split_once('/').unwrap();
                rules.four_chance = FourChance::new(p.parse().unwrap(), q.parse().unwrap());
            }
            "opening" => {
                let list: Vec<OpeningSpawn> = value
                    .split('+')
                    .map(|s| {
                        if s == "two" {
                            OpeningSpawn::Two
                        } else {
                            OpeningSpawn::Normal
                        }
                    })
                    .collect();
                rules.opening = Opening::new(&list).unwrap();
            }
            "win" => {
                rules.win = (value != "none").then(|| {
                    let (tile, kind) = value.split_once('-').unwrap();
                    Win {
                        exponent: tile.parse::<u64>().unwrap().trailing_zeros() as u8,
                        ends_game: kind == "ends",
                    }
                })
            }
            "scoring" => {
                rules.scoring = if value == "merges" {
                    Scoring::MergeCount
                } else {
                    Scoring::MergedValues
                }
            }
            other => panic!("unknown rules field {other}"),
        }
    }
    rules
}

#[test]
fn expected_csv_rebuilds_every_game_from_seed_rules_and_moves() {
    let csv = std::fs::read_to_string(fixtures().join("expected.csv")).unwrap();
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let [file, seed, rules, moves, hash, score] = cols[..] else {
            panic!("bad row {line}")
        };
        let rules = parse_rules(rules);
        let seed: u64 = seed.parse().unwrap();
        let moves: Vec<Direction> = moves
            .chars()
            .map(|c| Direction::from_letter(c).unwrap())
            .collect();
        // From the CSV alone, on both engines.
        for engine in [Engine::Fast, Engine::Reference] {
            let mut game = Game::with_engine(rules, seed, engine).unwrap();
            for (i, &d) in moves.iter().enumerate() {
                assert!(
                    game.play(d).unwrap().moved,
                    "{file}: move {} is a real move",
                    i + 1
                );
            }
            assert_eq!(
                format!("{:016x}", game.state_hash()),
                hash,
                "{file} {engine:?}"
            );
            assert_eq!(game.score().to_string(), score, "{file} {engine:?}");
        }
        // And the file holds exactly that game.
        let log =
            MoveLog::decode(&std::fs::read(fixtures().join("games").join(file)).unwrap()).unwrap();
        assert_eq!(
            (log.rules, log.seed, &log.moves),
            (rules, seed, &moves),
            "{file}"
        );
        rows += 1;
    }
    let files = std::fs::read_dir(fixtures().join("games")).unwrap().count();
    assert_eq!(rows, files, "every game has a row in expected.csv");
}

#[test]
fn the_corpus_covers_what_it_promises() {
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(fixtures().join("games")).unwrap() {
        let path = entry.unwrap().path();
        logs.push(MoveLog::decode(&std::fs::read(&path).unwrap()).unwrap());
    }
    let has = |f: &dyn Fn(&MoveLog) -> bool| logs.iter().any(f);
    for p in Preset::ALL {
        assert!(has(&|l| l.rules == p.rules()), "a {p} game");
    }
    assert!(has(&|l| l.rules.four_chance == FourChance::new(1, 2)));
    assert!(has(&|l| l.rules.scoring == Scoring::MergeCount));
    for size in [3, 5, 6] {
        assert!(has(&|l| l.rules.size == size), "a {size}x{size} game");
    }
    use twenty48_engine::Status;
    assert!(has(&|l| l.claims.status == Status::Over));
    assert!(
        has(&|l| l.rules == Rules::ARDUINO && l.claims.status == Status::Won),
        "a win that stops"
    );
    // A classic game that makes 2048 and then keeps playing.
    assert!(
        has(&|l| {
            if l.rules != Rules::CLASSIC {
                return false;
            }
            let mut game = Game::new(l.rules, l.seed).unwrap();
            let mut win_at = None;
            for (i, &d) in l.moves.iter().enumerate() {
                if game.play(d).unwrap().reached_win {
                    win_at = Some(i + 1);
                }
            }
            win_at.is_some_and(|n| n < l.moves.len())
        }),
        "a win that plays on"
    );
    assert!(
        has(&|l| l.moves.len() > 1000 && l.claims.max_exponent >= 11),
        "a bot game over 1,000 moves reaching 2048"
    );
}
