//! Raw slides over fixed boards, for profilers: `valgrind --tool=callgrind
//! target/release/examples/raw_profile [scored|board|each]`. The loops are the raw-move
//! benchmarks': each board slid in all four directions.
use std::hint::black_box;
use twenty48_engine::bitboard::{FastSlide, Packed};
use twenty48_engine::Direction;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut x = 0x0123_4567_89ab_cdefu64;
    let boards: Vec<Packed> = (0..1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            Packed(x & 0x3333_3333_3333_3333)
        })
        .collect();
    let mut acc = 0u64;
    for _ in 0..100 {
        if mode == "each" {
            for &p in black_box(&boards) {
                for r in p.slide_each() {
                    acc = acc.wrapping_add(r.map_or(0, |b| b.0));
                }
            }
        } else if mode != "board" {
            for &p in black_box(&boards) {
                for d in [
                    Direction::Up,
                    Direction::Right,
                    Direction::Down,
                    Direction::Left,
                ] {
                    if let FastSlide::Done {
                        board,
                        merged_value,
                        ..
                    } = p.slide(d)
                    {
                        acc = acc.wrapping_add(board.0 ^ merged_value as u64);
                    }
                }
            }
        } else {
            for &p in black_box(&boards) {
                for d in [
                    Direction::Up,
                    Direction::Right,
                    Direction::Down,
                    Direction::Left,
                ] {
                    acc = acc.wrapping_add(p.slide_board(d).map_or(0, |b| b.0));
                }
            }
        }
    }
    println!("{acc}");
}
