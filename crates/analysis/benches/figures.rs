//! The analysis's speed in figures (`just bench`): the 1000-move fixture and the 20,449-move
//! fixture analysed at the default depth on one thread, against the goal of a 1000-move game
//! in under 10 s natively (issue 33). The machines this runs on are shared: the best of a few
//! runs is the figure undisturbed by other work. `T48_ANALYSIS_LONG=0` leaves out the long
//! game (about a minute).

use std::path::Path;
use std::time::Instant;

use twenty48_analysis::{Analysis, DEFAULT_DEPTH};
use twenty48_movelog::MoveLog;

fn fixture(name: &str) -> MoveLog {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/games")
        .join(name);
    MoveLog::decode(&std::fs::read(&path).unwrap()).unwrap()
}

/// Analyses `log` `runs` times: (best seconds, the analysis).
fn time(log: &MoveLog, runs: usize) -> (f64, Analysis) {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let a = Analysis::of_game(
            log.rules,
            log.seed,
            log.moves.iter().copied(),
            DEFAULT_DEPTH,
        )
        .unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(a);
    }
    (best, last.unwrap())
}

fn main() {
    let mut games = vec![("classic-expectimax-depth3-1000.t48", 3)];
    if std::env::var("T48_ANALYSIS_LONG").as_deref() != Ok("0") {
        games.push(("classic-expectimax-32768.t48", 1));
    }
    for (name, runs) in games {
        let log = fixture(name);
        let (seconds, a) = time(&log, runs);
        let moves = a.ratings.len();
        println!(
            "analysis of {name} ({moves} moves) at depth {DEFAULT_DEPTH}, one thread: {seconds:.2} s (best of {runs}), {:.2} ms a move{}",
            seconds * 1000.0 / moves as f64,
            if moves == 1000 { " (goal: a 1000-move game in under 10 s)" } else { "" }
        );
    }
}
