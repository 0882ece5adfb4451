//! `twenty48 pull --port` against a fake board on a pseudo-terminal (`twenty48_testkit::board`:
//! protocol v2 frames from a script, good and crafted; issue 26): what the binary on a port
//! adds to the conversation's promises, which are tested below the CLI on a scripted clock
//! (crates/devicelog/tests/conversation.rs: silence, dribbled bytes, reconnections, acks
//! refused or unanswered, the ack window and a board's receive ring, a board without a
//! store, an earlier reply's tail, the longer copy kept) and the library's
//! (crates/devicelog/tests/hostile.rs):
//! - a whole pull on a port: every game written and acknowledged, exit 0;
//! - no pull begin/done (Ctrl-C), an ack refused: exit 1, saying so, in text and JSON;
//! - the raw capture beside a port pull stops at its size cap, saying so;
//! - a port that goes away (a pulled cable) is waited for at most --timeout seconds
//!   (without --follow), then the pull fails as on silence;
//! - an error writing a file names the file (issue 28, item 8);
//! - a capture pull refuses the options of a port pull; `pull --help`.
//!
//! Uses the committed v2 firmware ELF (no QEMU). Every run of the binary is killed after
//! 60 s and on drop.
#![cfg(unix)] // pseudo-terminals and the emulators: Unix only

mod support;
use support::Start as _;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use twenty48_engine::Rules;
use twenty48_testkit::board::{Board, Step};
use twenty48_testkit::frames::{cycle, Frames};

const DEV: u64 = 0x7e57_0000_0000_0001;

fn elf_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../devicelog/tests/data/v2/twenty48-qemu.elf")
}

fn frames() -> Frames {
    Frames::new(&std::fs::read(elf_path()).unwrap(), DEV)
}

/// A test's scratch directory, removed with everything in it when the test ends (passed or
/// failed), so that no run leaves files behind.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("t48-fakeboard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// How long one run of the binary may take before the test kills it and fails.
const LIMIT: Duration = Duration::from_secs(60);

/// A run of `twenty48`, its standard error read as it comes; killed (its process group)
/// when dropped.
struct Run {
    child: Child,
    err: Arc<Mutex<String>>,
    out: Option<std::thread::JoinHandle<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Run {
    fn start(args: &[&str], setup: impl Fn(&mut Command)) -> Run {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_twenty48"));
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        setup(&mut cmd);
        let mut child = cmd.start().expect("twenty48 starts");
        let mut stdout = child.stdout.take().unwrap();
        let out = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let err = Arc::new(Mutex::new(String::new()));
        let mut stderr = child.stderr.take().unwrap();
        let sink = err.clone();
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Run {
            child,
            err,
            out: Some(out),
            reader: Some(reader),
        }
    }

    /// Waits until standard error shows `text`.
    fn wait_for(&self, text: &str) {
        let deadline = Instant::now() + LIMIT;
        while !self.err.lock().unwrap().contains(text) {
            assert!(
                Instant::now() < deadline,
                "no {text:?} within {LIMIT:?}: {}",
                self.err.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Ctrl-C: SIGINT to the process.
    fn interrupt(&self) {
        // SAFETY: kill with a live child's id and a signal number.
        assert_eq!(
            unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) },
            0
        );
    }

    /// Its exit code, standard output and standard error; killed and failed after LIMIT.
    fn finish(mut self) -> (i32, String, String) {
        let deadline = Instant::now() + LIMIT;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                panic!(
                    "twenty48 did not end within {LIMIT:?} (killed): {}",
                    self.err.lock().unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = self.out.take().unwrap().join().unwrap();
        self.reader.take().unwrap().join().unwrap();
        let err = self.err.lock().unwrap().clone();
        (status.code().unwrap_or(-1), out, err)
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        // SAFETY: kill of the child's own process group (it was made its leader).
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// `twenty48 pull --elf ELF --port BOARD -o DIR` and `extra`.
fn pull(board: &Board, dir: &Path, extra: &[&str]) -> Run {
    pull_on(&board.path, dir, extra)
}

/// `twenty48 pull --elf ELF --port PORT -o DIR` and `extra`.
fn pull_on(port: &str, dir: &Path, extra: &[&str]) -> Run {
    let elf = elf_path();
    let mut args = vec![
        "pull",
        "--elf",
        elf.to_str().unwrap(),
        "--port",
        port,
        "-o",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    Run::start(&args, |_| {})
}

/// The files in `dir` whose names start with `prefix`.
fn files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    out.sort();
    out
}

/// A pseudo-terminal standing in for a board whose cable is pulled: its host end (the
/// board's) sends `bytes`, then closes when [`Unplugged::pull_cable`] is called, while the
/// terminal end stays open in the test (so that no other test's pseudo-terminal takes its
/// number while the pull tries to open it again).
struct Unplugged {
    path: String,
    host: Option<std::fs::File>,
    _terminal: std::os::fd::OwnedFd,
}

impl Unplugged {
    fn start() -> Unplugged {
        use twenty48_testkit::pty::{Options, Pty};
        let options = Options {
            raw: true,
            ..Options::default()
        };
        let pty = Pty::open(options).expect("a pseudo-terminal");
        Unplugged {
            path: pty.path().to_string_lossy().into_owned(),
            host: Some(pty.host),
            _terminal: pty.terminal,
        }
    }

    /// Sends `bytes` as the board.
    fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        let host = self.host.as_mut().expect("plugged in");
        host.write_all(bytes).unwrap();
        host.flush().unwrap();
    }

    fn pull_cable(&mut self) {
        self.host = None;
    }
}

/// A pulled cable (the port gone, in the middle of a frame) kept a pull without --follow
/// waiting for the board forever, whatever --timeout said. Now it gives up after
/// --timeout seconds with no port and no frame, reports the reply cut off and exits 1;
/// with --follow it keeps waiting until Ctrl-C.
#[test]
fn a_pulled_cable_ends_a_pull_after_its_timeout_unless_it_follows() {
    let f = frames();
    let (first, _) = f.game(1, &Rules::CLASSIC, 5, &cycle(10), false);
    let (second, _) = f.game(2, &Rules::CLASSIC, 6, &cycle(10), false);
    let mut bytes = f.hello(3, 2, 2);
    bytes.extend(f.begin(2));
    bytes.extend(&first);
    // The second game up to the middle of its last frame.
    bytes.extend(&second[..second.len() - 3]);
    for follow in [false, true] {
        let mut board = Unplugged::start();
        let dir = scratch(&format!("unplugged-{follow}"));
        let extra: &[&str] = if follow {
            &["--timeout", "2", "--follow"]
        } else {
            &["--timeout", "2"]
        };
        let mut run = pull_on(&board.path, &dir, extra);
        run.wait_for("asked");
        board.send(&bytes);
        run.wait_for("game 2: started");
        board.pull_cable();
        run.wait_for("waiting for the board to come back");
        if follow {
            // Past the timeout (2 s after the last frame), it still waits.
            std::thread::sleep(Duration::from_secs(3));
            assert!(run.child.try_wait().unwrap().is_none(), "--follow gave up");
            run.interrupt();
        }
        let (code, _, err) = run.finish();
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("a pull reply announced 2 games and was cut off after 1"),
            "{err}"
        );
        assert_eq!(
            err.contains("went away and did not come back: no port and no frame for 2 s"),
            !follow,
            "{err}"
        );
        assert_eq!(files(&dir, "7e57").len(), 1, "{err}");
    }
}

/// Issue 26: Ctrl-C reported success although no pull ever began. With no pull begin and
/// done it exits 1 and says so.
#[test]
fn ctrl_c_before_any_pull_reply_exits_1_and_says_so() {
    let f = frames();
    let script = vec![Step::Await("{pull}"), Step::Send(f.hello(3, 2, 2))];
    let board = Board::start(script, f);
    let dir = scratch("ctrl-c");
    let run = pull(&board, &dir, &[]);
    run.wait_for("next game 3");
    run.interrupt();
    let (code, _, err) = run.finish();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no pull reply"), "{err}");
}

/// Issue 26: a stream of 0xFF with no separator grew memory and the raw capture file
/// without end. The capture stops at its cap, saying so; the frame buffer is capped by the
/// library (hostile.rs); with no frame the silence timeout ends the pull.
#[test]
fn endless_bytes_stop_the_raw_capture_at_its_cap() {
    let f = frames();
    let script = vec![
        Step::Await("{pull}"),
        Step::Send(f.hello(3, 2, 2)),
        Step::Forever(vec![0xff; 64 * 1024], Duration::from_millis(1)),
    ];
    let board = Board::start(script, f);
    let dir = scratch("endless");
    let (code, _, err) = pull(&board, &dir, &["--timeout", "4", "--raw-limit", "1"]).finish();
    assert_eq!(code, 1, "{err}");
    let raw = files(&dir, "capture-");
    assert_eq!(raw.len(), 1);
    let len = std::fs::metadata(&raw[0]).unwrap().len();
    assert_eq!(len, 1 << 20, "{err}");
    assert!(err.contains("reached its limit of 1 MiB"), "{err}");
    assert!(
        err.contains("more than 4096 bytes without a frame separator"),
        "{err}"
    );
}

/// A whole pull on a port, end to end: every game written, then acknowledged by its own
/// check as the board answers, exit 0, and the JSON report says so.
#[test]
fn a_port_pull_writes_and_acknowledges_every_game() {
    let f = frames();
    let count = 3;
    let (script, checks) = whole_pull(&f, count, 300, 12);
    let board = Board::start(script, f);
    let dir = scratch("whole");
    let (code, out, err) = pull(&board, &dir, &["--timeout", "10", "--json"]).finish();
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(files(&dir, "7e57").len(), count as usize, "{err}");
    let acked: BTreeMap<u32, u32> = board.acks().into_iter().collect();
    assert_eq!(acked, checks, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["all_verified"], true, "{out}");
    assert_eq!(v["acks"]["acked"], serde_json::json!([1, 2, 3]), "{out}");
}

/// Issue 34: a board that answers every acknowledgement with error 6 ("no store") after
/// a reply of its stored games: no game was acknowledged, so the pull fails (exit 1) and
/// says so, in text and in JSON. (It exited 0, `all_verified: true` with empty `acks`: the
/// error was taken for a board without a store.) What the conversation counts, error 6
/// naming the game or not, is devicelog's tests/conversation.rs; here, that the binary
/// fails for it and says so.
#[test]
fn acks_answered_with_error_6_fail_the_pull() {
    for json in [false, true] {
        let f = frames();
        let (mut script, _) = whole_pull(&f, 2, 0, 12);
        script.pop();
        script.push(Step::RefuseAcks(
            twenty48_deviceproto::ErrorCode::NoStore as u8,
            false,
        ));
        let board = Board::start(script, f);
        let dir = scratch(&format!("acks-error6-{json}"));
        let extra: &[&str] = if json {
            &["--timeout", "10", "--json"]
        } else {
            &["--timeout", "10"]
        };
        let (code, out, err) = pull(&board, &dir, extra).finish();
        assert_eq!(code, 1, "{out}{err}");
        assert_eq!(files(&dir, "7e57").len(), 2, "written all the same: {err}");
        if json {
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["all_verified"], false, "{out}");
            assert_eq!(v["acks"]["acked"], serde_json::json!([]), "{out}");
            assert_eq!(v["acks"]["refused"].as_array().unwrap().len(), 2, "{out}");
        } else {
            assert!(err.contains("ACK FAILED: "), "{err}");
            assert!(err.contains("error 6"), "{err}");
            assert!(
                !err.contains("note: the device keeps no game store"),
                "{err}"
            );
        }
    }
}

/// A board's script for a whole pull of `count` classic games (seeds `seed + n`, `moves`
/// moves each), every ack answered, and the check value of each game by its number.
fn whole_pull(f: &Frames, count: u32, seed: u64, moves: usize) -> (Vec<Step>, BTreeMap<u32, u32>) {
    let (reply, checks) = f.whole_reply(count, seed, moves);
    let script = vec![
        Step::Await("{pull}"),
        Step::Send(reply),
        Step::Acks(checks.clone()),
    ];
    (script, checks)
}

/// `twenty48 pull` of the capture file `capture` into `games`, the command set up by `setup`.
fn pull_capture(elf: &Path, capture: &Path, games: &Path, setup: impl Fn(&mut Command)) -> Run {
    let args = [
        "pull",
        "--elf",
        elf.to_str().unwrap(),
        "--capture",
        capture.to_str().unwrap(),
        "-o",
        games.to_str().unwrap(),
    ];
    Run::start(&args, setup)
}

/// Issue 34: `pull --help` named protocol v2; it names the protocol the boards speak, and
/// the exit statuses as the code gives them.
#[test]
fn pull_help_names_protocol_v3_and_every_exit_status() {
    let (code, out, err) = Run::start(&["pull", "--help"], |_| {}).finish();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("protocol v3"), "{out}");
    assert!(!out.contains("(protocol v2)"), "{out}");
    assert!(
        out.contains("2 an input unreadable") && out.contains("every free name taken"),
        "{out}"
    );
}

/// Issue 34: every one of the 1,000 names a game may take already holds another file. The
/// pull stops with exit 2 (an output that cannot be written, as README.md and
/// docs/firmware.md say) and names the file it could not write.
#[test]
fn a_game_with_every_free_name_taken_stops_the_pull_with_exit_2() {
    let dir = scratch("names");
    let capture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../devicelog/tests/data/v2/session.bin");
    let elf = elf_path();
    let pull_into = |games: &Path| pull_capture(&elf, &capture, games, |_| {}).finish();
    let first = dir.join("first");
    let (_, _, err) = pull_into(&first);
    assert!(!files(&first, "7e57").is_empty(), "{err}");
    let name = files(&first, "7e57")[0].file_name().unwrap().to_owned();
    let taken = dir.join("taken");
    std::fs::create_dir_all(&taken).unwrap();
    let base = taken.join(&name);
    for n in 1..=twenty48_movelog::MAX_FREE_NAMES {
        std::fs::write(twenty48_movelog::free_name(&base, n), b"another file").unwrap();
    }
    let (code, _, err) = pull_into(&taken);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&base.display().to_string()), "{err}");
    assert!(
        err.contains("the next 999 free names hold other files"),
        "{err}"
    );
}

/// Issue 28, item 8: a full disk gave "writing a .t48 file: No space left on device",
/// without the file's name. Every error writing a file names it. (The file-size limit
/// stands in for a full disk: the same failed write, no privileges needed.)
#[test]
fn a_write_that_fails_names_the_file() {
    let dir = scratch("full");
    let capture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../devicelog/tests/data/v2/session.bin");
    let games = dir.join("games");
    let elf = elf_path();
    let limited = |cmd: &mut Command| {
        use std::os::unix::process::CommandExt;
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 40,
                    rlim_max: 40,
                };
                libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Ok(())
            });
        }
    };
    let run = pull_capture(&elf, &capture, &games, limited);
    let (code, _, err) = run.finish();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{}/{:016x}-g", games.display(), DEV)),
        "the error names the file: {err}"
    );
    assert!(err.contains("File too large"), "{err}");
    let out = dir.join("game.t48");
    let run = Run::start(
        &[
            "record",
            "--seed",
            "1",
            "--bot",
            "greedy",
            "-o",
            out.to_str().unwrap(),
        ],
        limited,
    );
    let (code, _, err) = run.finish();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&out.display().to_string()), "{err}");
}

/// `just pull-stress` on a port: `twenty48 pull --port` (a release build) against a board
/// that sends a million game starts that never end, then an empty pull reply; prints the
/// pull's time and peak memory (the largest resident set of a child this process waited
/// for: the pull is its only child). Not a test of speed: it asserts only that the pull
/// ended and failed (the games are unfinished).
#[test]
#[ignore]
fn port_stress_a_million_starts_without_ends() {
    const GAMES: u32 = 1_000_000;
    let f = frames();
    let mut starts = f.hello(GAMES + 1, 0, 0);
    for n in 1..=GAMES {
        starts.extend(f.start(n, &Rules::CLASSIC, u64::from(n)).0);
    }
    let mut reply = f.begin(0);
    reply.extend(f.done(0));
    let bytes = starts.len();
    let script = vec![Step::Await("{pull}"), Step::Send(starts), Step::Send(reply)];
    let board = Board::start(script, f);
    let dir = scratch("port-stress");
    let began = Instant::now();
    let (code, _, err) = pull(&board, &dir, &["-q", "--timeout", "30"]).finish();
    let took = began.elapsed();
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage
    };
    assert_eq!(code, 1, "{}", &err[err.len().saturating_sub(2000)..]);
    assert!(
        err.contains("never arrived whole: 998999 more"),
        "{}",
        &err[err.len().saturating_sub(2000)..]
    );
    println!(
        "pull --port, starts ({bytes} bytes, 1,000,001 frames, then an empty reply): {:.2} s, peak RSS {} KiB",
        took.as_secs_f64(),
        usage.ru_maxrss
    );
}

/// A capture has no board to ask, wait for or follow: the options of a port pull are
/// refused with one, never silently ignored; --timeout 0 (a pull that gives up before it
/// starts) is refused; an empty capture fails; a port that cannot be opened writes nothing.
#[test]
fn a_capture_pull_refuses_the_options_of_a_port_pull() {
    let dir = scratch("capture-options");
    let capture = dir.0.join("capture.bin");
    std::fs::write(&capture, b"").unwrap();
    let games = dir.0.join("games");
    for extra in [
        &["--follow"][..],
        &["--all"],
        &["--timeout", "3"],
        &["--baud", "9600"],
        &["--raw-limit", "5"],
        // Given at their defaults, they are still refused: given is given.
        &["--timeout", "15"],
        &["--baud", "115200"],
        &["--raw-limit", "64"],
    ] {
        let run = pull_capture(&elf_path(), &capture, &games, |c| {
            c.args(extra);
        });
        let (code, _, err) = run.finish();
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(
            err.contains(&format!("{} is for a pull from a board", extra[0])),
            "{err}"
        );
        assert!(!games.exists(), "{extra:?}: nothing written");
    }
    let (code, _, err) = pull_on("/dev/null", &games, &["--timeout", "0"]).finish();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--timeout"), "{err}");
    // An empty capture is no pull of nothing: it fails, and says why.
    let (code, _, err) = pull_capture(&elf_path(), &capture, &games, |_| {}).finish();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("holds no frame of a device log"), "{err}");
    let _ = std::fs::remove_dir_all(&games);
    // A port that cannot be opened leaves nothing behind (it left an empty capture file).
    let missing = dir.0.join("no-such-port");
    let (code, _, err) = pull_on(missing.to_str().unwrap(), &games, &[]).finish();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot open serial port"), "{err}");
    assert!(!games.exists(), "nothing written");
}

/// Issue 44: the Windows build's `pull --port COM42` under Wine, whose prefix maps COM42 to
/// the fake board's pseudo-terminal (a `dosdevices/com42` link): the whole conversation on
/// Windows' serial API, every game written and acknowledged. `just windows-test` runs it
/// with the build (T48_WINDOWS_EXE) and its prefix (WINEPREFIX); it fails, never skips,
/// without them.
#[test]
#[ignore = "needs the Windows build and a Wine prefix: `just windows-test` runs it"]
fn the_windows_build_pulls_from_a_com_port_under_wine() {
    let exe = std::env::var("T48_WINDOWS_EXE").expect("T48_WINDOWS_EXE: the Windows twenty48.exe");
    let prefix = std::env::var("WINEPREFIX").expect("WINEPREFIX: the Wine prefix");
    let f = frames();
    let count = 3;
    let (script, checks) = whole_pull(&f, count, 500, 12);
    let board = Board::start(script, f);
    let com = Path::new(&prefix).join("dosdevices/com42");
    let _ = std::fs::remove_file(&com);
    std::os::unix::fs::symlink(&board.path, &com).unwrap();
    let dir = scratch("wine-com");
    let elf = elf_path();
    let mut cmd = Command::new("/usr/lib/wine/wine64");
    cmd.arg(&exe).args([
        "pull",
        "--elf",
        elf.to_str().unwrap(),
        "--port",
        "COM42",
        "-o",
        dir.to_str().unwrap(),
        "--timeout",
        "10",
    ]);
    let out = support::output(&mut cmd);
    let _ = std::fs::remove_file(&com);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(files(&dir, "7e57").len(), count as usize, "{err}");
    let acked: BTreeMap<u32, u32> = board.acks().into_iter().collect();
    assert_eq!(acked, checks, "{err}");
}
