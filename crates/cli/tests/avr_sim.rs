//! The AVR boards' shipped images in simavr (crates/sim-avr), pulled by the real `twenty48
//! pull`: the live log of a first boot from a capture file, then the store after a power cut
//! through a pseudo-terminal wired to the board's USART0 (the conversation, the files, the
//! acknowledgements). Every file equal to the host's replay of the game played by the
//! buttons. Needs the harness (`just avr-sim`) and the AVR toolchain; fails, never skips.
#![cfg(unix)] // pseudo-terminals and the emulators: Unix only

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use twenty48_engine::Direction;
use twenty48_movelog::MoveLog;
use twenty48_sim_avr::session::plan::Plan;
use twenty48_sim_avr::session::player::{Played, Player};
use twenty48_sim_avr::{board, Board, Image, Options, Pty};

/// How long a `twenty48 pull` may take before the test stops it.
const PULL_LIMIT: Duration = Duration::from_secs(120);

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-avrsim-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A `twenty48` child, killed if the test ends first.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `twenty48 ARGS` with its output read on threads (so it never blocks on a pipe).
fn start(args: &[&str]) -> (Reaped, impl FnOnce() -> (String, String)) {
    start_with(args, &[])
}

/// [`start`] with the environment variables `env` set.
fn start_with(args: &[&str], env: &[(&str, &Path)]) -> (Reaped, impl FnOnce() -> (String, String)) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twenty48"));
    for (key, value) in env {
        cmd.env(key, value);
    }
    let mut child = cmd
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("twenty48 starts");
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    (Reaped(child), move || {
        (out.join().unwrap(), err.join().unwrap())
    })
}

/// The `.t48` files in `dir`, sorted.
fn t48_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".t48"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The file holds the game played: its rules, seed and moves, complete or not.
fn holds(path: &Path, played: &Played, complete: bool) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let log = MoveLog::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        (log.rules, log.seed),
        (played.rules, played.seed),
        "{}",
        path.display()
    );
    assert_eq!(log.moves, played.moves, "{}", path.display());
    assert_eq!(log.complete, complete, "{}", path.display());
}

/// CPU cycles (16 MHz) in which two bytes arrive at 115,200 baud, 8N1.
const TWO_BYTES_CYCLES: u64 = 16_000_000 * 2 * 10 / 115_200;

/// No hardware rule broken, no byte from the host left waiting for room (a real serial
/// link, with no flow control, loses it), the stack off the static data.
fn kept_the_rules(player: &mut Player) {
    let name = player.sim.image().board.name;
    assert!(
        player.sim.violations.is_empty(),
        "{name}: {:?}",
        player.sim.violations
    );
    let stats = player.sim.stats().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        stats.held_bytes, 0,
        "{name}: the USART's receive buffer overflowed (bytes a real link would lose)"
    );
    // The receive interrupt must run before a third byte arrives: the USART holds two.
    assert!(
        stats.interrupts_off_cycles < TWO_BYTES_CYCLES,
        "{name}: interrupts off for {} cycles with the receiver on (two bytes arrive in {})",
        stats.interrupts_off_cycles,
        TWO_BYTES_CYCLES
    );
    println!(
        "{name}: interrupts off at most {} cycles at a time with the receiver on",
        stats.interrupts_off_cycles
    );
    player.stack_kept();
}

/// `twenty48 pull --port` against the board, served until it exits.
fn pull_by_port(player: &mut Player, elf: &Path, out: &Path) -> (i32, String, String) {
    let pty = Pty::open().unwrap_or_else(|e| panic!("{e}"));
    let port = pty.path().to_string_lossy().into_owned();
    let run = start(&[
        "pull",
        "--elf",
        &elf.to_string_lossy(),
        "--port",
        &port,
        "-o",
        &out.to_string_lossy(),
    ]);
    served(player, pty, run)
}

/// `twenty48 pull -o OUT`, nothing else, against the board: its port listed as `id`
/// (`TWENTY48_PORTS`), the firmware found in `elfs` (`TWENTY48_ELF_DIR`).
fn pull_by_itself(player: &mut Player, id: &str, elfs: &Path, out: &Path) -> (i32, String, String) {
    let pty = Pty::open().unwrap_or_else(|e| panic!("{e}"));
    let (vid, pid) = id.split_once(':').unwrap();
    let list = serde_json::json!([
        {"path": pty.path().to_string_lossy(), "usb": {"vid": vid, "pid": pid}},
        {"path": "/dev/ttyS0", "usb": null},
    ]);
    let ports = out.with_extension("ports.json");
    std::fs::write(&ports, list.to_string()).unwrap();
    let run = start_with(
        &["pull", "-o", &out.to_string_lossy()],
        &[("TWENTY48_PORTS", &ports), ("TWENTY48_ELF_DIR", elfs)],
    );
    served(player, pty, run)
}

/// Serves the board on `pty` until the `twenty48` run ends.
fn served(
    player: &mut Player,
    mut pty: Pty,
    (mut child, output): (Reaped, impl FnOnce() -> (String, String)),
) -> (i32, String, String) {
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < PULL_LIMIT,
            "twenty48 pull took over {PULL_LIMIT:?}"
        );
        pty.serve(&mut player.sim, 5_000_000)
            .unwrap_or_else(|e| panic!("{e}"));
    };
    let (stdout, stderr) = output();
    (status.code().unwrap_or(-1), stdout, stderr)
}

fn pulled_live_and_from_the_store(board: &Board) {
    let image = Image::shipped(board).unwrap_or_else(|e| panic!("{e}"));
    let dir = scratch(board.name);
    let options = Options {
        noise: 0xC11 ^ board.eeprom as u64,
        bounce: 9,
        ..Options::default()
    };
    let mut first = Player::boot(&image, &options);
    let over = first
        .game(Direction::Right, Plan::ToGameOver { noop_every: 6 })
        .expect("a game starts");
    let cut = first
        .game(
            Direction::Up,
            Plan::Cycle {
                letters: "LDRU",
                moves: 4,
            },
        )
        .expect("a game starts");
    let (dev, _) = first.hello();
    // The live log, captured and pulled from the file.
    let capture = dir.join("live.bin");
    std::fs::write(&capture, &first.sim.uart).unwrap();
    let live = dir.join("live");
    let (mut child, output) = start(&[
        "pull",
        "--elf",
        &image.elf.to_string_lossy(),
        "--capture",
        &capture.to_string_lossy(),
        "-o",
        &live.to_string_lossy(),
        "--keep-partial",
    ]);
    let status = child.0.wait().unwrap();
    let (_, err) = output();
    let name = |n: u32, partial: &str| format!("{dev:016x}-g{n:06}{partial}.t48");
    // The game the power cut is unfinished in the capture: its verified moves kept (named
    // damaged: the capture alone cannot tell a cut game from a lost end frame), and
    // reported (exit 1).
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("game {}: truncated after move 4", cut.number)),
        "{err}"
    );
    assert_eq!(
        t48_files(&live),
        [name(over.number, ""), name(cut.number, ".damaged")],
        "{err}"
    );
    holds(&live.join(name(over.number, "")), &over, true);
    holds(&live.join(name(cut.number, ".damaged")), &cut, false);
    // The power goes off; on the next boot the real pull asks the board on its port.
    kept_the_rules(&mut first);
    let eeprom = first.off();
    let mut second = Player::boot(
        &image,
        &Options {
            eeprom: Some(eeprom),
            ..options
        },
    );
    let stored = dir.join("stored");
    let (code, _, err) = pull_by_port(&mut second, &image.elf, &stored);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        t48_files(&stored),
        [name(over.number, ""), name(cut.number, ".partial")],
        "{err}"
    );
    holds(&stored.join(name(over.number, "")), &over, true);
    holds(&stored.join(name(cut.number, ".partial")), &cut, false);
    // Acknowledged: the next pull gets nothing.
    let (code, _, err) = pull_by_port(&mut second, &image.elf, &stored);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("pull reply of 0 games"), "{err}");
    kept_the_rules(&mut second);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 44: `twenty48 pull -o DIR` alone against the Mega 2560's shipped image: its port
/// listed as an Arduino Mega 2560 (2341:0042), its ELF found among the three AVR boards'
/// (the Mega 1280's logs the same frames: the board's identity chooses); both said, and
/// the game it stored pulled.
#[test]
fn mega2560_pulled_without_port_or_elf() {
    let mut images = Vec::new();
    for board in [&board::MEGA2560, &board::MEGA1280, &board::UNO] {
        images.push(Image::shipped(board).unwrap_or_else(|e| panic!("{e}")));
    }
    let dir = scratch("by-itself");
    let elfs = dir.join("elfs");
    std::fs::create_dir_all(&elfs).unwrap();
    for image in &images {
        std::fs::copy(&image.elf, elfs.join(image.elf.file_name().unwrap())).unwrap();
    }
    let mut player = Player::boot(&images[0], &Options::default());
    let played = player
        .game(Direction::Right, Plan::ToGameOver { noop_every: 6 })
        .expect("a game starts");
    let (dev, _) = player.hello();
    let out = dir.join("games");
    let (code, _, err) = pull_by_itself(&mut player, "2341:0042", &elfs, &out);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("(Arduino Mega 2560, 2341:0042)"), "{err}");
    assert!(
        err.contains(&format!(
            "firmware: {}, the one of 3 ELFs",
            elfs.join("twenty48-mega2560.elf").display()
        )),
        "{err}"
    );
    let name = format!("{dev:016x}-g{:06}.t48", played.number);
    assert_eq!(t48_files(&out), std::slice::from_ref(&name), "{err}");
    holds(&out.join(name), &played, true);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mega2560_games_pulled_live_and_from_the_store_by_twenty48_pull() {
    pulled_live_and_from_the_store(&board::MEGA2560);
}

#[test]
fn mega1280_games_pulled_live_and_from_the_store_by_twenty48_pull() {
    pulled_live_and_from_the_store(&board::MEGA1280);
}

#[test]
fn uno_games_pulled_live_and_from_the_store_by_twenty48_pull() {
    pulled_live_and_from_the_store(&board::UNO);
}
