//! The bot evaluation of `just bot-eval`: plays classic games with the expectimax bot on a
//! range of seeds (several at once, one game per thread: threads never share a game, so
//! the games are the same however many run) and prints each game as it ends, then the share
//! of games reaching each tile, the median score and the moves per second: on the clock,
//! and per CPU second of the game's thread (Linux), which other programs on a shared machine
//! do not slow down.
//!
//! `cargo run --release -p twenty48-bot --example bot_eval -- [DEPTH [FIRST LAST [THREADS
//! [DIR [STOP]]]]]` (default: depth 6, seeds 1 to 20, 2 threads; DEPTH `greedy` plays the
//! greedy bot). With DIR (`-` for none), each game is also written there as
//! `classic-SEED-DEPTH.t48`, the file `twenty48 record --seed SEED --bot expectimax --depth
//! DEPTH` writes (with STOP, the game up to that tile). With STOP (a tile, such as 8192), a
//! game ends when it makes that tile: for quick comparisons, whose scores are then not whole
//! games'.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use twenty48_bot::Bot;
use twenty48_engine::{Rules, Status};
use twenty48_movelog::Recorder;

/// One finished game.
struct Played {
    seed: u64,
    moves: u32,
    max_exponent: u8,
    score: u64,
    seconds: f64,
    /// CPU time of the game's thread, where Linux reports it.
    cpu_seconds: Option<f64>,
    evaluated: u64,
}

/// The calling thread's CPU time so far, from Linux's `/proc/thread-self/schedstat` (its
/// first field is nanoseconds on a CPU); `None` elsewhere. The machine may be shared: game
/// time on the clock then counts other programs' turns, CPU time does not.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn play(which: &str, seed: u64, dir: Option<&str>, stop: u8) -> Played {
    let mut recorder = Recorder::new(Rules::CLASSIC, seed).expect("classic rules are valid");
    let mut bot = match which {
        "greedy" => Bot::greedy(),
        depth => Bot::expectimax(&Rules::CLASSIC, depth.parse().expect("DEPTH is a number")),
    };
    let t = Instant::now();
    let cpu = thread_cpu_seconds();
    while recorder.game().status() == Status::Playing && recorder.game().max_exponent() < stop {
        let Some(dir) = bot.choose(recorder.game()) else {
            break;
        };
        recorder.play(dir).expect("the bot plays legal moves");
    }
    if let Some(dir) = dir {
        let path = std::path::Path::new(dir).join(format!("classic-{seed}-{which}.t48"));
        twenty48_movelog::write_atomic(&path, &recorder.finish().encode())
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    let game = recorder.game();
    Played {
        seed,
        moves: game.move_count(),
        max_exponent: game.max_exponent(),
        score: game.score(),
        seconds: t.elapsed().as_secs_f64(),
        cpu_seconds: cpu.zip(thread_cpu_seconds()).map(|(a, b)| b - a),
        evaluated: bot.search_stats().map_or(0, |s| s.evaluated),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map_or(default, |s| s.parse().expect("a number"))
    };
    let which = args.first().map_or("6", String::as_str);
    let (first, last, threads) = (arg(1, 1), arg(2, 20), arg(3, 2).max(1));
    let out = args.get(4).map(String::as_str).filter(|&d| d != "-");
    let stop = match arg(5, 0) {
        0 => u8::MAX,
        tile => tile.trailing_zeros() as u8,
    };
    let next = AtomicU64::new(first);
    let done = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed > last {
                    break;
                }
                let p = play(which, seed, out, stop);
                let cpu = p.cpu_seconds.unwrap_or(p.seconds);
                println!(
                    "seed {:>3}: {:>6} moves, largest {:>6}, score {:>7}, {:>5.0} moves/s ({:.0} per CPU second), {:.1}M positions per CPU second",
                    p.seed,
                    p.moves,
                    1u64 << p.max_exponent,
                    p.score,
                    p.moves as f64 / p.seconds,
                    p.moves as f64 / cpu,
                    p.evaluated as f64 / cpu / 1e6,
                );
                done.lock().expect("no thread panics holding it").push(p);
            });
        }
    });
    let mut games = done.into_inner().expect("no thread panicked");
    games.sort_by_key(|p| p.seed);
    let n = games.len() as u32;
    println!("bot {which}, classic rules, seeds {first}-{last}: {n} games");
    println!("tile    games reaching it");
    for e in (9..18u8).rev() {
        let k = games.iter().filter(|p| p.max_exponent >= e).count() as u32;
        if k > 0 {
            println!("{:>6}  {k:>3}/{n} = {:>3}%", 1u64 << e, k * 100 / n);
        }
    }
    let mut scores: Vec<u64> = games.iter().map(|p| p.score).collect();
    scores.sort_unstable();
    let median = match scores.len() {
        0 => 0,
        k if k % 2 == 1 => scores[k / 2],
        k => (scores[k / 2 - 1] + scores[k / 2]) / 2,
    };
    let moves: u64 = games.iter().map(|p| p.moves as u64).sum();
    let busy: f64 = games.iter().map(|p| p.seconds).sum();
    let cpu: f64 = games
        .iter()
        .map(|p| p.cpu_seconds.unwrap_or(p.seconds))
        .sum();
    println!("median score {median}");
    println!(
        "moves/s {:.0} per game (all moves / summed game time), {:.0} per CPU second of the games' threads, {:.0} overall ({} threads, {:.0} s)",
        moves as f64 / busy,
        moves as f64 / cpu,
        moves as f64 / start.elapsed().as_secs_f64(),
        threads,
        start.elapsed().as_secs_f64()
    );
}
