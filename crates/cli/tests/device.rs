//! `twenty48 pull` and `twenty48 diff --elf` through the real binary, on captures the
//! firmware makes under QEMU (protocol v2), and the pull conversation with the QEMU board on
//! a pseudo-terminal. Needs `qemu-system-arm` and the thumbv6m target: fails, never skips,
//! without them.
#![cfg(unix)] // pseudo-terminals and the emulators: Unix only

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use twenty48_devicelog::decode_capture;

fn firmware_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-device-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds the QEMU firmware once and returns a copy of its ELF, named by its contents (a
/// rebuild in the firmware tree while the tests run must not change it under them).
fn elf() -> &'static Path {
    static ELF: OnceLock<PathBuf> = OnceLock::new();
    ELF.get_or_init(|| {
        use std::hash::{Hash, Hasher};
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
        let bytes = std::fs::read(target.join("thumbv6m-none-eabi/release/twenty48-qemu")).unwrap();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        bytes.hash(&mut h);
        let copy = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("t48-twenty48-qemu-{:016x}.elf", h.finish()));
        if !copy.exists() {
            let tmp = copy.with_extension(format!("{}.part", std::process::id()));
            std::fs::write(&tmp, &bytes).unwrap();
            std::fs::rename(&tmp, &copy).unwrap();
        }
        copy
    })
}

fn qemu_command(flash: &Path, serial: &str) -> Command {
    let mut cmd = Command::new("qemu-system-arm");
    cmd.args(["-M", "lm3s6965evb", "-display", "none", "-monitor", "none"])
        .args([
            "-semihosting-config",
            &format!(
                "enable=on,target=native,arg=twenty48-qemu,arg=flash={},arg=sectors=8",
                flash.display()
            ),
            "-serial",
            serial,
        ])
        .arg("-kernel")
        .arg(elf());
    cmd
}

/// A child process killed and reaped when dropped: no test leaves QEMU behind.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Plays `script` on the firmware under QEMU with the flash file `flash`; returns the capture.
fn capture(script: &str, flash: &Path) -> Vec<u8> {
    use std::io::{Read, Write};
    let child = qemu_command(flash, "stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("qemu-system-arm could not be started ({e}); install it (Debian: apt-get install qemu-system-arm)")
        });
    let mut child = Reaped(child);
    let mut stdin = child.0.stdin.take().unwrap();
    let script = script.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&script);
    });
    let mut stdout = child.0.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.0.try_wait().unwrap() {
            assert!(status.success(), "QEMU exited with {status}");
            break;
        }
        assert!(Instant::now() < deadline, "QEMU did not finish within 60 s");
        std::thread::sleep(Duration::from_millis(10));
    }
    writer.join().unwrap();
    reader.join().unwrap()
}

/// Runs `twenty48 args`, killed after 60 s.
fn twenty48(args: &[&str]) -> (i32, String, String) {
    twenty48_with(args, &[])
}

/// Runs `twenty48 args` with the environment variables `env` set, killed after 60 s.
fn twenty48_with(args: &[&str], env: &[(&str, &Path)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twenty48"));
    for (key, value) in env {
        cmd.env(key, value);
    }
    let child = cmd
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let watchdog = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            if !Path::new(&format!("/proc/{pid}")).exists() {
                return false;
            }
        }
        let _ = Command::new("kill").arg(pid.to_string()).status();
        true
    });
    let out = child.wait_with_output().unwrap();
    let _ = watchdog.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `twenty48 pull --elf ELF --capture CAPTURE -o OUT` and `extra` flags.
fn pull(capture: &Path, out: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "pull",
        "--elf",
        s(elf()),
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

fn t48_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| n.ends_with(".t48"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Four games: the first won at 16 within its presses, the rest of that line starts a
/// start-screen game (seed 1) that the next `{new}` abandons, then classic, then console
/// ended by `{end}`.
const SCRIPT: &str = "{new seed=42 rules=arduino win=4}\nLDRULDRULDRULDRU\n{new seed=7 rules=classic}\nLLUURRDDLURDLURD\n{new seed=9 rules=console}\nUUUULLLLDDDDRRRR\n{end}\nq\n";

const DEV: &str = "7e57000000000001";

/// The frames of a capture (start, end: the bytes before each 0x00) and the game each names
/// (a start, move, end or partial frame), read by decoding each frame alone.
fn frames_by_game(bytes: &[u8]) -> Vec<(usize, usize, Option<u32>)> {
    let elf = std::fs::read(elf()).unwrap();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == 0 {
            if i > start {
                let alone = decode_capture(&elf, &bytes[start..=i]).unwrap();
                let game = alone
                    .games
                    .first()
                    .map(|g| g.number)
                    .or_else(|| alone.damage.first().and_then(|d| d.game));
                out.push((start, i, game));
            }
            start = i + 1;
        }
    }
    out
}

#[test]
fn pull_writes_one_verified_log_per_device_game() {
    let dir = scratch("pull");
    let cap = dir.join("capture.bin");
    std::fs::write(&cap, capture(SCRIPT, &dir.join("flash.bin"))).unwrap();
    let games = dir.join("games");
    let (code, out, err) = pull(&cap, &games, &[]);
    assert_eq!(code, 0, "{out}{err}");
    let files = t48_files(&games);
    assert_eq!(
        files,
        (1..=4)
            .map(|n| format!("{DEV}-g{n:06}.t48"))
            .collect::<Vec<_>>()
    );
    let (code, verdicts, _) = twenty48(&["verify", s(&games)]);
    assert_eq!(code, 0, "{verdicts}");
    assert!(!verdicts.contains("partial"), "{verdicts}");
    // Again: nothing written twice.
    let (code, _, err) = pull(&cap, &games, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 written, 4 already pulled"), "{err}");

    // The device and the host agree on every game; a log against another game differs.
    for n in 1..=4 {
        let (code, out, err) =
            twenty48(&["diff", s(&cap), "--elf", s(elf()), "--game", &n.to_string()]);
        assert_eq!(code, 0, "game {n}: {out}{err}");
        assert!(out.starts_with("identical"), "{out}");
    }
    let first = games.join(&files[0]);
    let (code, out, _) = twenty48(&["diff", s(&cap), s(&first), "--elf", s(elf()), "--game", "2"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("part at move"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Damaged and doctored captures through the binary: a whole game removed, a separator
/// dropped, a game duplicated, two captures concatenated (one device; then two flashes
/// that reuse the numbers: conflicts).
#[test]
fn pull_reports_losses_merges_duplicates_and_conflicts() {
    let dir = scratch("doctored");
    let flash = dir.join("flash.bin");
    let a = capture(SCRIPT, &flash);
    let frames = frames_by_game(&a);
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let run = |name: &str, bytes: &[u8], extra: &[&str]| {
        let cap = write(name, bytes);
        let out = dir.join(format!("{name}.out"));
        let (code, stdout, err) = pull(&cap, &out, extra);
        (code, format!("{stdout}{err}"), out)
    };

    // A whole game removed: game 2's frames cut out.
    let g2: Vec<_> = frames.iter().filter(|f| f.2 == Some(2)).collect();
    let (from, to) = (g2[0].0, g2.last().unwrap().1 + 1);
    let mut removed = a[..from].to_vec();
    removed.extend_from_slice(&a[to..]);
    let (code, report, out) = run("removed.bin", &removed, &[]);
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains(&format!(
            "LOST: device {DEV} game 2 was never received complete"
        )),
        "{report}"
    );
    assert_eq!(t48_files(&out).len(), 3);

    // A separator dropped between two move frames of game 1: merged, reported, game 1 lost.
    let g1: Vec<_> = frames.iter().filter(|f| f.2 == Some(1)).collect();
    let sep = g1[3].1;
    let mut merged = a.clone();
    merged.remove(sep);
    let (code, report, out) = run("merged.bin", &merged, &["--json"]);
    assert_eq!(code, 1, "{report}");
    assert!(report.contains("merged frames"), "{report}");
    assert!(!t48_files(&out).contains(&format!("{DEV}-g000001.t48")));

    // A game duplicated: written once, reported, not a failure.
    let mut twice = a.clone();
    twice.extend_from_slice(&a[from..to]);
    let (code, report, out) = run("twice.bin", &twice, &[]);
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains(&format!("duplicate: device {DEV} game 2 received again")),
        "{report}"
    );
    assert_eq!(t48_files(&out).len(), 4);
    // Issue 47: text and JSON count the same things under the same names: four games
    // received, in five copies (the text said "5 games received").
    assert!(
        report.contains("4 games received (0 partial), in 5 copies: 5 verified, 0 unverified"),
        "{report}"
    );
    let (_, report, _) = run("twice-json.bin", &twice, &["--json"]);
    let json: serde_json::Value =
        serde_json::from_str(&report[..report.rfind('}').unwrap() + 1]).unwrap();
    assert_eq!(json["received"], 4, "{report}");
    assert_eq!(
        json["copies"],
        serde_json::json!({"received": 5, "verified": 5, "unverified": 0, "written": 4,
                           "already_pulled": 0}),
        "{report}"
    );

    // Two captures of one device concatenated: the second session pulls everything again
    // and plays one more game: duplicates, five games, no failure.
    let b = capture(
        "{new seed=5 win=5}\nLDRULDRULDRU\n{end}\n{pull all}\nq\n",
        &flash,
    );
    let mut both = a.clone();
    both.extend_from_slice(&b);
    let (code, report, out) = run("concatenated.bin", &both, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(t48_files(&out).len(), 5, "{report}");
    assert!(report.contains("duplicate:"), "{report}");

    // Two flashes, the same numbers, other games: conflicts, nothing written as complete
    // for them, exit 1.
    let other = capture(
        "{new seed=77 rules=classic}\nLURDLURD\n{end}\nq\n",
        &dir.join("other-flash.bin"),
    );
    let mut clash = a.clone();
    clash.extend_from_slice(&other);
    let (code, report, out) = run("conflict.bin", &clash, &["--json"]);
    assert_eq!(code, 1, "{report}");
    let json: serde_json::Value =
        serde_json::from_str(&report[..report.rfind('}').unwrap() + 1]).unwrap();
    assert_eq!(json["conflicts"][0]["game"], 1, "{report}");
    assert!(!t48_files(&out).contains(&format!("{DEV}-g000001.t48")));
    assert!(t48_files(&out).contains(&format!("{DEV}-g000002.t48")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// QEMU with the flash file `flash`, its serial port on a pseudo-terminal (`pty_of`).
fn qemu_on_pty(flash: &Path) -> Reaped {
    Reaped(
        qemu_command(flash, "pty")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("qemu-system-arm starts"),
    )
}

/// The pty QEMU serves its serial port on: it names it ("char device redirected to
/// /dev/pts/N") on stdout or stderr.
fn pty_of(child: &mut Reaped) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    for stream in [
        Box::new(child.0.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.0.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if let Some(at) = line.find("/dev/pts/") {
                    let pty: String = line[at..].split_whitespace().next().unwrap().into();
                    let _ = tx.send(pty);
                }
            }
        });
    }
    rx.recv_timeout(Duration::from_secs(30))
        .expect("QEMU names its pty")
}

/// Opens a board's pseudo-terminal in raw mode and types `bytes` into it, as a user at the
/// board's buttons would. Raw, because in the default cooked mode the terminal echoes every
/// byte the board logs back to the board as input: its own frames read as presses, and a
/// `q` among them ends its script. Keep the file open until the pull that follows has run:
/// QEMU stops reading and writing a pseudo-terminal whose last user closed it (the board's
/// log is dropped, the typed bytes wait), and the bytes it writes meanwhile stay in the
/// terminal for the pull to read in order, ahead of the answers to its own requests.
fn type_into(pty: &str, bytes: &[u8]) -> std::fs::File {
    use std::io::Write as _;
    use std::os::fd::AsRawFd as _;
    let mut link = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(pty)
        .unwrap();
    // SAFETY: the descriptor is open for the calls; `termios` is filled by tcgetattr before
    // it is read.
    unsafe {
        let mut termios = std::mem::zeroed::<libc::termios>();
        assert_eq!(libc::tcgetattr(link.as_raw_fd(), &mut termios), 0);
        libc::cfmakeraw(&mut termios);
        assert_eq!(
            libc::tcsetattr(link.as_raw_fd(), libc::TCSANOW, &termios),
            0
        );
    }
    link.write_all(bytes).unwrap();
    link.flush().unwrap();
    link
}

/// The conversation through the real CLI: QEMU on a pseudo-terminal with a flash file a
/// scripted run filled; `twenty48 pull --port` asks, writes, acknowledges; a second pull
/// gets nothing new; `--all` gets everything again, already pulled.
#[test]
fn pull_on_a_port_writes_then_acknowledges() {
    let dir = scratch("port");
    let flash = dir.join("flash.bin");
    // The console game is in progress when the script ends: stored as interrupted.
    capture(&SCRIPT.replace("{end}\n", ""), &flash);
    let mut child = qemu_on_pty(&flash);
    let pty = pty_of(&mut child);
    let games = dir.join("games");
    let port_pull = |extra: &[&str]| {
        let mut args = vec!["pull", "--elf", s(elf()), "--port", &pty, "-o", s(&games)];
        args.extend_from_slice(extra);
        twenty48(&args)
    };
    let (code, out, err) = port_pull(&["--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        json["acks"]["acked"],
        serde_json::json!([1, 2, 3, 4]),
        "{out}"
    );
    // The interrupted game is a verified prefix, marked partial, and not a failure.
    let mut expected: Vec<String> = (1..=3).map(|n| format!("{DEV}-g{n:06}.t48")).collect();
    expected.push(format!("{DEV}-g000004.partial.t48"));
    assert_eq!(t48_files(&games), expected);
    assert_eq!(json["partial"], 1, "{out}");
    let (code, verdicts, _) = twenty48(&["verify", s(&games)]);
    assert_eq!(code, 0, "{verdicts}");
    // Acknowledged: a second pull gets nothing.
    let (code, _, err) = port_pull(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("pull reply of 0 games"), "{err}");
    // Everything again with --all: recognised, not written twice.
    let (code, _, err) = port_pull(&["--all"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 written, 4 already pulled"), "{err}");
    assert_eq!(t48_files(&games).len(), 4);
    // A game being played on the board when the pull runs is in its store, not lost: a
    // note, exit 0, nothing written for it yet.
    let link = type_into(&pty, b"{new seed=77 rules=classic}LURDLU");
    let (code, _, err) = port_pull(&[]);
    drop(link);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("game 5: still being played"), "{err}");
    assert_eq!(t48_files(&games).len(), 4);
    // Every pull kept its raw bytes.
    let raw = std::fs::read_dir(&games)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("capture-")
        })
        .count();
    assert_eq!(raw, 4);
    drop(child);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 44: `twenty48 pull -o DIR`, with neither --port nor --elf, against the QEMU board:
/// its pseudo-terminal listed (`TWENTY48_PORTS`) as an Arduino Mega 2560 among ports that
/// are no board, its firmware found among the ELFs of a folder (`TWENTY48_ELF_DIR`: the
/// QEMU ELF as built, the protocol v1 one, a file that is no ELF) by the frames it sends;
/// both said, and the stored games pulled, verified and acknowledged.
#[test]
fn pull_finds_the_board_and_its_firmware_by_itself() {
    let dir = scratch("by-itself");
    let flash = dir.join("flash.bin");
    capture(SCRIPT, &flash);
    let mut child = qemu_on_pty(&flash);
    let pty = pty_of(&mut child);
    let elfs = dir.join("elfs");
    std::fs::create_dir_all(&elfs).unwrap();
    std::fs::copy(elf(), elfs.join("twenty48-qemu")).unwrap();
    let v1 = Path::new(env!("CARGO_MANIFEST_DIR")).join("../devicelog/tests/data/v1");
    std::fs::copy(v1.join("twenty48-qemu.elf"), elfs.join("v1.elf")).unwrap();
    std::fs::write(elfs.join("notes.txt"), "not an ELF").unwrap();
    let ports = dir.join("ports.json");
    let list = serde_json::json!([
        {"path": "/dev/ttyS0", "usb": null},
        {"path": pty, "usb": {"vid": "2341", "pid": "0042", "serial": "7e57",
            "manufacturer": "Arduino (www.arduino.cc)", "product": null}},
        {"path": "/dev/ttyUSB9", "usb": {"vid": "046d", "pid": "c52b"}},
    ]);
    std::fs::write(&ports, list.to_string()).unwrap();
    let games = dir.join("games");
    let (code, _, err) = twenty48_with(
        &["pull", "-o", s(&games)],
        &[("TWENTY48_PORTS", &ports), ("TWENTY48_ELF_DIR", &elfs)],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "board: {pty} (Arduino Mega 2560, 2341:0042, serial 7e57)"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "firmware: {}, the one of 2 ELFs in {} (TWENTY48_ELF_DIR) whose defmt table decodes the frames of {pty}",
            elfs.join("twenty48-qemu").display(),
            elfs.display()
        )),
        "{err}"
    );
    let written = t48_files(&games);
    assert!(!written.is_empty(), "{err}");
    let (code, verdicts, _) = twenty48(&["verify", s(&games)]);
    assert_eq!(code, 0, "{verdicts}");
    // Acknowledged: the next pull, by itself too, gets nothing new.
    let (code, _, err) = twenty48_with(
        &["pull", "-o", s(&games)],
        &[("TWENTY48_PORTS", &ports), ("TWENTY48_ELF_DIR", &elfs)],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("pull reply of 0 games"), "{err}");
    drop(child);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A protocol v1 capture (the fixture the last v1 firmware made) still pulls.
#[test]
fn pull_still_reads_protocol_v1_captures() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../devicelog/tests/data/v1");
    let dir = scratch("v1");
    let (code, out, err) = twenty48(&[
        "pull",
        "--elf",
        s(&data.join("twenty48-qemu.elf")),
        "--capture",
        s(&data.join("capture.bin")),
        "-o",
        s(&dir),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(t48_files(&dir).len(), 5);
    assert!(t48_files(&dir)[0].starts_with("game-001-seed-11"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pull_refuses_a_file_that_is_not_a_firmware_elf() {
    let dir = scratch("badelf");
    let fake = dir.join("fake.elf");
    std::fs::write(&fake, b"not an elf").unwrap();
    let (code, _, err) = twenty48(&[
        "pull",
        "--elf",
        s(&fake),
        "--capture",
        s(&fake),
        "-o",
        s(&dir),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("fake.elf"), "names the file: {err}");
    assert!(!err.contains("panicked"));
    std::fs::remove_dir_all(&dir).unwrap();
}
