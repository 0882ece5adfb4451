//! Engine speed: raw slides (fast path against the reference engine, in the same run) and
//! whole-game replay from (rules, seed, moves). Run with `just bench` or `cargo bench`.
//!
//! Targets (issue "Seeded 2048 engine"): at least 400M raw moves/s on the fast path and 25x
//! the reference engine; at least 50,000 replays/s of a 1000-move game.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use twenty48_engine::bitboard::{FastSlide, Packed};
use twenty48_engine::reference::Board;
use twenty48_engine::{Direction, Game, Rules, Status};

/// Boards from real games: a deterministic mix of early, middle and late positions.
fn sample_boards() -> Vec<[u8; 16]> {
    let mut boards = Vec::new();
    for seed in 0..64u64 {
        let mut g = Game::new(Rules::CONSOLE, seed).unwrap();
        let order = [
            Direction::Left,
            Direction::Down,
            Direction::Right,
            Direction::Up,
        ];
        let mut i = 0usize;
        while g.status() == Status::Playing && boards.len() < 1024 * (seed as usize + 1) / 64 {
            let _ = g.play(order[(i * 7 + seed as usize) % 4]);
            i += 1;
            let cells = g.cells();
            boards.push(cells.exponents().try_into().unwrap());
        }
    }
    boards.truncate(1024);
    boards
}

/// The first 1000 moves of the fixture corpus's greedy-bot classic game (fixtures/expected.csv
/// lists every fixture game as rules, seed and move letters).
fn thousand_move_game() -> (Rules, u64, Vec<Direction>) {
    let csv = include_str!("../../../fixtures/expected.csv");
    let row = csv
        .lines()
        .find(|l| l.starts_with("classic-greedy-2048-plays-on.t48,"))
        .expect("the greedy fixture game is listed");
    let cols: Vec<&str> = row.split(',').collect();
    let seed = cols[1].parse().expect("a seed");
    let moves: Vec<Direction> = cols[3]
        .chars()
        .take(1000)
        .map(|c| Direction::from_letter(c).expect("a move letter"))
        .collect();
    assert_eq!(moves.len(), 1000);
    (Rules::CLASSIC, seed, moves)
}

fn raw_moves(c: &mut Criterion) {
    let boards = sample_boards();
    let packed: Vec<Packed> = boards
        .iter()
        .map(|b| Packed::from_cells(b).unwrap())
        .collect();
    let reference: Vec<Board> = boards
        .iter()
        .map(|b| Board::from_cells(b).unwrap())
        .collect();
    let mut group = c.benchmark_group("raw_moves");
    group.throughput(Throughput::Elements(4 * boards.len() as u64));
    group.bench_function("fast", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            // `packed` is opaque to the optimiser behind `black_box`; each call recomputes.
            for &p in black_box(&packed) {
                // The four directions, each slide specialised (no dispatch in the loop).
                for r in [
                    p.slide(Direction::Up),
                    p.slide(Direction::Right),
                    p.slide(Direction::Down),
                    p.slide(Direction::Left),
                ] {
                    if let FastSlide::Done {
                        board,
                        merged_value,
                        ..
                    } = r
                    {
                        acc = acc.wrapping_add(board.0 ^ merged_value as u64);
                    }
                }
            }
            acc
        })
    });
    // Board only, as search and legality checks use it (and as the C++ engines usually
    // measure a "move"): no score, still exact (`None` past a nibble).
    group.bench_function("fast_board_only", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &p in black_box(&packed) {
                for r in [
                    p.slide_board(Direction::Up),
                    p.slide_board(Direction::Right),
                    p.slide_board(Direction::Down),
                    p.slide_board(Direction::Left),
                ] {
                    acc = acc.wrapping_add(r.map_or(0, |b| b.0));
                }
            }
            acc
        })
    });
    group.bench_function("reference", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for board in &reference {
                let board = black_box(board);
                for d in [
                    Direction::Up,
                    Direction::Right,
                    Direction::Down,
                    Direction::Left,
                ] {
                    let mut copy = *board;
                    let s = copy.slide(d);
                    acc = acc.wrapping_add(s.merged_value ^ copy.get(0) as u64);
                }
            }
            acc
        })
    });
    group.finish();
}

fn replay(c: &mut Criterion) {
    let (rules, seed, moves) = thousand_move_game();
    let mut group = c.benchmark_group("replay_1000_moves");
    group.throughput(Throughput::Elements(1));
    group.bench_function("fast_play_all", |b| {
        b.iter(|| {
            let mut g = Game::new(rules, black_box(seed)).unwrap();
            // Stops with an error at the first move that does not change the board.
            g.play_all(&moves).unwrap();
            g.score()
        })
    });
    group.bench_function("fast", |b| {
        b.iter(|| {
            let mut g = Game::new(rules, black_box(seed)).unwrap();
            for &d in &moves {
                // The legality check: a move that does not change the board is an error.
                assert!(g.play(d).unwrap().moved);
            }
            g.score()
        })
    });
    group.bench_function("reference", |b| {
        b.iter(|| {
            let mut g =
                Game::with_engine(rules, black_box(seed), twenty48_engine::Engine::Reference)
                    .unwrap();
            for &d in &moves {
                assert!(g.play(d).unwrap().moved);
            }
            g.score()
        })
    });
    group.finish();
}

criterion_group!(benches, raw_moves, replay);
criterion_main!(benches);
