//! The commands as a Windows user runs them (issue 44), built for x86_64-pc-windows-gnu and
//! run under Wine by `just windows-test`: the README's tour without a shell, with paths
//! written the Windows way (drive letters, backslashes, spaces, `\\?\` paths), move lists
//! written by Windows editors and shells (CRLF, a byte-order mark, UTF-16), files replaced
//! while another program holds them open, and `pull --capture` into a folder named so.
//! The rest of the CLI's tests run there too (those that need a POSIX shell, FIFOs,
//! `/dev/zero`, `ulimit`, pseudo-terminals or an emulator say so and are Unix only).
#![cfg(windows)]

mod support;
use support::Start as _;

use std::fs;
use std::os::windows::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_twenty48");

/// A fresh folder under the Windows temp folder (`C:\users\...\Temp`), with a space in it.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48 win-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = support::output(Command::new(BIN).args(args).current_dir(dir));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The repository's own folder, as Windows names it (`Z:\work\...` under Wine).
fn repo() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    fs::canonicalize(manifest.join("../..")).unwrap()
}

/// A verbatim `\\?\C:\...` path as a user writes it: `C:\...`.
fn plain(path: &Path) -> String {
    let text = path.to_str().unwrap();
    text.strip_prefix(r"\\?\").unwrap_or(text).to_string()
}

#[test]
fn the_tour_runs_on_windows_paths() {
    let dir = scratch("tour");
    let games = dir.join("my games");
    fs::create_dir_all(&games).unwrap();
    // An absolute path with a drive letter, backslashes and a space.
    let game = format!(r"{}\game.t48", plain(&games));
    assert!(game.as_bytes()[1] == b':', "{game}");
    let (code, out, err) = run(
        &dir,
        &["record", "--seed", "42", "--moves", "LURDLLUR", "-o", &game],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score 20, max tile 8"), "{out}");
    assert!(out.contains(r"my games\game.t48 (71 bytes)"), "{out}");
    // Relative, with either slash, and verbatim.
    for name in [
        r"my games\game.t48",
        "my games/game.t48",
        r".\my games\game.t48",
    ] {
        let (code, out, err) = run(&dir, &["replay", name, "--final"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.contains("hash b0dc11b9f783233d"), "{out}");
    }
    let verbatim = fs::canonicalize(games.join("game.t48")).unwrap();
    let (code, out, err) = run(&dir, &["inspect", verbatim.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("claims:      8 moves, score 20"), "{out}");
    // A second game under other rules, a directory walked, two games compared.
    let (code, _, err) = run(
        &dir,
        &[
            "record",
            "--seed",
            "42",
            "--moves",
            "LURDLLUR",
            "--rules",
            "arduino",
            "-o",
            r"my games\b.t48",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&dir, &["verify", r"my games\"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r"ok      my games\game.t48"), "{out}");
    assert!(
        out.contains("2 files: 2 verified, 0 failed, 0 unreadable"),
        "{out}"
    );
    let (code, out, _) = run(&dir, &["diff", &game, r"my games\b.t48"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("part at move 6"), "{out}");
    let (code, out, err) = run(&dir, &["stats", "--json", "my games"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["games"], 2);
    let (code, out, err) = run(&dir, &["analyse", "--depth", "1", &game]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("accuracy"), "{out}");
    let (code, out, err) = run(&dir, &["replay", &game, "--svg", r"my games\board.svg"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(fs::read_to_string(games.join("board.svg"))
        .unwrap()
        .starts_with("<svg"));
    let out = support::output(
        Command::new(BIN)
            .args(["share", r"my games\game.t48"])
            .env("TWENTY48_WEB", "https://example.org/twenty48/")
            .current_dir(&dir),
    );
    let link = String::from_utf8_lossy(&out.stdout);
    assert!(
        link.starts_with("https://example.org/twenty48/#g="),
        "{link}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// A journal left by a game in a folder named the Windows way, turned into a log.
#[test]
fn recover_reads_a_journal_in_a_windows_folder() {
    let dir = scratch("recover");
    let journal_path = dir.join(r"saved\game.t48.journal");
    fs::create_dir_all(dir.join("saved")).unwrap();
    let mut journal =
        twenty48_tui::Journal::create(&journal_path, twenty48_engine::Rules::CLASSIC, 5, 256)
            .unwrap();
    for d in [
        twenty48_engine::Direction::Left,
        twenty48_engine::Direction::Up,
    ] {
        journal.append(d).unwrap();
    }
    // Locked while a session has it open, as on Unix.
    let (code, _, err) = run(&dir, &["recover", r"saved\game.t48"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("in use"), "{err}");
    drop(journal);
    let (code, out, err) = run(&dir, &["recover", r"saved\game.t48"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&dir, &["verify", r"saved\game.t48"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 moves"), "{out}");
    fs::remove_dir_all(&dir).unwrap();
}

/// Move lists as Windows writes them: CRLF (Notepad), a UTF-8 byte-order mark, UTF-16 with
/// its mark (PowerShell 5's `>`): each the same game as the plain list.
#[test]
fn move_lists_from_windows_editors_and_shells_are_read() {
    let dir = scratch("crlf");
    let utf16 = |text: &str| -> Vec<u8> {
        [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect()
    };
    let lists: [(&str, Vec<u8>); 4] = [
        ("plain.txt", b"LURD\nLLUR\n".to_vec()),
        ("crlf.txt", b"LURD\r\nLLUR\r\n".to_vec()),
        ("bom.txt", b"\xEF\xBB\xBFLURD\r\nLLUR\r\n".to_vec()),
        ("utf16.txt", utf16("LURD\r\nLLUR\r\n")),
    ];
    let mut logs = Vec::new();
    for (name, bytes) in &lists {
        fs::write(dir.join(name), bytes).unwrap();
        let out = name.replace(".txt", ".t48");
        let (code, _, err) = run(
            &dir,
            &["record", "--seed", "42", "--moves-file", name, "-o", &out],
        );
        assert_eq!(code, 0, "{name}: {err}");
        logs.push(fs::read(dir.join(out)).unwrap());
    }
    assert!(logs.windows(2).all(|w| w[0] == w[1]));
    fs::remove_dir_all(&dir).unwrap();
}

/// Replacing a file (`--force`) that another program holds open without sharing its
/// deletion (FILE_SHARE_READ only, as some editors and scanners do) cannot be done: the
/// error says so, and leaves the old file whole and no temp file behind; once it is closed
/// the same command replaces it. (A reader that shares deletion, as most do, does not stop
/// the replacement on Windows 10 and later, whose rename has POSIX semantics on NTFS; Wine 8
/// has none, so that case is not tested here.)
#[test]
fn a_file_held_open_by_another_program_is_named_and_kept_whole() {
    const FILE_SHARE_READ: u32 = 1;
    let dir = scratch("held");
    let (code, _, err) = run(
        &dir,
        &["record", "--seed", "1", "--moves", "LURD", "-o", "g.t48"],
    );
    assert_eq!(code, 0, "{err}");
    let old = fs::read(dir.join("g.t48")).unwrap();
    let holder = fs::OpenOptions::new()
        .read(true)
        .share_mode(FILE_SHARE_READ)
        .open(dir.join("g.t48"))
        .unwrap();
    let replace = [
        "record", "--seed", "3", "--moves", "UU", "--force", "-o", "g.t48",
    ];
    let (code, _, err) = run(&dir, &replace);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("g.t48"), "{err}");
    assert!(err.contains("another program has the file open"), "{err}");
    drop(holder);
    assert_eq!(fs::read(dir.join("g.t48")).unwrap(), old);
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["g.t48"], "no temp file left behind");
    // Closed: the same command replaces it.
    let (code, _, err) = run(&dir, &replace);
    assert_eq!(code, 0, "{err}");
    assert_ne!(fs::read(dir.join("g.t48")).unwrap(), old);
    // The output is the move list on standard input: refused, the list kept.
    fs::write(dir.join("m.txt"), "LURD\r\n").unwrap();
    let child = Command::new(BIN)
        .args([
            "record",
            "--seed",
            "1",
            "--moves-file",
            "-",
            "-o",
            "m.txt",
            "--force",
        ])
        .current_dir(&dir)
        .stdin(fs::File::open(dir.join("m.txt")).unwrap())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .start()
        .unwrap();
    let out = support::finish(child);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is the input"),
        "{out:?}"
    );
    assert_eq!(fs::read(dir.join("m.txt")).unwrap(), b"LURD\r\n");
    fs::remove_dir_all(&dir).unwrap();
}

/// `pull --capture` of the firmware's kept capture into a folder named the Windows way, and
/// `diff` of its games against the host: the games written, verified, the same on a second
/// pull (already pulled).
#[test]
fn pull_from_a_capture_into_a_windows_folder() {
    let dir = scratch("pull");
    let data = repo().join(r"crates\devicelog\tests\data\v1");
    let elf = plain(&data.join("twenty48-qemu.elf"));
    let capture = plain(&data.join("capture.bin"));
    let out_dir = format!(r"{}\board games\", plain(&dir));
    let args = ["pull", "--elf", &elf, "--capture", &capture, "-o", &out_dir];
    let (code, out, err) = run(&dir, &args);
    assert_eq!(code, 0, "{out}{err}");
    let written: Vec<PathBuf> = fs::read_dir(dir.join("board games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "t48"))
        .collect();
    assert!(written.len() >= 4, "{written:?}\n{out}{err}");
    let (code, out, err) = run(&dir, &["verify", "board games"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&dir, &args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        format!("{out}{err}").contains(&format!("{} already pulled", written.len())),
        "{out}{err}"
    );
    let (code, out, err) = run(&dir, &["diff", &capture, "--elf", &elf, "--game", "2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("identical:"), "{out}");
    fs::remove_dir_all(&dir).unwrap();
}

/// No COM port of that name: one sentence naming it, exit 2, nothing made.
#[test]
fn pull_on_a_missing_com_port_names_it() {
    let dir = scratch("com");
    let elf = plain(&repo().join(r"crates\devicelog\tests\data\v1\twenty48-qemu.elf"));
    let (code, _, err) = run(
        &dir,
        &["pull", "--elf", &elf, "--port", "COM97", "-o", "games"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot open serial port COM97"), "{err}");
    assert!(!dir.join("games").exists());
    fs::remove_dir_all(&dir).unwrap();
}
