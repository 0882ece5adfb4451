//! `twenty48 pull` and `twenty48 diff --elf` through the real binary, on a capture the
//! firmware makes under QEMU. Needs `qemu-system-arm` and the thumbv6m target: fails, never
//! skips, without them.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn firmware_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-device-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds the firmware once and returns the QEMU board's ELF path.
fn elf() -> &'static Path {
    static ELF: OnceLock<PathBuf> = OnceLock::new();
    ELF.get_or_init(|| {
        let dir = firmware_dir();
        let target = dir.join("target");
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "-p", "twenty48-firmware-qemu"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_BUILD_TARGET")
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the firmware failed");
        target.join("thumbv6m-none-eabi/release/twenty48-qemu")
    })
}

/// Plays `script` on the firmware under QEMU; returns the capture file.
fn capture(script: &str, dir: &Path) -> PathBuf {
    let input = dir.join("script.txt");
    std::fs::write(&input, script).unwrap();
    let out = dir.join("capture.bin");
    let mut child = Command::new("qemu-system-arm")
        .args(["-M", "lm3s6965evb", "-display", "none", "-monitor", "none"])
        .args(["-semihosting-config", "enable=on,target=native", "-serial", "stdio"])
        .arg("-kernel")
        .arg(elf())
        .stdin(File::open(&input).unwrap())
        .stdout(File::create(&out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("qemu-system-arm could not be started ({e}); install it (Debian: apt-get install qemu-system-arm)")
        });
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "QEMU exited with {status}");
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("QEMU did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    out
}

fn twenty48(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_twenty48"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `twenty48 pull --elf ELF --capture CAPTURE -o OUT` and `extra` flags.
fn pull(elf: &Path, capture: &Path, out: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "pull",
        "--elf",
        s(elf),
        "--capture",
        s(capture),
        "-o",
        s(out),
    ];
    args.extend_from_slice(extra);
    twenty48(&args)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const SCRIPT: &str = "{new seed=42 rules=arduino win=4}\nLDRULDRULDRULDRU\n{new seed=7 rules=classic}\nLLUURRDDLURDLURD\n{new seed=9 rules=console}\nUUUULLLLDDDDRRRR\n{end}\nq\n";

#[test]
fn pull_writes_one_verified_log_per_device_game() {
    let dir = scratch("pull");
    let cap = capture(SCRIPT, &dir);
    let games = dir.join("games");
    let (code, out, err) = pull(elf(), &cap, &games, &[]);
    assert_eq!(code, 0, "{out}{err}");
    let mut files: Vec<_> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "t48"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{out}: {files:?}");
    let (code, verdicts, _) = twenty48(&["verify", s(&games)]);
    assert_eq!(code, 0, "{verdicts}");
    assert!(!verdicts.contains("partial"), "{verdicts}");

    // The device and the host agree on every game of the capture; a pulled log against a
    // device game that is not its own differs.
    for n in 1..=3 {
        let (code, out, err) =
            twenty48(&["diff", s(&cap), "--elf", s(elf()), "--game", &n.to_string()]);
        assert_eq!(code, 0, "game {n}: {out}{err}");
        assert!(out.starts_with("identical"), "{out}");
    }
    let (code, out, _) = twenty48(&[
        "diff",
        s(&cap),
        s(&files[0]),
        "--elf",
        s(elf()),
        "--game",
        "2",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("part at move"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pull_reports_a_damaged_game_and_writes_no_wrong_log() {
    let dir = scratch("damaged");
    let cap = capture(SCRIPT, &dir);
    // Drop 40 bytes from the middle of the capture.
    let mut bytes = std::fs::read(&cap).unwrap();
    let mid = bytes.len() / 2;
    bytes.drain(mid..mid + 40);
    let damaged = dir.join("damaged.bin");
    std::fs::write(&damaged, &bytes).unwrap();

    let games = dir.join("games");
    let (code, out, err) = pull(elf(), &damaged, &games, &[]);
    assert_eq!(code, 1, "a damaged game fails the pull: {out}{err}");
    let report = format!("{out}{err}");
    assert!(
        report
            .lines()
            .any(|l| l.starts_with("game ") && l.contains(", move ") && l.contains("sequence gap")),
        "names the game and the move: {report}"
    );
    // Whatever was written verifies: no wrong log.
    if games.exists() && std::fs::read_dir(&games).unwrap().next().is_some() {
        let (code, verdicts, _) = twenty48(&["verify", s(&games)]);
        assert_eq!(code, 0, "{verdicts}");
        assert!(
            !verdicts.contains("partial"),
            "no partial log without --keep-partial"
        );
    }

    let kept = dir.join("kept");
    let (code, out, _) = pull(elf(), &damaged, &kept, &["--keep-partial"]);
    assert_eq!(code, 1, "{out}");
    let (code, verdicts, _) = twenty48(&["verify", s(&kept)]);
    assert_eq!(code, 0, "partial logs verify as far as they go: {verdicts}");
    assert!(verdicts.contains("partial"), "{verdicts}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pull_refuses_a_file_that_is_not_a_firmware_elf() {
    let dir = scratch("badelf");
    let fake = dir.join("fake.elf");
    std::fs::write(&fake, b"not an elf").unwrap();
    let (code, _, err) = pull(&fake, &fake, &dir, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("fake.elf"), "names the file: {err}");
    assert!(!err.contains("panicked"));
    std::fs::remove_dir_all(&dir).unwrap();
}
