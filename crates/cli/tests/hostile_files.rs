//! Issue 10, items 1-5: no work or data is lost to a closed terminal, a second writer, an
//! existing file, a special file or an output that names an input. Each test drives the real
//! binary.
#![cfg(unix)]

mod support;
use support::Start as _;

use std::fs::{self, File};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use twenty48_engine::{Direction, Rules};
use twenty48_movelog::MoveLog;
use twenty48_tui::{journal_path, Journal};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_twenty48"))
}

fn run(args: &[&str]) -> Output {
    support::output(bin().args(args))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-hostile-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn record(seed: u64, moves: &str, out: &Path) -> Output {
    run(&[
        "record",
        "--seed",
        &seed.to_string(),
        "--moves",
        moves,
        "-o",
        s(out),
    ])
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(s(path)).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// A journal of `moves` real moves for `target`, as a killed `play` leaves it.
fn journal_with(target: &Path, seed: u64, moves: usize) -> Vec<u8> {
    let path = journal_path(target);
    let mut journal = Journal::create(&path, Rules::CLASSIC, seed, 256).unwrap();
    let mut game = twenty48_engine::Game::new(Rules::CLASSIC, seed).unwrap();
    for dir in Direction::ALL.iter().cycle().take(moves * 4) {
        if game.move_count() as usize == moves {
            break;
        }
        if game.play(*dir).unwrap().moved {
            journal.append(*dir).unwrap();
        }
    }
    drop(journal);
    support::unlocked(&path);
    fs::read(&path).unwrap()
}

// ---- the pseudo-terminal helper (after play_pty.rs), read without a thread so that the
// ---- test can hang up the terminal by closing the master

const ROWS: u16 = 40;
const COLS: u16 = 160;

struct Pty {
    master: Option<File>,
    child: Child,
    output: Vec<u8>,
}

struct PtyOptions<'a> {
    /// Make the pty the controlling terminal (closing it then sends SIGHUP).
    ctty: bool,
    /// Where stderr goes; the pty when `None`.
    stderr: Option<&'a Path>,
}

impl Pty {
    fn spawn(args: &[&str], opts: PtyOptions) -> Pty {
        let pty = twenty48_testkit::pty::Pty::open(twenty48_testkit::pty::Options {
            size: Some((ROWS, COLS)),
            nonblocking: true,
            ..Default::default()
        })
        .expect("a pseudo-terminal");
        let (master, slave) = (pty.host, pty.terminal);
        let mut cmd = bin();
        let err = match opts.stderr {
            Some(p) => Stdio::from(fs::OpenOptions::new().write(true).open(p).unwrap()),
            None => Stdio::from(slave.try_clone().unwrap()),
        };
        cmd.args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("TERM", "xterm-256color")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave))
            .stderr(err);
        let ctty = opts.ctty;
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if ctty && libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // No copy of a pty master (this test's or another's) may live on in the
                // child, or closing the master would not hang the terminal up.
                for fd in 3..1024 {
                    if libc::isatty(fd) == 1 {
                        libc::close(fd);
                    }
                }
                Ok(())
            });
        }
        let child = cmd.start().expect("spawn twenty48");
        drop(cmd);
        Pty {
            master: Some(master),
            child,
            output: Vec::new(),
        }
    }

    fn drain(&mut self) {
        let Some(master) = &mut self.master else {
            return;
        };
        let mut buf = [0u8; 4096];
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            self.output.extend_from_slice(&buf[..n]);
        }
    }

    fn send(&mut self, keys: &str) {
        let master = self.master.as_mut().unwrap();
        master.write_all(keys.as_bytes()).unwrap();
    }

    fn screen(&mut self) -> String {
        self.drain();
        let mut parser = vt100::Parser::new(
            std::num::NonZeroU16::new(ROWS).unwrap(),
            std::num::NonZeroU16::new(COLS).unwrap(),
            0,
        );
        parser.process(&self.output);
        parser.screen().contents()
    }

    fn all_output(&mut self) -> String {
        self.drain();
        String::from_utf8_lossy(&self.output).into_owned()
    }

    fn wait_for(&mut self, texts: &[&str]) -> String {
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

    /// Waits at most `limit` for the program to end.
    fn exit_within(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            self.drain();
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Closes the terminal, as a closed window or a dropped SSH connection does.
    fn hang_up(&mut self) {
        self.master = None;
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn play(dir: &Path, out: &Path, seed: u64, opts: PtyOptions) -> Pty {
    let data = dir.join("data");
    let seed = seed.to_string();
    Pty::spawn(
        &[
            "play",
            "--seed",
            &seed,
            "-o",
            s(out),
            "--data-dir",
            s(&data),
        ],
        opts,
    )
}

const ON_PTY: PtyOptions<'static> = PtyOptions {
    ctty: true,
    stderr: None,
};

/// Plays real moves from the opening of `seed` until `count` moves show; returns them.
fn make_moves(pty: &mut Pty, seed: u64, count: u32) -> Vec<Direction> {
    let mut game = twenty48_engine::Game::new(Rules::CLASSIC, seed).unwrap();
    let mut made = Vec::new();
    for dir in Direction::ALL.iter().cycle() {
        if game.move_count() == count {
            break;
        }
        if game.play(*dir).unwrap().moved {
            let key = match dir {
                Direction::Up => "w",
                Direction::Left => "a",
                Direction::Right => "d",
                Direction::Down => "s",
            };
            pty.send(key);
            pty.wait_for(&[&format!("moves {}", game.move_count())]);
            made.push(*dir);
        }
    }
    made
}

fn journal_moves(path: &Path) -> u32 {
    twenty48_tui::recover(path, &fs::read(path).unwrap())
        .unwrap()
        .log
        .claims
        .move_count
}

// ---- item 2: nothing is replaced without --force

#[test]
fn issue_10_two_records_at_once_never_replace_each_other() {
    let dir = temp_dir("record-race");
    for round in 0..20 {
        let out = dir.join(format!("same-{round}.t48"));
        let spawn = |seed: &str| {
            bin()
                .args(["record", "--seed", seed, "--bot", "greedy", "-o", s(&out)])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .start()
                .unwrap()
        };
        let (a, b) = (spawn("1"), spawn("2"));
        let (a, b) = (support::finish(a), support::finish(b));
        let ok: Vec<&Output> = [&a, &b]
            .into_iter()
            .filter(|o| o.status.success())
            .collect();
        assert_eq!(
            ok.len(),
            1,
            "round {round}: exactly one record may write the file"
        );
        let failed = if a.status.success() { &b } else { &a };
        assert!(
            stderr(failed).contains("already exists"),
            "{}",
            stderr(failed)
        );
    }
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 20, "no temp file left");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue_10_record_keeps_a_file_created_after_it_started() {
    let dir = temp_dir("record-late");
    let moves = dir.join("moves.fifo");
    mkfifo(&moves);
    let out = dir.join("g.t48");
    let child = bin()
        .args([
            "record",
            "--seed",
            "3",
            "--moves-file",
            s(&moves),
            "-o",
            s(&out),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .start()
        .unwrap();
    // record has checked the output and now waits for its moves; the file appears meanwhile.
    std::thread::sleep(Duration::from_millis(300));
    fs::write(&out, b"someone else's file").unwrap();
    File::options()
        .write(true)
        .open(&moves)
        .unwrap()
        .write_all(b"LURD")
        .unwrap();
    let result = support::finish(child);
    assert!(!result.status.success());
    assert!(
        stderr(&result).contains("already exists"),
        "{}",
        stderr(&result)
    );
    assert_eq!(fs::read(&out).unwrap(), b"someone else's file");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue_10_replay_svg_never_replaces_the_game_or_an_existing_file() {
    let dir = temp_dir("replay-svg");
    let game = dir.join("g.t48");
    assert!(record(5, "LURDLURD", &game).status.success());
    let before = fs::read(&game).unwrap();
    for force in [false, true] {
        let mut args = vec!["replay", s(&game), "--svg", s(&game)];
        if force {
            args.push("--force");
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
        assert_eq!(fs::read(&game).unwrap(), before);
    }
    let svg = dir.join("b.svg");
    fs::write(&svg, b"mine").unwrap();
    let out = run(&["replay", s(&game), "--svg", s(&svg)]);
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(fs::read(&svg).unwrap(), b"mine");
    assert!(run(&["replay", s(&game), "--svg", s(&svg), "--force"])
        .status
        .success());
    assert!(fs::read_to_string(&svg).unwrap().contains("<svg"));
    fs::remove_dir_all(&dir).unwrap();
}

/// stats --svg --force replaced the game it was counting, named or found in a directory.
#[test]
fn stats_svg_never_replaces_a_game_it_counts() {
    let dir = temp_dir("stats-svg");
    let game = dir.join("g.t48");
    assert!(record(5, "LURDLURD", &game).status.success());
    let before = fs::read(&game).unwrap();
    for input in [&game, &dir] {
        let out = run(&["stats", s(input), "--svg", s(&game), "--force"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
        assert_eq!(fs::read(&game).unwrap(), before);
    }
    let svg = dir.join("tiles.svg");
    assert!(run(&["stats", s(&dir), "--svg", s(&svg)]).status.success());
    assert!(fs::read_to_string(&svg).unwrap().contains("<svg"));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue_10_diff_svg_and_man_dir_need_force_to_overwrite() {
    let dir = temp_dir("diff-man");
    let game = dir.join("g.t48");
    assert!(record(5, "LURDLURD", &game).status.success());
    let svg = dir.join("d.svg");
    fs::write(&svg, b"mine").unwrap();
    let out = run(&["diff", s(&game), "--svg", s(&svg)]);
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(fs::read(&svg).unwrap(), b"mine");
    let out = run(&["diff", s(&game), "--svg", s(&game), "--force"]);
    assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
    assert!(run(&["diff", s(&game), "--svg", s(&svg), "--force"])
        .status
        .success());
    assert!(fs::read_to_string(&svg).unwrap().contains("<svg"));

    let man = dir.join("man");
    fs::create_dir(&man).unwrap();
    fs::write(man.join("twenty48-play.1"), b"mine").unwrap();
    let out = run(&["man", "--dir", s(&man)]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(fs::read(man.join("twenty48-play.1")).unwrap(), b"mine");
    assert_eq!(fs::read_dir(&man).unwrap().count(), 1, "nothing written");
    assert!(run(&["man", "--dir", s(&man), "--force"]).status.success());
    assert_ne!(fs::read(man.join("twenty48-play.1")).unwrap(), b"mine");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue_10_declining_to_resume_never_replaces_the_existing_game() {
    let dir = temp_dir("resume-no");
    let out = dir.join("p.t48");
    assert!(record(8, "LURDLURDLURDLURD", &out).status.success());
    let existing = fs::read(&out).unwrap();
    journal_with(&out, 21, 6);
    let mut pty = play(&dir, &out, 21, ON_PTY);
    pty.wait_for(&["An unfinished game was found", "Resume it? [Y/N]"]);
    pty.send("n");
    pty.wait_for(&["moves 0"]);
    pty.send("\x03");
    let status = pty.exit_within(Duration::from_secs(20)).expect("exit");
    assert!(status.success(), "{status}");
    assert_eq!(fs::read(&out).unwrap(), existing, "p.t48 is untouched");
    let saved = dir.join("p-2.t48");
    let log = MoveLog::decode(&fs::read(&saved).unwrap()).unwrap();
    assert_eq!((log.seed, log.claims.move_count), (21, 6));
    let text = pty.all_output();
    assert!(
        text.contains("saved as") && text.contains("p-2.t48"),
        "{text}"
    );
    assert!(!journal_path(&out).exists());
    fs::remove_dir_all(&dir).unwrap();
}

// ---- item 5: recover never writes over its own journal

#[test]
fn issue_10_recover_refuses_to_write_over_its_own_journal() {
    let dir = temp_dir("recover-self");
    let target = dir.join("j.t48");
    let bytes = journal_with(&target, 4, 5);
    let journal = journal_path(&target);
    let link = dir.join("other-name.t48");
    fs::hard_link(&journal, &link).unwrap();
    for out in [&journal, &link] {
        let result = run(&["recover", s(&journal), "-o", s(out), "--force"]);
        assert_eq!(result.status.code(), Some(2), "{}", stderr(&result));
        assert!(
            stderr(&result).contains("is the input"),
            "{}",
            stderr(&result)
        );
        assert_eq!(fs::read(&journal).unwrap(), bytes, "the journal is kept");
    }
    let result = run(&["recover", s(&journal)]);
    assert!(result.status.success(), "{}", stderr(&result));
    let log = MoveLog::decode(&fs::read(&target).unwrap()).unwrap();
    assert_eq!(log.claims.move_count, 5);
    fs::remove_dir_all(&dir).unwrap();
}

/// A damaged journal (a byte that is not a move, then real moves) is recovered up to the
/// damage as a partial log: the moves after it are lost, so the file never claims to be the
/// whole game (the JSON says `complete: false`, `inspect` says `complete: no`).
#[test]
fn a_damaged_journal_is_recovered_as_a_partial_log() {
    let dir = temp_dir("recover-damaged");
    let target = dir.join("d.t48");
    let mut bytes = journal_with(&target, 4, 5);
    let good = bytes.len();
    bytes.extend_from_slice(&[0, 3, 2, 1, 7, 3, 2, 1, 0, 3]);
    let journal = journal_path(&target);
    fs::write(&journal, &bytes).unwrap();
    let result = run(&["recover", s(&journal), "--json"]);
    assert!(result.status.success(), "{}", stderr(&result));
    let doc: serde_json::Value = serde_json::from_slice(&result.stdout).unwrap();
    assert_eq!(doc["complete"], false, "{doc}");
    let offset = doc["damage"]["offset"].as_u64().unwrap() as usize;
    assert!(offset >= good && offset < bytes.len(), "{doc}");
    let log = MoveLog::decode(&fs::read(&target).unwrap()).unwrap();
    assert!(!log.complete);
    assert_eq!(doc["moves"], log.claims.move_count);
    let inspect = run(&["inspect", s(&target)]);
    assert!(
        String::from_utf8_lossy(&inspect.stdout).contains("complete:    no"),
        "{}",
        String::from_utf8_lossy(&inspect.stdout)
    );
    // Whole, it is complete.
    let whole = dir.join("w.t48");
    journal_with(&whole, 4, 5);
    let result = run(&["recover", s(&journal_path(&whole)), "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&result.stdout).unwrap();
    assert_eq!(doc["complete"], true, "{doc}");
    assert!(
        MoveLog::decode(&fs::read(&whole).unwrap())
            .unwrap()
            .complete
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// `recover -o -` writes the game to standard output, which may be closed (the process then
/// writes to /dev/null) or a pipe nobody reads: the journal is kept, and the note says so.
#[test]
fn recover_to_standard_output_keeps_the_journal() {
    let dir = temp_dir("recover-stdout");
    let target = dir.join("s.t48");
    let bytes = journal_with(&target, 4, 5);
    let journal = journal_path(&target);
    let result = run(&["recover", s(&journal), "-o", "-"]);
    assert!(result.status.success(), "{}", stderr(&result));
    let log = MoveLog::decode(&result.stdout).unwrap();
    assert_eq!(log.claims.move_count, 5);
    assert!(stderr(&result).contains("is kept"), "{}", stderr(&result));
    assert_eq!(fs::read(&journal).unwrap(), bytes, "the journal is kept");
    // An output that is no regular file is named as such, and --force is not offered.
    let fifo = dir.join("fifo.t48");
    mkfifo(&fifo);
    let result = run(&["recover", s(&journal), "-o", s(&fifo)]);
    assert_eq!(result.status.code(), Some(2), "{}", stderr(&result));
    assert!(stderr(&result).contains("is a FIFO"), "{}", stderr(&result));
    assert!(
        !stderr(&result).contains("use --force"),
        "{}",
        stderr(&result)
    );
    // With --json the game still has standard output to itself; the JSON is on stderr.
    let result = run(&["recover", s(&journal), "-o", "-", "--json"]);
    assert!(result.status.success(), "{}", stderr(&result));
    assert_eq!(MoveLog::decode(&result.stdout).unwrap(), log);
    let doc: serde_json::Value = serde_json::from_slice(&result.stderr).unwrap();
    assert_eq!(doc["moves"], 5);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue_10_recover_refuses_a_journal_a_running_play_holds() {
    let dir = temp_dir("recover-live");
    let out = dir.join("p.t48");
    let mut player = play(&dir, &out, 17, ON_PTY);
    player.wait_for(&["moves 0"]);
    let made = make_moves(&mut player, 17, 3);
    let journal = journal_path(&out);
    let before = fs::read(&journal).unwrap();

    let result = run(&["recover", s(&journal), "--keep"]);
    assert_eq!(result.status.code(), Some(2), "{}", stderr(&result));
    let text = stderr(&result);
    assert!(
        text.contains("is in use") && text.contains("p.t48.journal"),
        "{text}"
    );
    assert_eq!(
        fs::read(&journal).unwrap(),
        before,
        "the journal is untouched"
    );
    assert!(!out.exists(), "no game is written from a live journal");

    // Once the session has ended, its game is the player's own.
    player.send("\x03");
    let status = player.exit_within(Duration::from_secs(20)).expect("exit");
    assert!(status.success(), "{status}");
    let log = MoveLog::decode(&fs::read(&out).unwrap()).unwrap();
    assert_eq!(log.moves, made);
    fs::remove_dir_all(&dir).unwrap();
}

// ---- item 4: --force replaces regular files only

#[test]
fn issue_10_force_never_replaces_anything_but_a_regular_file() {
    let dir = temp_dir("special");
    let fifo = dir.join("fifo.t48");
    mkfifo(&fifo);
    let sub = dir.join("dir.t48");
    fs::create_dir(&sub).unwrap();
    let sock = dir.join("sock.t48");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let real = dir.join("real.t48");
    fs::write(&real, b"the link's target").unwrap();
    let link = dir.join("link.t48");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let cases = [
        (&fifo, "a FIFO"),
        (&sub, "a directory"),
        (&sock, "a socket"),
        (&link, "a symbolic link"),
    ];
    for (path, kind) in cases {
        // Without --force too: the error says what the path is, and offers no --force.
        for force in [&["--force"][..], &[]] {
            let args = ["record", "--seed", "1", "--moves", "LURD", "-o", s(path)];
            let result = run(&[&args[..], force].concat());
            assert_eq!(result.status.code(), Some(2), "{}", stderr(&result));
            let text = stderr(&result);
            assert!(
                text.contains(kind) && text.contains("only replaces regular files"),
                "{text}"
            );
            assert!(!text.contains("use --force"), "{text}");
        }
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(fs::symlink_metadata(&sub).unwrap().is_dir());
    assert!(fs::symlink_metadata(&sock).unwrap().file_type().is_socket());
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read(&real).unwrap(), b"the link's target");
    // The same check guards recover, replay --svg and diff --svg.
    let game = dir.join("g.t48");
    assert!(record(2, "LURD", &game).status.success());
    for args in [
        vec!["replay", s(&game), "--svg", s(&fifo), "--force"],
        vec!["diff", s(&game), "--svg", s(&fifo), "--force"],
    ] {
        let result = run(&args);
        assert!(stderr(&result).contains("a FIFO"), "{}", stderr(&result));
    }
    journal_with(&dir.join("j.t48"), 3, 2);
    let result = run(&[
        "recover",
        s(&journal_path(&dir.join("j.t48"))),
        "-o",
        s(&fifo),
        "--force",
    ]);
    assert!(stderr(&result).contains("a FIFO"), "{}", stderr(&result));
    assert!(journal_path(&dir.join("j.t48")).exists());
    // A regular file is replaced.
    assert!(run(&[
        "record",
        "--seed",
        "1",
        "--moves",
        "LURD",
        "-o",
        s(&real),
        "--force"
    ])
    .status
    .success());
    assert!(MoveLog::decode(&fs::read(&real).unwrap()).is_ok());
    fs::remove_dir_all(&dir).unwrap();
}

// ---- item 1: a closed terminal ends play promptly, keeping the journal

fn play_ends_when_the_terminal_goes(name: &str, ctty: bool) {
    let dir = temp_dir(name);
    let out = dir.join("p.t48");
    let mut pty = play(&dir, &out, 11, PtyOptions { ctty, stderr: None });
    pty.wait_for(&["moves 0"]);
    make_moves(&mut pty, 11, 3);
    pty.hang_up();
    let status = pty.exit_within(Duration::from_secs(5));
    assert!(
        status.is_some(),
        "play still runs 5 s after its terminal went away"
    );
    assert_eq!(journal_moves(&journal_path(&out)), 3, "the journal is kept");
    assert!(!out.exists());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue_10_play_ends_when_its_terminal_hangs_up() {
    // The pty is the controlling terminal: closing it sends SIGHUP too.
    play_ends_when_the_terminal_goes("hangup", true);
}

#[test]
fn issue_10_play_ends_at_end_of_input_without_a_signal() {
    // No controlling terminal: no SIGHUP, only end of file / EIO on stdin.
    play_ends_when_the_terminal_goes("eof", false);
}

#[test]
fn issue_10_sigterm_ends_play_even_when_stderr_fails() {
    let dir = temp_dir("sigterm");
    let out = dir.join("p.t48");
    let full = Path::new("/dev/full");
    let mut pty = play(
        &dir,
        &out,
        12,
        PtyOptions {
            ctty: true,
            stderr: Some(full),
        },
    );
    pty.wait_for(&["moves 0"]);
    make_moves(&mut pty, 12, 2);
    // SAFETY: a signal to our own child.
    assert_eq!(
        unsafe { libc::kill(pty.child.id() as i32, libc::SIGTERM) },
        0
    );
    let status = pty.exit_within(Duration::from_secs(5));
    assert!(status.is_some(), "play still runs 5 s after SIGTERM");
    assert_eq!(journal_moves(&journal_path(&out)), 2, "the journal is kept");
    fs::remove_dir_all(&dir).unwrap();
}

// ---- item 3: one session per journal

#[test]
fn issue_10_a_second_play_of_a_live_game_is_refused_and_touches_nothing() {
    let dir = temp_dir("two-players");
    let out = dir.join("p.t48");
    let mut first = play(&dir, &out, 13, ON_PTY);
    first.wait_for(&["moves 0"]);
    let made = make_moves(&mut first, 13, 3);
    let journal = journal_path(&out);
    let before = fs::read(&journal).unwrap();

    let mut second = play(&dir, &out, 13, ON_PTY);
    let status = second
        .exit_within(Duration::from_secs(20))
        .expect("the second play ends by itself");
    assert!(!status.success(), "{status}");
    let text = second.all_output();
    assert!(
        text.contains("is in use") && text.contains("p.t48.journal"),
        "{text}"
    );
    assert!(!text.contains("Resume it?"), "{text}");
    assert_eq!(
        fs::read(&journal).unwrap(),
        before,
        "the journal is untouched"
    );

    // The first player goes on and saves a game of its own moves only.
    let mut game = twenty48_engine::Game::new(Rules::CLASSIC, 13).unwrap();
    for dir in &made {
        game.play(*dir).unwrap();
    }
    first.send("\x03");
    let status = first.exit_within(Duration::from_secs(20)).expect("exit");
    assert!(status.success(), "{status}");
    let log = MoveLog::decode(&fs::read(&out).unwrap()).unwrap();
    assert_eq!(log.moves, made);
    assert_eq!(log.claims.final_hash, game.state_hash());
    assert!(!journal.exists());
    fs::remove_dir_all(&dir).unwrap();
}
