//! The AVR firmware end to end (runs on the host): builds the Arduino Mega 2560 firmware
//! (crates/firmware-avr, its own pinned nightly), plays scripted sessions under
//! `qemu-system-avr -M mega2560`, decodes the capture with the AVR ELF and replays every game
//! on the host engine. QEMU's AVR machines cannot exit by themselves: the firmware logs
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

/// Builds the Mega firmware with the AVR workspace's own toolchain (rust-toolchain.toml):
/// the environment cargo gave this test (its rustc, its toolchain) is removed.
fn mega_elf() -> &'static (PathBuf, Vec<u8>) {
    static ELF: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    ELF.get_or_init(|| {
        let dir = avr_dir();
        let status = Command::new("cargo")
            .arg("mega")
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
            "the Mega firmware did not build: it needs the nightly of \
             crates/firmware-avr/rust-toolchain.toml with rust-src and gcc-avr, avr-libc"
        );
        let path = dir.join("target/avr-atmega2560/release/twenty48-mega2560.elf");
        let bytes = std::fs::read(&path).expect("the ELF was built");
        (path, bytes)
    })
}

/// Plays `script` under QEMU's Mega 2560; returns the capture up to the end marker.
fn run_mega(script: &str) -> Vec<u8> {
    let (path, elf) = mega_elf();
    let mut child = Command::new("qemu-system-avr")
        .args([
            "-M", "mega2560", "-display", "none", "-monitor", "none", "-serial", "stdio", "-bios",
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

fn decode(capture: &[u8]) -> Capture {
    decode_capture(&mega_elf().1, capture).expect("the ELF has a defmt table")
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

#[test]
#[ignore = "AVR games do not verify yet (u64 values wrong on the device); `just firmware-avr-test` runs it"]
fn mega_games_equal_the_host_replays() {
    let capture = run_mega(SESSION);
    let decoded = decode(&capture);
    assert!(
        decoded.messages.iter().any(|m| m.text == "t48 avr end"),
        "the session did not reach its end marker within {SESSION_LIMIT:?}"
    );
    assert!(decoded.damage.is_empty(), "{:?}", decoded.damage);
    let games = &decoded.games;
    // Three live games, and the same three again from the store's pull reply.
    assert_eq!(games.len(), 6, "games: {}", games.len());
    for game in games {
        let result = check(game);
        assert!(result.is_verified(), "game {}: {:?}", game.number, result);
    }
    println!(
        "mega2560 under QEMU: {} games, every one equal to the host's replay",
        games.len()
    );
}

#[test]
#[ignore = "AVR games do not verify yet (u64 values wrong on the device); `just firmware-avr-test` runs it"]
fn mega_damaged_captures_are_reported_never_wrong() {
    let capture = run_mega(SESSION);
    // Garbage before the first frame.
    let mut noisy = b"\x13\x37garbage".to_vec();
    noisy.extend_from_slice(&capture);
    let decoded = decode(&noisy);
    assert!(decoded.games.iter().all(|g| check(g).is_verified()));
    // The capture cut in the middle: the last game is unfinished, never wrong.
    let cut = decode(&capture[..capture.len() / 2]);
    assert!(cut
        .damage
        .iter()
        .all(|d| matches!(d.kind, DamageKind::Unterminated | DamageKind::Malformed)));
    // Bytes dropped in the middle: frames lost, reported, never a wrong game.
    let mut dropped = capture.clone();
    dropped.drain(capture.len() / 3..capture.len() / 3 + 5);
    let decoded = decode(&dropped);
    assert!(!decoded.damage.is_empty());
    for game in &decoded.games {
        let result = check(game);
        assert!(
            result.is_verified() || result.problem.is_some(),
            "game {}",
            game.number
        );
    }
}
