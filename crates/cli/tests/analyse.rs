//! `twenty48 analyse` (issue 33): every move rated, the same numbers with any number of
//! threads, a log that does not verify analysed up to where it does (exit 1, said), what it
//! cannot analyse refused with exit 2 and the file named, and the known blunder found.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(rel: &str) -> String {
    root().join("fixtures").join(rel).display().to_string()
}

/// (exit code, stdout, stderr)
fn run(args: &[&str]) -> (i32, String, String) {
    let out = support::output(Command::new(env!("CARGO_BIN_EXE_twenty48")).args(args));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(args: &[&str]) -> (i32, Value) {
    let (code, out, err) = run(args);
    let doc = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}\n{err}"));
    (code, doc)
}

#[test]
fn the_numbers_are_the_same_with_any_number_of_threads() {
    let game = fixture("games/classic-greedy-2048-plays-on.t48");
    let (code, one) = json(&["analyse", &game, "--json", "--depth", "3", "--jobs", "1"]);
    assert_eq!(code, 0);
    let (_, three) = json(&["analyse", &game, "--json", "--depth", "3", "--jobs", "3"]);
    assert_eq!(one, three);
    assert_eq!(one["analysed"], 1196);
    assert_eq!(one["ratings"].as_array().unwrap().len(), 1196);
    // Every rating is consistent: the best has the highest value, the loss is the share of
    // it that the move played gives away, the class is the loss's.
    let t = &one["thresholds"];
    for r in one["ratings"].as_array().unwrap() {
        let values = &r["values"];
        let best = values[r["best"].as_str().unwrap()].as_i64().unwrap();
        let played = values[r["played"].as_str().unwrap()].as_i64().unwrap();
        for d in ["up", "right", "down", "left"] {
            assert!(values[d].as_i64().is_none_or(|v| v <= best), "{r}");
        }
        let loss = r["loss"].as_i64().unwrap();
        assert_eq!(loss, ((best - played) * 2000 + best) / (2 * best), "{r}");
        let class = match loss {
            _ if r["legal"] == 1 => "only",
            l if l < t["good"].as_i64().unwrap() => "best",
            l if l < t["inaccuracy"].as_i64().unwrap() => "good",
            l if l < t["mistake"].as_i64().unwrap() => "inaccuracy",
            l if l < t["blunder"].as_i64().unwrap() => "mistake",
            _ => "blunder",
        };
        assert_eq!(r["class"], class, "{r}");
    }
    let counts = &one["summary"]["counts"];
    let total: u64 = counts
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(total, 1196);
}

#[test]
fn a_log_that_does_not_verify_is_analysed_up_to_where_it_does() {
    // A move that changes nothing: analysed up to the move before it.
    let illegal = fixture("broken/illegal-move.t48");
    let (code, doc) = json(&["analyse", &illegal, "--json", "--depth", "2"]);
    assert_eq!(code, 1);
    let problem = doc["problem"].as_str().unwrap();
    assert!(problem.contains("move"), "{problem}");
    let analysed = doc["analysed"].as_u64().unwrap();
    assert!(analysed < doc["moves"].as_u64().unwrap());
    assert_eq!(doc["ratings"].as_array().unwrap().len() as u64, analysed);
    let (code, text, _) = run(&["analyse", &illegal, "--depth", "2"]);
    assert_eq!(code, 1);
    assert!(
        text.contains(&format!(
            "the log does not verify ({problem}): analysed its first {analysed} moves"
        )),
        "{text}"
    );
    // A false claim stops nothing: every move is analysed, and it still fails.
    let (code, doc) = json(&[
        "analyse",
        &fixture("broken/false-claim.t48"),
        "--json",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 1);
    assert_eq!(doc["analysed"], doc["moves"]);
    assert!(doc["problem"].as_str().unwrap().contains("claims"));
}

#[test]
fn what_cannot_be_analysed_is_refused_with_the_file_named() {
    for (file, says) in [
        (
            "broken/not-a-log.t48",
            "not-a-log.t48: not a twenty48 move log",
        ),
        (
            "broken/truncated.t48",
            "truncated.t48 is not a valid move log",
        ),
        (
            "games/custom-5x5.t48",
            "cannot analyse a 5x5 game: the analysis rates moves on 4x4 boards only",
        ),
        ("games/nosuch.t48", "nosuch.t48"),
    ] {
        let (code, out, err) = run(&["analyse", &fixture(file)]);
        assert_eq!(code, 2, "{file}: {err}");
        assert!(out.is_empty(), "{file}: {out}");
        assert!(err.contains(says), "{file}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (code, _, err) = run(&[
        "analyse",
        &fixture("games/classic-moves.t48"),
        "--depth",
        "9",
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&[
        "analyse",
        &fixture("games/classic-moves.t48"),
        "--jobs",
        "0",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_known_blunder_is_found_and_named_first() {
    // The game of crates/analysis/tests/blunder.rs (and of the web page's test).
    let dir = std::env::temp_dir().join(format!("t48-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let moves = concat!(
        "RDUDRRRDRDDDDDDDRDRDRRRRRRRRRRDRRRRRRRRRRDDUDRRDDDDDRRRDRLLRLLLRDDDDDDDDDRDDDDDU",
        "DRRRDDDRDRDDRRRRUDUDDURDRURDRUUDUDDDRDDRDRRDRRDURDDRRRDDDRUDURUDRURRRRRRRRDDDDRR",
        "UUDRRUDRRDRDRDDRRURURRRDURRUUUDUURRRDDRRLU",
    );
    let game = dir.join("blunder.t48");
    let (code, _, err) = run(&[
        "record",
        "--seed",
        "7",
        "--moves",
        moves,
        "-o",
        game.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, text, _) = run(&["analyse", game.to_str().unwrap(), "--depth", "3"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("move 201: left, best down: loses 8.8% (blunder)"),
        "{text}"
    );
    assert!(text.contains("2 blunders"), "{text}");
    let worst = text.split("worst moves:\n").nth(1).unwrap();
    assert!(worst.starts_with("  move 202: up"), "{text}");
    let (_, quiet, _) = run(&["-q", "analyse", game.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(quiet, "");
    std::fs::remove_dir_all(&dir).unwrap();
}
