//! The web page's verdicts (crates/web, the same code the page runs, here natively) against
//! `twenty48 verify`'s, for logs damaged with movelog's own encoder: every claim false, a
//! checkpoint wrong or missing, a move that cannot be played, moves after the end, another
//! seed or other rules, a partial or hinted log, under every preset and board size. (The
//! browser test, web/test/viewer.mjs, checks the compiled page against `verify` on the
//! broken fixtures and on bytes flipped and cut off.)

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use twenty48_engine::{Direction, Rules, Status};
use twenty48_movelog::MoveLog;
use twenty48_web::Viewer;

fn fixture(name: &str) -> MoveLog {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/games")
        .join(name);
    MoveLog::decode(&std::fs::read(path).unwrap()).unwrap()
}

/// A change made to a log, and its name.
type Change = (&'static str, fn(&mut MoveLog));

/// Damaged logs, by name: each a real game with one thing changed.
fn damaged() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for name in [
        "classic-expectimax-depth3-1000.t48",
        "arduino-greedy-win-stops.t48",
        "console-noop-presses.t48",
        "custom-2x2.t48",
        "custom-6x6.t48",
    ] {
        let base = fixture(name);
        let changes: Vec<Change> = vec![
            ("score", |l| l.claims.score += 4),
            ("count", |l| l.claims.move_count += 1),
            ("max", |l| l.claims.max_exponent += 1),
            ("hash", |l| l.claims.final_hash ^= 1),
            ("status", |l| {
                l.claims.status = match l.claims.status {
                    Status::Playing => Status::Over,
                    _ => Status::Playing,
                }
            }),
            ("checkpoint", |l| {
                if let Some(c) = l.checkpoints.last_mut() {
                    *c ^= 1 << 7;
                }
            }),
            ("interval", |l| {
                l.checkpoint_interval = (l.checkpoint_interval / 2).max(1)
            }),
            ("seed", |l| l.seed ^= 1),
            ("rules", |l| {
                l.rules = match l.rules.preset() {
                    Some(twenty48_engine::Preset::Classic) => Rules::ARDUINO,
                    _ => Rules::CLASSIC,
                }
            }),
            ("stuck", |l| {
                // The move before, played again where it changes nothing.
                let at = l.moves.len() / 2;
                let again = l.moves[at];
                l.moves.insert(at + 1, again);
                l.moves.insert(at + 1, again);
            }),
            ("after-end", |l| {
                l.moves.extend(Direction::ALL);
                l.claims.move_count += 4;
            }),
            ("partial", |l| l.complete = false),
            ("hinted", |l| l.hinted = true),
            ("cut", |l| l.moves.truncate(l.moves.len() / 3)),
        ];
        let stem = name.trim_end_matches(".t48");
        for (what, change) in changes {
            let mut log = base.clone();
            change(&mut log);
            if let Ok(bytes) = log.try_encode() {
                out.push((format!("{stem}-{what}.t48"), bytes));
            }
        }
        // And the file's bytes: cut in the middle, and the move count made 2^32 - 1 (at
        // H + 4, H = 29 + L + R: docs/format.md).
        let bytes = base.encode();
        out.push((
            format!("{stem}-halved.t48"),
            bytes[..bytes.len() / 2].to_vec(),
        ));
        let mut many = bytes.clone();
        let h = 29 + usize::from(many[15]) + usize::from(many[28 + usize::from(many[15])]);
        many[h + 4..h + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        out.push((format!("{stem}-many.t48"), many));
    }
    // Issue 46: bytes after the log, up to verify's limit, one more, and 5 MiB (the page
    // counted all of them; verify reads no further than its limit).
    let bytes = fixture("classic-moves.t48").encode();
    let limit = twenty48_verify::batch::MAX_TRAILING_BYTES as usize;
    for (what, extra) in [("limit", limit), ("past", limit + 1), ("5mib", 5 << 20)] {
        let mut padded = bytes.clone();
        padded.resize(bytes.len() + extra, 0);
        out.push((format!("classic-moves-trailing-{what}.t48"), padded));
    }
    out
}

/// `twenty48 verify`'s (word, message) for each file, by its path.
fn verify_lines(files: &[PathBuf]) -> BTreeMap<String, (String, String)> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twenty48"));
    cmd.arg("verify").args(files);
    let out = support::output(&mut cmd);
    let mut lines = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim_start();
        let (path, message) = match word {
            "ok" => {
                let (path, summary) = rest.split_once("  (").unwrap_or((rest, ""));
                (path, summary.trim_end_matches(')'))
            }
            _ => rest.split_once(": ").unwrap_or((rest, "")),
        };
        lines.insert(path.to_string(), (word.to_string(), message.to_string()));
    }
    lines
}

#[test]
fn the_pages_verdicts_are_verifys_for_logs_damaged_by_the_encoder() {
    let dir = std::env::temp_dir().join(format!("t48-web-verdicts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let logs = damaged();
    assert!(logs.len() > 40, "{}", logs.len());
    let files: Vec<PathBuf> = logs
        .iter()
        .map(|(name, bytes)| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    let lines = verify_lines(&files);
    let mut kinds = BTreeMap::new();
    for ((name, bytes), path) in logs.iter().zip(&files) {
        let page = Viewer::open(bytes).verdict;
        let cli = &lines[&path.display().to_string()];
        assert_eq!(
            (page.kind.word(), page.message.as_str()),
            (cli.0.as_str(), cli.1.as_str()),
            "{name}"
        );
        *kinds.entry(page.kind.word()).or_insert(0) += 1;
    }
    // Damage of every kind: verified (a partial or hinted log), failed and unreadable.
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
