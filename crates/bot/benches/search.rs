//! Expectimax search speed: positions evaluated (scored by the heuristic) per second, on
//! boards from the middle of a depth-2 game, searched at depths 2 to 4. Run with `just bench`
//! or `cargo bench -p twenty48-bot`.
//!
//! For comparison: nneonneo/2048-ai reports its speed as moves per second of whole games
//! (5-10 at depth 8 on 4 threads), not positions; `just bot-eval` prints ours that way.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use twenty48_bot::{Bot, Expectimax};
use twenty48_engine::bitboard::Packed;
use twenty48_engine::{Game, Rules, Status};

/// Boards after moves 200, 400, ..., 1600 of classic seed 11 played at depth 2.
fn boards() -> Vec<Packed> {
    let mut game = Game::new(Rules::CLASSIC, 11).unwrap();
    let mut bot = Bot::expectimax(&Rules::CLASSIC, 2);
    let mut boards = Vec::new();
    while game.status() == Status::Playing && game.move_count() < 1600 {
        game.play(bot.choose(&game).unwrap()).unwrap();
        if game.move_count() % 200 == 0 {
            let cells: [u8; 16] = game.cells().exponents().try_into().unwrap();
            boards.push(Packed::from_cells(&cells).unwrap());
        }
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
    for depth in 2..=4u8 {
        // The count of positions a search evaluates is fixed (the search is deterministic).
        let mut search = Expectimax::new(&Rules::CLASSIC, depth);
        search_all(&mut search, &boards);
        group.throughput(Throughput::Elements(search.stats().evaluated));
        group.bench_function(format!("depth_{depth}"), |b| {
            b.iter(|| search_all(&mut search, &boards))
        });
    }
    group.finish();
}

criterion_group!(benches, positions);
criterion_main!(benches);
