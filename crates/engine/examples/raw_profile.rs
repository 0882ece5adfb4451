//! Raw slides over fixed boards, for profilers: `valgrind --tool=callgrind`.
use twenty48_engine::bitboard::{FastSlide, Packed};
use twenty48_engine::Direction;

fn main() {
    let dir: Option<u8> = std::env::args().nth(1).map(|a| a.parse().unwrap());
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
        for &p in &boards {
            for d in Direction::ALL {
                if dir.is_some_and(|c| c != d.code()) {
                    continue;
                }
                if let FastSlide::Done {
                    board,
                    merged_value,
                    ..
                } = std::hint::black_box(p).slide(d)
                {
                    acc = acc.wrapping_add(board.0 ^ merged_value as u64);
                }
            }
        }
    }
    println!("{acc}");
}
