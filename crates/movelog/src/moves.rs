//! Moves packed four to a byte: move `i` (0-based) is in byte `i / 4` at bits
//! `2 * (i % 4)` and `2 * (i % 4) + 1`, least significant first, as its direction code.

use twenty48_engine::Direction;

/// Bytes needed for `n` moves.
pub const fn packed_len(n: u64) -> u64 {
    n.div_ceil(4)
}

/// Packs directions; the unused bits of the last byte are zero.
pub fn pack(moves: &[Direction], out: &mut Vec<u8>) {
    for chunk in moves.chunks(4) {
        let mut byte = 0u8;
        for (j, d) in chunk.iter().enumerate() {
            byte |= d.code() << (2 * j);
        }
        out.push(byte);
    }
}

/// Unpacks `n` moves from exactly `packed_len(n)` bytes. Returns the moves, or `Err(j)`
/// with the 0-based index of the first unused slot (`j >= n`) whose bits are not zero.
pub fn unpack(bytes: &[u8], n: usize) -> Result<Vec<Direction>, usize> {
    debug_assert_eq!(bytes.len() as u64, packed_len(n as u64));
    let mut moves = Vec::with_capacity(n);
    for i in 0..bytes.len() * 4 {
        let code = (bytes[i / 4] >> (2 * (i % 4))) & 0b11;
        if i < n {
            moves.push(Direction::from_code(code).unwrap_or(Direction::Up));
        } else if code != 0 {
            return Err(i);
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::*;

    #[test]
    fn first_move_is_in_the_low_bits() {
        let mut out = Vec::new();
        pack(&[Right, Down, Left, Up, Left], &mut out);
        assert_eq!(out, [0b00_11_10_01, 0b11]);
        assert_eq!(unpack(&out, 5), Ok(vec![Right, Down, Left, Up, Left]));
        assert_eq!(unpack(&[0b0100_0011], 1), Err(3));
        assert_eq!(packed_len(0), 0);
        assert_eq!(packed_len(5), 2);
    }
}
