//! The benchmarks' workloads, shared by the criterion benchmarks (benches/engine.rs) and the
//! figures summary (benches/figures.rs) so that both measure exactly the same work.

use std::hint::black_box;
use twenty48_engine::bitboard::{FastSlide, Packed};
use twenty48_engine::reference::Board;
use twenty48_engine::{Direction, Engine, Game, Rules, Status};

/// Boards from real games: a deterministic mix of early, middle and late positions.
pub fn sample_boards() -> Vec<[u8; 16]> {
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
pub fn thousand_move_game() -> (Rules, u64, Vec<Direction>) {
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

/// The same boards, packed for the fast path and as reference boards.
pub fn boards() -> (Vec<Packed>, Vec<Board>) {
    let boards = sample_boards();
    (
        boards
            .iter()
            .map(|b| Packed::from_cells(b).unwrap())
            .collect(),
        boards
            .iter()
            .map(|b| Board::from_cells(b).unwrap())
            .collect(),
    )
}

/// Every board slid in all four directions with score: `4 * boards.len()` raw moves.
#[inline(never)]
pub fn raw_scored(packed: &[Packed]) -> u64 {
    let mut acc = 0u64;
    // `packed` is opaque to the optimiser behind `black_box`; each call recomputes.
    for &p in black_box(packed) {
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
}

/// Board only, as search and legality checks use it (and as the C++ engines usually measure
/// a "move"): no score, still exact (`None` past a nibble).
#[inline(never)]
pub fn raw_board_only(packed: &[Packed]) -> u64 {
    let mut acc = 0u64;
    for &p in black_box(packed) {
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
}

/// Board only, all four directions in one call (`Packed::slide_each`): each row and column
/// is looked up once for both its directions.
#[inline(never)]
pub fn raw_each(packed: &[Packed]) -> u64 {
    let mut acc = 0u64;
    for &p in black_box(packed) {
        for r in p.slide_each() {
            acc = acc.wrapping_add(r.map_or(0, |b| b.0));
        }
    }
    acc
}

/// The reference engine on the same boards and directions.
#[inline(never)]
pub fn raw_reference(reference: &[Board]) -> u64 {
    let mut acc = 0u64;
    for board in black_box(reference) {
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
}

/// One replay with `Game::play_all`, which stops with an error at the first move that does
/// not change the board (the legality check).
#[inline(never)]
pub fn replay_play_all(rules: Rules, seed: u64, moves: &[Direction]) -> u64 {
    let mut g = Game::new(rules, black_box(seed)).unwrap();
    g.play_all(moves).unwrap();
    g.score()
}

/// One replay with `Game::play`, move by move, checking that each move changed the board.
#[inline(never)]
pub fn replay_one_by_one(rules: Rules, seed: u64, moves: &[Direction]) -> u64 {
    let mut g = Game::new(rules, black_box(seed)).unwrap();
    for &d in moves {
        assert!(g.play(d).unwrap().moved);
    }
    g.score()
}

/// One replay on the reference engine, move by move.
#[inline(never)]
pub fn replay_reference(rules: Rules, seed: u64, moves: &[Direction]) -> u64 {
    let mut g = Game::with_engine(rules, black_box(seed), Engine::Reference).unwrap();
    for &d in moves {
        assert!(g.play(d).unwrap().moved);
    }
    g.score()
}
