//! The fuzz targets' entry points, one per decoder of outside input. The cargo-fuzz targets
//! (fuzz_targets/) and the stable corpus replay (tests/corpus.rs) call the same functions;
//! each must return normally for every input: bad input is an error, never a panic.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use twenty48_engine::Direction;
use twenty48_movelog::MoveLog;
use twenty48_verify::EngineChoice;

mod conversation;

pub use conversation::pull_conversation;

/// The target names, as in Cargo.toml, fuzz_targets/ and the seeds/ and corpus/ folders.
pub const TARGETS: [&str; 7] = [
    "movelog_decode",
    "journal_recover",
    "device_capture",
    "best_scores",
    "move_file",
    "request_parse",
    "pull_conversation",
];

/// Runs the entry point named `target` on `data`.
pub fn run(target: &str, data: &[u8]) {
    match target {
        "movelog_decode" => movelog_decode(data),
        "journal_recover" => journal_recover(data),
        "device_capture" => device_capture(data),
        "best_scores" => best_scores(data),
        "move_file" => move_file(data),
        "request_parse" => request_parse(data),
        "pull_conversation" => pull_conversation(data),
        other => panic!("no fuzz target {other}"),
    }
}

/// A `.t48` move log: decode; what decodes re-encodes to the same bytes and replays (the
/// verifier reports a problem, never panics).
pub fn movelog_decode(data: &[u8]) {
    if let Ok(log) = MoveLog::decode(data) {
        assert_eq!(log.encode(), data, "a decoded log re-encodes to its bytes");
        let _ = twenty48_verify::verify(&log, EngineChoice::Fast);
    }
}

/// A play journal (`.t48.journal`): recover the game it holds.
pub fn journal_recover(data: &[u8]) {
    if let Ok(recovered) = twenty48_tui::recover(Path::new("fuzz.t48.journal"), data) {
        let _ = recovered.log.encode();
    }
}

/// The firmware ELFs the captures are decoded with: `T48_FUZZ_ELF`, else the QEMU builds of
/// protocols v1 and v2 kept with devicelog's tests (each capture is decoded with both: a v2
/// capture read with the v1 table, and the other way round, is hostile input too).
fn elves() -> &'static [Vec<u8>] {
    static ELVES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    ELVES.get_or_init(|| {
        let paths = match std::env::var_os("T48_FUZZ_ELF") {
            Some(path) => vec![PathBuf::from(path)],
            None => ["v1", "v2"]
                .map(|v| {
                    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                        .join("../crates/devicelog/tests/data")
                        .join(v)
                        .join("twenty48-qemu.elf")
                })
                .to_vec(),
        };
        paths
            .iter()
            .map(|path| {
                std::fs::read(path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
            })
            .collect()
    })
}

/// A device capture (the bytes read from the serial port): decode it with each firmware
/// ELF (rzCOBS, frames, defmt) and check every game in it.
pub fn device_capture(data: &[u8]) {
    for elf in elves() {
        if let Ok(capture) = twenty48_devicelog::decode_capture(elf, data) {
            for game in &capture.games {
                let _ = twenty48_devicelog::check(game);
            }
        }
    }
}

/// The best-score file (`best-scores.tsv` in the data directory): load it.
/// The scratch directory is removed after each input, so no run leaves it behind.
pub fn best_scores(data: &[u8]) {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("t48-fuzz-best-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    std::fs::write(dir.join(twenty48_tui::BEST_FILE), data).expect("the scratch file");
    let (store, _) = twenty48_tui::BestScores::load(&dir);
    let _ = store.best(&twenty48_engine::Rules::CLASSIC);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A move file (`record --moves-file`): U R D L letters, any case, whitespace and commas
/// ignored, as `twenty48 record` reads it (the CLI's `parse_moves`, which lives in the
/// binary: this is its loop over `Direction::from_letter`), then recorded.
pub fn move_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut moves = Vec::new();
    for line in text.lines() {
        for ch in line.chars() {
            if ch.is_whitespace() || ch == ',' {
                continue;
            }
            match Direction::from_letter(ch) {
                Some(d) => moves.push(d),
                None => return,
            }
        }
    }
    moves.truncate(4096);
    let _ = MoveLog::from_moves(twenty48_engine::Rules::CLASSIC, 1, &moves, 256);
}

/// A request to the device (`{pull all}`, `{ack 7 1234}`): the text between the braces.
pub fn request_parse(data: &[u8]) {
    let _ = twenty48_deviceproto::Request::parse(data);
}
