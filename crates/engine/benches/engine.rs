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

/// A 1000-move classic game: moves chosen by a fixed corner preference with a pseudo-random
/// tie-break, on a rule set whose game lasts (win plays on).
fn thousand_move_game() -> (Rules, u64, Vec<Direction>) {
    for seed in 0.. {
        let rules = Rules::CLASSIC;
        let mut g = Game::new(rules, seed).unwrap();
        let mut moves = Vec::new();
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while g.status() == Status::Playing && moves.len() < 1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pref = if x % 8 == 0 {
                [
                    Direction::Right,
                    Direction::Down,
                    Direction::Left,
                    Direction::Up,
                ]
            } else {
                [
                    Direction::Down,
                    Direction::Left,
                    Direction::Right,
                    Direction::Up,
                ]
            };
            let d = pref.into_iter().find(|d| g.can_play(*d)).unwrap();
            g.play(d).unwrap();
            moves.push(d);
        }
        if moves.len() == 1000 {
            return (rules, seed, moves);
        }
    }
    unreachable!()
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
            for &p in &packed {
                for d in Direction::ALL {
                    if let FastSlide::Done {
                        board,
                        merged_value,
                        ..
                    } = black_box(p).slide(d)
                    {
                        acc = acc.wrapping_add(board.0 ^ merged_value as u64);
                    }
                }
            }
            acc
        })
    });
    group.bench_function("reference", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for board in &reference {
                for d in Direction::ALL {
                    let mut copy = *black_box(board);
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
