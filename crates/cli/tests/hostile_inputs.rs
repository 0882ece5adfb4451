//! The binary under hostile input (issue 10, items 6-9 and 12): inputs that never end, very
//! long games, FIFOs, directory loops, paths named twice, missing and unreadable paths.
//! Memory is bounded by `ulimit -v` on the child, never by timing it; every child that could
//! hang is waited for with a deadline and killed if it passes it.

#[cfg(unix)]
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

mod support;
use support::Start as _;

const BIN: &str = env!("CARGO_BIN_EXE_twenty48");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The exit status, stdout and stderr of `child`, or a failed test if it has not ended
/// within five minutes (it is killed first, so no process is left behind).
fn finish(child: Child, what: &str) -> (i32, String, String) {
    let out = support::finish_as(child, what);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .start()
        .unwrap()
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    finish(spawn(dir, args), &args.join(" "))
}

/// Runs the binary with its address space limited to `kib` KiB (`ulimit -v`): a command that
/// reads or builds without bound fails with an allocation error instead of its answer.
#[cfg(unix)]
fn run_limited(dir: &Path, kib: u64, args: &str) -> (i32, String, String) {
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib}; exec \"$0\" {args}"))
        .arg(BIN)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .start()
        .unwrap();
    finish(child, args)
}

fn record(dir: &Path, name: &str, moves: &str) {
    let (code, _, err) = run(
        dir,
        &["record", "--seed", "42", "--moves", moves, "-o", name],
    );
    assert_eq!(code, 0, "{err}");
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

// Item 6: inputs are never read whole without a limit.

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn issue10_inspect_of_an_endless_device_stops_at_its_first_bytes() {
    let dir = scratch("inspect-zero");
    let (code, _, err) = run_limited(&dir, 200_000, "inspect /dev/zero");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a twenty48 move log"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn issue10_verify_and_replay_of_an_endless_device_stop_at_its_first_bytes() {
    let dir = scratch("verify-zero");
    let (code, out, err) = run_limited(&dir, 200_000, "verify /dev/zero");
    assert_eq!(code, 2, "{err}");
    assert!(out.contains("not a twenty48 move log"), "{out}{err}");
    let (code, _, err) = run_limited(&dir, 200_000, "replay /dev/zero");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a twenty48 move log"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn diff_without_elf_stops_at_the_first_bytes_of_a_side_that_is_not_a_log() {
    // Without --elf neither side can be a capture: a side that does not start with the
    // magic is not a move log, said after its first bytes, not after 64 MiB of it.
    let dir = scratch("diff-zero");
    record(&dir, "g.t48", "LURDLLUR");
    for args in [
        "diff g.t48 /dev/zero",
        "diff /dev/zero",
        "diff /dev/urandom g.t48",
    ] {
        let (code, _, err) = run_limited(&dir, 40_000, args);
        assert_eq!(code, 2, "{args}: {err}");
        assert!(err.contains("not a twenty48 move log"), "{args}: {err}");
        assert!(err.contains("at byte 0"), "{args}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn jobs_outside_1_to_256_is_a_usage_error_not_a_silent_one_or_a_panic() {
    // --jobs 0 used to run one worker without a word; --jobs 99999 spawned a thread per
    // file, and a panic when the system refused one (here: 500 files under `ulimit -v`).
    let dir = scratch("jobs");
    record(&dir, "g.t48", "LURD");
    for i in 0..500 {
        std::fs::copy(dir.join("g.t48"), dir.join(format!("g{i}.t48"))).unwrap();
    }
    for cmd in ["verify", "stats"] {
        for jobs in ["0", "99999"] {
            let args = format!("{cmd} --jobs {jobs} .");
            let (code, out, err) = run_limited(&dir, 300_000, &args);
            assert_eq!(code, 2, "{args}: {out}{err}");
            assert!(!err.contains("panicked"), "{args}: {err}");
            assert!(err.contains("--jobs"), "{args}: {err}");
            assert!(err.contains("1..=256"), "{args}: {err}");
        }
        let (code, _, err) = run(&dir, &[cmd, "-j", "256", "."]);
        assert_eq!(code, 0, "{cmd} -j 256: {err}");
        // Where the system cannot start that many threads, the workers that did start do
        // all the files (this panicked, then aborted, before).
        let args = format!("{cmd} -j 256 .");
        let (code, out, err) = run_limited(&dir, 300_000, &args);
        assert_eq!(code, 0, "{args} under ulimit -v: {out}{err}");
        assert!(!err.contains("panicked"), "{args}: {err}");
        if cmd == "verify" {
            assert!(out.contains("501 files: 501 verified"), "{out}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn issue10_a_moves_file_is_read_up_to_its_stated_cap() {
    let dir = scratch("moves-zero");
    let (code, _, err) = run_limited(
        &dir,
        400_000,
        "record --seed 1 --moves-file /dev/zero -o never.t48",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("larger than 64 MiB"), "{err}");
    assert!(!dir.join("never.t48").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn record_json_lists_two_million_skipped_presses_in_bounded_memory() {
    // Every press after the first hits a wall: the JSON lists them all, as the schema says,
    // without holding them as numbers or as a JSON value (that took 5.6 GB for 64 MiB).
    let dir = scratch("skipped");
    let presses = 2 * 1024 * 1024;
    std::fs::write(dir.join("moves.txt"), "U".repeat(presses)).unwrap();
    let (code, out, err) = run_limited(
        &dir,
        60_000,
        "record --seed 1 --moves-file moves.txt -o g.t48 --json",
    );
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let skipped = doc["skipped_presses"].as_array().unwrap();
    assert_eq!(doc["moves"], 1, "{err}");
    assert_eq!(skipped.len(), presses - 1);
    assert_eq!(skipped[0], 2);
    assert_eq!(skipped[presses - 2], presses);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue10_a_log_is_read_only_as_far_as_its_header_says() {
    let dir = scratch("trailing");
    record(&dir, "g.t48", "LURDLLUR");
    let mut bytes = std::fs::read(dir.join("g.t48")).unwrap();
    let end = bytes.len();
    // A valid log followed by more bytes than are read to count them.
    bytes.resize(end + 3 * 1024 * 1024, 0);
    std::fs::write(dir.join("long.t48"), &bytes).unwrap();
    for cmd in ["inspect", "replay", "verify"] {
        let (code, out, err) = run(&dir, &[cmd, "long.t48"]);
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        assert!(
            format!("{out}{err}").contains(&format!(
                "more than 1048576 unexpected trailing bytes after the end of the move log at byte {end}"
            )),
            "{cmd}: {out}{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// Item 7: memory bounded whatever the number of moves.

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn diff_of_a_log_of_128_million_moves_unpacks_only_those_that_play() {
    // A real game of 8 moves, then 128 million more that the game refuses at once: a 32 MiB
    // file. diff unpacked all of them, twice (a byte a move): 256 MB.
    let dir = scratch("diff-long");
    record(&dir, "g.t48", "LURDLLUR");
    let mut log =
        twenty48_movelog::MoveLog::decode(&std::fs::read(dir.join("g.t48")).unwrap()).unwrap();
    log.moves
        .resize(128 << 20, twenty48_engine::Direction::Left);
    log.claims.move_count = log.moves.len() as u32;
    log.checkpoint_interval = 0;
    log.checkpoints.clear();
    std::fs::write(dir.join("long.t48"), log.encode()).unwrap();
    drop(log);
    for args in [
        "diff long.t48",
        "diff long.t48 g.t48",
        "diff long.t48 --rules arduino",
    ] {
        let (code, out, err) = run_limited(&dir, 150_000, args);
        assert_eq!(code, 1, "{args}: {out}{err}");
        assert!(!err.contains("memory"), "{args}: {err}");
    }
    let (_, out, _) = run_limited(&dir, 150_000, "diff long.t48");
    assert!(
        out.contains("long.t48 does not verify")
            && out.contains("move 10 (left) does not change the board"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn pull_of_a_capture_with_a_million_damaged_stretches_keeps_a_thousand() {
    // A good capture, then a million 3-byte stretches of noise: every one was kept (twice)
    // and listed, 300 MB for a 4 MB capture. The first thousand are listed, all are counted.
    let dir = scratch("pull-noise");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../devicelog/tests/data/v2");
    let mut capture = std::fs::read(data.join("session.bin")).unwrap();
    capture.extend(b"\x01\x02\x03\x00".repeat(1_000_000));
    std::fs::write(dir.join("noisy.bin"), capture).unwrap();
    let elf = data.join("twenty48-qemu.elf");
    for json in ["", " --json"] {
        let args = format!(
            "pull --elf '{}' --capture noisy.bin -o games{json}",
            elf.display()
        );
        let (code, out, err) = run_limited(&dir, 100_000, &args);
        assert_eq!(code, 1, "{args}: {}", &err[err.len().saturating_sub(500)..]);
        if json.is_empty() {
            let damage = err.lines().filter(|l| l.starts_with("DAMAGE: ")).count();
            assert_eq!(damage, 1001, "a thousand, then how many more");
            assert!(
                err.contains("DAMAGE: 999000 more damaged stretches"),
                "{}",
                &err[err.len().saturating_sub(500)..]
            );
            assert!(err.contains("1000000 damaged stretches in the capture"));
        } else {
            let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(doc["damage"].as_array().unwrap().len(), 1000);
            let notes = doc["notes"].to_string();
            assert!(notes.contains("999000 more damaged stretches"), "{notes}");
        }
        std::fs::remove_dir_all(dir.join("games")).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn issue10_replay_json_of_a_long_game_streams_in_bounded_memory() {
    let dir = scratch("long-json");
    // 60,000 moves: gathering every state before printing takes about 0.8 GB (13 KB a
    // move); streaming takes a few MB.
    let (code, _, err) = run(
        &dir,
        &[
            "record",
            "--seed",
            "1",
            "--bot",
            "greedy",
            "--size",
            "8",
            "--max-moves",
            "60000",
            "-o",
            "long.t48",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run_limited(&dir, 200_000, "replay long.t48 --json");
    assert_eq!(code, 0, "{err}");
    // JSON Lines: the head, 60,001 states (the opening and every move), the verdict.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + 60_001 + 1);
    let last: serde_json::Value = serde_json::from_str(lines[60_001]).unwrap();
    assert_eq!(last["move"], 60_000);
    let verdict: serde_json::Value = serde_json::from_str(lines[60_002]).unwrap();
    assert_eq!(verdict["verdict"]["ok"], true);
    let (code, out, err) = run_limited(&dir, 200_000, "replay long.t48");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final: move 60000,"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// Item 8: FIFOs neither hang a directory walk nor are opened twice.

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn issue10_a_fifo_in_a_verified_directory_is_skipped_with_a_note() {
    let dir = scratch("fifo-dir");
    std::fs::create_dir(dir.join("games")).unwrap();
    record(&dir.join("games"), "a.t48", "LURDLLUR");
    mkfifo(&dir.join("games/pipe.t48"));
    let (code, out, err) = run(&dir, &["verify", "games"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 file: 1 verified"), "{out}");
    assert!(
        err.contains("skipped games/pipe.t48: not a regular file"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn issue10_inspect_reads_its_input_from_one_handle() {
    let dir = scratch("fifo-inspect");
    record(&dir, "g.t48", "LURDLLUR");
    let bytes = std::fs::read(dir.join("g.t48")).unwrap();
    let fifo = dir.join("g-pipe.t48");
    mkfifo(&fifo);
    // A FIFO can be read once: a second open waits for a writer that never comes.
    let child = spawn(&dir, &["inspect", "g-pipe.t48", "--json"]);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&fifo)
        .unwrap()
        .write_all(&bytes)
        .unwrap();
    let (code, out, err) = finish(child, "inspect of a FIFO");
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["bytes"], bytes.len());
    assert_eq!(doc["moves"], 8);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)] // ulimit, FIFOs and /dev/zero
#[test]
fn issue10_diff_reads_each_input_from_one_handle() {
    let dir = scratch("fifo-diff");
    record(&dir, "g.t48", "LURDLLUR");
    let bytes = std::fs::read(dir.join("g.t48")).unwrap();
    let fifo = dir.join("g-pipe.t48");
    mkfifo(&fifo);
    // Both sides: the FIFO against its own replay, then against the file it was copied from.
    for args in [
        &["diff", "g-pipe.t48", "--json"][..],
        &["diff", "g-pipe.t48", "g.t48", "--json"],
    ] {
        let child = spawn(&dir, args);
        std::fs::OpenOptions::new()
            .write(true)
            .open(&fifo)
            .unwrap()
            .write_all(&bytes)
            .unwrap();
        let (code, out, err) = finish(child, "diff of a FIFO");
        assert_eq!(code, 0, "{args:?}: {err}");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["identical"], true, "{args:?}: {out}");
        assert_eq!(doc["moves"], 8, "{args:?}: {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file name is shown in text as it is, except what a terminal or a reader of the report
/// would take for something else: control characters (a newline that forges a line of the
/// report, an escape sequence that colours the terminal) and bytes that are not UTF-8 are
/// escaped (`\n`, `\u{1b}`, `\xff`).
#[cfg(unix)]
#[test]
fn names_with_control_characters_or_bytes_not_utf8_are_escaped_in_text() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("names");
    std::fs::create_dir_all(dir.join("games")).unwrap();
    record(&dir.join("games"), "good.t48", "LURD");
    let cut = &std::fs::read(dir.join("games/good.t48")).unwrap()[..10];
    let names: [&[u8]; 3] = [
        b"x.t48: fine\nok      forged.t48",
        b"red\x1b[31m.t48",
        b"bad\xff.t48",
    ];
    for name in names {
        let path = dir.join("games").join(std::ffi::OsStr::from_bytes(name));
        std::fs::write(path, cut).unwrap();
    }
    let (code, out, _) = run(&dir, &["verify", "games"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        out.lines().count(),
        5,
        "a line a file, then the summary: {out}"
    );
    assert!(!out.contains('\x1b'), "{out}");
    for shown in [
        "games/x.t48: fine\\nok      forged.t48: the file is truncated",
        "games/red\\u{1b}[31m.t48: the file is truncated",
        "games/bad\\xff.t48: the file is truncated",
    ] {
        assert!(out.contains(shown), "{shown}: {out}");
    }
    for args in [
        &["inspect", "games/red\x1b[31m.t48"][..],
        &["replay", "games/red\x1b[31m.t48"],
        &["diff", "games/red\x1b[31m.t48"],
        &["verify", "games/red\x1b[31m.t48"],
    ] {
        let (code, out, err) = run(&dir, args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            !out.contains('\x1b') && !err.contains('\x1b'),
            "{args:?}: {out}{err}"
        );
        assert!(
            format!("{out}{err}").contains("games/red\\u{1b}[31m.t48"),
            "{args:?}: {out}{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// Item 9: no directory loops, no file verified twice.

#[cfg(unix)]
#[test]
fn issue10_verify_walks_a_directory_symlink_loop_once() {
    let dir = scratch("loop");
    std::fs::create_dir_all(dir.join("games/sub")).unwrap();
    record(&dir.join("games"), "a.t48", "LURDLLUR");
    std::os::unix::fs::symlink("..", dir.join("games/sub/up")).unwrap();
    let (code, out, err) = run(&dir, &["verify", "games"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 file: 1 verified"), "{out}");
    assert!(
        err.contains("skipped games/sub/up: a directory already walked"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue10_a_file_named_twice_is_verified_once() {
    let dir = scratch("twice");
    record(&dir, "a.t48", "LURDLLUR");
    std::fs::hard_link(dir.join("a.t48"), dir.join("b.t48")).unwrap();
    let (code, out, err) = run(&dir, &["verify", "a.t48", "a.t48", ".", "b.t48"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 file: 1 verified"), "{out}");
    assert!(err.contains("the same file as one already listed"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// Item 12: one unreadable path does not stop the others.

#[test]
fn issue10_a_missing_path_is_reported_and_the_others_verified() {
    let dir = scratch("missing");
    record(&dir, "a.t48", "LURDLLUR");
    record(&dir, "b.t48", "LURD");
    let (code, out, err) = run(&dir, &["verify", "a.t48", "nosuch.t48", "b.t48"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("ok      a.t48"), "{out}");
    assert!(out.contains("ok      b.t48"), "{out}");
    // The system's words for a missing file differ; its error number does not.
    assert!(
        out.contains("ERROR   nosuch.t48: cannot read: ") && out.contains("(os error 2)"),
        "{out}"
    );
    assert!(
        out.contains("3 files: 2 verified, 0 failed, 1 unreadable"),
        "{out}"
    );
    let (code, out, _) = run(&dir, &["verify", "--json", "a.t48", "nosuch.t48"]);
    assert_eq!(code, 2);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["summary"]["unreadable"], 1);
    assert_eq!(doc["summary"]["verified"], 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn issue10_an_unreadable_subdirectory_is_named_and_the_rest_verified() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("unreadable-dir");
    std::fs::create_dir_all(dir.join("games/locked")).unwrap();
    record(&dir.join("games"), "a.t48", "LURDLLUR");
    let locked = dir.join("games/locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root lists any directory: as root, the binary runs as nobody (setpriv), who cannot.
    let as_root = std::fs::read_dir(&locked).is_ok();
    let child = if as_root {
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN])
            .args(["verify", "games"])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .start()
            .ok()
    } else {
        Some(spawn(&dir, &["verify", "games"]))
    };
    let result = child.map(|c| finish(c, "verify of an unreadable directory"));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    match result {
        None => eprintln!("skipped: root without setpriv cannot test a directory it cannot list"),
        Some((code, out, err)) => {
            assert_eq!(code, 2, "{out}{err}");
            assert!(out.contains("ok      games/a.t48"), "{out}{err}");
            assert!(
                out.contains("ERROR   games/locked: cannot read: cannot list the directory"),
                "{out}{err}"
            );
            assert!(
                out.contains("2 files: 1 verified, 0 failed, 1 unreadable"),
                "{out}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
