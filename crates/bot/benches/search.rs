//! Expectimax search speed: positions evaluated (scored by the heuristic) per second, on the
//! boards of a real game to 16384 (every 400th board of fixtures/games/
//! classic-expectimax-16384.t48, 28 boards from the opening to the 16384), searched at
//! largest depths 4 to 7 with the bot's depth schedule and in the default setting (a budget
//! of positions a move). Run with `just bench` or `cargo bench -p twenty48-bot`.
//!
//! For comparison: nneonneo/2048-ai reports "over 10 million states/s" on one core and 5-10
//! moves per second of whole games at depth 8; `just bot-eval` prints ours both ways (about
//! 40-50 million positions scored per CPU second).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use twenty48_bot::Expectimax;
use twenty48_engine::bitboard::Packed;
use twenty48_engine::Game;
use twenty48_movelog::MoveLog;

/// Every 400th board of the fixture game to 16384.
fn boards() -> Vec<Packed> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/games/classic-expectimax-16384.t48"
    );
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let log = MoveLog::decode(&bytes).expect("the fixture is a valid log");
    let mut game = Game::new(log.rules, log.seed).unwrap();
    let mut boards = Vec::new();
    for (i, &dir) in log.moves.iter().enumerate() {
        if i % 400 == 0 {
            let cells: [u8; 16] = game.cells().exponents().try_into().unwrap();
            boards.push(Packed::from_cells(&cells).unwrap());
        }
        game.play(dir).unwrap();
    }
    boards
}

fn search_all(search: &mut Expectimax, boards: &[Packed]) -> i64 {
    boards
        .iter()
        .map(|&b| search.best(b).map_or(0, |(_, v)| v))
        .sum()
}

fn positions(c: &mut Criterion) {
    let boards = boards();
    let mut group = c.benchmark_group("expectimax_positions");
    group.sample_size(10);
    for depth in 4..=7u8 {
        // The count of positions a search evaluates is fixed (the search is deterministic).
        let mut search = Expectimax::new(&twenty48_engine::Rules::CLASSIC, depth);
        search_all(&mut search, &boards);
        group.throughput(Throughput::Elements(search.stats().evaluated));
        group.bench_function(format!("depth_{depth}"), |b| {
            b.iter(|| search_all(&mut search, &boards))
        });
    }
    // The default setting: a budget of positions a move, as deep as it fits.
    let mut search = Expectimax::default_for(&twenty48_engine::Rules::CLASSIC);
    search_all(&mut search, &boards);
    group.throughput(Throughput::Elements(search.stats().evaluated));
    group.bench_function("default_budget", |b| {
        b.iter(|| search_all(&mut search, &boards))
    });
    group.finish();
}

criterion_group!(benches, positions);
criterion_main!(benches);
