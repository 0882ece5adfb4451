//! The check value (`crc=`) of every frame of versions 2 and 3, from the frame's other values.
//!
//! Each function feeds the frame's tag byte and then its parameters, in the order and at the
//! widths of the frame's text, into a [`Crc32`]. The tags: `H` hello, `S` start, `M` move,
//! `E` end, `V` moves (version 3), `Q` partial (version 3), `P` partial (version 2), `L` lost,
//! `F` full, `B` pull begin, `D` pull done, `A` acked, `X` error.
//!
//! The functions whose parameters take more than AVR's 18 bytes of argument registers
//! (hello, moved, end, partial) are always inlined: the ATmega2560 firmware's LLVM reads
//! arguments passed on the stack one byte off (docs/firmware.md, "stack arguments").

use crate::crc::Crc32;
use crate::start::StartFields;

fn tagged(tag: u8) -> Crc32 {
    let mut c = Crc32::new();
    c.u8(tag);
    c
}

/// `t48 hello v= dev= next= stored= unpulled=`.
#[inline(always)]
pub fn hello(v: u8, dev: u64, next: u32, stored: u32, unpulled: u32) -> u32 {
    tagged(b'H')
        .u8(v)
        .u64(dev)
        .u32(next)
        .u32(stored)
        .u32(unpulled)
        .finish()
}

/// `t48 start v= dev= game= seed= size= four=/ opening= twos= win= ends= scoring=`. The same
/// value is the game's start digest, carried by its end or partial frame as `start=`.
pub fn start(s: &StartFields) -> u32 {
    tagged(b'S')
        .u8(s.version)
        .u64(s.dev)
        .u32(s.game)
        .u64(s.seed)
        .u8(s.size)
        .u32(s.four_numerator)
        .u32(s.four_denominator)
        .u8(s.opening)
        .u8(s.twos)
        .u8(s.win)
        .bool(s.ends)
        .u8(s.scoring)
        .finish()
}

/// `t48 move game= seq= dir= score= hash=`.
#[inline(always)]
pub fn moved(game: u32, seq: u32, dir: u8, score: u64, hash: u64) -> u32 {
    tagged(b'M')
        .u32(game)
        .u32(seq)
        .u8(dir)
        .u64(score)
        .u64(hash)
        .finish()
}

/// `t48 end game= result= score= moves= hash= start=`.
#[inline(always)]
pub fn end(game: u32, result: u8, score: u64, moves: u32, hash: u64, start: u32) -> u32 {
    tagged(b'E')
        .u32(game)
        .u8(result)
        .u64(score)
        .u32(moves)
        .u64(hash)
        .u32(start)
        .finish()
}

/// `t48 moves game= first= count= dirs=` (version 3): `count` moves of a stored game after
/// its first `first`, 2 bits each in `dirs` (move `first + 1 + i` in byte `i / 4` at bit
/// `(i % 4) * 2`). The slice counts as its length (a `u32`) and its bytes.
pub fn moves(game: u32, first: u32, count: u16, dirs: &[u8]) -> u32 {
    let mut c = tagged(b'V');
    c.u32(game).u32(first).u16(count).u32(dirs.len() as u32);
    c.update(dirs);
    c.finish()
}

/// `t48 partial game= moves= start=` (version 3): a stored game interrupted after `moves`
/// stored moves.
pub fn interrupted(game: u32, moves: u32, start: u32) -> u32 {
    tagged(b'Q').u32(game).u32(moves).u32(start).finish()
}

/// `t48 partial game= moves= score= hash= start=` (version 2, still read).
#[inline(always)]
pub fn partial(game: u32, moves: u32, score: u64, hash: u64, start: u32) -> u32 {
    tagged(b'P')
        .u32(game)
        .u32(moves)
        .u64(score)
        .u64(hash)
        .u32(start)
        .finish()
}

/// `t48 lost game= move= frames=`.
pub fn lost(game: u32, at_move: u32, frames: u32) -> u32 {
    tagged(b'L').u32(game).u32(at_move).u32(frames).finish()
}

/// `t48 full game= move=`.
pub fn full(game: u32, at_move: u32) -> u32 {
    tagged(b'F').u32(game).u32(at_move).finish()
}

/// `t48 pull begin dev= games=`.
pub fn pull_begin(dev: u64, games: u32) -> u32 {
    tagged(b'B').u64(dev).u32(games).finish()
}

/// `t48 pull done dev= sent=`.
pub fn pull_done(dev: u64, sent: u32) -> u32 {
    tagged(b'D').u64(dev).u32(sent).finish()
}

/// `t48 acked game=`.
pub fn acked(game: u32) -> u32 {
    tagged(b'A').u32(game).finish()
}

/// `t48 error code= game=`.
pub fn error(code: u8, game: u32) -> u32 {
    tagged(b'X').u8(code).u32(game).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned values: the firmware and every host that ever read a capture agree on these.
    /// A change here is a protocol version change.
    #[test]
    fn values_are_pinned() {
        assert_eq!(moved(1, 1, 3, 4, 5), moved(1, 1, 3, 4, 5));
        let pinned = [
            hello(2, 1, 2, 3, 4),
            moved(1, 2, 3, 4, 5),
            end(1, 2, 3, 4, 5, 6),
            partial(1, 2, 3, 4, 5),
            lost(1, 2, 3),
            full(1, 2),
            pull_begin(1, 2),
            pull_done(1, 2),
            acked(1),
            error(1, 2),
            moves(1, 2, 9, &[3, 4, 5]),
            interrupted(1, 2, 3),
        ];
        // Every kind differs from every other on the same values (the tag byte).
        for (i, a) in pinned.iter().enumerate() {
            for b in &pinned[i + 1..] {
                assert_ne!(a, b);
            }
        }
        let mut bytes = [0u8; 22];
        bytes[0] = b'M';
        bytes[1..5].copy_from_slice(&1u32.to_le_bytes());
        bytes[5..9].copy_from_slice(&2u32.to_le_bytes());
        bytes[9] = 3;
        bytes[10..18].copy_from_slice(&4u64.to_le_bytes());
        // hash needs 8 more bytes: build the whole canonical form by hand.
        let mut full = [0u8; 26];
        full[..18].copy_from_slice(&bytes[..18]);
        full[18..26].copy_from_slice(&5u64.to_le_bytes());
        assert_eq!(moved(1, 2, 3, 4, 5), crc32fast::hash(&full));
    }

    /// The version 3 frames' canonical bytes, built by hand.
    #[test]
    fn version_3_frames_check_their_canonical_bytes() {
        let mut b = [0u8; 18];
        b[0] = b'V';
        b[1..5].copy_from_slice(&7u32.to_le_bytes());
        b[5..9].copy_from_slice(&256u32.to_le_bytes());
        b[9..11].copy_from_slice(&9u16.to_le_bytes());
        b[11..15].copy_from_slice(&3u32.to_le_bytes());
        b[15..].copy_from_slice(&[0xE4, 0x1B, 0x03]);
        assert_eq!(moves(7, 256, 9, &[0xE4, 0x1B, 0x03]), crc32fast::hash(&b));
        // Every byte and the length count: one more byte is another check.
        assert_ne!(
            moves(7, 256, 8, &[0xE4, 0x1B]),
            moves(7, 256, 8, &[0xE4, 0x1B, 0])
        );
        let mut b = [0u8; 13];
        b[0] = b'Q';
        for (i, v) in [7u32, 12, 0xDEAD_BEEF].into_iter().enumerate() {
            b[1 + 4 * i..5 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        assert_eq!(interrupted(7, 12, 0xDEAD_BEEF), crc32fast::hash(&b));
    }

    #[test]
    fn start_covers_every_field() {
        let base = StartFields {
            version: 2,
            dev: 9,
            game: 1,
            seed: 42,
            size: 4,
            four_numerator: 1,
            four_denominator: 10,
            opening: 2,
            twos: 0,
            win: 11,
            ends: false,
            scoring: 0,
        };
        let c = start(&base);
        let variants = [
            StartFields { version: 1, ..base },
            StartFields { dev: 8, ..base },
            StartFields { game: 2, ..base },
            StartFields { seed: 43, ..base },
            StartFields { size: 5, ..base },
            StartFields {
                four_numerator: 3,
                ..base
            },
            StartFields {
                four_denominator: 11,
                ..base
            },
            StartFields { opening: 1, ..base },
            StartFields { twos: 2, ..base },
            StartFields { win: 10, ..base },
            StartFields { ends: true, ..base },
            StartFields { scoring: 1, ..base },
        ];
        for v in variants {
            assert_ne!(start(&v), c, "{v:?}");
        }
    }
}
