//! The AVR firmware end to end (runs on the host): builds the AVR firmware
//! (crates/firmware-avr, its own pinned nightly), plays scripted sessions under
//! `qemu-system-avr -M mega2560`, decodes each capture with its ELF and replays every game
//! on the host engine. What QEMU alone covers: the scripted path (`{new ...}`, `{end}`,
//! quick wins, the RAM store the firmware falls back to without EEPROM, the LCD's
//! self-check) and a second model of the AVR CPU (the Mega 2560's 3-byte program counter
//! under QEMU's). The shipped images on their chip path (buttons, EEPROM store, SPI and LCD,
//! power cuts; the Mega 1280 and the Uno, which has no QEMU path) run in simavr:
//! crates/sim-avr/tests and crates/cli/tests/avr_sim.rs. QEMU's AVR machines cannot exit by themselves:
//! the firmware logs `t48 avr end` when the script ends and the test stops QEMU there (or at
//! a time limit). QEMU has no EEPROM: the firmware keeps its store in RAM there, so nothing
//! persists across runs (the store's power-cut promises are devicestore's host tests).
//!
//! The Megas' ELFs are also scanned for functions that read arguments passed on the stack
//! ([`stack_args`]): the pinned LLVM reads them one byte off on the ATmega2560 (3-byte
//! program counter). Not the Uno's: the ATmega328P's 2-byte one is read right, and LTO
//! does pass it arguments on the stack (`Log::hello`, the device id beside three counts),
//! which simavr's sessions show arrive whole.
//!
//! Fails, never skips, when qemu-system-avr, avr-gcc, avr-objdump or the pinned nightly is
//! missing.

mod avr {
    pub mod cargo;
    pub mod stack_args;
}

use avr::cargo::avr_dir;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use twenty48_devicelog::{check, decode_capture, Capture, DamageKind};
use twenty48_deviceproto::Crc32;
use twenty48_panel::{Band, Grid, Screen, BAND_ROWS};

/// How long one QEMU session may take before the test gives up on it.
const SESSION_LIMIT: Duration = Duration::from_secs(300);

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

/// Builds the board's firmware (see [`avr::cargo::build_avr`]).
fn build(avr: &Avr) -> (PathBuf, Vec<u8>) {
    avr::cargo::build_avr(avr.alias);
    let dir = avr_dir();
    let path = dir.join(avr.elf);
    let bytes = std::fs::read(&path).expect("the ELF was built");
    (path, bytes)
}

/// The board's ELF, built once per test binary (both tests of a board share it).
fn elf(avr: &Avr) -> &'static (PathBuf, Vec<u8>) {
    static M1280: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    static M2560: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    static M328P: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    let cell = match avr.machine {
        "mega" => &M1280,
        "uno" => &M328P,
        _ => &M2560,
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

/// The Mega 2560's capture of [`SESSION`], played once for both tests that read it.
fn mega2560_session() -> &'static [u8] {
    static CAPTURE: OnceLock<Vec<u8>> = OnceLock::new();
    CAPTURE.get_or_init(|| run(&MEGA2560, SESSION))
}

/// Plays the session (the Mega 2560's); checks every game against the host's replay;
/// returns the count.
fn games_equal_the_host_replays(avr: &Avr) -> usize {
    let decoded = decode(avr, mega2560_session());
    assert!(
        decoded.messages.iter().any(|m| m.text == "t48 avr end"),
        "the session did not reach its end marker within {SESSION_LIMIT:?}"
    );
    assert!(decoded.damage.is_empty(), "{:?}", decoded.damage);
    stack_kept_off_the_static_data(avr, &decoded);
    lcd_draws_as_the_host(&decoded);
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

/// The firmware's first message starting with `prefix`, and a reader of its `name=NUMBER`
/// fields (`field("peak=")`).
fn message<'a>(decoded: &'a Capture, prefix: &str) -> (&'a str, impl Fn(&str) -> u32 + 'a) {
    let text = decoded
        .messages
        .iter()
        .map(|m| m.text.as_str())
        .find(|t| t.starts_with(prefix))
        .unwrap_or_else(|| panic!("the firmware logs no `{prefix}` message"));
    let field = move |name: &str| -> u32 {
        text.split_whitespace()
            .find_map(|w| w.strip_prefix(name))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no number {name}... in {text:?}"))
    };
    (text, field)
}

/// The firmware's `t48 avr stack peak= room=`: the deepest its stack went, and the RAM
/// between the static data and the stack's top. Printed for the size notes; the peak must
/// leave some of the room untouched (otherwise the stack ran into the static data).
fn stack_kept_off_the_static_data(avr: &Avr, decoded: &Capture) {
    let (text, field) = message(decoded, "t48 avr stack");
    let (peak, room) = (field("peak="), field("room="));
    println!(
        "{} under QEMU: stack peak {peak} bytes of {room}",
        avr.machine
    );
    assert!(peak < room, "the stack reached the static data: {text}");
}

/// The firmware's `t48 avr lcd start= board=`: the CRC-32 of two screens as its LCD code
/// rasters them (glyph tables read from program memory with `lpm`, on the AVR CPU), against
/// the panel crate's renderer on the host (crates/panel/tests/raster.rs checks that one
/// against embedded-graphics). The screens are `lcd::check_screens` in the firmware.
fn lcd_draws_as_the_host(decoded: &Capture) {
    let (text, field) = message(decoded, "t48 avr lcd");
    let check = |screen: &Screen| {
        let mut crc = Crc32::new();
        for first in (0..64).step_by(BAND_ROWS) {
            let mut band = Band::new(true, first);
            screen.raster(&mut band);
            for y in first..first + BAND_ROWS {
                crc.update(band.row(y));
            }
        }
        crc.finish()
    };
    let tiles = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20];
    let start = Screen::Start {
        rules: "arduino",
        choosable: false,
    };
    let board = Screen::Board {
        cells: Grid::new(4, &tiles).unwrap(),
        score: 1_234_567_890,
    };
    assert_eq!(field("start="), check(&start), "the start screen: {text}");
    assert_eq!(field("board="), check(&board), "the board screen: {text}");
}

/// Damaged copies of a session's capture (`games` games): reported, never a wrong game.
fn damaged_captures(avr: &Avr, capture: &[u8], games: usize) {
    // Garbage before the first frame.
    let mut noisy = b"\x13\x37garbage".to_vec();
    noisy.extend_from_slice(capture);
    let decoded = decode(avr, &noisy);
    assert_eq!(decoded.games.len(), games);
    assert!(decoded.games.iter().all(|g| check(g).is_verified()));
    // The capture cut in the middle of a game (the first cut from the middle on that falls
    // inside one, not between two): that game is unfinished, never wrong.
    let cut = (0..256)
        .map(|k| decode(avr, &capture[..capture.len() / 2 + k]))
        .find(|c| c.games.iter().any(|g| !check(g).is_verified()))
        .expect("a cut near the middle falls inside a game");
    assert!(cut
        .damage
        .iter()
        .all(|d| matches!(d.kind, DamageKind::Unterminated | DamageKind::Malformed)));
    // Bytes dropped in the middle: a damaged stretch, and the game it fell in fails.
    let mut dropped = capture.to_vec();
    dropped.drain(capture.len() / 3..capture.len() / 3 + 5);
    let decoded = decode(avr, &dropped);
    assert!(!decoded.damage.is_empty());
    assert!(decoded.games.iter().any(|g| !check(g).is_verified()));
}

#[test]
fn mega2560_games_equal_the_host_replays() {
    let n = games_equal_the_host_replays(&MEGA2560);
    println!("mega2560 under QEMU: {n} games, every one equal to the host's replay");
}

#[test]
fn mega2560_damaged_captures_are_reported_never_wrong() {
    damaged_captures(&MEGA2560, mega2560_session(), 10);
}

/// Issue 28, item 9: the AVR build links only with linker scripts the project wrote (it
/// once shipped binutils' default avr6 and avr51 scripts, copied whole with their FSF
/// notice, for one change). Each script is a few lines that avr-ld adds to its own default
/// script (`INSERT`), never a replacement of it; none carries another project's notice.
#[test]
fn the_avr_linker_scripts_are_short_insertions_of_our_own() {
    let board = avr_dir().join("board");
    let mut scripts = 0;
    for entry in std::fs::read_dir(&board).expect("crates/firmware-avr/board") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|x| x != "x") {
            continue;
        }
        scripts += 1;
        let text = std::fs::read_to_string(&path).expect("a linker script");
        let name = path.display();
        assert!(
            text.contains("INSERT AFTER"),
            "{name} replaces avr-ld's default script"
        );
        assert!(
            !text.contains("MEMORY"),
            "{name} declares memory: a whole script"
        );
        for notice in [
            "Copyright",
            "Free Software Foundation",
            "GNU General Public",
        ] {
            assert!(
                !text.contains(notice),
                "{name} carries another project's notice"
            );
        }
        assert!(text.lines().count() <= 40, "{name} is no short insertion");
    }
    assert_eq!(scripts, 2, "defmt-avr.x and code-after-data.x");
}

/// The stack-argument uses in the board's ELF (see [`stack_args`]).
fn stack_argument_uses(avr: &Avr) -> Vec<avr::stack_args::Finding> {
    let (path, _) = elf(avr);
    let out = Command::new("avr-objdump")
        .args(["-d", "--no-show-raw-insn"])
        .arg(path)
        .output()
        .expect("avr-objdump runs (Debian: apt-get install binutils-avr)");
    assert!(
        out.status.success(),
        "avr-objdump failed on {}",
        path.display()
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.matches(">:\n").count() > 20,
        "avr-objdump listed too few functions to trust the scan"
    );
    avr::stack_args::stack_argument_uses(&text)
}

#[test]
fn mega2560_reads_no_argument_from_the_stack() {
    let found = stack_argument_uses(&MEGA2560);
    assert!(
        found.is_empty(),
        "functions of the ATmega2560 firmware take arguments on the stack, which this LLVM \
         reads one byte off there (docs/firmware.md): pass fewer or smaller arguments, by \
         reference, or inline them: {found:#?}"
    );
}

#[test]
fn mega1280_reads_no_argument_from_the_stack() {
    let found = stack_argument_uses(&MEGA1280);
    assert!(found.is_empty(), "{found:#?}");
}

/// What this LLVM makes of `fn callee(a: u64, b: u64, c: u32, d: u64) -> u64` for the
/// ATmega2560 (`avr-objdump -d`, shortened): `c` and `d` come from the stack, Y+15 and up.
const READS_STACK_ARGS: &str = "\
00000000 <callee>:
   0:\t0f 93       \tpush\tr16
   2:\t1f 93       \tpush\tr17
   4:\tcf 93       \tpush\tr28
   6:\tdf 93       \tpush\tr29
   8:\tcd b7       \tin\tr28, 0x3d\t; 61
   a:\tde b7       \tin\tr29, 0x3e\t; 62
   c:\t6e 25       \teor\tr22, r14
  10:\tf9 01       \tmovw\tr30, r24
  12:\t8f 85       \tldd\tr24, Y+15\t; 0x0f
  14:\t98 89       \tldd\tr25, Y+16\t; 0x10
  16:\tdf 91       \tpop\tr29
  18:\tcf 91       \tpop\tr28
  1a:\t1f 91       \tpop\tr17
  1c:\t0f 91       \tpop\tr16
  1e:\t08 95       \tret
";

/// A function with a 70-byte frame reading its own locals, the far ones through a moved Y
/// (once with the restoring half of the move behind a jump, as LLVM's branch folding leaves
/// it) and through an address taken from Y, then the epilogue and a second path.
const READS_ITS_FRAME: &str = "\
00000100 <locals>:
 100:\tpush\tr16
 102:\tpush\tr28
 104:\tpush\tr29
 106:\tin\tr28, 0x3d\t; 61
 108:\tin\tr29, 0x3e\t; 62
 10a:\tsubi\tr28, 0x46\t; 70
 10c:\tsbci\tr29, 0x00\t; 0
 10e:\tin\tr0, 0x3f\t; 63
 110:\tcli
 112:\tout\t0x3e, r29\t; 62
 114:\tout\t0x3f, r0\t; 63
 116:\tout\t0x3d, r28\t; 61
 118:\tldd\tr24, Y+1\t; 0x01
 11a:\tin\tr0, 0x3f\t; 63
 11c:\tadiw\tr28, 0x07\t; 7
 11e:\tldd\tr24, Y+63\t; 0x3f
 120:\tsbiw\tr28, 0x07\t; 7
 122:\tout\t0x3f, r0\t; 63
 124:\tin\tr0, 0x3f\t; 63
 126:\tsubi\tr28, 0xF9\t; 249
 128:\tsbci\tr29, 0xFF\t; 255
 12a:\tstd\tY+62, r24\t; 0x3e
 12c:\tsubi\tr28, 0x07\t; 7
 12e:\trjmp\t.+0
 130:\tsbci\tr29, 0x00\t; 0
 132:\tout\t0x3f, r0\t; 63
 134:\tldd\tr24, Y+60\t; 0x3c
 136:\tmovw\tr30, r28
 138:\tsubi\tr30, 0xBA\t; 186
 13a:\tsbci\tr31, 0xFF\t; 255
 13c:\tld\tr24, Z
 13e:\tsubi\tr28, 0xBA\t; 186
 140:\tsbci\tr29, 0xFF\t; 255
 142:\tin\tr0, 0x3f\t; 63
 144:\tcli
 146:\tout\t0x3e, r29\t; 62
 148:\tout\t0x3f, r0\t; 63
 14a:\tout\t0x3d, r28\t; 61
 14c:\tpop\tr29
 14e:\tpop\tr28
 150:\tpop\tr16
 152:\tret
 154:\tldd\tr24, Y+70\t; 0x46
 156:\tret
";

#[test]
fn the_stack_scan_flags_stack_arguments_and_passes_frames() {
    let found = avr::stack_args::stack_argument_uses(READS_STACK_ARGS);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].function, "callee");
    assert_eq!(found[0].instruction, "ldd r24, Y+15");
    let clean = avr::stack_args::stack_argument_uses(READS_ITS_FRAME);
    assert!(clean.is_empty(), "{clean:?}");
    // One byte further: the saved r16, still not an argument; one more: the return address.
    let past = READS_ITS_FRAME.replace("Y+63", "Y+66");
    assert!(avr::stack_args::stack_argument_uses(&past).is_empty());
    let past = READS_ITS_FRAME.replace("Y+63", "Y+67");
    assert_eq!(avr::stack_args::stack_argument_uses(&past).len(), 1);
    // An address taken past the saved registers; a frame-less function reading SP.
    let addr = READS_ITS_FRAME.replace("0xBA", "0xB6");
    assert!(avr::stack_args::stack_argument_uses(&addr)[0]
        .instruction
        .starts_with("movw r30, r28"));
    // A frame-less caller making room for stack arguments; one only reading SP.
    let no_fp = "00000000 <f>:\n   0:\tin\tr30, 0x3d\n   2:\tin\tr31, 0x3e\n   4:\tsbiw\tr30, 0x04\n   6:\tout\t0x3e, r31\n   8:\tout\t0x3d, r30\n   a:\tret\n";
    assert_eq!(avr::stack_args::stack_argument_uses(no_fp).len(), 1);
    let reads_sp = "00000000 <f>:\n   0:\tin\tr24, 0x3d\n   2:\tret\n";
    assert!(avr::stack_args::stack_argument_uses(reads_sp).is_empty());
}
