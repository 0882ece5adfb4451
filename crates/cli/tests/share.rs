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
