//! `just calibrate` and `just calibration-table`: the fit of the analysis's chances
//! (crates/analysis/src/calibration.rs) and its reliability on games not fitted on.
//!
//! Runs on the host, offline; its floats never reach the analysis, which reads the integer
//! tables this writes. Deterministic: the same games, positions, fit and tables on every run.
//!
//! - `calibrate fit-positions`: plays the games of [`SOURCES`] from the fit seeds, takes
//!   positions from them, searches each as the analysis does by default and rolls it out
//!   with the depth-[`ROLLOUT_DEPTH`] bot; writes crates/analysis/calibration/fit.csv.
//! - `calibrate held-positions`: the same from the held-out seeds, into held.csv.
//! - `calibrate fit`: one logistic curve a tile aimed at, fitted on fit.csv, written as
//!   integers into crates/analysis/src/calibration.rs.
//! - `calibrate table`: the reliability table of held.csv: its positions by tenths of the
//!   chance the analysis gives them, against the share from which the bot reached the tile.

// The fit's 3x3 linear algebra reads as the formulas do, with indices.
#![allow(clippy::needless_range_loop)]

use std::fmt::Write as _;

use twenty48_analysis::calibration::TARGET_FIRST;
use twenty48_analysis::{chance, target_of, Rater, Setting, DEFAULT_SETTING};
use twenty48_bot::{Bot, Expectimax};
use twenty48_engine::bitboard::Packed;
use twenty48_engine::{Game, Rules, Status};

/// The depth of the bot that plays the rollouts (written into the curves' file): a chance
/// is that this bot, playing on, reaches the tile.
const ROLLOUT_DEPTH: u8 = 2;
/// The longest rollout, in moves (none of the bot's games comes near it).
const ROLLOUT_MOVES: u32 = 40_000;
/// The fit's seeds.
const FIT_SEEDS: core::ops::RangeInclusive<u64> = 1..=64;
/// The held-out seeds of the reliability table.
const HELD_SEEDS: core::ops::RangeInclusive<u64> = 1001..=1064;
/// The last tile a curve of its own is fitted for (exponent); tiles after it use its curve.
const TARGET_LAST: u8 = 14;
/// The tiles up to this one (exponent) share a curve: alone, each has too few games lost.
const POOLED: u8 = 9;
/// The ridge penalty of the fit (on the standardised slopes).
const RIDGE: f64 = 1.0;

/// The players whose games the positions are taken from, and every how many of a game's
/// positions one is taken: players of every strength, so that the curves know boards a
/// good player never makes.
const SOURCES: [(&str, usize); 3] = [("random", 4), ("greedy", 12), ("expectimax", 24)];

/// The setting the positions are searched in: the analysis's default, or the largest depth
/// in `T48_CALIBRATION_DEPTH` (to see how the curves fit another setting's values, such as
/// the web page's depth 6: `T48_CALIBRATION_DEPTH=6 just calibration-table`).
fn setting() -> Setting {
    match std::env::var("T48_CALIBRATION_DEPTH") {
        Ok(d) => Setting::Depth(d.parse().expect("T48_CALIBRATION_DEPTH: a depth, 1 to 8")),
        Err(_) => DEFAULT_SETTING,
    }
}

/// One position taken from a game, rolled out.
struct Sample {
    source: &'static str,
    seed: u64,
    move_number: u32,
    target: u8,
    /// The search's value of the best move; -1 when a move makes the tile at once.
    value: i64,
    sum: u64,
    /// Whether the rollout reached the tile.
    reached: bool,
}

fn bot(source: &str, seed: u64) -> Bot {
    match source {
        "random" => Bot::random(seed),
        "greedy" => Bot::greedy(),
        _ => Bot::expectimax(&Rules::CLASSIC, ROLLOUT_DEPTH),
    }
}

/// The positions of the game of `seed` that `source` plays (each kept with its game).
fn play(source: &str, seed: u64) -> Vec<Game> {
    let mut game = Game::new(Rules::CLASSIC, seed).expect("classic rules");
    let mut bot = bot(source, seed);
    let mut games = Vec::new();
    while game.status() == Status::Playing {
        let Some(dir) = bot.choose(&game) else {
            break;
        };
        games.push(game.clone());
        game.play(dir).expect("a legal move");
    }
    games
}

/// A SplitMix64 generator: each rollout draws its own spawns, so that the rollouts of the
/// positions of one game do not share their future.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A draw below `n`.
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

/// Whether the rollout bot, playing on from `board` (before a move) with spawns of its own
/// (classic odds: a 4 in 10), reaches the tile of exponent `target`.
fn rollout(mut board: Packed, target: u8, key: u64) -> bool {
    let mut bot = Expectimax::new(&Rules::CLASSIC, ROLLOUT_DEPTH);
    let mut rng = SplitMix(key);
    for _ in 0..ROLLOUT_MOVES {
        if board.max_exponent() >= target {
            return true;
        }
        let Some((dir, _)) = bot.best(board) else {
            return false;
        };
        let Some(after) = board.slide_board(dir) else {
            return false;
        };
        let empty = after.empty_count();
        if empty == 0 {
            return after.max_exponent() >= target;
        }
        let k = rng.below(u64::from(empty)) as u32;
        let four = rng.below(10) == 0;
        board = after.spawn_kth_empty(after.empty_prefix_counts(), k, four);
    }
    board.max_exponent() >= target
}

fn samples_of(source: &'static str, stride: usize, seed: u64) -> Vec<Sample> {
    let mut rater = Rater::with_setting(&Rules::CLASSIC, setting());
    let mut out = Vec::new();
    // Each position's rollout its own spawns: keyed by player, seed and move.
    let player = SOURCES.iter().position(|s| s.0 == source).unwrap_or(0) as u64;
    let key = player << 60 ^ seed << 24;
    for game in play(source, seed).into_iter().step_by(stride) {
        let mut cells = [0u8; 16];
        cells.copy_from_slice(&game.cells().exponents()[..16]);
        let board = Packed::from_cells(&cells).expect("a 4x4 board");
        let target = target_of(board.max_exponent());
        let sum: u64 = cells.iter().filter(|&&e| e > 0).map(|&e| 1u64 << e).sum();
        let values = rater.values(&cells);
        let best = values
            .into_iter()
            .zip(board.slide_each())
            .filter_map(|(v, a)| Some((v?, a?)))
            .max_by_key(|&(v, _)| v);
        let Some((value, after)) = best else {
            continue;
        };
        let at_once = after.max_exponent() >= target;
        out.push(Sample {
            source,
            seed,
            move_number: game.move_count() + 1,
            target,
            value: if at_once { -1 } else { value },
            sum,
            reached: at_once || rollout(board, target, key ^ u64::from(game.move_count())),
        });
    }
    out
}

/// The samples of every source's games from `seeds`, on two threads, in a fixed order.
fn samples(seeds: core::ops::RangeInclusive<u64>) -> Vec<Sample> {
    let jobs: Vec<(&'static str, usize, u64)> = SOURCES
        .iter()
        .flat_map(|&(source, stride)| seeds.clone().map(move |seed| (source, stride, seed)))
        .collect();
    let half = jobs.len().div_ceil(2);
    let parts: Vec<Vec<Sample>> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(half)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for &(source, stride, seed) in chunk {
                        let s = samples_of(source, stride, seed);
                        eprintln!("{source} seed {seed}: {} positions", s.len());
                        out.extend(s);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker"))
            .collect()
    });
    parts.into_iter().flatten().collect()
}

/// Standardised features of a sample: 1, the value, the progress.
fn features(s: &Sample) -> [f64; 3] {
    let progress = twenty48_analysis::progress(s.target, s.sum) as f64;
    [1.0, s.value as f64 / 1e6, progress / 1024.0]
}

/// A logistic fit by Newton's method with a ridge on the slopes.
fn fit(data: &[&Sample]) -> [f64; 3] {
    let mut w = [0.0f64; 3];
    for _ in 0..50 {
        let mut g = [0.0f64; 3];
        let mut h = [[0.0f64; 3]; 3];
        for s in data {
            let x = features(s);
            let z: f64 = (0..3).map(|i| w[i] * x[i]).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let y = if s.reached { 1.0 } else { 0.0 };
            for i in 0..3 {
                g[i] += (y - p) * x[i];
                for j in 0..3 {
                    h[i][j] += p * (1.0 - p) * x[i] * x[j];
                }
            }
        }
        for i in 0..3 {
            h[i][i] += RIDGE * 0.01;
            if i > 0 {
                g[i] -= RIDGE * w[i];
                h[i][i] += RIDGE;
            }
        }
        let step = solve(h, g);
        for i in 0..3 {
            w[i] += step[i];
        }
        if step.iter().all(|d| d.abs() < 1e-9) {
            break;
        }
    }
    // The value's slope is kept positive: a better board is never a smaller chance.
    w[1] = w[1].max(1e-3);
    w
}

fn solve(mut a: [[f64; 3]; 3], mut b: [f64; 3]) -> [f64; 3] {
    for c in 0..3 {
        let p = (c..3)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("rows");
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..3 {
            let f = a[r][c] / a[c][c];
            for k in c..3 {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; 3];
    for r in (0..3).rev() {
        let s: f64 = (r + 1..3).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x
}

fn write_csv(path: &str, data: &[Sample]) {
    let mut text = String::from("player,seed,move,target,value,sum,reached\n");
    for s in data {
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{}",
            s.source,
            s.seed,
            s.move_number,
            s.target,
            s.value,
            s.sum,
            u8::from(s.reached)
        );
    }
    std::fs::write(path, text).expect("the fit's positions are written");
}

fn write_curves(path: &str, curves: &[[f64; 3]]) {
    let scale = 4_294_967_296.0f64; // 2^32
    let mut text = String::new();
    let _ = writeln!(
        text,
        "//! The fitted curves of the analysis's chances: written by `just calibrate`\n\
         //! (crates/analysis/examples/calibrate.rs), do not edit. docs/analysis.md tells the fit.\n\n\
         /// A logistic curve: `z = (intercept + value * v + progress * p) / 2^32` for a search value\n\
         /// `v` and a progress `p` (1024ths of the tile aimed at, [`crate::progress`]).\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq)]\n\
         pub struct Curve {{\n    /// The constant term, in 2^-32 units.\n    pub intercept: i64,\n\
         \x20   /// A unit of search value's weight, in 2^-32 units.\n    pub value: i64,\n\
         \x20   /// A unit of progress's weight, in 2^-32 units.\n    pub progress: i64,\n}}\n\n\
         /// The depth of the expectimax bot whose games the curves were fitted on: a chance is\n\
         /// that this bot, playing on, reaches the tile.\n\
         pub const ROLLOUT_DEPTH: u8 = {ROLLOUT_DEPTH};\n\n\
         /// The exponent of the tile aimed at by [`CURVES`]' first curve (tiles before it use it).\n\
         pub const TARGET_FIRST: u8 = {TARGET_FIRST};\n\n\
         /// One curve a tile aimed at, from [`TARGET_FIRST`] on (tiles after the last use the last).\n\
         pub const CURVES: [Curve; {}] = [",
        curves.len()
    );
    for w in curves {
        // Standardised features back to integer units: value / 1e6, progress / 1024.
        let intercept = (w[0] * scale).round() as i64;
        let value = (w[1] / 1e6 * scale).round() as i64;
        let progress = (w[2] / 1024.0 * scale).round() as i64;
        let _ = writeln!(
            text,
            "    Curve {{ intercept: {intercept}, value: {value}, progress: {progress} }},"
        );
    }
    let _ = writeln!(
        text,
        "];\n\n/// The largest `|z|` of [`LOGISTIC`]: beyond it a chance is that of its ends.\n\
         pub const LOGISTIC_SPAN: i64 = 16;\n\n\
         /// `1 / (1 + e^-z)` in millionths, rounded to the nearest, for `z` every 1/16 from\n\
         /// `-LOGISTIC_SPAN` to `LOGISTIC_SPAN`.\npub const LOGISTIC: [u32; 513] = ["
    );
    for k in 0..=512i64 {
        let z = (k - 256) as f64 / 16.0;
        let p = (1e6 / (1.0 + (-z).exp())).round() as u32;
        let _ = write!(text, "{}{p},", if k % 10 == 0 { "\n    " } else { " " });
    }
    let _ = writeln!(text, "\n];");
    std::fs::write(path, text).expect("the curves are written");
}

fn read_csv(path: &str) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let n = |i: usize| -> i64 { f[i].parse().unwrap_or_else(|_| panic!("{path}: {line}")) };
            Sample {
                source: SOURCES
                    .iter()
                    .map(|s| s.0)
                    .find(|&s| s == f[0])
                    .unwrap_or("expectimax"),
                seed: n(1) as u64,
                move_number: n(2) as u32,
                target: n(3) as u8,
                value: n(4),
                sum: n(5) as u64,
                reached: n(6) == 1,
            }
        })
        .collect()
}

fn fit_curves(data: &[Sample]) -> Vec<[f64; 3]> {
    let mut curves = Vec::new();
    for target in TARGET_FIRST..=TARGET_LAST {
        // Tiles up to POOLED share one curve: the bot rarely fails to reach them.
        let set: Vec<&Sample> = data
            .iter()
            .filter(|s| s.value >= 0)
            .filter(|s| s.target == target || (target <= POOLED && s.target <= POOLED))
            .collect();
        let hits = set.iter().filter(|s| s.reached).count();
        let w = fit(&set);
        eprintln!(
            "tile {}: {} positions, {hits} reached: {w:?}",
            1u64 << target,
            set.len()
        );
        curves.push(w);
    }
    curves
}

fn table(data: &[Sample]) {
    let mut rows = [(0u64, 0u64, 0u64); 10]; // positions, predicted sum, reached
    for s in data.iter().filter(|s| s.value >= 0) {
        let p = chance(s.target, s.value, s.sum, false);
        let tenth = ((p / 100_000) as usize).min(9);
        rows[tenth].0 += 1;
        rows[tenth].1 += u64::from(p);
        rows[tenth].2 += u64::from(s.reached);
    }
    println!("| chance given | positions | mean chance given | reached the tile | difference |");
    println!("|---|---|---|---|---|");
    for (i, &(n, sum, hit)) in rows.iter().enumerate() {
        if n == 0 {
            println!("| {}0-{}0% | 0 | | | |", i, i + 1);
            continue;
        }
        let given = sum as f64 / n as f64 / 1e4;
        let seen = hit as f64 * 100.0 / n as f64;
        println!(
            "| {}0-{}0% | {n} | {given:.1}% | {seen:.1}% | {:+.1}{} |",
            i,
            i + 1,
            seen - given,
            if n < 200 { " (fewer than 200)" } else { "" }
        );
    }
}

fn main() {
    let what = std::env::args().nth(1).unwrap_or_default();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"));
    let fit_csv = format!("{dir}/calibration/fit.csv");
    // Another setting's held-out positions go to a file of their own (not kept).
    let held_csv = match std::env::var("T48_CALIBRATION_DEPTH") {
        Ok(d) => format!("{dir}/../../target/calibration-held-depth{d}.csv"),
        Err(_) => format!("{dir}/calibration/held.csv"),
    };
    match what.as_str() {
        "fit-positions" => write_csv(&fit_csv, &samples(FIT_SEEDS)),
        "held-positions" => write_csv(&held_csv, &samples(HELD_SEEDS)),
        "fit" => write_curves(
            &format!("{dir}/src/calibration.rs"),
            &fit_curves(&read_csv(&fit_csv)),
        ),
        "table" => table(&read_csv(&held_csv)),
        _ => {
            eprintln!("usage: calibrate fit-positions|held-positions|fit|table");
            std::process::exit(2);
        }
    }
}
