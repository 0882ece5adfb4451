//! `twenty48 play` and `replay --watch` driven in a real pseudo-terminal: keys in, the screen
//! (as a terminal emulator shows it) out. Also: a killed session loses no move, the journal
//! resumes and recovers, and the terminal is given back as it was.
#![cfg(unix)]

mod support;

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use twenty48_engine::{Direction, Game, Rules};
use twenty48_movelog::MoveLog;

const ROWS: u16 = 40;
const COLS: u16 = 160;

/// A child process on a pseudo-terminal, with everything it wrote kept.
struct Pty {
    master: File,
    child: Child,
    output: Arc<Mutex<Vec<u8>>>,
    rows: u16,
    cols: u16,
}

impl Pty {
    fn spawn(args: &[&str], env: &[(&str, &str)]) -> Pty {
        Pty::spawn_sized(args, env, ROWS, COLS)
    }

    fn spawn_sized(args: &[&str], env: &[(&str, &str)], rows: u16, cols: u16) -> Pty {
        let pty = twenty48_testkit::pty::Pty::open(twenty48_testkit::pty::Options {
            size: Some((rows, cols)),
            ..Default::default()
        })
        .expect("a pseudo-terminal");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_twenty48"));
        cmd.args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("TERM", "xterm-256color")
            .envs(env.iter().copied());
        let (child, master) = pty.spawn(&mut cmd).expect("spawn twenty48");
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().unwrap();
        let sink = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // EIO once the child and every copy of the slave are gone.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Pty {
            master,
            child,
            output,
            rows,
            cols,
        }
    }

    /// Resizes the terminal (the kernel tells the program with SIGWINCH).
    fn resize(&mut self, rows: u16, cols: u16) {
        let size = libc::winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: TIOCSWINSZ reads one winsize from a valid pointer.
        let rc = unsafe { libc::ioctl(self.master.as_raw_fd(), libc::TIOCSWINSZ, &size) };
        assert_eq!(rc, 0, "TIOCSWINSZ: {}", std::io::Error::last_os_error());
        (self.rows, self.cols) = (rows, cols);
    }

    /// Resizes the terminal and waits until what the program draws after that shows every
    /// one of `texts`.
    fn resize_and_wait(&mut self, rows: u16, cols: u16, texts: &[&str]) {
        let mark = self.raw().len();
        self.resize(rows, cols);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let shown = self.screen_of(&self.raw()[mark..]);
            if texts.iter().all(|t| shown.contains(t)) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "never redrawn at {cols}x{rows}:\n{shown}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, keys: &str) {
        self.master.write_all(keys.as_bytes()).unwrap();
        self.master.flush().unwrap();
    }

    fn raw(&self) -> Vec<u8> {
        self.output.lock().unwrap().clone()
    }

    /// Everything the program wrote, once it shows `needle` (the reader thread may still be
    /// draining the pty after the program exits), or as it is after a few seconds.
    fn raw_with(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let raw = String::from_utf8_lossy(&self.raw()).into_owned();
            if raw.contains(needle) || Instant::now() > deadline {
                return raw;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What a terminal shows now.
    fn screen(&self) -> String {
        self.screen_of(&self.raw())
    }

    /// What a terminal of this size shows after `bytes`.
    fn screen_of(&self, bytes: &[u8]) -> String {
        let rows = std::num::NonZeroU16::new(self.rows).unwrap();
        let cols = std::num::NonZeroU16::new(self.cols).unwrap();
        let mut parser = vt100::Parser::new(rows, cols, 0);
        parser.process(bytes);
        parser.screen().contents()
    }

    /// Waits until the screen shows every one of `texts`.
    fn wait_for(&self, texts: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if texts.iter().all(|t| screen.contains(t)) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {texts:?}; it shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "twenty48 did not exit; screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the terminal is back in cooked mode (line editing and echo on).
    fn cooked(&self) -> bool {
        // SAFETY: tcgetattr fills a plain struct for an open descriptor.
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::tcgetattr(self.master.as_raw_fd(), &mut t) };
        assert_eq!(rc, 0);
        t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn key(dir: Direction) -> &'static str {
    match dir {
        Direction::Up => "w",
        Direction::Left => "\x1b[D",
        Direction::Right => "d",
        Direction::Down => "\x1b[B",
    }
}

/// Presses `presses` one at a time, waiting for each real move to show; returns the game the
/// engine says those presses make.
fn press(pty: &mut Pty, game: &mut Game, presses: &[Direction]) {
    for &dir in presses {
        pty.send(key(dir));
        if game.play(dir).unwrap().moved {
            pty.wait_for(&[&format!("moves {}", game.move_count())]);
        }
    }
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `twenty48 play` with `rule_flags` under `seed` on a new pty, writing `dir/file`, with its
/// data (best scores) in `dir/data`.
fn play(dir: &Path, file: &str, rule_flags: &[&str], seed: u64, env: &[(&str, &str)]) -> Pty {
    let out = dir.join(file);
    let data = dir.join("data");
    let seed = seed.to_string();
    let mut args = vec!["play"];
    args.extend_from_slice(rule_flags);
    args.extend_from_slice(&["--seed", &seed, "-o", s(&out), "--data-dir", s(&data)]);
    Pty::spawn(&args, env)
}

const PRESSES: [Direction; 8] = [
    Direction::Left,
    Direction::Up,
    Direction::Right,
    Direction::Down,
    Direction::Left,
    Direction::Left,
    Direction::Up,
    Direction::Right,
];

#[test]
fn play_quit_saves_the_game_the_best_score_and_restores_the_terminal() {
    let dir = temp_dir("quit");
    let out = dir.join("game.t48");
    let data = dir.join("data");
    let mut pty = play(&dir, "game.t48", &[], 42, &[]);
    let mut game = Game::new(Rules::CLASSIC, 42).unwrap();
    let first = pty.wait_for(&["classic rules, seed 42", "moves 0", "arrows, WASD or hjkl"]);
    assert!(first.contains("┌──────┬"), "box characters:\n{first}");
    press(&mut pty, &mut game, &PRESSES);
    let screen = pty.wait_for(&[&format!("score {}", game.score())]);
    // Every tile the engine has is on the screen.
    for &e in game.cells().exponents().iter().filter(|&&e| e > 0) {
        assert!(screen.contains(&twenty48_engine::tile_value(e).to_string()));
    }
    pty.send("q");
    pty.wait_for(&["Really quit? [Y/N]"]);
    pty.send("n");
    pty.wait_for(&["arrows, WASD or hjkl: move"]);
    // A press that is not a key of the game changes nothing.
    pty.send("x");
    pty.send("Q");
    pty.wait_for(&["Really quit? [Y/N]"]);
    pty.send("y");
    let status = pty.wait_exit();
    assert!(status.success(), "{status}");
    assert!(pty.cooked(), "the terminal is back in cooked mode");
    let raw = pty.raw_with("\x1b[?1049l");
    assert!(
        raw.contains("\x1b[?1049h") && raw.contains("\x1b[?1049l"),
        "alternate screen left"
    );
    assert!(
        raw.rfind("\x1b[?25h") > raw.rfind("\x1b[?25l"),
        "cursor shown again"
    );
    assert!(raw.contains("48;5;"), "256 colours for TERM=xterm-256color");
    let after = pty.wait_for(&["recorded", "-> "]);
    assert!(
        after.contains(&format!("score {}", game.score())),
        "{after}"
    );

    let log = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(log.seed, 42);
    assert_eq!(log.claims.move_count, game.move_count());
    assert_eq!(log.claims.final_hash, game.state_hash());
    assert!(!dir.join("game.t48.journal").exists(), "journal removed");
    let best = std::fs::read_to_string(data.join("best-scores.txt")).unwrap();
    assert!(
        best.contains(&format!("{}\t{}", game.score(), Rules::CLASSIC)),
        "{best}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_session_loses_no_move_and_resumes() {
    let dir = temp_dir("kill");
    let out = dir.join("game.t48");
    let console = ["--rules", "console"];
    let mut pty = play(&dir, "game.t48", &console, 7, &[("NO_COLOR", "1")]);
    let mut game = Game::new(Rules::CONSOLE, 7).unwrap();
    pty.wait_for(&["console rules, seed 7"]);
    press(&mut pty, &mut game, &PRESSES[..5]);
    let raw = String::from_utf8_lossy(&pty.raw()).into_owned();
    assert!(
        !raw.contains("48;5;") && !raw.contains("48;2;"),
        "NO_COLOR: no colour"
    );
    // The screen shows the move only after it is on disk: kill at once.
    pty.child.kill().unwrap();
    pty.child.wait().unwrap();
    drop(pty);
    let journal = dir.join("game.t48.journal");
    assert!(journal.exists());
    assert!(!out.exists());

    // The next start offers it; resume, play on, leave with Ctrl-C.
    let mut pty = play(&dir, "game.t48", &console, 7, &[]);
    pty.wait_for(&["An unfinished game was found", "Resume it? [Y/N]"]);
    pty.send("y");
    pty.wait_for(&[&format!("moves {}", game.move_count())]);
    press(&mut pty, &mut game, &PRESSES[5..]);
    pty.send("\x03");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
    let log = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(log.claims.move_count, game.move_count());
    assert_eq!(log.claims.final_hash, game.state_hash());
    assert!(!journal.exists());

    // Killed again in a new game; `twenty48 recover` writes the journal as a .t48 file.
    let out2 = dir.join("second.t48");
    let mut pty = play(&dir, "second.t48", &[], 9, &[]);
    let mut second = Game::new(Rules::CLASSIC, 9).unwrap();
    pty.wait_for(&["seed 9"]);
    press(&mut pty, &mut second, &PRESSES[..4]);
    pty.child.kill().unwrap();
    drop(pty);
    let result = support::output(Command::new(env!("CARGO_BIN_EXE_twenty48")).args([
        "recover",
        s(&dir.join("second.t48.journal")),
        "--json",
    ]));
    assert!(result.status.success(), "{result:?}");
    let doc: serde_json::Value = serde_json::from_slice(&result.stdout).unwrap();
    assert_eq!(doc["moves"], second.move_count());
    assert_eq!(doc["score"], second.score());
    assert!(doc["damage"].is_null());
    let log = MoveLog::decode(&std::fs::read(&out2).unwrap()).unwrap();
    assert_eq!(log.claims.final_hash, second.state_hash());
    assert!(!dir.join("second.t48.journal").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn watch_steps_jumps_and_quits() {
    let dir = temp_dir("watch");
    let file = dir.join("game.t48");
    let mut game = Game::new(Rules::CLASSIC, 5).unwrap();
    let mut moves = Vec::new();
    for dir in Direction::ALL.iter().cycle().take(40) {
        if game.play(*dir).unwrap().moved {
            moves.push(*dir);
        }
    }
    let log = MoveLog::from_moves(Rules::CLASSIC, 5, &moves, 256).unwrap();
    std::fs::write(&file, log.encode()).unwrap();
    let n = moves.len();
    let mut pty = Pty::spawn(&["replay", s(&file), "--watch"], &[]);
    pty.wait_for(&["twenty48 replay", "classic rules, seed 5"]);
    pty.send(" "); // pause
    pty.send("\x1b[F"); // End
    pty.wait_for(&[
        &format!("move {n}/{n}"),
        &format!("score {}", game.score()),
        "paused",
    ]);
    pty.send("\x1b[D"); // one back
    pty.wait_for(&[&format!("move {}/{n}", n - 1)]);
    pty.send("g3\r");
    let screen = pty.wait_for(&[
        &format!("move 3/{n}"),
        &format!("played {}", moves[2].name()),
    ]);
    assert!(screen.contains("paused"));
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn record_without_a_move_source_on_a_terminal_plays() {
    let dir = temp_dir("record");
    let out = dir.join("r.t48");
    let data = dir.join("data");
    // A damaged best-score file is reported on screen and replaced, never a crash.
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("best-scores.txt"), b"\xff\xfe garbage").unwrap();
    let mut pty = Pty::spawn(
        &["record", "--rules", "arduino", "--seed", "3", "-o", s(&out)],
        &[("TWENTY48_DATA_DIR", s(&data))],
    );
    let mut game = Game::new(Rules::ARDUINO, 3).unwrap();
    pty.wait_for(&[
        "arduino rules, seed 3",
        "moves 0",
        "best-scores.txt are damaged",
    ]);
    press(&mut pty, &mut game, &PRESSES[..3]);
    pty.send("q");
    pty.wait_for(&["Really quit? [Y/N]"]);
    pty.send("y");
    assert!(pty.wait_exit().success());
    let log = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(log.rules, Rules::ARDUINO);
    assert_eq!(log.claims.final_hash, game.state_hash());
    let best = std::fs::read_to_string(data.join("best-scores.txt")).unwrap();
    assert!(
        best.contains(&format!("{}\t{}", game.score(), Rules::ARDUINO)),
        "replaced, in the data dir the env var names: {best}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bot game can take minutes (expectimax at depth 8): on a terminal, record shows the
/// moves made so far and the score while it plays, and clears that line at the end.
#[test]
fn record_with_a_bot_on_a_terminal_shows_its_progress() {
    let dir = temp_dir("record-bot");
    let out = dir.join("bot.t48");
    let mut pty = Pty::spawn(
        &[
            "record",
            "--seed",
            "3",
            "--bot",
            "greedy",
            "--max-moves",
            "300",
            "-o",
            s(&out),
        ],
        &[],
    );
    assert!(pty.wait_exit().success());
    let raw = pty.raw_with("recorded 300 moves");
    assert!(raw.contains("recording"), "{raw}");
    assert!(raw.contains(" moves"), "{raw}");
    assert!(raw.contains("score "), "{raw}");
    let screen = pty.screen();
    assert!(
        !screen.contains("recording"),
        "the bar is cleared: {screen}"
    );
    assert!(screen.contains("recorded 300 moves"), "{screen}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Presses a cycle of moves until `stop` says so; returns the presses made.
fn play_until(pty: &mut Pty, game: &mut Game, stop: impl Fn(&Game) -> bool) {
    for &dir in Direction::ALL.iter().cycle() {
        if stop(game) {
            return;
        }
        if game.can_play(dir) {
            press(pty, game, &[dir]);
        }
    }
}

#[test]
fn a_win_plays_on_under_classic_and_asks_under_rules_that_stop() {
    let dir = temp_dir("win");
    // Classic rules with the win at 8: the win is said and play goes on.
    let out = dir.join("classic.t48");
    let mut pty = play(&dir, "classic.t48", &["--win", "8"], 1, &[]);
    let mut rules = Rules::CLASSIC;
    rules.win.as_mut().unwrap().exponent = 3;
    let mut game = Game::new(rules, 1).unwrap();
    pty.wait_for(&["moves 0"]);
    play_until(&mut pty, &mut game, |g| g.reached_win());
    pty.wait_for(&[
        "You made 8!",
        "You win! Keep going? [Y: keep going, N: new game]",
    ]);
    pty.send("y");
    pty.wait_for(&["arrows, WASD or hjkl: move"]);
    let more = game.move_count() + 1;
    play_until(&mut pty, &mut game, |g| g.move_count() == more);
    pty.send("qy");
    assert!(pty.wait_exit().success());
    let log = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(log.claims.final_hash, game.state_hash());

    // Arduino rules with the win at 8: the game ends, is saved, and asks to play again.
    let out = dir.join("arduino.t48");
    let flags = ["--rules", "arduino", "--win", "8"];
    let mut pty = play(&dir, "arduino.t48", &flags, 2, &[]);
    let mut rules = Rules::ARDUINO;
    rules.win.as_mut().unwrap().exponent = 3;
    let mut game = Game::new(rules, 2).unwrap();
    pty.wait_for(&["moves 0"]);
    play_until(&mut pty, &mut game, |g| g.status().is_finished());
    assert_eq!(game.status(), twenty48_engine::Status::Won);
    pty.wait_for(&["You win! Play again? [Y/N]"]);
    let log = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(log.claims.status, twenty48_engine::Status::Won);
    pty.send("y");
    pty.wait_for(&["moves 0", "arrows, WASD or hjkl: move"]);
    assert!(
        dir.join("arduino-2.t48.journal").exists(),
        "the next game is journaled"
    );
    pty.send("qy");
    assert!(pty.wait_exit().success());
    assert!(
        !dir.join("arduino-2.t48.journal").exists(),
        "an empty game leaves nothing"
    );
    assert!(!dir.join("arduino-2.t48").exists());

    // A 2x2 board soon has no move: game over asks to try again; N leaves.
    let out = dir.join("small.t48");
    let flags = ["--size", "2", "--win", "none"];
    let mut pty = play(&dir, "small.t48", &flags, 3, &[]);
    let mut rules = Rules::CLASSIC;
    rules.size = 2;
    rules.win = None;
    let mut game = Game::new(rules, 3).unwrap();
    pty.wait_for(&["moves 0"]);
    play_until(&mut pty, &mut game, |g| g.status().is_finished());
    pty.wait_for(&["Game over. Try again? [Y/N]"]);
    pty.send("n");
    assert!(pty.wait_exit().success());
    let log = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(log.claims.status, twenty48_engine::Status::Over);
    assert_eq!(log.claims.final_hash, game.state_hash());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A signal from outside (not a key) still gives the terminal back, and the journal keeps
/// every move made.
#[test]
fn a_signal_from_outside_restores_the_terminal_and_keeps_the_moves() {
    for signal in [libc::SIGTERM, libc::SIGHUP, libc::SIGINT] {
        let dir = temp_dir(&format!("signal-{signal}"));
        let out = dir.join("game.t48");
        let mut pty = play(&dir, "game.t48", &[], 42, &[]);
        let mut game = Game::new(Rules::CLASSIC, 42).unwrap();
        pty.wait_for(&["classic rules, seed 42", "moves 0"]);
        press(&mut pty, &mut game, &PRESSES);
        pty.wait_for(&[&format!("moves {}", game.move_count())]);
        // SAFETY: sending a signal to our own child process.
        assert_eq!(unsafe { libc::kill(pty.child.id() as i32, signal) }, 0);
        let status = pty.wait_exit();
        assert_eq!(status.code(), Some(130), "signal {signal}: {status}");
        assert!(
            pty.cooked(),
            "signal {signal}: the terminal is back in cooked mode"
        );
        let raw = pty.raw_with("\x1b[?1049l");
        assert!(
            raw.contains("\x1b[?1049l"),
            "signal {signal}: alternate screen left"
        );
        let journal = dir.join("game.t48.journal");
        assert!(journal.exists(), "signal {signal}: the journal is kept");
        let (code, _, _) = {
            let o = support::output(
                std::process::Command::new(env!("CARGO_BIN_EXE_twenty48")).args([
                    "recover",
                    s(&journal),
                    "-o",
                    s(&out),
                ]),
            );
            (o.status.code(), o.stdout, o.stderr)
        };
        assert_eq!(code, Some(0));
        let log = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(
            log.claims.final_hash,
            game.state_hash(),
            "signal {signal}: no move lost"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Counts the boards drawn in `bytes` (each draw starts with the top rule).
fn boards_drawn(bytes: &[u8]) -> usize {
    String::from_utf8_lossy(bytes).matches("┌──────┬").count()
}

/// Issue 13: `play` at 80x24 shows the whole game; each move slides, merges and spawns in
/// steps (one draw with --no-animation) and shows the points it gained; a win under rules
/// that play on asks "Keep going or new game?"; R asks, saves the game and starts a new one.
#[test]
fn issue13_play_at_80x24_animates_asks_on_a_classic_win_and_restarts() {
    let dir = temp_dir("80x24");
    let out = dir.join("game.t48");
    let data = dir.join("data");
    for (flags, animated) in [(&[][..], true), (&["--no-animation"][..], false)] {
        let _ = std::fs::remove_file(&out);
        let mut args = vec!["play", "--win", "8", "--seed", "1", "-o", s(&out)];
        args.extend_from_slice(&["--data-dir", s(&data)]);
        args.extend_from_slice(flags);
        let mut pty = Pty::spawn_sized(&args, &[], 24, 80);
        let mut rules = Rules::CLASSIC;
        rules.win.as_mut().unwrap().exponent = 3;
        let mut game = Game::new(rules, 1).unwrap();
        let first = pty.wait_for(&["moves 0", "arrows, WASD or hjkl: move"]);
        assert!(
            first.contains("┌──────┬") && first.contains("└──────┴"),
            "{first}"
        );
        // One move: the draws it took.
        let dir_ = Direction::ALL
            .into_iter()
            .find(|d| game.can_play(*d))
            .unwrap();
        let mark = pty.raw().len();
        press(&mut pty, &mut game, &[dir_]);
        std::thread::sleep(Duration::from_millis(300));
        let draws = boards_drawn(&pty.raw()[mark..]);
        if animated {
            assert!(draws >= 3, "a slide, a spawn and the board: {draws} draws");
        } else {
            assert_eq!(draws, 1, "--no-animation: the board once");
        }
        if !animated {
            pty.send("qy");
            assert!(pty.wait_exit().success());
            continue;
        }
        // Up to the win at 8 (a merge of two 4s: +8 at least).
        play_until(&mut pty, &mut game, |g| g.reached_win());
        let won = pty.wait_for(&["You win! Keep going? [Y: keep going, N: new game]"]);
        assert!(won.contains("(+"), "the points of the winning move:\n{won}");
        pty.send("y");
        pty.wait_for(&["arrows, WASD or hjkl: move"]);
        // R asks; N goes back; R, Y saves this game and starts a new one.
        pty.send("r");
        pty.wait_for(&["New game? This one is saved. [Y/N]"]);
        pty.send("n");
        pty.wait_for(&["arrows, WASD or hjkl: move"]);
        pty.send("ry");
        pty.wait_for(&["moves 0", "saved: recorded"]);
        let log = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(log.claims.final_hash, game.state_hash());
        assert_eq!(log.claims.move_count, game.move_count());
        assert!(dir.join("game-2.t48.journal").exists(), "the new game");
        pty.send("qy");
        assert!(pty.wait_exit().success());
        assert!(pty.cooked());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 13: a terminal too small for the board says so, with the size it needs, instead of
/// a wrapped board; enlarged, it shows the game; Q still quits.
#[test]
fn issue13_a_too_small_terminal_says_the_size_it_needs() {
    let dir = temp_dir("small");
    let out = dir.join("game.t48");
    let data = dir.join("data");
    let args = ["play", "--seed", "3", "-o", s(&out), "--data-dir", s(&data)];
    let mut pty = Pty::spawn_sized(&args, &[], 12, 40);
    let screen = pty.wait_for(&["terminal too small: 40x12", "twenty48 needs 50x21"]);
    assert!(
        !screen.contains("┌"),
        "no board in a terminal too small:\n{screen}"
    );
    pty.resize_and_wait(24, 80, &["moves 0", "└──────┴"]);
    pty.resize(12, 40);
    pty.wait_for(&["terminal too small: 40x12"]);
    pty.send("qy");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A journal at `path` of a classic game of `seed` with `moves` real moves, as a killed
/// `play` leaves it (unlocked); the game it holds.
fn journal_of(path: &Path, seed: u64, moves: u32) -> Game {
    let mut game = Game::new(Rules::CLASSIC, seed).unwrap();
    let mut j = twenty48_tui::Journal::create(path, Rules::CLASSIC, seed, 256).unwrap();
    for &d in Direction::ALL.iter().cycle() {
        if game.move_count() == moves {
            break;
        }
        if game.play(d).unwrap().moved {
            j.append(d).unwrap();
        }
    }
    drop(j);
    support::unlocked(path);
    game
}

/// Issue 13: `play -o g.t48` where g.t48 exists but a game of its session is unfinished
/// (g-2.t48.journal) offers to resume that game instead of refusing.
#[test]
fn issue13_play_o_offers_to_resume_an_unfinished_game_of_its_file() {
    let dir = temp_dir("resume-family");
    let out = dir.join("g.t48");
    let data = dir.join("data");
    // g.t48: a finished log; g-2.t48.journal: three moves of a later game.
    let log = MoveLog::from_moves(Rules::CLASSIC, 4, &[Direction::Left], 0).unwrap();
    std::fs::write(&out, log.encode()).unwrap();
    let journal = dir.join("g-2.t48.journal");
    let game = journal_of(&journal, 9, 3);
    let args = ["play", "-o", s(&out), "--data-dir", s(&data)];
    let mut pty = Pty::spawn(&args, &[]);
    pty.wait_for(&[
        "An unfinished game was found",
        "g-2.t48.journal",
        "Resume it?",
    ]);
    pty.send("y");
    pty.wait_for(&["seed 9", "moves 3"]);
    pty.send("qy");
    assert!(pty.wait_exit().success());
    let saved = MoveLog::decode(&std::fs::read(dir.join("g-2.t48")).unwrap()).unwrap();
    assert_eq!(saved.claims.final_hash, game.state_hash());
    assert_eq!(
        MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap(),
        log,
        "g.t48 is left as it was"
    );
    assert!(!journal.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A damaged journal (a byte after its good moves that is not a move, and moves after it)
/// is never played on: `play` says so and saves its good moves as a partial game, which
/// `verify` does not count as whole; the journal stays damaged until then.
#[test]
fn a_damaged_journal_is_saved_as_a_partial_game_not_played_on() {
    let dir = temp_dir("damaged-journal");
    let out = dir.join("g.t48");
    let data = dir.join("data");
    let journal = dir.join("g.t48.journal");
    let game = journal_of(&journal, 9, 3);
    let mut bytes = std::fs::read(&journal).unwrap();
    bytes.extend_from_slice(&[7, 0, 1, 2, 3]);
    std::fs::write(&journal, &bytes).unwrap();
    let args = ["play", "-o", s(&out), "--data-dir", s(&data)];
    // Ctrl-C at the question leaves the journal, damage and all.
    let mut pty = Pty::spawn(&args, &[]);
    pty.wait_for(&["Its journal is damaged", "saved as a partial game"]);
    pty.send("\x03");
    assert!(pty.wait_exit().success());
    assert_eq!(std::fs::read(&journal).unwrap(), bytes);
    // Y (as N) saves the three good moves as a partial game, then a new game begins.
    let mut pty = Pty::spawn(&args, &[]);
    let screen = pty.wait_for(&["Its journal is damaged", "5 bytes from offset"]);
    assert!(!screen.contains("Resume it?"), "{screen}");
    pty.send("y");
    pty.wait_for(&["moves 0"]);
    pty.send("qy");
    assert!(pty.wait_exit().success());
    let saved = MoveLog::decode(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(saved.claims.move_count, 3);
    assert_eq!(saved.claims.final_hash, game.state_hash());
    assert!(
        !saved.complete,
        "moves after the damage are lost: a partial log"
    );
    assert!(!journal.exists());
    let verify =
        support::output(Command::new(env!("CARGO_BIN_EXE_twenty48")).args(["verify", s(&out)]));
    let text = String::from_utf8_lossy(&verify.stdout).into_owned()
        + &String::from_utf8_lossy(&verify.stderr);
    assert!(text.contains("partial"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `play --hint` shows the expectimax bot's move (the same bot as `record --bot
/// expectimax` in its default setting), and the saved game says hints were shown: format
/// version 2, read back as hinted. A game played without --hint stays version 1.
#[test]
fn hints_show_the_bots_move_and_mark_the_saved_game() {
    let dir = temp_dir("hint");
    let out = dir.join("game.t48");
    let mut pty = play(&dir, "game.t48", &["--hint"], 5, &[("NO_COLOR", "1")]);
    let mut game = Game::new(Rules::CLASSIC, 5).unwrap();
    let mut bot = twenty48_bot::Bot::expectimax_default(&Rules::CLASSIC);
    for _ in 0..12 {
        let dir = bot.choose(&game).unwrap();
        let arrow = match dir {
            Direction::Up => "↑ up",
            Direction::Right => "→ right",
            Direction::Down => "↓ down",
            Direction::Left => "← left",
        };
        pty.wait_for(&[
            &format!("moves {}", game.move_count()),
            &format!("hint: {arrow}"),
        ]);
        press(&mut pty, &mut game, &[dir]);
    }
    pty.send("q");
    pty.wait_for(&["Really quit? [Y/N]"]);
    pty.send("y");
    assert!(pty.wait_exit().success());
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes[4], 2, "a hinted game is format version 2");
    let log = MoveLog::decode(&bytes).unwrap();
    assert!(log.hinted);
    assert_eq!(log.claims.final_hash, game.state_hash());

    let plain = dir.join("plain.t48");
    let mut pty = play(&dir, "plain.t48", &[], 5, &[("NO_COLOR", "1")]);
    let mut game = Game::new(Rules::CLASSIC, 5).unwrap();
    let first = pty.wait_for(&["moves 0"]);
    assert!(!first.contains("hint:"), "{first}");
    press(&mut pty, &mut game, &[Direction::Left, Direction::Up]);
    pty.send("q");
    pty.wait_for(&["Really quit? [Y/N]"]);
    pty.send("y");
    assert!(pty.wait_exit().success());
    let bytes = std::fs::read(&plain).unwrap();
    assert_eq!(bytes[4], 1);
    assert!(!MoveLog::decode(&bytes).unwrap().hinted);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 28, item 7: `replay --watch` respects the terminal's size as `play` does: an 8x8
/// game in a 60x15 terminal says the size it needs instead of a wrapped, scrolled board;
/// enlarged, it shows the board; Q still quits and the terminal is given back.
#[test]
fn issue28_watch_in_a_too_small_terminal_says_the_size_it_needs() {
    let dir = temp_dir("watch-small");
    let file = dir.join("big.t48");
    let rules = Rules {
        size: 8,
        ..Rules::CLASSIC
    };
    let mut game = Game::new(rules, 8).unwrap();
    let mut moves = Vec::new();
    for dir in Direction::ALL.iter().cycle().take(12) {
        if game.play(*dir).unwrap().moved {
            moves.push(*dir);
        }
    }
    let log = MoveLog::from_moves(rules, 8, &moves, 256).unwrap();
    std::fs::write(&file, log.encode()).unwrap();
    let mut pty = Pty::spawn_sized(&["replay", s(&file), "--watch"], &[], 15, 60);
    // The 8x8 board is 17 lines (8 rows of 2 and a border) and 57 columns; with four lines
    // of text around it, the keys line the widest: 74 columns while playing, 73 once the
    // replay has reached its end and paused ("space: play").
    let screen = pty.wait_for(&["terminal too small: 60x15", "twenty48 needs 73x21"]);
    assert!(
        !screen.contains('┌') && !screen.contains('│'),
        "no board in a terminal too small:\n{screen}"
    );
    pty.resize_and_wait(40, 100, &["twenty48 replay", "└──────┴"]);
    pty.send("q");
    assert!(pty.wait_exit().success());
    assert!(pty.cooked());
    std::fs::remove_dir_all(&dir).unwrap();
}
