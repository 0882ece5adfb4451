//! Moves packed four to a byte, the one packing of every `.t48` file, every `t48 moves`
//! frame of the firmware's log and every game a pull keeps: move `i` (0-based) is in byte
//! `i / 4` at bits `2 * (i % 4)` and `2 * (i % 4) + 1`, least significant first, as its
//! [direction code](Direction::code); the unused bits of the last byte are zero.
//!
//! ```
//! use twenty48_engine::{packed, Direction};
//!
//! let moves = [Direction::Right, Direction::Down, Direction::Left, Direction::Up, Direction::Left];
//! let bytes: Vec<u8> = packed::pack(&moves).collect();
//! assert_eq!(bytes, [0b00_11_10_01, 0b11]);
//! assert_eq!(packed::move_at(&bytes, 4), Direction::Left);
//! assert_eq!(packed::check_padding(&bytes, 5), Ok(()));
//! ```

use crate::Direction;

/// Bytes needed for `n` moves.
pub const fn packed_len(n: u64) -> u64 {
    n.div_ceil(4)
}

/// The bytes of `moves` packed, [`packed_len`] of them; the unused bits of the last byte are
/// zero.
pub fn pack(moves: &[Direction]) -> impl ExactSizeIterator<Item = u8> + '_ {
    moves.chunks(4).map(|chunk| {
        let mut byte = 0u8;
        for (j, d) in chunk.iter().enumerate() {
            byte |= d.code() << (2 * j);
        }
        byte
    })
}

/// Sets move `index` of the packed moves `bytes` to `dir`, as one move at a time is packed
/// (the firmware's frames, a pull's kept moves). Its slot must still be zero, as a fresh
/// byte's are: the bits are or-ed in.
///
/// # Panics
/// When `bytes` is shorter than `index / 4 + 1`.
#[inline]
pub fn put(bytes: &mut [u8], index: usize, dir: Direction) {
    bytes[index / 4] |= dir.code() << (2 * (index % 4));
}

/// The four directions each byte holds, first move first: one table look-up unpacks a
/// byte (1 KiB, built at compile time).
static BYTE_MOVES: [[Direction; 4]; 256] = {
    let mut table = [[Direction::Up; 4]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut slot = 0;
        while slot < 4 {
            table[byte][slot] = Direction::ALL[(byte >> (2 * slot)) & 0b11];
            slot += 1;
        }
        byte += 1;
    }
    table
};

/// Move `index` of the packed moves `bytes` (which must hold it).
#[inline]
pub fn move_at(bytes: &[u8], index: usize) -> Direction {
    BYTE_MOVES[bytes[index / 4] as usize][index % 4]
}

/// Unpacks the moves `start..start + out.len()` of the packed moves `bytes` (which must
/// hold them) into `out`: whole bytes through the table, four moves at a time.
pub fn unpack_into(bytes: &[u8], start: usize, out: &mut [Direction]) {
    // Up to the first byte boundary one by one, then whole bytes, then the rest.
    let len = out.len();
    let head = ((4 - start % 4) % 4).min(len);
    for (i, slot) in out[..head].iter_mut().enumerate() {
        *slot = move_at(bytes, start + i);
    }
    let first = (start + head) / 4;
    let mut fours = out[head..].chunks_exact_mut(4);
    for (four, &byte) in (&mut fours).zip(&bytes[first..]) {
        four.copy_from_slice(&BYTE_MOVES[byte as usize]);
    }
    let tail = fours.into_remainder();
    let at = start + len - tail.len();
    for (i, slot) in tail.iter_mut().enumerate() {
        *slot = move_at(bytes, at + i);
    }
}

/// Checks the unused slots of the last byte of `n` packed moves are zero; `Err(j)`: the
/// 0-based index of the first that is not (`j >= n`).
pub fn check_padding(bytes: &[u8], n: usize) -> Result<(), usize> {
    let Some(&last) = bytes.last() else {
        return Ok(());
    };
    let base = 4 * (bytes.len() - 1);
    match (n - base..4).find(|&slot| (last >> (2 * slot)) & 0b11 != 0) {
        Some(slot) => Err(base + slot),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::{vec, vec::Vec};

    use super::*;
    use Direction::*;

    /// Unpacks `n` moves from exactly `packed_len(n)` bytes (the plain unpacking the tests hold
    /// [`unpack_into`] and [`check_padding`] to). Returns the moves, or `Err(j)`
    /// with the 0-based index of the first unused slot (`j >= n`) whose bits are not zero.
    ///
    /// Whole bytes are unpacked four moves at a time through a table; only the last byte's
    /// slots are looked at one by one.
    fn unpack(bytes: &[u8], n: usize) -> Result<Vec<Direction>, usize> {
        debug_assert_eq!(bytes.len() as u64, packed_len(n as u64));
        let full = (n / 4).min(bytes.len());
        // At most four moves a byte, whatever `n` says.
        let mut moves = Vec::with_capacity(n.min(4 * bytes.len()));
        moves.resize(4 * full, Direction::Up);
        for (four, &byte) in moves.chunks_exact_mut(4).zip(&bytes[..full]) {
            four.copy_from_slice(&BYTE_MOVES[byte as usize]);
        }
        // The rest: the last moves of a partial byte, then every unused slot, which must be 0.
        for (i, &byte) in bytes.iter().enumerate().skip(full) {
            for (slot, &direction) in BYTE_MOVES[byte as usize].iter().enumerate() {
                let j = 4 * i + slot;
                if j < n {
                    moves.push(direction);
                } else if direction.code() != 0 {
                    return Err(j);
                }
            }
        }
        Ok(moves)
    }

    #[test]
    fn first_move_is_in_the_low_bits() {
        let out: Vec<u8> = pack(&[Right, Down, Left, Up, Left]).collect();
        assert_eq!(out, [0b00_11_10_01, 0b11]);
        let mut one_at_a_time = [0u8; 2];
        for (i, &d) in [Right, Down, Left, Up, Left].iter().enumerate() {
            put(&mut one_at_a_time, i, d);
        }
        assert_eq!(one_at_a_time[..], out[..]);
        assert_eq!(unpack(&out, 5), Ok(vec![Right, Down, Left, Up, Left]));
        assert_eq!(unpack(&[0b0100_0011], 1), Err(3));
        assert_eq!(packed_len(0), 0);
        assert_eq!(packed_len(5), 2);
    }

    /// The padding check finds the first non-zero unused slot, as `unpack` does.
    #[test]
    fn padding_is_checked_like_unpack() {
        for byte in 0..=255u8 {
            for n in 5..=8 {
                let bytes = [0b1110_0100, byte];
                assert_eq!(
                    check_padding(&bytes, n),
                    unpack(&bytes, n).map(|_| ()),
                    "{byte:08b} {n}"
                );
            }
        }
        assert_eq!(check_padding(&[], 0), Ok(()));
    }

    /// The table unpacks every byte as the bit layout says, at every length.
    #[test]
    fn every_byte_at_every_length() {
        for byte in 0..=255u8 {
            for n in 1..=4 {
                let expected: Vec<Direction> = (0..n)
                    .map(|i| Direction::from_code((byte >> (2 * i)) & 0b11).unwrap())
                    .collect();
                let padding = (n..4).find(|&j| (byte >> (2 * j)) & 0b11 != 0);
                let bytes = [0b1110_0100, byte];
                let got = unpack(&bytes, 4 + n);
                match padding {
                    Some(j) => assert_eq!(got, Err(4 + j), "{byte:08b} n {n}"),
                    None => {
                        assert_eq!(
                            got.unwrap(),
                            [&[Up, Right, Down, Left][..], &expected].concat()
                        )
                    }
                }
            }
        }
    }
}
