//! A summary of the engine's speed against the targets, in figures: for each
//! workload of the criterion benchmarks (workload.rs), the best and the median of many
//! short timed runs. The machines this runs on are shared, so runs vary; the median is the
//! typical figure, the best the figure undisturbed by other work. Run with `just bench`
//! (after the criterion benchmarks) or `cargo bench -p twenty48-engine --bench figures`.

use std::hint::black_box;
use std::time::Instant;

#[path = "workload.rs"]
mod workload;

/// Times `runs` runs of `work` (each doing `items` items) and returns items per second:
/// (best, median).
fn rate(runs: usize, items: f64, mut work: impl FnMut() -> u64) -> (f64, f64) {
    // Warm up: tables into the caches, the clock up to speed.
    let warm = Instant::now();
    while warm.elapsed().as_millis() < 300 {
        black_box(work());
    }
    let mut seconds: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(work());
            t.elapsed().as_secs_f64()
        })
        .collect();
    seconds.sort_by(f64::total_cmp);
    (items / seconds[0], items / seconds[runs / 2])
}

fn line(what: &str, (best, median): (f64, f64), unit: &str, scale: f64, target: &str) {
    println!(
        "{what:<44} best {:>8.1} {unit}  median {:>8.1} {unit}  {target}",
        best / scale,
        median / scale
    );
}

fn main() {
    // `cargo bench` passes criterion's flags to every bench binary; none apply here, but a
    // filter that names another benchmark means this one was not asked for.
    if std::env::args()
        .skip(1)
        .any(|a| !a.starts_with('-') && !"figures".contains(a.as_str()))
    {
        return;
    }
    let (packed, reference) = workload::boards();
    let moves = 4.0 * packed.len() as f64;
    println!("twenty48-engine speed: best and median of many timed runs (higher is better)");
    let each = rate(2000, moves, || workload::raw_each(&packed));
    line(
        "raw moves, fast path, all four at once",
        each,
        "M/s",
        1e6,
        "(target 400 M/s)",
    );
    let board_only = rate(2000, moves, || workload::raw_board_only(&packed));
    line(
        "raw moves, fast path, board only",
        board_only,
        "M/s",
        1e6,
        "",
    );
    let scored = rate(2000, moves, || workload::raw_scored(&packed));
    line("raw moves, fast path, with score", scored, "M/s", 1e6, "");
    let slow = rate(200, moves, || workload::raw_reference(&reference));
    line("raw moves, reference engine", slow, "M/s", 1e6, "");
    println!(
        "{:<44} {:.0}x all four, {:.0}x board only, {:.0}x with score (medians; target 25x)",
        "fast path against reference",
        each.1 / slow.1,
        board_only.1 / slow.1,
        scored.1 / slow.1
    );
    let (rules, seed, game) = workload::thousand_move_game();
    let play_all = rate(2000, 1.0, || workload::replay_play_all(rules, seed, &game));
    line(
        "replay 1000 moves, Game::play_all",
        play_all,
        "games/s",
        1.0,
        "(target 50,000/s)",
    );
    let one = rate(2000, 1.0, || {
        workload::replay_one_by_one(rules, seed, &game)
    });
    line(
        "replay 1000 moves, Game::play move by move",
        one,
        "games/s",
        1.0,
        "",
    );
    let slow = rate(100, 1.0, || workload::replay_reference(rules, seed, &game));
    line(
        "replay 1000 moves, reference engine",
        slow,
        "games/s",
        1.0,
        "",
    );
}
