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
    // Every rating is consistent: the best has the highest value, the error is the chance
    // given away against the highest chance, the stake the highest less the lowest, the
    // class the error's (best: the bot's move, or one valued as much).
    let t = &one["thresholds"];
    for r in one["ratings"].as_array().unwrap() {
        let values = &r["values"];
        let best = values[r["best"].as_str().unwrap()].as_i64().unwrap();
        let played = values[r["played"].as_str().unwrap()].as_i64().unwrap();
        for d in ["up", "right", "down", "left"] {
            assert!(values[d].as_i64().is_none_or(|v| v <= best), "{r}");
        }
        let chances: Vec<i64> = r["chances"]
            .as_object()
            .unwrap()
            .values()
            .filter_map(Value::as_i64)
            .collect();
        let (top, low) = (chances.iter().max().unwrap(), chances.iter().min().unwrap());
        let error = r["error"].as_i64().unwrap();
        assert_eq!(
            error,
            top - r["chances"][r["played"].as_str().unwrap()]
                .as_i64()
                .unwrap(),
            "{r}"
        );
        assert_eq!(r["stake"].as_i64().unwrap(), top - low, "{r}");
        let class = match error {
            _ if r["legal"] == 1 => "only",
            _ if played == best => "best",
            e if e < t["inaccuracy"].as_i64().unwrap() => "good",
            e if e < t["mistake"].as_i64().unwrap() => "inaccuracy",
            e if e < t["blunder"].as_i64().unwrap() => "mistake",
            _ => "blunder",
        };
        assert_eq!(r["class"], class, "{r}");
    }
    // Each tile: start - errors + luck = end.
    for tile in one["summary"]["tiles"].as_array().unwrap() {
        let n = |k: &str| tile[k].as_i64().unwrap();
        assert_eq!(n("start") - n("errors") + n("luck"), n("end"), "{tile}");
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
fn the_known_errors_are_found_and_the_worst_named_first() {
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
        text.contains(
            "move 201: left, best down: chance to reach 512: 99.1% -> 98.0%, -1.0 points (inaccuracy)"
        ),
        "{text}"
    );
    assert!(text.contains("2 inaccuracies, 0 mistakes"), "{text}");
    assert!(
        text.contains(
            "512: 99.1% before move 132, errors -4.4, luck -0.1 points: 94.5% after move 202"
        ),
        "{text}"
    );
    let worst = text.split("worst moves:\n").nth(1).unwrap();
    assert!(worst.starts_with("  move 202: up"), "{text}");
    let (_, quiet, _) = run(&["-q", "analyse", game.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(quiet, "");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue45_the_bounds_hold() {
    let game = fixture("games/classic-moves.t48");
    // --budget has an upper limit.
    let (code, _, err) = run(&["analyse", &game, "--budget", "16000001"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("16000001 is not in 1..=16000000"), "{err}");
    // A header claiming 4 billion moves is refused from its header.
    let dir = std::env::temp_dir().join(format!("t48-analyse-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = std::fs::read(&game).unwrap();
    let l = usize::from(bytes[15]);
    let h = 29 + l + usize::from(bytes[28 + l]);
    bytes[h + 4..h + 8].copy_from_slice(&4_000_000_000u32.to_le_bytes());
    let huge = dir.join("huge.t48");
    std::fs::write(&huge, &bytes).unwrap();
    let (code, out, err) = run(&["analyse", huge.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains(&format!(
            "huge.t48: its header claims 4000000000 moves (the move count at byte {}), more than the analysis takes (at most 1000000)",
            h + 4
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // A checkpoint that disagrees after move 256: the 256 moves that replay are analysed.
    let (code, doc) = json(&[
        "analyse",
        &fixture("broken/wrong-checkpoint.t48"),
        "--json",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 1);
    assert_eq!(doc["analysed"], 256);
    assert_eq!(doc["ratings"].as_array().unwrap().len(), 256);
}

#[cfg(unix)]
#[test]
fn issue45_a_closed_standard_output_is_an_error() {
    let game = fixture("games/classic-moves.t48");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "\"$0\" analyse '{game}' --depth 1 >&-; echo \"exit $?\" >&2"
        ))
        .arg(env!("CARGO_BIN_EXE_twenty48"))
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("standard output is closed"), "{err}");
    assert!(err.contains("exit 2"), "{err}");
    // Sent to /dev/null on purpose: no error.
    let status = Command::new(env!("CARGO_BIN_EXE_twenty48"))
        .args(["analyse", &game, "--depth", "1"])
        .stdout(std::fs::File::create("/dev/null").unwrap())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn issue45_a_hinted_game_is_said_to_be_one() {
    let (_, text, _) = run(&[
        "analyse",
        &fixture("games/classic-hinted-v2.t48"),
        "--depth",
        "1",
    ]);
    assert!(
        text.contains("a hinted game: hints were shown while it was played"),
        "{text}"
    );
    let (_, doc) = json(&[
        "analyse",
        &fixture("games/classic-hinted-v2.t48"),
        "--json",
        "--depth",
        "1",
    ]);
    assert_eq!(doc["hinted"], true);
    let (_, doc) = json(&[
        "analyse",
        &fixture("games/classic-moves.t48"),
        "--json",
        "--depth",
        "1",
    ]);
    assert_eq!(doc["hinted"], false);
}

#[test]
fn issue45_svg_draws_the_evaluation_graph_with_the_errors_marked() {
    let game = fixture("games/classic-greedy-2048-plays-on.t48");
    let (code, svg, err) = run(&["analyse", &game, "--depth", "1", "--svg", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        svg.starts_with("<svg ") && svg.ends_with("</svg>\n"),
        "{svg}"
    );
    let (_, doc) = json(&["analyse", &game, "--depth", "1", "--json"]);
    let errors = doc["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| ["inaccuracy", "mistake", "blunder"].contains(&r["class"].as_str().unwrap()))
        .count();
    assert_eq!(svg.matches("<circle ").count(), errors);
    assert!(svg.contains(">2048</text>"), "{svg}");
    // To a file: the text as well; an existing file is kept without --force.
    let dir = std::env::temp_dir().join(format!("t48-analyse-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("graph.svg");
    let f = file.to_str().unwrap();
    let (code, text, _) = run(&["analyse", &game, "--depth", "1", "--svg", f]);
    assert_eq!(code, 0);
    assert!(text.contains("error rate"), "{text}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), svg);
    let (code, _, err) = run(&["analyse", &game, "--depth", "1", "--svg", f]);
    assert_eq!(code, 2);
    assert!(err.contains("already exists"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue45_the_page_and_the_cli_give_the_same_numbers_on_every_fixture() {
    // The page's analysis (twenty48_web::Host, in chunks, as its worker asks) against
    // `analyse --json` at the same depth: every rating and the summary, field for field.
    let dir = root().join("fixtures/games");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".t48"))
        .collect();
    names.sort();
    let mut compared = 0;
    for name in names {
        let path = dir.join(&name);
        let bytes = std::fs::read(&path).unwrap();
        let mut host = twenty48_web::Host::new();
        let opened: Value = serde_json::from_str(&host.open(&bytes)).unwrap();
        let id = opened["id"].as_u64().unwrap() as u32;
        let mut page_ratings = Vec::new();
        let page_summary = loop {
            let answer: Value = serde_json::from_str(&host.analyse(id, 300, 1)).unwrap();
            if answer.get("error").is_some() {
                break None;
            }
            page_ratings.extend(answer["ratings"].as_array().unwrap().iter().cloned());
            if answer["analysed"] == answer["total"] {
                break Some(answer["summary"].clone());
            }
        };
        let Some(page_summary) = page_summary else {
            continue; // not 4x4: the CLI refuses it too
        };
        let (_, cli) = json(&["analyse", path.to_str().unwrap(), "--json", "--depth", "1"]);
        assert_eq!(cli["ratings"].as_array().unwrap(), &page_ratings, "{name}");
        assert_eq!(cli["summary"], page_summary, "{name}");
        compared += 1;
    }
    assert!(compared >= 15, "{compared} fixtures");
}

#[test]
fn issue45_the_cli_analyses_as_the_page_does_by_default() {
    // The page's depth (web/js/analysis.js) is the CLI's default: the same document.
    let js = std::fs::read_to_string(root().join("web/js/analysis.js")).unwrap();
    let page_depth: u64 = js
        .split("const DEPTH = ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .parse()
        .unwrap();
    let game = fixture("games/classic-moves.t48");
    let (_, default) = json(&["analyse", &game, "--json"]);
    assert_eq!(default["depth"], page_depth);
    assert_eq!(default["budget"], Value::Null);
    let (_, explicit) = json(&[
        "analyse",
        &game,
        "--json",
        "--depth",
        &page_depth.to_string(),
    ]);
    assert_eq!(default, explicit);
    // And the page's own analysis at its depth: the same ratings and summary.
    let bytes = std::fs::read(&game).unwrap();
    let mut host = twenty48_web::Host::new();
    let opened: Value = serde_json::from_str(&host.open(&bytes)).unwrap();
    let id = opened["id"].as_u64().unwrap() as u32;
    let answer: Value = serde_json::from_str(&host.analyse(id, 1000, page_depth as u8)).unwrap();
    assert_eq!(answer["analysed"], answer["total"]);
    assert_eq!(default["ratings"], answer["ratings"]);
    assert_eq!(default["summary"], answer["summary"]);
}
