//! The QEMU suite's scripted sessions, played by button presses on the Nano's own UF2 in the
//! RP2040 emulator: three rule sets picked on the start screen (classic played to game over,
//! arduino won at 2048, console abandoned the way a board abandons a game: the power goes
//! mid-game); every game equal to the host's replay, live (the board's log through `twenty48
//! pull --capture`) and from the store (`twenty48 pull --port` on a pseudo-terminal, cut off
//! after its first file and run again); every screen of the classic game on the LCD equal to
//! the host's rendering; the host's bytes (garbage, half requests, requests during play and
//! during a sector erase) answered while the board goes on playing.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::lcd::Lcd;
use crate::support::player::{start, started, Played, GAP, HOLD, RESULT_SCREENS};
use crate::support::{decoded, elf, firmware, garbage_flash, scratch, twenty48};
use twenty48_bot::Bot;
use twenty48_devicelog::DeviceFact;
use twenty48_engine::{Direction, Preset, Status};
use twenty48_movelog::MoveLog;
use twenty48_panel::Screen;
use twenty48_sim_rp2040::{Button, Nano, Options, SerialPort};

/// Partition sectors holding garbage at first boot (a previous sketch's data, say): the store
/// erases each before using it, so the session has sector erases to send requests into.
const GARBAGE_SECTORS: usize = 8;
fn hellos(bytes: &[u8]) -> usize {
    decoded(bytes)
        .facts
        .iter()
        .filter(|f| matches!(f, DeviceFact::Hello { .. }))
        .count()
}

fn errors(bytes: &[u8]) -> Vec<u8> {
    decoded(bytes)
        .facts
        .iter()
        .filter_map(|f| match f {
            DeviceFact::Error { code, .. } => Some(*code),
            _ => None,
        })
        .collect()
}

/// The `.t48` files in `dir`, decoded, by file name.
fn logs(dir: &Path) -> Vec<(String, MoveLog)> {
    let mut found: Vec<(String, MoveLog)> = std::fs::read_dir(dir)
        .map(|d| d.flatten().collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".t48"))
        .map(|n| {
            let log = MoveLog::decode(&std::fs::read(dir.join(&n)).unwrap()).unwrap();
            (n, log)
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Every file is one of the games played, equal to the host's replay: complete for a game
/// that ended, a prefix marked partial for the one the power cut short.
fn check_logs(dir: &Path, played: &[Played]) {
    let found = logs(dir);
    assert_eq!(found.len(), played.len(), "{found:?}");
    for p in played {
        let (name, log) = found
            .iter()
            .find(|(_, l)| l.seed == p.seed)
            .unwrap_or_else(|| panic!("no file for game {} (seed {})", p.number, p.seed));
        assert_eq!(log.rules, p.rules, "{name}");
        assert_eq!(
            log.moves, p.moves,
            "{name}: the host's replay of the presses"
        );
        let ended = p.game.status() != Status::Playing;
        assert_eq!(log.complete, ended, "{name}");
        assert_eq!(name.ends_with(".partial.t48"), !ended, "{name}");
        if ended {
            assert_eq!(log.claims.final_hash, p.game.state_hash(), "{name}");
        }
    }
}

/// A child process killed when dropped (a failing test leaves no `twenty48 pull` behind).
struct Reaped(std::process::Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `twenty48 pull --port` against the board until it exits, or, with `cut_off`, kills
/// it once it has written its first file. Returns its exit code (None: killed) and output.
fn pull_port(
    nano: &mut Nano,
    port: &mut SerialPort,
    dir: &Path,
    cut_off: bool,
) -> (Option<i32>, String) {
    // What the board sent before is not this pull's (a port opened now reads what comes now).
    nano.take_usb();
    port.discard_unread();
    let out = scratch("pull-out.txt");
    let mut child = Reaped(
        Command::new(twenty48())
            .args(["pull", "--json", "--elf"])
            .arg(&firmware().0)
            .arg("--port")
            .arg(port.path())
            .arg("-o")
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .expect("twenty48 pull starts"),
    );
    let started = Instant::now();
    let code = loop {
        port.serve(nano, Duration::from_millis(5), Duration::from_millis(1))
            .unwrap_or_else(|e| panic!("{e}"));
        if let Some(status) = child.0.try_wait().unwrap() {
            break status.code();
        }
        if cut_off && !logs(dir).is_empty() {
            let _ = child.0.kill();
            let _ = child.0.wait();
            break None;
        }
        // Dropping the child kills it.
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "twenty48 pull did not finish within 120 s"
        );
    };
    let mut err = String::new();
    if let Some(mut e) = child.0.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    let json = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    (code, format!("{json}\n{err}"))
}

/// Presses up on the start screen and, as soon as the store starts erasing the garbage sector
/// the game needs, sends the host's requests into the erase.
fn start_into_an_erase(nano: &mut Nano) -> u64 {
    let ops_before = nano.seen().ops.len();
    nano.press(Button::Up, HOLD, Duration::ZERO).unwrap();
    for _ in 0..200 {
        nano.run(Duration::from_millis(1)).unwrap();
        if let Some(erase) = nano.seen().ops[ops_before..].iter().find(|o| o.erase) {
            let at = erase.at_ns;
            // The chip is busy for 45 ms: the bytes land while interrupts are off.
            assert!(nano.now().as_nanos() < (at + 40_000_000) as u128);
            nano.send(b"\x00\xff{hel").unwrap();
            nano.send(b"lo}{pull all}{dance}").unwrap();
            nano.run(GAP).unwrap();
            return at;
        }
    }
    panic!("no sector erase when the first game began");
}

#[test]
fn scripted_games_on_the_nano_verify_live_and_from_the_store() {
    let flash = scratch("garbage.flash");
    garbage_flash(&flash, GARBAGE_SECTORS);
    let mut nano = crate::support::booted(Options {
        flash: Some(flash.clone()),
        lcd: true,
        ..Options::default()
    });
    let _ = std::fs::remove_file(&flash);
    let t0 = Instant::now();
    let mut lcd = Lcd::new();
    let mut shown;
    let mut played: Vec<Played> = Vec::new();

    // Garbage and half a request before anything: error frames, nothing else.
    nano.send(b"\x01\x7f*%$!}}}{pul").unwrap();
    nano.send(b"\n{hello}").unwrap();
    nano.run(Duration::from_millis(20)).unwrap();
    assert_eq!(hellos(&nano.seen().usb), 2);
    assert!(errors(&nano.seen().usb).contains(&2), "the half request");

    // Classic, to game over, every screen on the LCD checked against the host's rendering.
    nano.press(Button::Right, HOLD, GAP).unwrap();
    nano.press(Button::Right, HOLD, Duration::from_millis(150))
        .unwrap();
    lcd.update(&mut nano);
    let start_screen = Screen::Start {
        rules: "classic",
        choosable: true,
    };
    assert!(lcd.shows(&start_screen), "{}", lcd.art());
    shown = Preset::Classic;
    let erase_at = start_into_an_erase(&mut nano);
    let mut classic = started(&mut nano, 0);
    assert_eq!(classic.rules, Preset::Classic.rules());
    let before_erase_answers = hellos(&nano.seen().usb);
    let slow_gap = Duration::from_millis(45);
    let order = [
        Direction::Up,
        Direction::Left,
        Direction::Right,
        Direction::Down,
    ];
    let mut presses = 0;
    while classic.game.status() == Status::Playing {
        let dir = order
            .into_iter()
            .find(|&d| classic.game.clone().play(d).unwrap().moved)
            .unwrap();
        classic.record(dir);
        nano.press(crate::support::player::button(dir), HOLD, slow_gap)
            .unwrap();
        presses += 1;
        if presses % 40 == 0 {
            // A request during play: answered, the game goes on.
            nano.send(b"{hello}").unwrap();
        }
        lcd.update(&mut nano);
        if classic.game.status() == Status::Playing {
            let screen = Screen::Board {
                cells: classic.game.cells().into(),
                score: classic.game.score(),
            };
            assert!(
                lcd.shows(&screen),
                "move {}: the LCD differs from the host's board:\n{}",
                classic.moves.len(),
                lcd.art()
            );
        }
    }
    for (after, screen) in [
        (1000, Screen::Result { won: false }),
        (
            3000,
            Screen::FinalScore {
                score: classic.game.score(),
            },
        ),
        (1300, start_screen),
    ] {
        nano.run(Duration::from_millis(after)).unwrap();
        lcd.update(&mut nano);
        assert!(lcd.shows(&screen), "{screen:?}:\n{}", lcd.art());
    }
    println!(
        "classic: {} moves to game over, {} LCD bytes through the ST7920 model, every screen equal to the host's ({:?})",
        classic.moves.len(),
        lcd.bytes,
        t0.elapsed()
    );
    played.push(classic);
    let answers = hellos(&nano.seen().usb);
    assert!(
        answers >= before_erase_answers + presses / 40,
        "requests during play answered"
    );
    let live = decoded(&nano.seen().usb);
    assert!(
        live.facts
            .iter()
            .any(|f| matches!(f, DeviceFact::PullBegin { .. })),
        "the {{pull all}} sent during the erase at {erase_at} ns was answered"
    );

    // Arduino, won at 2048: a bot's moves. The host plays the board's seed first with a few
    // bots and presses the moves of the first that wins (expectimax at depth 2 wins about 9
    // games in 10).
    let mut game = start(&mut nano, &mut shown, Preset::Arduino);
    let winner = [2, 3, 1]
        .into_iter()
        .find(|&depth| {
            let mut bot = Bot::expectimax(&game.rules, depth);
            let mut trial = game.game.clone();
            while trial.status() == Status::Playing {
                trial.play(bot.choose(&trial).unwrap()).unwrap();
            }
            trial.status() == Status::Won
        })
        .unwrap_or_else(|| panic!("no bot wins seed {}", game.seed));
    let mut bot = Bot::expectimax(&game.rules, winner);
    game.play(&mut nano, [Direction::Up; 4], usize::MAX, |g| bot.choose(g));
    nano.run(RESULT_SCREENS).unwrap();
    assert_eq!(game.game.status(), Status::Won);
    println!(
        "arduino: {} moves to 2048 ({:?})",
        game.moves.len(),
        t0.elapsed()
    );
    played.push(game);

    // Console, abandoned as a board abandons a game: the power goes after 20 moves.
    let mut console = start(&mut nano, &mut shown, Preset::Console);
    console.play(
        &mut nano,
        [
            Direction::Left,
            Direction::Down,
            Direction::Right,
            Direction::Up,
        ],
        20,
        |_| None,
    );
    // A request during play, then the power cut (not during a flash operation: every move
    // is in the store).
    // The live log: what the board sent while playing (before the store's reply below),
    // once the last move is done: its screen first, then its store write and its frame
    // (issue 36), up to a whole screen's 120 ms after the press.
    nano.run(Duration::from_millis(200)).unwrap();
    let live_bytes = nano.seen().usb.clone();
    nano.send(b"{pull}").unwrap();
    let pull_replies = |nano: &Nano| {
        decoded(&nano.seen().usb)
            .facts
            .iter()
            .filter(|f| matches!(f, DeviceFact::PullDone { .. }))
            .count()
    };
    for _ in 0..50 {
        nano.run(Duration::from_millis(100)).unwrap();
        if pull_replies(&nano) == 2 {
            break;
        }
    }
    played.push(console);

    println!(
        "console: 20 moves, then the power went ({:?})",
        t0.elapsed()
    );
    // Live: the board's log as captured, through the real CLI.
    let live_dir = scratch("live");
    let cap = scratch("live.bin");
    std::fs::write(&cap, &live_bytes).unwrap();
    let out = Command::new(twenty48())
        .args(["pull", "--elf"])
        .arg(&firmware().0)
        .arg("--capture")
        .arg(&cap)
        .arg("-o")
        .arg(&live_dir)
        .output()
        .unwrap();
    let live_report = String::from_utf8_lossy(&out.stderr).into_owned();
    // The live log has no end for the console game (the power went): the ended games are
    // written, the console game is reported truncated.
    let ended: Vec<Played> = played
        .iter()
        .filter(|p| p.game.status() != Status::Playing)
        .cloned()
        .collect();
    check_logs(&live_dir, &ended);
    assert!(live_report.contains("truncated"), "{live_report}");
    // The console game's every move was logged live all the same, and the {pull} sent during
    // it was answered (as was the {pull all} sent during the erase).
    let live = decoded(&live_bytes);
    let console = played.last().unwrap();
    let logged = live.games.iter().find(|g| g.seed == console.seed).unwrap();
    let logged: Vec<Direction> = logged.moves.iter().map(|m| m.dir).collect();
    assert_eq!(logged, console.moves);
    assert_eq!(
        pull_replies(&nano),
        2,
        "the two pull requests during play answered"
    );

    // The power comes back: the store goes on in a fresh (garbage, so erased) sector when the
    // next game begins; the host pulls over USB serial, is cut off after its first file,
    // and pulls again.
    nano.power_on().unwrap();
    nano.run(Duration::from_millis(400)).unwrap();
    let mut port = SerialPort::open().unwrap_or_else(|e| panic!("{e}"));
    let dir = scratch("store");
    let (code, report) = pull_port(&mut nano, &mut port, &dir, true);
    assert_eq!(code, None, "cut off: {report}");
    port.discard_unread();
    println!("pull cut off after its first file ({:?})", t0.elapsed());
    let first = logs(&dir);
    assert!(!first.is_empty());
    let first_meta: Vec<_> = first
        .iter()
        .map(|(n, _)| {
            let m = std::fs::metadata(dir.join(n)).unwrap();
            (n.clone(), m.modified().unwrap())
        })
        .collect();
    let (code, report) = pull_port(&mut nano, &mut port, &dir, false);
    assert_eq!(code, Some(0), "{report}");
    check_logs(&dir, &played);
    for (name, modified) in first_meta {
        let m = std::fs::metadata(dir.join(&name)).unwrap();
        assert_eq!(m.modified().unwrap(), modified, "{name} was written twice");
    }
    // Everything acknowledged: a third pull gets nothing new.
    let (code, report) = pull_port(&mut nano, &mut port, &dir, false);
    assert_eq!(code, Some(0), "{report}");
    assert!(
        report.contains("\"games\": []") || report.contains("pull reply of 0 games"),
        "{report}"
    );
    assert_eq!(logs(&dir).len(), played.len());

    crate::support::assert_known_notes(&nano);
    let speed = nano.speed();
    println!(
        "{} games played ({} moves), 0 mismatches; emulated {:?} in {:?} of wall time ({:.1}x), {} instructions",
        played.len(),
        played.iter().map(|p| p.moves.len()).sum::<usize>(),
        speed.emulated,
        speed.wall,
        speed.emulated.as_secs_f64() / speed.wall.as_secs_f64(),
        speed.instructions
    );
    let _ = elf();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&live_dir);
    let _ = std::fs::remove_file(&cap);
}
