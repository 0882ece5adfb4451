//! The commands as a user runs them: record, replay, verify, diff and inspect, their exit
//! statuses, and their errors on bad input.

mod support;
use support::Start as _;

use std::path::{Path, PathBuf};
use std::process::Command;

use twenty48_engine::Rules;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-cmd-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = support::output(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(args)
            .current_dir(dir),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn record_skips_presses_that_do_not_move_and_reports_them() {
    let dir = scratch("noop");
    // Seed 7 under console rules: the opening leaves row 0 with tiles; "UUUU" moves at most
    // once, the other presses change nothing.
    let (code, out, err) = run(
        &dir,
        &[
            "record",
            "--rules",
            "console",
            "--seed",
            "7",
            "--moves",
            "UUUU LLLL",
            "-o",
            "g.t48",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("did not change the board and were not recorded"),
        "{err}"
    );
    assert!(out.contains("recorded"), "{out}");
    let (code, json, _) = run(&dir, &["inspect", "g.t48", "--json"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(doc["moves"].as_u64().unwrap() < 8, "{doc}");
    assert_eq!(doc["rules"]["preset"], "console");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_sentence_with_its_place_and_status_2() {
    let dir = scratch("bad");
    let (code, _, err) = run(&dir, &["record", "--moves", "LURX", "-o", "g.t48"]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1 column 4: 'X' is not a move"), "{err}");
    assert!(
        !err.contains("seed:"),
        "no seed is drawn for a bad move list: {err}"
    );
    assert!(!dir.join("g.t48").exists(), "nothing written");

    let (code, _, err) = run(
        &dir,
        &[
            "record",
            "--four-chance",
            "3/2",
            "--moves",
            "L",
            "-o",
            "g.t48",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("four chance 3/2"), "{err}");

    std::fs::write(dir.join("g.t48"), b"keep me").unwrap();
    let (code, _, err) = run(
        &dir,
        &["record", "--seed", "1", "--moves", "L", "-o", "g.t48"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(
        std::fs::read(dir.join("g.t48")).unwrap(),
        b"keep me",
        "not overwritten"
    );

    let (code, _, err) = run(&dir, &["replay", "missing.t48"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read missing.t48"), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_game_is_reproducible_from_its_seeds() {
    let dir = scratch("bot");
    for name in ["a.t48", "b.t48"] {
        let (code, _, err) = run(
            &dir,
            &[
                "record",
                "--rules",
                "arduino",
                "--seed",
                "5",
                "--bot",
                "random",
                "--bot-seed",
                "9",
                "-o",
                name,
            ],
        );
        assert_eq!(code, 0, "{err}");
    }
    assert_eq!(
        std::fs::read(dir.join("a.t48")).unwrap(),
        std::fs::read(dir.join("b.t48")).unwrap()
    );
    let (code, out, _) = run(&dir, &["diff", "a.t48", "b.t48"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("identical"), "{out}");
    // Another bot seed plays another game: the diff says where they part.
    let (code, _, _) = run(
        &dir,
        &[
            "record",
            "--rules",
            "arduino",
            "--seed",
            "5",
            "--bot",
            "random",
            "--bot-seed",
            "10",
            "-o",
            "c.t48",
        ],
    );
    assert_eq!(code, 0);
    let (code, out, _) = run(&dir, &["diff", "a.t48", "c.t48", "--json"]);
    assert_eq!(code, 1, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["identical"], false);
    assert!(doc["move"].as_u64().unwrap() >= 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_exit_status_is_0_1_or_2_and_every_file_is_reported() {
    let dir = scratch("verify");
    let (code, _, _) = run(
        &dir,
        &[
            "record",
            "--seed",
            "3",
            "--bot",
            "greedy",
            "--max-moves",
            "40",
            "-o",
            "good.t48",
        ],
    );
    assert_eq!(code, 0);
    let (code, out, _) = run(&dir, &["verify", "good.t48"]);
    assert_eq!(code, 0, "{out}");

    // A false claim, CRC intact: verification fails (1).
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/broken");
    std::fs::copy(fixtures.join("false-claim.t48"), dir.join("lie.t48")).unwrap();
    let (code, out, _) = run(&dir, &["verify", "good.t48", "lie.t48"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("ok      good.t48") && out.contains("FAILED  lie.t48"),
        "{out}"
    );

    // An unreadable file as well: status 2, and still every file has its line.
    std::fs::write(dir.join("junk.t48"), b"junk").unwrap();
    let (code, out, _) = run(&dir, &["verify", "--json", "."]);
    assert_eq!(code, 2, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["summary"]["files"], 3);
    assert_eq!(doc["summary"]["verified"], 1);
    assert_eq!(doc["summary"]["failed"], 1);
    assert_eq!(doc["summary"]["unreadable"], 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 28, item 2: `replay --json` is JSON Lines (docs/json.md, `application/jsonl`): one
/// compact JSON object a line, written as the replay reaches it: the head, every state in
/// order, then the verdict. A stream without its verdict line was cut short.
#[test]
fn issue28_replay_json_is_json_lines_head_states_verdict() {
    let dir = scratch("replay");
    let (code, _, _) = run(
        &dir,
        &[
            "record", "--seed", "42", "--moves", "LURDLLUR", "-o", "g.t48", "--json",
        ],
    );
    assert_eq!(code, 0);
    for (flags, states) in [(&[][..], 0..=8), (&["--final"][..], 8..=8)] {
        let mut args = vec!["replay", "g.t48", "--json"];
        args.extend(flags);
        let (code, out, _) = run(&dir, &args);
        assert_eq!(code, 0);
        assert!(out.ends_with("}\n"), "{out}");
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| {
                assert!(
                    l.starts_with('{') && l.ends_with('}'),
                    "one object a line: {l}"
                );
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))
            })
            .collect();
        let (head, rest) = lines.split_first().unwrap();
        let (verdict, rest) = rest.split_last().unwrap();
        assert_eq!(head["schema_version"], 2, "{head}");
        assert_eq!(head["moves"], 8, "{head}");
        assert_eq!(head["rules"]["preset"], "classic");
        assert_eq!(
            verdict,
            &serde_json::json!({"verdict": {"ok": true, "problem": null}})
        );
        let moves: Vec<u64> = rest.iter().map(|s| s["move"].as_u64().unwrap()).collect();
        assert_eq!(moves, states.collect::<Vec<_>>(), "{flags:?}");
        if flags.is_empty() {
            assert_eq!(
                rest[0]["spawns"].as_array().unwrap().len(),
                2,
                "the opening"
            );
        }
        assert_eq!(rest.last().unwrap()["board"].as_array().unwrap().len(), 4);
    }
    // A problem is the verdict's.
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/broken");
    let (code, out, _) = run(
        &dir,
        &[
            "replay",
            "--json",
            broken.join("illegal-move.t48").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1);
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["verdict"]["ok"], false);
    assert!(last["verdict"]["problem"]
        .as_str()
        .unwrap()
        .contains("move 25"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `verify --json` says whether a log holds the whole game: a partial log (a verified
/// beginning, such as a device game a power cut interrupted) is `"complete": false`.
#[test]
fn verify_json_says_whether_a_log_is_complete() {
    use twenty48_engine::Direction;
    let dir = scratch("partial-json");
    let moves = [Direction::Left, Direction::Up, Direction::Right];
    let mut log = twenty48_movelog::MoveLog::from_moves(Rules::CLASSIC, 42, &moves, 256).unwrap();
    std::fs::write(dir.join("whole.t48"), log.encode()).unwrap();
    log.complete = false;
    std::fs::write(dir.join("partial.t48"), log.encode()).unwrap();
    let (code, out, err) = run(&dir, &["verify", "--json", "whole.t48", "partial.t48"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let complete: Vec<_> = json["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["complete"].clone(),
            )
        })
        .collect();
    assert_eq!(
        complete,
        [
            ("whole.t48".to_string(), serde_json::json!(true)),
            ("partial.t48".to_string(), serde_json::json!(false)),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the binary in `dir` with `stdin` as its standard input.
fn run_with_input(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twenty48"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .start()
        .unwrap();
    support::feed(&mut child, stdin.to_vec());
    let out = support::finish(child);
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 13: `-` is standard input or output wherever a file is named, and never a file
/// named `-`.
#[test]
fn issue13_dash_is_standard_input_and_output() {
    let dir = scratch("dash");
    let (code, log, err) = run_with_input(
        &dir,
        &["record", "--seed", "42", "--moves-file", "-", "-o", "-"],
        b"LURD LLUR\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(log.starts_with(b"T48\x1a"), "a log on standard output");
    assert!(err.contains("-> standard output (71 bytes)"), "{err}");
    assert!(!dir.join("-").exists(), "no file named -");
    std::fs::write(dir.join("g.t48"), &log).unwrap();
    for args in [
        &["inspect", "-"][..],
        &["replay", "-", "--final"],
        &["verify", "-"],
        &["diff", "-", "g.t48"],
    ] {
        let (code, out, err) = run_with_input(&dir, args, &log);
        let out = String::from_utf8_lossy(&out);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        assert!(out.contains("standard input"), "{args:?}: {out}");
    }
    let (code, svg, err) = run_with_input(&dir, &["replay", "g.t48", "--svg", "-"], b"");
    assert_eq!(code, 0, "{err}");
    assert!(svg.starts_with(b"<svg "));
    let (code, _, err) = run_with_input(&dir, &["diff", "-", "-"], &log);
    assert_eq!(code, 2);
    assert!(
        err.contains("standard input (-) can be read only once"),
        "{err}"
    );
    assert!(!dir.join("-").exists(), "no file named -");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A move list read from `-` is named "standard input" in its errors, as every input is.
#[test]
fn a_bad_move_list_on_standard_input_is_named_standard_input() {
    let dir = scratch("dash-moves");
    for (stdin, wanted) in [
        (
            &b"LU\xffRD"[..],
            "standard input: not text (byte 2 is not UTF-8)",
        ),
        (
            b"LU\nRXD",
            "standard input, line 2 column 2: 'X' is not a move",
        ),
    ] {
        let (code, _, err) = run_with_input(
            &dir,
            &["record", "--seed", "1", "--moves-file", "-", "-o", "g.t48"],
            stdin,
        );
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(wanted), "{err}");
        assert!(!dir.join("g.t48").exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 13: --color always|never on every command; verify and diff colour their verdicts;
/// NO_COLOR and a pipe turn colour off by default, CLICOLOR_FORCE turns it on.
#[test]
fn issue13_colour_follows_color_no_color_and_clicolor_force() {
    let dir = scratch("colour");
    let (code, _, err) = run(
        &dir,
        &["record", "--seed", "42", "--moves", "LURD", "-o", "g.t48"],
    );
    assert_eq!(code, 0, "{err}");
    let green = "\x1b[32mok\x1b[0m";
    let (_, out, _) = run(&dir, &["verify", "g.t48"]);
    assert!(!out.contains('\x1b'), "a pipe gets no colour: {out:?}");
    let (_, out, _) = run(&dir, &["verify", "--color", "always", "g.t48"]);
    assert!(out.contains(green), "{out:?}");
    let (_, out, _) = run(&dir, &["--color", "always", "diff", "g.t48", "g.t48"]);
    assert!(out.contains("\x1b[32midentical\x1b[0m"), "{out:?}");
    let forced = support::output(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(["verify", "g.t48"])
            .current_dir(&dir)
            .env("CLICOLOR_FORCE", "1")
            .env_remove("NO_COLOR"),
    );
    assert!(String::from_utf8_lossy(&forced.stdout).contains(green));
    let vetoed = support::output(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(["verify", "g.t48"])
            .current_dir(&dir)
            .env("CLICOLOR_FORCE", "1")
            .env("NO_COLOR", "1"),
    );
    assert!(!String::from_utf8_lossy(&vetoed.stdout).contains('\x1b'));
    // -q: nothing on success.
    let (code, out, err) = run(&dir, &["verify", "-q", "g.t48"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `record --bot expectimax`: the game the library's bot plays, move for move (so the same
/// seed and depth always give the same file), and a clear refusal of boards it cannot search.
#[test]
fn record_with_the_expectimax_bot() {
    use twenty48_engine::Game;
    let dir = scratch("expectimax");
    let (code, _, err) = run(
        &dir,
        &[
            "record",
            "--seed",
            "9",
            "--bot",
            "expectimax",
            "--depth",
            "2",
            "--max-moves",
            "150",
            "-o",
            "a.t48",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let log =
        twenty48_movelog::MoveLog::decode(&std::fs::read(dir.join("a.t48")).unwrap()).unwrap();
    let mut game = Game::new(Rules::CLASSIC, 9).unwrap();
    let mut bot = twenty48_bot::Bot::expectimax(&Rules::CLASSIC, 2);
    for &dir in &log.moves {
        assert_eq!(bot.choose(&game), Some(dir));
        game.play(dir).unwrap();
    }
    assert_eq!(log.moves.len(), 150);
    assert!(!log.hinted);
    let (code, _, err) = run(
        &dir,
        &[
            "record",
            "--size",
            "5",
            "--seed",
            "9",
            "--bot",
            "expectimax",
            "-o",
            "b.t48",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("plays 4x4 boards only"), "{err}");
    assert!(!dir.join("b.t48").exists());
    let (code, _, err) = run(
        &dir,
        &[
            "record",
            "--bot",
            "expectimax",
            "--depth",
            "9",
            "-o",
            "c.t48",
        ],
    );
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// CRC-32 (zlib's, docs/format.md) of `bytes`, for tests that edit a log's bytes.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// `bytes` with their last four bytes replaced by the CRC-32 of the rest.
fn with_crc(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 4;
    let crc = crc32(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

/// Issue 28, item 1: `inspect` reports the format version the file states (byte 4), so a
/// version-2 file without hints is version 2, not the version a writer would choose.
#[test]
fn issue28_inspect_reports_the_version_the_file_states() {
    let dir = scratch("v2");
    let (code, _, err) = run(
        &dir,
        &["record", "--seed", "42", "--moves", "LURD", "-o", "g.t48"],
    );
    assert_eq!(code, 0, "{err}");
    let mut bytes = std::fs::read(dir.join("g.t48")).unwrap();
    assert_eq!(bytes[4], 1, "a game without hints is written as version 1");
    bytes[4] = 2;
    std::fs::write(dir.join("v2.t48"), with_crc(bytes)).unwrap();
    for (file, version) in [("g.t48", 1), ("v2.t48", 2)] {
        let (code, out, err) = run(&dir, &["inspect", file, "--json"]);
        assert_eq!(code, 0, "{err}");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["format_version"], version, "{file}: {doc}");
        assert_eq!(doc["hints"], false, "{file}");
        assert_eq!(doc["complete"], true, "{file}");
        let (code, out, _) = run(&dir, &["inspect", file]);
        assert_eq!(code, 0);
        assert!(
            out.contains(&format!("magic 54 34 38 1a), version {version}\n")),
            "{file}: {out}"
        );
        let (code, _, err) = run(&dir, &["verify", file]);
        assert_eq!(code, 0, "{file}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/games")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// Issue 28, item 3: `replay --final` names the winning tile of the rules (docs/json.md: "the
/// win is reached: a 2048 tile"), not the largest tile at the end of a game that played on.
#[test]
fn issue28_replay_final_names_the_winning_tile() {
    let dir = scratch("win-tile");
    for (game, largest) in [
        ("classic-expectimax-32768.t48", 32768),
        ("classic-greedy-2048-plays-on.t48", 2048),
        ("arduino-greedy-win-stops.t48", 2048),
    ] {
        let (code, out, err) = run(&dir, &["replay", "--final", &fixture(game)]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(
            out.contains("\nthe win is reached: a 2048 tile\n"),
            "{game}: {out}"
        );
        assert!(
            out.contains(&format!(", max tile {largest}, ")),
            "{game}: {out}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The opening spawns of `log` under `rules`, as diff names them: `(row, col, value)`, row
/// and col from 1 on that board.
fn opening_cells(log: &twenty48_movelog::MoveLog, rules: Rules) -> Vec<(u64, u64, u64)> {
    let state = twenty48_verify::Trace::replay("x", rules, log.seed, &[])
        .state(0)
        .unwrap();
    let n = rules.size as u64;
    state
        .spawns
        .iter()
        .map(|s| {
            (
                s.cell as u64 / n + 1,
                s.cell as u64 % n + 1,
                s.value() as u64,
            )
        })
        .collect()
}

fn spawns_of(doc: &serde_json::Value) -> Vec<(u64, u64, u64)> {
    doc.as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let n = |k: &str| s[k].as_u64().unwrap();
            (n("row"), n("col"), n("value"))
        })
        .collect()
}

fn spawns_words(cells: &[(u64, u64, u64)]) -> String {
    let words: Vec<String> = cells
        .iter()
        .map(|(r, c, v)| format!("{v} at row {r}, col {c}"))
        .collect();
    words.join(", ")
}

/// Issue 28, item 6: `diff` between boards of different sizes names each side's cells on
/// that side's own board, and says the boards differ in size (text and JSON alike).
#[test]
fn issue28_diff_names_each_sides_cells_on_its_own_board() {
    let dir = scratch("sizes");
    for args in [
        "--size 2 --win 16 --seed 1 --moves LURD -o small.t48",
        "--size 8 --seed 1 --bot greedy --max-moves 30 -o big8.t48",
    ] {
        let mut all = vec!["record", "-q"];
        all.extend(args.split(' '));
        let (code, _, err) = run(&dir, &all);
        assert_eq!(code, 0, "{err}");
    }
    let read =
        |f: &str| twenty48_movelog::MoveLog::decode(&std::fs::read(dir.join(f)).unwrap()).unwrap();
    let (small, big) = (read("small.t48"), read("big8.t48"));
    // Two logs: a 2x2 against an 8x8, and the one log against its moves on a 4x4 board.
    for (args, a, b, sizes) in [
        (
            vec!["small.t48", "big8.t48"],
            opening_cells(&small, small.rules),
            opening_cells(&big, big.rules),
            (2, 8),
        ),
        (
            vec!["big8.t48", "--rules", "classic"],
            opening_cells(&big, big.rules),
            opening_cells(&big, Rules::CLASSIC),
            (8, 4),
        ),
    ] {
        let mut all = vec!["diff", "--json"];
        all.extend(&args);
        let (code, out, err) = run(&dir, &all);
        assert_eq!(code, 1, "{err}");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["move"], 0, "{doc}");
        assert_eq!(spawns_of(&doc["a"]["spawns"]), a, "{args:?}: {doc}");
        assert_eq!(spawns_of(&doc["b"]["spawns"]), b, "{args:?}: {doc}");
        let kinds = doc["differences"].as_array().unwrap();
        let spawn = kinds.iter().find(|d| d["kind"] == "spawn").unwrap();
        assert_eq!(
            (spawns_of(&spawn["a"]), spawns_of(&spawn["b"])),
            (a.clone(), b.clone())
        );
        let board = kinds.iter().find(|d| d["kind"] == "board").unwrap();
        assert_eq!(
            board,
            &serde_json::json!({"kind": "board", "cells": [],
                "sizes": {"a": sizes.0, "b": sizes.1}}),
            "{args:?}"
        );
        all.retain(|a| *a != "--json");
        let (code, out, _) = run(&dir, &all);
        assert_eq!(code, 1);
        let want = format!("spawn: {} against {}\n", spawns_words(&a), spawns_words(&b));
        assert!(out.contains(&want), "{args:?}: no {want:?} in\n{out}");
        let want = format!(
            "boards differ in size: {0}x{0} against {1}x{1}\n",
            sizes.0, sizes.1
        );
        assert!(out.contains(&want), "{args:?}: no {want:?} in\n{out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `log` with one more move, `dir`, written after its last (the claims left as they were).
fn with_extra_move(log: &[u8], dir: twenty48_engine::Direction) -> Vec<u8> {
    let mut parsed = twenty48_movelog::MoveLog::decode(log).unwrap();
    parsed.moves.push(dir);
    parsed.claims.move_count += 1;
    if parsed.checkpoints.len() < (parsed.moves.len() / 256) {
        parsed.checkpoints.push(0);
    }
    let bytes = parsed.encode();
    assert_eq!(bytes.len(), log.len(), "the move fits in the last byte");
    bytes
}

/// Issue 28, item 5: a log whose replay stops at a move it cannot play (one after the end, or
/// one that does not change the board) does not verify: against its source, diff reports it
/// `invalid` with the verifier's problem, not as a game that ends where the other goes on.
/// A replay under other rules that ends where the log goes on is still a `prefix`.
#[test]
fn issue28_diff_reports_a_log_with_a_bad_move_invalid() {
    use twenty48_engine::Direction;
    let dir = scratch("bad-move");
    let source = fixture("arduino-greedy-win-stops.t48");
    let bytes = std::fs::read(&source).unwrap();
    std::fs::write(
        dir.join("after-end.t48"),
        with_extra_move(&bytes, Direction::Left),
    )
    .unwrap();
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/broken");
    let illegal = broken.join("illegal-move.t48");
    let illegal = illegal.to_str().unwrap();
    let plays_on = fixture("classic-greedy-2048-plays-on.t48");
    for (a, b, invalid, problem) in [
        (
            "after-end.t48",
            source.as_str(),
            "after-end.t48",
            "move 811",
        ),
        (
            source.as_str(),
            "after-end.t48",
            "after-end.t48",
            "move 811",
        ),
        (
            "after-end.t48",
            "after-end.t48",
            "after-end.t48",
            "move 811",
        ),
        (illegal, plays_on.as_str(), illegal, "move 25 (up)"),
        (plays_on.as_str(), illegal, illegal, "move 25 (up)"),
    ] {
        let (code, out, err) = run(&dir, &["diff", "--json", a, b]);
        assert_eq!(code, 1, "{a} {b}: {err}");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["identical"], false);
        assert_eq!(doc["invalid"], invalid, "{a} {b}: {doc}");
        let text = doc["problem"].as_str().unwrap();
        assert!(text.contains(problem), "{a} {b}: {text}");
        assert!(doc.get("parting").is_none(), "{doc}");
        let (code, out, _) = run(&dir, &["diff", a, b]);
        assert_eq!(code, 1);
        assert!(
            out.starts_with(&format!("invalid: {invalid} does not verify")),
            "{a} {b}: {out}"
        );
    }
    // Every move agrees and only the rules differ: still a log that does not verify.
    let false_claim = broken.join("false-claim.t48");
    for (log, problem) in [
        (illegal, "move 25 (up)"),
        (false_claim.to_str().unwrap(), "claims score"),
    ] {
        let (code, out, _) = run(&dir, &["diff", "--json", log, "--win", "4096"]);
        assert_eq!(code, 1);
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["invalid"], log, "{doc}");
        assert!(doc["problem"].as_str().unwrap().contains(problem), "{doc}");
    }
    // The log is valid; the replay under rules whose win ends the game stops at 2048.
    let (code, out, _) = run(&dir, &["diff", "--json", &plays_on, "--win-ends"]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["parting"], "prefix", "{doc}");
    let ended = &doc["differences"].as_array().unwrap().last().unwrap();
    assert_eq!(
        (&ended["kind"], &ended["game"]),
        (&"ended".into(), &"b".into())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `replay --svg` verifies the log as a replay does: a log that fails is drawn only at a
/// board the replay verified, says why it failed and exits 1; a board after the failure is
/// not drawn at all.
#[test]
fn replay_svg_draws_only_verified_boards_and_fails_as_replay_does() {
    let dir = scratch("replay-svg-verdict");
    let (code, out, err) = run(
        &dir,
        &[
            "replay",
            &fixture("../broken/false-claim.t48"),
            "--svg",
            "a.svg",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("the board after move 1196"), "{out}");
    assert!(
        err.contains("FAILED") && err.contains("claims score"),
        "{err}"
    );
    assert!(dir.join("a.svg").exists());
    let illegal = fixture("../broken/illegal-move.t48");
    let (code, out, err) = run(&dir, &["replay", &illegal, "--svg", "b.svg"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("the board after move 24"), "{out}");
    assert!(
        err.contains("move 25 (up) does not change the board"),
        "{err}"
    );
    let (code, _, err) = run(
        &dir,
        &["replay", &illegal, "--svg", "c.svg", "--move", "100"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("up to move 24 only"), "{err}");
    assert!(!dir.join("c.svg").exists(), "no board after the failure");
    let (code, _, err) = run(&dir, &["replay", &illegal, "--svg", "d.svg", "--move", "3"]);
    assert_eq!(
        code, 1,
        "a verified board is drawn, and the log still fails: {err}"
    );
    assert!(dir.join("d.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An 8x8 board may win with a 2^64 or a 2^65 (docs/format.md), whose values no u64 holds:
/// text names them `2^64` and `2^65`, JSON gives their exponent (and a null value), and
/// `stats` keeps the two rule sets apart. They were all shown as 2^63's value.
#[test]
fn winning_tiles_past_2_63_are_named_not_saturated() {
    let dir = scratch("win-2-65");
    let (code, _, err) = run(
        &dir,
        &[
            "record", "-q", "--seed", "1", "--size", "8", "--moves", "LURD", "-o", "w.t48",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(dir.join("w.t48")).unwrap();
    // Byte 19: the rules' winning exponent (docs/format.md).
    for e in [63u8, 64, 65] {
        let mut b = bytes.clone();
        b[19] = e;
        std::fs::write(dir.join(format!("w{e}.t48")), with_crc(b)).unwrap();
    }
    let (code, out, _) = run(&dir, &["diff", "w64.t48", "w65.t48"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("win 2^64 (play on)") && out.contains("win 2^65 (play on)"),
        "{out}"
    );
    let (_, out, _) = run(&dir, &["inspect", "--json", "w65.t48"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["rules"]["win"]["exponent"], 65, "{doc}");
    assert!(doc["rules"]["win"]["tile"].is_null(), "{doc}");
    let (_, out, _) = run(&dir, &["inspect", "--json", "w63.t48"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["rules"]["win"]["tile"], 1u64 << 63, "{doc}");
    let (_, out, _) = run(&dir, &["stats", "w63.t48", "w64.t48", "w65.t48"]);
    assert_eq!(out.matches("1 game,").count(), 3, "three rule sets:\n{out}");
    let (_, out, _) = run(&dir, &["stats", "--json", "w63.t48", "w64.t48", "w65.t48"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut wins: Vec<(u64, bool)> = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["win_exponent"].as_u64().unwrap(), r["win_tile"].is_null()))
        .collect();
    wins.sort();
    assert_eq!(wins, [(63, false), (64, true), (65, true)], "{doc}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `record --max-moves` says how many presses of the list it left unplayed (text and JSON),
/// as it does for presses after the end; and a move list is never replaced by the game
/// recorded from it, --force or not.
#[test]
fn record_reports_presses_past_max_moves_and_never_overwrites_its_move_list() {
    let dir = scratch("max-moves");
    let args = [
        "record",
        "--seed",
        "1",
        "--moves",
        "LURDLURD",
        "--max-moves",
        "2",
    ];
    let (code, _, err) = run(&dir, &[&args[..], &["-o", "a.t48"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--max-moves 2 was reached; the last 6 presses were not played"),
        "{err}"
    );
    let (code, out, err) = run(&dir, &[&args[..], &["-o", "b.t48", "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["ignored_after_limit"], 6, "{doc}");
    assert_eq!(doc["ignored_after_end"], 0, "{doc}");
    std::fs::write(dir.join("moves.txt"), "LURDLURD\n").unwrap();
    let (code, _, err) = run(
        &dir,
        &[
            "record",
            "--seed",
            "1",
            "--moves-file",
            "moves.txt",
            "-o",
            "moves.txt",
            "--force",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is the input"), "{err}");
    assert_eq!(std::fs::read(dir.join("moves.txt")).unwrap(), b"LURDLURD\n");
    // The same list on standard input, redirected from the output file.
    let args = "record --seed 1 --moves-file - -o moves.txt --force";
    let child = Command::new(env!("CARGO_BIN_EXE_twenty48"))
        .current_dir(&dir)
        .args(args.split(' '))
        .stdin(std::fs::File::open(dir.join("moves.txt")).unwrap())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .start()
        .unwrap();
    let out = support::finish(child);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is the input"),
        "{out:?}"
    );
    assert_eq!(std::fs::read(dir.join("moves.txt")).unwrap(), b"LURDLURD\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bot's options without that bot are refused, not ignored: a game recorded from a move
/// list with --budget, or by the greedy bot with --depth, must not look as if they counted.
#[test]
fn record_refuses_bot_options_the_game_would_ignore() {
    let dir = scratch("bot-options");
    let cases: [(&[&str], &str); 7] = [
        (
            &["--moves", "LURD", "--bot-seed", "3"],
            "--bot-seed is a bot's option",
        ),
        (
            &["--moves", "LURD", "--budget", "5"],
            "--budget is a bot's option",
        ),
        (
            &["--moves", "LURD", "--threads", "3"],
            "--threads is a bot's option",
        ),
        (
            &["--bot", "greedy", "--depth", "5"],
            "the greedy bot has none",
        ),
        (
            &["--bot", "random", "--threads", "2"],
            "the random bot has none",
        ),
        (
            &["--bot", "greedy", "--bot-seed", "5"],
            "--bot-seed is the random bot's option",
        ),
        (
            &["--bot", "expectimax", "--bot-seed", "5"],
            "the expectimax bot draws nothing",
        ),
    ];
    for (extra, expected) in cases {
        let args = [&["record", "--seed", "1", "-o", "x.t48"][..], extra].concat();
        let (code, _, err) = run(&dir, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!dir.join("x.t48").exists(), "{args:?}");
    }
    let random: Vec<&str> = "record --seed 1 --bot random --bot-seed 4 -o r.t48"
        .split(' ')
        .collect();
    let (code, _, err) = run(&dir, &random);
    assert_eq!(code, 0, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A partial log (a verified beginning of a game) is never counted as a game by `stats`:
/// it is listed as PARTIAL (JSON: `partial`), and the figures are the whole games'. `diff`
/// says which side is partial.
#[test]
fn stats_lists_partial_logs_and_never_counts_them_as_games() {
    let dir = scratch("stats-partial");
    let whole = std::fs::read(fixture("classic-moves.t48")).unwrap();
    // Byte 64 (H + 26 in this file): the complete flag.
    assert_eq!(whole[64], 1);
    let mut partial = whole.clone();
    partial[64] = 0;
    std::fs::write(dir.join("whole.t48"), &whole).unwrap();
    std::fs::write(dir.join("partial.t48"), with_crc(partial)).unwrap();
    let (code, out, err) = run(&dir, &["stats", "whole.t48", "partial.t48"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("2 files: 1 verified, 0 failed, 0 unreadable, 1 partial (not counted)"),
        "{out}"
    );
    assert!(out.contains("PARTIAL partial.t48: a partial log"), "{out}");
    let (_, out, _) = run(&dir, &["stats", "whole.t48", "partial.t48", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (doc["games"].clone(), doc["files"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(doc["partial"][0]["file"], "partial.t48", "{doc}");
    // diff: the same moves, and a note that one side is only a beginning.
    let (code, out, err) = run(&dir, &["diff", "whole.t48", "partial.t48"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("agree on all 30 moves"), "{out}");
    assert!(err.contains("partial.t48 is a partial log"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `diff --elf` with no capture among its games is refused: an ELF that decodes nothing
/// would look as if it had been checked against.
#[test]
fn diff_refuses_an_elf_with_no_capture_to_decode() {
    let dir = scratch("diff-elf");
    let game = fixture("classic-moves.t48");
    for args in [
        vec!["diff", &game, &game, "--elf", "/dev/null"],
        vec!["diff", &game, "--elf", "/dev/null"],
    ] {
        let (code, _, err) = run(&dir, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("no game given here is one"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
