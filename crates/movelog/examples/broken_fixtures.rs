//! Writes the deliberately broken logs of fixtures/broken/ from one valid log.
//!
//! `cargo run -p twenty48-movelog --example broken_fixtures -- VALID.t48 OUT_DIR`
//! (fixtures/make.sh runs it). Each file is broken in exactly one way.

use std::path::Path;

use twenty48_engine::{Direction, Game};
use twenty48_movelog::{write_atomic, MoveLog};

fn with_crc(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, valid, out] = &args[..] else {
        eprintln!("usage: broken_fixtures VALID.t48 OUT_DIR");
        std::process::exit(2);
    };
    let bytes = std::fs::read(valid).expect("read the valid log");
    let log = MoveLog::decode(&bytes).expect("a valid log");
    assert!(log.moves.len() >= 40, "the source log needs 40 moves");
    let out = Path::new(out);
    let write = |name: &str, data: &[u8]| {
        write_atomic(&out.join(name), data).expect("write a fixture");
        println!("wrote {name}");
    };

    // Cut in the middle of the packed moves.
    write("truncated.t48", &bytes[..bytes.len() / 2]);

    // One bit flipped in the moves: only the CRC can tell.
    let mut flipped = bytes.clone();
    let at = bytes.len() - 12;
    flipped[at] ^= 0x04;
    write("flipped-byte.t48", &flipped);

    // The stored CRC itself damaged.
    let mut bad_crc = bytes.clone();
    let n = bad_crc.len();
    bad_crc[n - 1] ^= 0xff;
    write("bad-crc.t48", &bad_crc);

    // A newer format version, CRC recomputed.
    let mut newer = bytes.clone();
    newer[4..6].copy_from_slice(&7u16.to_le_bytes());
    write("unknown-version.t48", &with_crc(newer));

    // Not a move log at all.
    write(
        "not-a-log.t48",
        b"2048 is a fine game, but this is not a move log\n",
    );

    // The first move from move 20 on that has a blocked direction is replaced by it: a move
    // that does not change the board (CRC valid).
    let mut game = Game::new(log.rules, log.seed).unwrap();
    let mut illegal = log.clone();
    for (i, &d) in log.moves.iter().enumerate() {
        if i >= 19 {
            if let Some(blocked) = Direction::ALL.into_iter().find(|d| !game.can_play(*d)) {
                illegal.moves[i] = blocked;
                println!("illegal-move.t48: move {} is {blocked}", i + 1);
                break;
            }
        }
        game.play(d).unwrap();
    }
    assert_ne!(
        illegal, log,
        "some board after move 19 has a blocked direction"
    );
    write("illegal-move.t48", &illegal.try_encode().unwrap());

    // A score 4 points higher than the game made (CRC valid).
    let mut false_claim = log.clone();
    false_claim.claims.score += 4;
    write("false-claim.t48", &false_claim.try_encode().unwrap());

    // A checkpoint that does not match the replay (CRC valid).
    let mut bad_checkpoint = log.clone();
    if let Some(c) = bad_checkpoint.checkpoints.first_mut() {
        *c ^= 1;
        write(
            "wrong-checkpoint.t48",
            &bad_checkpoint.try_encode().unwrap(),
        );
    }
}
