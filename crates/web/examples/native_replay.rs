//! The replay speed of the page's own code on the host: `Viewer::replay_all` (play_all from
//! the opening) on a game, as `just web-bench` times it in the browser.
//!
//! `cargo run --release -p twenty48-web --example native_replay -- GAME.t48 [TIMES]`

use std::time::Instant;

use twenty48_web::Viewer;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: native_replay GAME.t48 [TIMES]")?;
    let times: u32 = args.next().map_or(Ok(50), |t| t.parse())?;
    let bytes = std::fs::read(&path)?;
    let opened = Viewer::open(&bytes);
    let viewer = opened.viewer.ok_or_else(|| opened.verdict.to_string())?;
    let mut best = f64::INFINITY;
    let mut played = 0;
    for _ in 0..7 {
        let start = Instant::now();
        played = viewer.replay_all(times);
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "native replay_all: {played} moves in {:.2} ms (best of 7): {:.1} M moves/s, {:.1} ns a move",
        best * 1e3,
        played as f64 / best / 1e6,
        best * 1e9 / played as f64
    );
    Ok(())
}
