//! The bot evaluation of `just bot-eval`: plays classic games with a bot on a range of seeds
//! (several at once, one game per thread: threads never share a game, so the games are the
//! same however many run) and prints each game as it ends, then per setting:
//! - the games reaching each tile, with a 95% confidence interval (Wilson score interval);
//! - the median and mean score;
//! - the time per move, median and 99th percentile, in CPU time of the game's thread (other
//!   programs on a shared machine do not lengthen it), or on the clock for a search on
//!   several threads (`x2`) or where the system has no thread CPU clock;
//! - the positions the search scores by its heuristic per second, in the same time (its
//!   "states" per second).
//!
//! `cargo run --release -p twenty48-bot --example bot_eval -- [SETTINGS [FIRST LAST
//! [THREADS [DIR [STOP]]]]]` (default: `default`, seeds 1 to 20, 2 threads). SETTINGS is a
//! comma-separated list of: `default` (the bot `Bot::expectimax_default` makes, `record --bot
//! expectimax`'s), a largest depth such as `7` (`--depth 7`), a budget of positions a move
//! such as `b4000000` (`--budget 4000000`), each with `xTHREADS` after it for the root moves
//! on that many threads (`--threads`; the same games), or `greedy`. With DIR (`-` for none), each game is
//! also written there as `classic-SEED-SETTING.t48`, the file `twenty48 record --seed SEED
//! --bot expectimax [--depth DEPTH]` writes (with STOP, the game up to that tile): `twenty48
//! verify` checks it. With STOP (a tile, such as 8192), a game ends when it makes that tile:
//! for quick comparisons, whose scores are then not whole games'. With `SO_FAR=1` in the
//! environment, the summary of a setting's games so far is printed after each of its games:
//! a long run stopped early keeps its figures.
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use twenty48_bot::{Bot, Setting};
use twenty48_engine::{Rules, Status};
use twenty48_movelog::Recorder;

/// One finished game.
struct Played {
    setting: usize,
    seed: u64,
    moves: u32,
    max_exponent: u8,
    score: u64,
    seconds: f64,
    /// CPU time of the game's thread, where the system reports it and the search runs on
    /// that thread alone, else time on the clock.
    cpu_seconds: f64,
    /// Whether the times are CPU times.
    on_cpu: bool,
    /// Each move's time in microseconds, CPU time as `cpu_seconds`.
    move_micros: Vec<u32>,
    evaluated: u64,
    depth_sum: u64,
    searched: u64,
}

/// The calling thread's CPU time so far in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`), where
/// the system has it. The machine may be shared: game time on the clock then counts other
/// programs' turns, CPU time does not.
#[cfg(unix)]
fn thread_cpu_nanos() -> Option<u64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into `t`, which lives for the call.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
}

#[cfg(not(unix))]
fn thread_cpu_nanos() -> Option<u64> {
    None
}

/// Nanoseconds since `start` on the calling thread's CPU clock if `cpu` and there is one,
/// else on the wall clock (a search on several threads: one thread's CPU time is not its
/// time).
fn now_nanos(start: Instant, cpu: bool) -> u64 {
    cpu.then(thread_cpu_nanos)
        .flatten()
        .unwrap_or_else(|| start.elapsed().as_nanos() as u64)
}

/// The bot of a setting's name: `greedy`, `default`, a depth (`6`) or a budget (`b1000000`),
/// the last three with `xTHREADS` after them for root moves on that many threads (`b4000000x2`).
fn make_bot(setting: &str) -> Bot {
    const SETTINGS: &str =
        "a setting is greedy, default, DEPTH or bBUDGET, then xTHREADS if wanted";
    if setting == "greedy" {
        return Bot::greedy();
    }
    let (name, threads) = setting.split_once('x').unwrap_or((setting, "1"));
    let threads = threads.parse().expect(SETTINGS);
    let setting = match name {
        "default" => Setting::DEFAULT,
        _ => match name.strip_prefix('b') {
            Some(budget) => Setting::Budget(budget.parse().expect(SETTINGS)),
            None => Setting::Depth(name.parse().expect(SETTINGS)),
        },
    };
    Bot::expectimax_with(&Rules::CLASSIC, setting, threads)
}

fn play(settings: &[&str], setting: usize, seed: u64, dir: Option<&str>, stop: u8) -> Played {
    let which = settings[setting];
    let mut recorder = Recorder::new(Rules::CLASSIC, seed).expect("classic rules are valid");
    let mut bot = make_bot(which);
    let t = Instant::now();
    let on_cpu = !which.contains('x') && thread_cpu_nanos().is_some();
    let cpu = now_nanos(t, on_cpu);
    let mut move_micros = Vec::new();
    while recorder.game().status() == Status::Playing && recorder.game().max_exponent() < stop {
        let before = now_nanos(t, on_cpu);
        let Some(dir) = bot.choose(recorder.game()) else {
            break;
        };
        move_micros.push(((now_nanos(t, on_cpu) - before) / 1000) as u32);
        recorder.play(dir).expect("the bot plays legal moves");
    }
    let cpu_seconds = (now_nanos(t, on_cpu) - cpu) as f64 / 1e9;
    if let Some(dir) = dir {
        let path = std::path::Path::new(dir).join(format!("classic-{seed}-{which}.t48"));
        twenty48_movelog::write_atomic(&path, &recorder.finish().encode())
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    let game = recorder.game();
    Played {
        setting,
        seed,
        moves: game.move_count(),
        max_exponent: game.max_exponent(),
        score: game.score(),
        seconds: t.elapsed().as_secs_f64(),
        cpu_seconds,
        on_cpu,
        move_micros,
        evaluated: bot.search_stats().map_or(0, |s| s.evaluated),
        depth_sum: bot.search_stats().map_or(0, |s| s.depth_sum),
        searched: bot.search_stats().map_or(0, |s| s.moves),
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials, in percent.
fn wilson(k: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 100.0);
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, 1.96f64);
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (
        100.0 * (centre - half).max(0.0),
        100.0 * (centre + half).min(1.0),
    )
}

/// The value at quantile `q` (0 to 1) of sorted `values`, nearest rank.
fn quantile<T: Copy + Default>(sorted: &[T], q: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Prints the summary of one setting's games.
fn summarise(setting: &str, first: u64, last: u64, stop: u8, games: &[&Played]) {
    let n = games.len() as u32;
    let stopped = if stop < u8::MAX {
        format!(", each stopped at {}", 1u64 << stop)
    } else {
        String::new()
    };
    println!("\n== bot {setting}, classic rules, seeds {first}-{last}: {n} games{stopped}");
    println!("  tile   games  share   95% CI (Wilson)");
    for e in (9..18u8).rev() {
        let k = games.iter().filter(|p| p.max_exponent >= e).count() as u32;
        if k > 0 {
            let (low, high) = wilson(k, n);
            println!(
                "{:>6}  {k:>3}/{n:<3} {:>5.1}%  {low:>5.1}-{high:.1}%",
                1u64 << e,
                100.0 * k as f64 / n as f64
            );
        }
    }
    let mut scores: Vec<u64> = games.iter().map(|p| p.score).collect();
    scores.sort_unstable();
    let median = match scores.len() {
        0 => 0,
        k if k % 2 == 1 => scores[k / 2],
        k => (scores[k / 2 - 1] + scores[k / 2]) / 2,
    };
    let mean = scores.iter().sum::<u64>() as f64 / scores.len().max(1) as f64;
    let (depths, searched) = games
        .iter()
        .fold((0, 0), |(d, m), p| (d + p.depth_sum, m + p.searched));
    if searched > 0 {
        println!("mean search depth {:.2}", depths as f64 / searched as f64);
    }
    println!("score: median {median}, mean {mean:.0}");
    let mut micros: Vec<u32> = games.iter().flat_map(|p| p.move_micros.clone()).collect();
    micros.sort_unstable();
    let moves: u64 = games.iter().map(|p| p.moves as u64).sum();
    let cpu: f64 = games.iter().map(|p| p.cpu_seconds).sum();
    let wall: f64 = games.iter().map(|p| p.seconds).sum();
    let evaluated: u64 = games.iter().map(|p| p.evaluated).sum();
    let clock = match games.iter().all(|p| p.on_cpu) {
        true => "CPU time of the game's one thread",
        false => "on the clock",
    };
    println!(
        "time per move ({clock}): median {:.2} ms, 99th percentile {:.2} ms, largest {:.1} ms, mean {:.2} ms",
        quantile(&micros, 0.5) as f64 / 1e3,
        quantile(&micros, 0.99) as f64 / 1e3,
        quantile(&micros, 1.0) as f64 / 1e3,
        cpu * 1e3 / moves.max(1) as f64,
    );
    println!(
        "{moves} moves; {:.0} moves per second ({clock}), {:.0} per second on the clock; {:.1} M positions scored per second ({clock})",
        moves as f64 / cpu,
        moves as f64 / wall,
        evaluated as f64 / cpu / 1e6
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map_or(default, |s| s.parse().expect("a number"))
    };
    let settings: Vec<&str> = args
        .first()
        .map_or("default", String::as_str)
        .split(',')
        .collect();
    for &s in &settings {
        make_bot(s); // a bad setting stops here, before any game
    }
    let (first, last, threads) = (arg(1, 1), arg(2, 20), arg(3, 2).max(1));
    let out = args.get(4).map(String::as_str).filter(|&d| d != "-");
    let stop = match arg(5, 0) {
        0 => u8::MAX,
        tile => tile.trailing_zeros() as u8,
    };
    // Every (setting, seed), seeds of the first setting first.
    let jobs: Vec<(usize, u64)> = (0..settings.len())
        .flat_map(|s| (first..=last).map(move |seed| (s, seed)))
        .collect();
    // SO_FAR=1: the summary of a setting's games so far after each game ends.
    let games_so_far = std::env::var("SO_FAR").is_ok_and(|v| v == "1");
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(&(setting, seed)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                let p = play(&settings, setting, seed, out, stop);
                println!(
                    "{} seed {:>3}: {:>6} moves, largest {:>6}, score {:>7}, {:.2} ms a move{}, {:.0} s, {:.1} M positions a second{}",
                    settings[setting],
                    p.seed,
                    p.moves,
                    1u64 << p.max_exponent,
                    p.score,
                    p.cpu_seconds * 1e3 / p.moves.max(1) as f64,
                    if p.on_cpu { " (CPU)" } else { "" },
                    p.seconds,
                    p.evaluated as f64 / p.cpu_seconds / 1e6,
                    if p.on_cpu { " (CPU)" } else { "" },
                );
                    let mut done = done.lock().expect("no thread panics holding it");
                    done.push(p);
                    // The summary so far, so that a run stopped early keeps its figures.
                    if games_so_far {
                        let mine: Vec<&Played> =
                            done.iter().filter(|p| p.setting == setting).collect();
                        summarise(settings[setting], first, last, stop, &mine);
                    }
                }
            });
        }
    });
    let mut games = done.into_inner().expect("no thread panicked");
    games.sort_by_key(|p| (p.setting, p.seed));
    for (i, setting) in settings.iter().enumerate() {
        let mine: Vec<&Played> = games.iter().filter(|p| p.setting == i).collect();
        summarise(setting, first, last, stop, &mine);
    }
    println!(
        "\n{} games on {threads} threads in {:.0} s",
        games.len(),
        start.elapsed().as_secs_f64()
    );
}
