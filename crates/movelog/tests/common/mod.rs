//! Shared by the integration tests.
#![allow(dead_code)]

use twenty48_engine::{Direction, Rules};
use twenty48_movelog::MoveLog;

/// The moves of the example in docs/format.md.
pub const EXAMPLE_MOVES: [Direction; 6] = [
    Direction::Left,
    Direction::Up,
    Direction::Right,
    Direction::Down,
    Direction::Left,
    Direction::Up,
];

/// The example log of docs/format.md.
pub fn example() -> MoveLog {
    MoveLog::from_moves(Rules::CLASSIC, 1, &EXAMPLE_MOVES, 4).unwrap()
}

/// Bytes from hex text: `#` starts a comment, whitespace is ignored.
pub fn parse_hex(text: &str) -> Vec<u8> {
    let digits: String = text
        .lines()
        .map(|l| l.split('#').next().unwrap())
        .flat_map(|l| l.split_whitespace())
        .collect();
    assert_eq!(digits.len() % 2, 0, "odd number of hex digits");
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap())
        .collect()
}

/// The committed golden bytes of the example.
pub fn example_bytes() -> Vec<u8> {
    parse_hex(include_str!("../golden/classic-seed1.hex"))
}

/// Rewrites the CRC-32 (the last four bytes) to match the bytes before it, so a test can
/// reach the checks that come after the CRC.
pub fn fix_crc(bytes: &mut [u8]) {
    let n = bytes.len() - 4;
    let crc = crc32(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
}

/// CRC-32 (IEEE) written out bit by bit, independent of the crate's `crc32fast`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Plays `dirs` on a fresh game, keeping only the moves that change the board, until the
/// game ends: a list that `MoveLog::from_moves` accepts.
pub fn real_moves(rules: Rules, seed: u64, dirs: &[Direction]) -> Vec<Direction> {
    let mut game = twenty48_engine::Game::new(rules, seed).unwrap();
    let mut kept = Vec::new();
    for &d in dirs {
        if game.status().is_finished() {
            break;
        }
        if game.play(d).unwrap().moved {
            kept.push(d);
        }
    }
    kept
}
