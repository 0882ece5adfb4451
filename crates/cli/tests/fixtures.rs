//! The fixture corpus (fixtures/) through the binary: what `inspect` and `verify` print for
//! every game (snapshots; `cargo insta review` to accept a change), and the exact error of
//! every broken file. The games' replays themselves (both engines, a transcript of every
//! move, fixtures/expected.csv) are checked by the verifier's tests
//! (crates/verify/tests/fixtures.rs), which `just check` runs without building the CLI.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Runs the real binary; returns (exit code, stdout, stderr) with the fixture paths made
/// relative so snapshots do not depend on the checkout location.
fn twenty48(args: &[&str]) -> (i32, String, String) {
    let out = support::output(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(args)
            .current_dir(fixtures())
            .env("NO_COLOR", "1"),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn every_game_replays_verifies_and_matches_its_snapshot() {
    insta::glob!("../../../fixtures", "games/*.t48", |path| {
        let name = path.file_name().unwrap().to_str().unwrap();
        let rel = format!("games/{name}");
        let (code, inspect, _) = twenty48(&["inspect", &rel]);
        assert_eq!(code, 0);
        let (code, verdict, _) = twenty48(&["verify", &rel]);
        assert_eq!(code, 0, "{verdict}");
        insta::assert_snapshot!(format!("{inspect}\n{verdict}"));
    });
}

#[test]
fn every_broken_file_gives_its_exact_error() {
    insta::glob!("../../../fixtures", "broken/*.t48", |path| {
        let rel = format!("broken/{}", path.file_name().unwrap().to_str().unwrap());
        let (code, stdout, stderr) = twenty48(&["verify", &rel]);
        assert_ne!(code, 0, "{rel} must not verify");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let (replay_code, replay_out, replay_err) = twenty48(&["replay", "--final", &rel]);
        assert_ne!(replay_code, 0);
        assert!(!replay_err.contains("panicked"), "{replay_err}");
        // The verdict is the last line of a replay that could start; else the error.
        let verdict = replay_out.lines().last().unwrap_or("");
        insta::assert_snapshot!(format!(
            "verify exit {code}\n{stdout}\nreplay exit {replay_code}\n{verdict}\n{replay_err}"
        ));
    });
}
