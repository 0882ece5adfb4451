//! `twenty48 stats` as a user runs it: the real binary over the fixture corpus and over a
//! folder of fresh games with a broken one and a missing path among them.

mod support;
use support::Start as _;

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = support::output(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(args)
            .current_dir(dir),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

#[test]
fn stats_over_the_fixtures_counts_and_names_every_file() {
    let (code, out, err) = run(&fixtures(), &["stats", "--json", "games", "broken"]);
    // The broken files include unreadable ones: exit 2, as verify.
    assert_eq!(code, 2, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let games = std::fs::read_dir(fixtures().join("games")).unwrap().count() as u64;
    assert_eq!(doc["verified"], games);
    assert_eq!(doc["games"], games);
    assert_eq!(doc["files"], games + 8);
    let failed: Vec<&str> = doc["failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        failed,
        [
            "broken/false-claim.t48",
            "broken/illegal-move.t48",
            "broken/wrong-checkpoint.t48"
        ]
        .map(support::native)
    );
    assert_eq!(doc["unreadable"].as_array().unwrap().len(), 5);
    assert!(doc["unreadable"][0]["problem"]
        .as_str()
        .unwrap()
        .contains("CRC-32"));
    assert_eq!(doc["max_tiles"]["16384"], 1);
    assert_eq!(doc["max_tiles"]["32768"], 1);
    assert_eq!(doc["score"]["max"], 585_160);
    assert_eq!(
        doc["score"]["max_file"],
        support::native("games/classic-expectimax-32768.t48")
    );
    assert_eq!(doc["longest"]["moves"], 20_449);
    let classic = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rules"] == "classic")
        .unwrap();
    assert_eq!(classic["win_tile"], 2048);
    let (wins, n) = (
        classic["wins"].as_u64().unwrap(),
        classic["games"].as_u64().unwrap(),
    );
    assert_eq!(
        classic["win_rate"].as_f64().unwrap(),
        wins as f64 / n as f64
    );
    let console = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rules"] == "console")
        .unwrap();
    assert!(
        console["win_rate"].is_null(),
        "the console rules have no winning tile"
    );
}

#[test]
fn stats_text_csv_and_svg_over_fresh_games() {
    let dir = std::env::temp_dir().join(format!("t48-stats-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("games/deeper")).unwrap();
    for (seed, file) in [
        (1, "games/a.t48"),
        (2, "games/b.t48"),
        (3, "games/deeper/c.t48"),
    ] {
        let seed = seed.to_string();
        let (code, _, err) = run(
            &dir,
            &[
                "record",
                "--seed",
                &seed,
                "--bot",
                "greedy",
                "--max-moves",
                "200",
                "-o",
                file,
            ],
        );
        assert_eq!(code, 0, "{err}");
    }
    let (code, _, err) = run(
        &dir,
        &[
            "record",
            "--seed",
            "4",
            "--size",
            "5",
            "--bot",
            "greedy",
            "--max-moves",
            "30",
            "-o",
            "games/five.t48",
        ],
    );
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.join("games/junk.t48"), b"not a game").unwrap();

    let (code, out, err) = run(
        &dir,
        &["stats", "games", "missing.t48", "--svg", "tiles.svg"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        out.starts_with("6 files: 4 verified, 0 failed, 2 unreadable\n"),
        "{out}"
    );
    assert!(out.contains("moves:   630 in all"), "{out}");
    assert!(out.contains("max tile:"), "{out}");
    assert!(out.contains('#'), "a histogram drawn in text: {out}");
    assert!(out.contains("rules classic: 3 games"), "{out}");
    assert!(out.contains("rules custom (5x5"), "{out}");
    assert!(
        out.contains(&support::native(
            "ERROR   games/junk.t48: not a twenty48 move log"
        )),
        "{out}"
    );
    assert!(out.contains("ERROR   missing.t48: cannot read"), "{out}");
    let svg = std::fs::read_to_string(dir.join("tiles.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("Max tile of 4 games"),
        "{svg}"
    );
    // Never written over without --force.
    let (code, _, err) = run(&dir, &["stats", "games/a.t48", "--svg", "tiles.svg"]);
    assert_eq!(code, 2);
    assert!(err.contains("tiles.svg"), "{err}");

    let (code, out, err) = run(
        &dir,
        &[
            "stats",
            "--csv",
            "games/a.t48",
            "games/b.t48",
            "games/deeper",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with(
        "rules,games,moves,score_mean,score_median,score_max,win_tile,wins,win_rate,tile_2,"
    ));
    assert_eq!(lines.len(), 3, "classic, then all: {out}");
    assert!(lines[1].starts_with("classic,3,600,"), "{out}");
    assert!(lines[2].starts_with("all,3,600,"), "{out}");
    // The same totals whatever the number of workers.
    let (_, one, _) = run(&dir, &["stats", "--json", "--jobs", "1", "games"]);
    let (_, four, _) = run(&dir, &["stats", "--json", "--jobs", "4", "games"]);
    assert_eq!(one, four);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `-q`: the report is left out; only the files not counted are named (exit code as without).
#[test]
fn stats_quiet_names_only_the_files_not_counted() {
    let (code, out, _) = run(&fixtures(), &["stats", "-q", "games", "broken"]);
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with(&support::native("FAILED  broken/"))
                || l.starts_with(&support::native("ERROR   broken/"))),
        "{out}"
    );
    let (code, out, err) = run(&fixtures(), &["stats", "-q", "games"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

/// `-` is standard input, read as verify reads it; counts agree with their nouns.
#[test]
fn stats_reads_standard_input_as_dash() {
    use std::process::Stdio;
    let log = std::fs::read(fixtures().join("games/custom-2x2.t48")).unwrap();
    for (input, expect) in [
        (log.clone(), "1 file: 1 verified, 0 failed, 0 unreadable"),
        (
            vec![0u8; 1 << 20],
            "1 file: 0 verified, 0 failed, 1 unreadable",
        ),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(["stats", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .start()
            .unwrap();
        // A non-log is refused after its first bytes, so the rest may meet a closed pipe.
        support::feed(&mut child, input);
        let out = support::finish(child);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with(expect), "{text}");
        assert!(!text.contains("(s)"), "{text}");
    }
}
