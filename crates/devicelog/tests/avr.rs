//! The AVR firmware end to end (runs on the host): builds the Arduino Mega firmware
//! (crates/firmware-avr, its own pinned nightly), plays scripted sessions under
//! `qemu-system-avr -M mega` (ATmega1280) and `-M mega2560`, decodes each capture with its ELF
//! and replays every game on the host engine. The Mega 2560's test is ignored while LLVM
//! reads stack arguments one byte off on 3-byte-PC chips (docs/firmware.md). QEMU's AVR machines cannot exit by themselves: the firmware logs
//! `t48 avr end` when the script ends and the test stops QEMU there (or at a time limit).
//! QEMU has no EEPROM: the firmware keeps its store in RAM there, so nothing persists
//! across runs (the store's power-cut promises are devicestore's host tests).
//!
//! Fails, never skips, when qemu-system-avr, avr-gcc or the pinned nightly is missing.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use twenty48_devicelog::{check, decode_capture, Capture, DamageKind};

/// How long one QEMU session may take before the test gives up on it.
const SESSION_LIMIT: Duration = Duration::from_secs(30);

fn avr_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware-avr")
}

/// An AVR board under test: the cargo alias that builds it, its ELF, its QEMU machine.
struct Avr {
    alias: &'static str,
    elf: &'static str,
    machine: &'static str,
}

/// The original Arduino Mega (ATmega1280, 2-byte program counter).
const MEGA1280: Avr = Avr {
    alias: "mega1280",
    elf: "target/avr-atmega1280/release/twenty48-mega1280.elf",
    machine: "mega",
};

/// The Arduino Mega 2560 (ATmega2560, 3-byte program counter).
const MEGA2560: Avr = Avr {
    alias: "mega",
    elf: "target/avr-atmega2560/release/twenty48-mega2560.elf",
    machine: "mega2560",
};

/// Builds the board's firmware with the AVR workspace's own toolchain (rust-toolchain.toml):
/// the environment cargo gave this test (its rustc, its toolchain) is removed.
fn build(avr: &Avr) -> (PathBuf, Vec<u8>) {
    let dir = avr_dir();
    let status = Command::new("cargo")
        .arg(avr.alias)
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .env_remove("CARGO")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .expect("cargo (rustup's) runs");
    assert!(
        status.success(),
        "`cargo {}` did not build: it needs the nightly of \
         crates/firmware-avr/rust-toolchain.toml with rust-src and gcc-avr, avr-libc",
        avr.alias
    );
    let path = dir.join(avr.elf);
    let bytes = std::fs::read(&path).expect("the ELF was built");
    (path, bytes)
}

/// The board's ELF, built once per test binary (both tests of a board share it).
fn elf(avr: &Avr) -> &'static (PathBuf, Vec<u8>) {
    static M1280: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    static M2560: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    let cell = if avr.machine == "mega" {
        &M1280
    } else {
        &M2560
    };
    cell.get_or_init(|| build(avr))
}

/// Plays `script` under QEMU; returns the capture up to the end marker.
fn run(avr: &Avr, script: &str) -> Vec<u8> {
    let (path, elf) = elf(avr);
    let mut child = Command::new("qemu-system-avr")
        .args([
            "-M",
            avr.machine,
            "-display",
            "none",
            "-monitor",
            "none",
            "-serial",
            "stdio",
            "-bios",
        ])
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("qemu-system-avr runs (Debian: apt-get install qemu-system-misc)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("the script is written");
    let mut out = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let started = Instant::now();
    let mut capture = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(bytes) => capture.extend_from_slice(&bytes),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let ended = decode_capture(elf, &capture)
            .map(|c| c.messages.iter().any(|m| m.text == "t48 avr end"))
            .unwrap_or(false);
        if ended || started.elapsed() > SESSION_LIMIT {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    capture
}

fn decode(avr: &Avr, capture: &[u8]) -> Capture {
    decode_capture(&elf(avr).1, capture).expect("the ELF has a defmt table")
}

/// A session: quick wins, a game to game over, abandoned games, a pull of the store.
const SESSION: &str = "\
{hello}
{new seed=5 win=5}
LURDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURD
{new seed=42 rules=classic}
LLUURRDDLLUURRDD
{end}
{new seed=7 rules=console win=6}
LDRULDRULDRULDRULDRULDRULDRULDRULDRULDRULDRULDRULDRULDRULDRU
{end}
{pull all}
q
";

/// Plays the session; checks every game against the host's replay; returns the count.
fn games_equal_the_host_replays(avr: &Avr) -> usize {
    let capture = run(avr, SESSION);
    let decoded = decode(avr, &capture);
    assert!(
        decoded.messages.iter().any(|m| m.text == "t48 avr end"),
        "the session did not reach its end marker within {SESSION_LIMIT:?}"
    );
    assert!(decoded.damage.is_empty(), "{:?}", decoded.damage);
    let games = &decoded.games;
    // Every game live, then again from the store's pull reply (the first and the fourth
    // are won within their presses and a start-screen game follows each).
    assert_eq!(games.len(), 10, "games: {}", games.len());
    for game in games {
        let result = check(game);
        assert!(
            result.is_verified(),
            "game {}: {:?}",
            game.number,
            result.problem
        );
    }
    games.len()
}

/// Damaged copies of a session's capture: reported, never a wrong game.
fn damaged_captures(avr: &Avr) {
    let capture = run(avr, SESSION);
    // Garbage before the first frame.
    let mut noisy = b"\x13\x37garbage".to_vec();
    noisy.extend_from_slice(&capture);
    let decoded = decode(avr, &noisy);
    assert_eq!(decoded.games.len(), 10);
    assert!(decoded.games.iter().all(|g| check(g).is_verified()));
    // The capture cut in the middle: the game there is unfinished, never wrong.
    let cut = decode(avr, &capture[..capture.len() / 2]);
    assert!(cut
        .damage
        .iter()
        .all(|d| matches!(d.kind, DamageKind::Unterminated | DamageKind::Malformed)));
    assert!(cut.games.iter().any(|g| !check(g).is_verified()));
    // Bytes dropped in the middle: a damaged stretch, and the game it fell in fails.
    let mut dropped = capture.clone();
    dropped.drain(capture.len() / 3..capture.len() / 3 + 5);
    let decoded = decode(avr, &dropped);
    assert!(!decoded.damage.is_empty());
    assert!(decoded.games.iter().any(|g| !check(g).is_verified()));
}

#[test]
fn mega1280_games_equal_the_host_replays() {
    let n = games_equal_the_host_replays(&MEGA1280);
    println!("mega (ATmega1280) under QEMU: {n} games, every one equal to the host's replay");
}

#[test]
fn mega1280_damaged_captures_are_reported_never_wrong() {
    damaged_captures(&MEGA1280);
}

#[test]
#[ignore = "LLVM reads stack arguments one byte off on the ATmega2560 (3-byte PC); `just firmware-avr-test` runs it"]
fn mega2560_games_equal_the_host_replays() {
    let n = games_equal_the_host_replays(&MEGA2560);
    println!("mega2560 under QEMU: {n} games, every one equal to the host's replay");
}
