//! Every command that prints, with its stdout (or stderr) on a device that refuses writes:
//! one sentence on stderr and exit 2, never a panic or a backtrace; a closed pipe stays
//! quiet.

#![cfg(target_os = "linux")]

mod support;
use support::Start as _;

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use twenty48_engine::{Direction, Rules};
use twenty48_tui::Journal;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn full() -> File {
    OpenOptions::new().write(true).open("/dev/full").unwrap()
}

/// Runs the binary in the repository root with stdout on /dev/full; returns the exit
/// status and stderr.
fn to_full_stdout(args: &[&str]) -> (i32, String) {
    let out = support::finish(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(args)
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(full())
            .stderr(Stdio::piped())
            .start()
            .unwrap(),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_one_sentence(args: &[&str], code: i32, err: &str) {
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.contains("backtrace"), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("twenty48: error: "), "{args:?}: {err}");
    assert!(err.contains("No space left on device"), "{args:?}: {err}");
    // The sentence says what could not be written, not only why.
    assert!(
        err.contains("cannot write to standard output"),
        "{args:?}: {err}"
    );
}

#[test]
fn every_printing_command_reports_a_full_stdout_in_one_sentence() {
    let dir = scratch("stdout");
    let game = "fixtures/games/classic-moves.t48";
    let other = "fixtures/games/classic-random-over.t48";
    let recorded = dir.join("r.t48");
    let journal = dir.join("j.t48.journal");
    let mut j = Journal::create(&journal, Rules::CLASSIC, 7, 16).unwrap();
    for d in [Direction::Left, Direction::Up, Direction::Right] {
        j.append(d).unwrap();
    }
    drop(j);
    support::unlocked(&journal);
    let recovered = dir.join("j.t48");
    let commands: Vec<Vec<&str>> = vec![
        vec!["verify", "fixtures/games"],
        vec!["verify", "--json", game],
        vec!["replay", game],
        vec!["replay", game, "--final"],
        vec!["replay", game, "--json"],
        vec!["inspect", game],
        vec!["inspect", game, "--json"],
        vec!["diff", game],
        vec!["diff", game, "--json"],
        vec!["diff", game, other],
        vec!["diff", game, other, "--svg", "-"],
        vec!["replay", game, "--svg", "-"],
        vec!["analyse", game, "--depth", "2"],
        vec!["analyse", game, "--depth", "2", "--json"],
        vec!["stats", game],
        vec!["stats", game, "--csv"],
        vec!["record", "--seed", "1", "--moves", "LURD", "-o", "-"],
        vec![
            "record",
            "--seed",
            "1",
            "--bot",
            "greedy",
            "-o",
            recorded.to_str().unwrap(),
        ],
        vec![
            "recover",
            journal.to_str().unwrap(),
            "-o",
            recovered.to_str().unwrap(),
        ],
        vec!["completions", "bash"],
        vec!["man"],
        vec!["--help"],
        vec!["--version"],
        vec!["verify", "--help"],
        vec!["pull", "--help"],
    ];
    for args in &commands {
        let (code, err) = to_full_stdout(args);
        assert_one_sentence(args, code, &err);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_stderr_exits_2_without_a_panic() {
    for args in [
        &["verify", "nosuch.t48"][..],
        &["inspect", "fixtures/broken/bad-crc.t48"],
        &["pull"],
    ] {
        let out = support::finish(
            Command::new(env!("CARGO_BIN_EXE_twenty48"))
                .args(args)
                .current_dir(root())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(full())
                .start()
                .unwrap(),
        );
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn a_closed_pipe_stays_quiet() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twenty48"))
        .args(["replay", "fixtures/games/classic-greedy-2048-plays-on.t48"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .start()
        .unwrap();
    // Read a little, then close the pipe while the replay still prints.
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = support::finish(child);
    let (status, err) = (out.status, String::from_utf8_lossy(&out.stderr));
    assert!(err.is_empty(), "{err}");
    assert!(!status.success() || status.code() == Some(0));
    assert_ne!(status.code(), Some(101));
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = support::output(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(args)
            .current_dir(root()),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn diff_never_calls_a_log_that_does_not_verify_identical() {
    for (name, problem) in [
        ("illegal-move", "does not change the board"),
        ("false-claim", "the log claims score"),
        ("wrong-checkpoint", "the checkpoint after move 256"),
    ] {
        let file = format!("fixtures/broken/{name}.t48");
        for args in [vec!["diff", &file], vec!["diff", &file, &file]] {
            let (code, out, err) = run(&args);
            assert_eq!(code, 1, "{args:?}: {out}{err}");
            assert!(!out.contains("identical:"), "{args:?}: {out}");
            assert!(
                out.starts_with(&format!("invalid: {file} does not verify")),
                "{out}"
            );
            assert!(out.contains(problem), "{args:?}: {out}");
        }
        let (code, json, _) = run(&["diff", &file, "--json"]);
        assert_eq!(code, 1);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(doc["identical"], false);
        assert_eq!(doc["invalid"], file);
        assert!(doc["problem"].as_str().unwrap().contains(problem), "{doc}");
    }
    // A valid log still is identical to its own replay.
    let (code, out, _) = run(&["diff", "fixtures/games/classic-moves.t48"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("identical:"), "{out}");
}

#[test]
fn diff_refuses_an_unreadable_elf_and_game_zero() {
    let game = "fixtures/games/classic-moves.t48";
    let (code, out, err) = run(&["diff", "--elf", "/nonexistent.elf", game]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("/nonexistent.elf"), "{err}");
    let (code, out, err) = run(&["diff", "--game", "0", game]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("--game"), "{err}");
    let (code, _, err) = run(&["diff", "--game", "1", game]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_journal_error_names_its_cause_once() {
    let dir = scratch("journal-cause");
    let journal = dir.join("x.t48.journal");
    std::fs::write(&journal, b"T48J\x01\x05\x00\x00\x00hello").unwrap();
    let (code, _, err) = run(&["recover", journal.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is damaged"), "{err}");
    assert_eq!(err.matches("not the magic").count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_250_character_output_name_is_written() {
    let dir = scratch("long-name");
    let name = format!("{}.t48", "a".repeat(246));
    let path = dir.join(&name);
    let (code, out, err) = run(&[
        "record",
        "--seed",
        "3",
        "--bot",
        "greedy",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, _, err) = run(&["verify", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no temp file left"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
