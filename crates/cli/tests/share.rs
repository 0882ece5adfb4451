//! `twenty48 share`: the link carries the file's bytes, the page's address comes from the
//! flag, the environment or the local build, and `--open` hands the link to the platform's
//! opener or says plainly that there is none. (The page opening these links is tested in a
//! browser by web/test/browser.test.mjs.)

#![cfg(unix)]

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-share-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name)
}

fn share(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twenty48"));
    cmd.arg("share").args(args).env_remove("TWENTY48_WEB");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = support::output(&mut cmd);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_link_carries_the_files_bytes_after_the_base_address() {
    let file = fixture("games/classic-expectimax-depth3-1000.t48");
    let bytes = std::fs::read(&file).unwrap();
    let (code, out, err) = share(
        &[
            file.to_str().unwrap(),
            "--base",
            "https://example.org/t48/#old",
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let link = out.trim_end();
    let fragment = link.strip_prefix("https://example.org/t48/#").unwrap();
    assert_eq!(
        twenty48_web::link::game_from_fragment(fragment).unwrap(),
        bytes
    );
    // A 1000-move game: about 440 characters after the address.
    assert!((400..480).contains(&fragment.len()), "{}", fragment.len());
    // The environment variable when there is no flag; the flag over it.
    let (_, out, _) = share(&[file.to_str().unwrap()], &[("TWENTY48_WEB", "http://h/p")]);
    assert!(out.starts_with("http://h/p#g="), "{out}");
    let (_, out, _) = share(
        &[file.to_str().unwrap(), "--base", "http://flag/"],
        &[("TWENTY48_WEB", "http://h/p")],
    );
    assert!(out.starts_with("http://flag/#g="), "{out}");
}

#[test]
fn a_file_that_does_not_verify_is_shared_with_a_note() {
    let file = fixture("broken/illegal-move.t48");
    let (code, out, err) = share(&[file.to_str().unwrap(), "--base", "http://x/"], &[]);
    assert_eq!(code, 0);
    assert!(out.starts_with("http://x/#g="));
    assert!(
        err.contains("FAILED: move 25 (up) does not change the board"),
        "{err}"
    );
    // Not a log at all: nothing to share.
    let (code, out, err) = share(&["/dev/zero", "--base", "http://x/"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("is not a twenty48 move log"), "{err}");
    let (code, _, err) = share(&["no-such.t48", "--base", "http://x/"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read no-such.t48"), "{err}");
}

#[test]
fn open_hands_the_link_to_the_opener_or_says_there_is_none() {
    let dir = scratch("open");
    let file = fixture("games/classic-moves.t48");
    let file = file.to_str().unwrap();
    // No opener on PATH: a clear error, exit status 2, the link still printed.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, out, err) = share(
        &[file, "--base", "http://x/", "--open"],
        &[("PATH", empty.to_str().unwrap())],
    );
    assert_eq!(code, 2, "{err}");
    assert!(out.starts_with("http://x/#g="));
    assert!(err.contains("xdg-open is not installed"), "{err}");
    // An opener that writes down what it was given.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let opener = bin.join("xdg-open");
    let seen = dir.join("seen");
    std::fs::write(
        &opener,
        format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", seen.display()),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, out, err) = share(
        &[file, "--base", "http://x/", "--open"],
        &[("PATH", bin.to_str().unwrap())],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&seen).unwrap(), out.trim_end());
    // An opener that fails is reported.
    std::fs::write(&opener, "#!/bin/sh\nexit 3\n").unwrap();
    let (code, _, err) = share(
        &[file, "--base", "http://x/", "--open"],
        &[("PATH", bin.to_str().unwrap())],
    );
    assert_eq!(code, 2);
    assert!(err.contains("xdg-open failed"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27's review: a file whose header claims 4 billion moves (a gigabyte) was read whole
/// before share refused it. Under a 512 MB address-space limit it must be refused by its
/// first MiB, with the file named, never by running out of memory.
#[test]
fn a_gigabyte_claim_is_refused_without_reading_it() {
    let dir = scratch("huge");
    let big = dir.join("huge.t48");
    let mut bytes = std::fs::read(fixture("games/classic-moves.t48")).unwrap();
    // The move count N, after the checkpoint interval at H = 29 + L + R (docs/format.md).
    let l = usize::from(bytes[15]);
    let h = 29 + l + usize::from(bytes[28 + l]);
    bytes[h..h + 4].copy_from_slice(&0u32.to_le_bytes());
    bytes[h + 4..h + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&big, &bytes).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&big).unwrap();
    file.set_len(1 << 30).unwrap();
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 524288 && exec \"$0\" share \"$1\" --base http://x/")
        .arg(env!("CARGO_BIN_EXE_twenty48"))
        .arg(&big)
        .env_remove("TWENTY48_WEB");
    let out = support::output(&mut cmd);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(
        err.contains("huge.t48 is larger than 1048576 bytes, the most a link carries"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Names a terminal would take for something else are escaped in messages, a directory is
/// named as what it is, a FIFO is read as a stream, and every error exits with status 2.
#[test]
fn hostile_names_directories_and_fifos() {
    let dir = scratch("names");
    let evil = dir.join("evil\n\u{1b}[31m.t48");
    std::fs::write(&evil, b"2048 is a game").unwrap();
    let (code, out, err) = share(&[evil.to_str().unwrap(), "--base", "http://x/"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("evil\\n\\u{1b}[31m.t48 is not a twenty48 move log"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "{err}");

    let (code, out, err) = share(&[dir.to_str().unwrap(), "--base", "http://x/"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("cannot read") && err.contains("Is a directory"),
        "{err}"
    );

    // A FIFO with a writer: the same link as the file it carries.
    let file = fixture("games/classic-moves.t48");
    let fifo = dir.join("fifo.t48");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let bytes = std::fs::read(&file).unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, bytes))
    };
    let (code, from_fifo, err) = share(&[fifo.to_str().unwrap(), "--base", "http://x/"], &[]);
    writer.join().unwrap().unwrap();
    assert_eq!(code, 0, "{err}");
    let (_, from_file, _) = share(&[file.to_str().unwrap(), "--base", "http://x/"], &[]);
    assert_eq!(from_fifo, from_file);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The page's address: a query stays, a fragment gives way to the game's, and an address a
/// link cannot follow (no scheme, a space, a newline, empty) is refused before any file is
/// read, naming where it came from.
#[test]
fn the_page_address_is_checked() {
    let file = fixture("games/classic-moves.t48");
    let file = file.to_str().unwrap();
    let (code, out, _) = share(&[file], &[("TWENTY48_WEB", "https://h/p/?lang=en#old=1")]);
    assert_eq!(code, 0);
    assert!(out.starts_with("https://h/p/?lang=en#g=VDQ4"), "{out}");
    for (base, what) in [
        ("example.org/t48/", "is not an absolute URL"),
        ("", "is not an absolute URL"),
        ("-x", "is not an absolute URL"),
        ("https://h/a b/", "' ' at character 12"),
        ("https://h/\n", "'\\n' at character 11"),
    ] {
        let (code, out, err) = share(&["no-such.t48", &format!("--base={base}")], &[]);
        assert_eq!((code, out.as_str()), (2, ""), "{base:?}");
        assert!(
            err.contains("--base") && err.contains(what),
            "{base:?}: {err}"
        );
    }
    let (code, _, err) = share(&[file], &[("TWENTY48_WEB", "ftp h")]);
    assert_eq!(code, 2);
    assert!(err.contains("$TWENTY48_WEB \"ftp h\""), "{err}");
}

/// An opener that never returns (some run until the browser closes) does not hold share
/// up, nor the pipes of whoever runs share.
#[test]
fn an_opener_that_keeps_running_does_not_hold_share() {
    let dir = scratch("slow");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let pid = dir.join("pid");
    let opener = bin.join("xdg-open");
    std::fs::write(
        &opener,
        format!(
            "#!/bin/sh\necho $$ > '{}'\necho opening >&2\nexec sleep 120\n",
            pid.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = fixture("games/classic-moves.t48");
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let (code, out, err) = share(
        &[file.to_str().unwrap(), "--base", "http://x/", "--open"],
        &[("PATH", &path)],
    );
    // The opener, still running, is this test's to end.
    let sleeper = std::fs::read_to_string(&pid).unwrap();
    let _ = Command::new("kill").arg(sleeper.trim()).status();
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("http://x/#g="));
    assert!(!err.contains("opening"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn issue45_move_opens_the_link_at_a_move() {
    let file = fixture("games/classic-expectimax-depth3-1000.t48");
    let name = file.to_str().unwrap();
    let base = ["--base", "https://example.org/t48/"];
    let (code, out, err) = share(&[name, base[0], base[1], "--move", "812"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.trim_end().ends_with("&m=812"), "{out}");
    let fragment = out
        .trim_end()
        .strip_prefix("https://example.org/t48/#")
        .unwrap();
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(
        twenty48_web::link::game_from_fragment(fragment).unwrap(),
        bytes
    );
    // Move 0 is the opening: the link without m=; past the last move, refused.
    let (_, out, _) = share(&[name, base[0], base[1], "--move", "0"], &[]);
    assert!(!out.contains("&m="), "{out}");
    let (code, out, err) = share(&[name, base[0], base[1], "--move", "1001"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("--move 1001 is past the end of ")
            && err.contains(
                "classic-expectimax-depth3-1000.t48: its moves are 0 (the opening) to 1000"
            ),
        "{err}"
    );
}
