//! The stable run of the fuzz targets (`just test`): every seed and every corpus file of
//! each target through its entry point, then a few thousand deterministic mutations of the
//! seeds (bit flips, byte overwrites, truncations, splices). Any panic fails the test.
//!
//! `cargo test -p twenty48-fuzz-corpus -- --ignored write_seeds` regenerates fuzz/seeds/ from
//! fixtures/.

use std::fs;
use std::path::{Path, PathBuf};

use twenty48_fuzz::{run, TARGETS};

/// fuzz/, the fuzz targets' own workspace: their seeds, corpus and regressions.
fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

fn files_in(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    paths.sort();
    for p in paths {
        // The device fixtures' firmware and the script that makes them are not inputs.
        let fixture_tool = matches!(p.extension().and_then(|e| e.to_str()), Some("elf" | "sh"));
        if p.is_file() && !fixture_tool {
            out.push(p);
        }
    }
}

/// Where a target's inputs are: its seeds, what the fuzzer kept (corpus/), the inputs of
/// findings fixed since (regressions/), and the fixtures it was seeded from.
fn input_dirs(target: &str) -> Vec<PathBuf> {
    let fuzz = fuzz_dir();
    let root = fuzz.join("..");
    let mut dirs = vec![
        fuzz.join("seeds").join(target),
        fuzz.join("corpus").join(target),
        fuzz.join("regressions").join(target),
    ];
    match target {
        "movelog_decode" => {
            dirs.push(root.join("fixtures/games"));
            dirs.push(root.join("fixtures/broken"));
        }
        "device_capture" => {
            dirs.push(root.join("crates/devicelog/tests/data/v1"));
            dirs.push(root.join("crates/devicelog/tests/data/v2"));
        }
        _ => {}
    }
    dirs
}

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for dir in input_dirs(target) {
        files_in(&dir, &mut files);
    }
    files
        .into_iter()
        .map(|p| {
            let bytes = fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect()
}

/// xorshift64*: deterministic mutations, the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..=rng.below(4) {
        match rng.below(5) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = [0, 0xff, 0x7f, 0x80, 1, rng.next() as u8][rng.below(6)];
            }
            2 => b.truncate(rng.below(b.len() + 1)),
            3 if !other.is_empty() => {
                let at = rng.below(b.len() + 1);
                let from = rng.below(other.len());
                let len = rng.below(other.len() - from + 1).min(64);
                b.splice(at..at, other[from..from + len].iter().copied());
            }
            _ => {
                let at = rng.below(b.len() + 1);
                b.insert(at, rng.next() as u8);
            }
        }
    }
    b
}

/// Mutations per target in the stable run.
const MUTATIONS: usize = 3000;

#[test]
fn every_corpus_file_and_mutation_of_each_target_returns_without_a_panic() {
    for target in TARGETS {
        let inputs = inputs(target);
        assert!(!inputs.is_empty(), "{target} has no seeds");
        for (path, bytes) in &inputs {
            let result = std::panic::catch_unwind(|| run(target, bytes));
            assert!(result.is_ok(), "{target} panicked on {}", path.display());
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ target.len() as u64);
        for i in 0..MUTATIONS {
            let (_, seed) = &inputs[rng.below(inputs.len())];
            let (_, other) = &inputs[rng.below(inputs.len())];
            let data = mutate(&mut rng, seed, other);
            let result = std::panic::catch_unwind(|| run(target, &data));
            assert!(
                result.is_ok(),
                "{target} panicked on mutation {i}: {:02x?}",
                &data[..data.len().min(512)]
            );
        }
    }
}

fn letters(log: &twenty48_movelog::MoveLog) -> String {
    log.moves
        .iter()
        .map(|d| d.to_string().chars().next().unwrap().to_ascii_uppercase())
        .collect()
}

/// Regenerates seeds/ from fixtures/games: journals of the first moves of each game (one
/// with a damaged tail), their move files, best-score files and device requests.
#[test]
#[ignore]
fn write_seeds() {
    let seeds = fuzz_dir().join("seeds");
    let games = fuzz_dir().join("../fixtures/games");
    let mut files = Vec::new();
    files_in(&games, &mut files);
    let scratch = std::env::temp_dir().join(format!("t48-seeds-{}", std::process::id()));
    fs::create_dir_all(&scratch).unwrap();
    for dir in [
        "journal_recover",
        "move_file",
        "best_scores",
        "request_parse",
    ] {
        fs::create_dir_all(seeds.join(dir)).unwrap();
    }
    for (i, path) in files.iter().enumerate() {
        let log = twenty48_movelog::MoveLog::decode(&fs::read(path).unwrap()).unwrap();
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let journal = scratch.join(format!("{stem}.t48.journal"));
        let _ = fs::remove_file(&journal);
        let mut j =
            twenty48_tui::Journal::create(&journal, log.rules, log.seed, log.checkpoint_interval)
                .unwrap();
        for &d in log.moves.iter().take(40) {
            j.append(d).unwrap();
        }
        drop(j);
        let mut bytes = fs::read(&journal).unwrap();
        if i % 3 == 0 {
            bytes.extend_from_slice(&[0xff, 0x07]);
        }
        fs::write(seeds.join("journal_recover").join(stem), bytes).unwrap();
        let text = letters(&log);
        let lines: Vec<&str> = text
            .as_bytes()
            .chunks(60)
            .map(|c| std::str::from_utf8(c).unwrap())
            .take(5)
            .collect();
        fs::write(seeds.join("move_file").join(stem), lines.join("\n") + "\n").unwrap();
    }
    fs::write(seeds.join("move_file/commas"), "u, r, d, l\nL,L\tR\n").unwrap();
    fs::write(
        seeds.join("best_scores/two"),
        "# twenty48 best scores\n2048\tclassic\n512\tsize=5 four=1/10 opening=2\n",
    )
    .unwrap();
    fs::write(seeds.join("best_scores/damaged"), "12x\tclassic\n").unwrap();
    for (name, text) in [
        ("hello", "hello"),
        ("pull", "pull"),
        ("pull_all", "pull all"),
        ("ack", "ack 7 1234"),
        ("ack_spaces", "  ack   4294967295  0 "),
        ("unknown", "reset"),
    ] {
        fs::write(seeds.join("request_parse").join(name), text).unwrap();
    }
    fs::remove_dir_all(&scratch).unwrap();
}
