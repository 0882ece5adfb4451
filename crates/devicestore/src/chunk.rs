//! Chunks of 64 move slots (24 bytes) and the extent of a segment (a GAME or CONT record and
//! the chunks after it).
//!
//! Bytes 0..16 hold the directions, 2 bits a slot (slot `i` in byte `i / 4`, bits
//! `(i % 4) * 2` and up; erased = 3 = left); bytes 16..24 the commit bits (slot `i` in byte
//! `16 + i / 8`, bit `i % 8`; 0 = committed).

use embedded_storage::nor_flash::{NorFlash, ReadNorFlash};
use twenty48_engine::Direction;

/// Bytes in a chunk.
pub(crate) const CHUNK_LEN: u32 = 24;
/// Move slots in a chunk.
pub(crate) const SLOTS: u32 = 64;
/// Offset of the commit bits in a chunk.
const COMMITS: u32 = 16;

/// Where slot `slot`'s direction bits live: (byte offset in the chunk, bit shift).
pub(crate) fn direction_bits(slot: u32) -> (u32, u32) {
    (slot / 4, (slot % 4) * 2)
}

/// Where slot `slot`'s commit bit lives: (byte offset in the chunk, bit).
pub(crate) fn commit_bit(slot: u32) -> (u32, u32) {
    (COMMITS + slot / 8, slot % 8)
}

/// The byte that stores `dir` in the slot at `shift` over `old` (clears the bits that differ
/// from the erased 3).
pub(crate) fn with_direction(old: u8, shift: u32, dir: Direction) -> u8 {
    old & !((3 ^ dir.code()) << shift)
}

/// How many slots, from slot 0, are committed (a later committed slot after a gap is not a
/// move: committed moves are always a prefix).
pub(crate) fn committed(commits: &[u8; 8]) -> u32 {
    let word = u64::from_le_bytes(*commits);
    (!word).trailing_ones()
}

/// A segment's extent, read from flash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    /// Committed moves in the segment.
    pub moves: u32,
    /// Sector offset where the next record starts.
    pub end: u32,
}

/// Reads the segment whose chunk 0 starts at sector offset `start` of the sector at flash
/// address `base`. Chunk k+1 belongs to it iff chunk k is full and chunk k+1 fits in the
/// sector. The caller checks that chunk 0 fits.
pub(crate) fn read_segment<F: NorFlash>(
    flash: &mut F,
    base: u32,
    start: u32,
) -> Result<Segment, F::Error> {
    let mut at = start;
    let mut moves = 0;
    loop {
        let mut commits = [0u8; 8];
        flash.read(base + at + COMMITS, &mut commits)?;
        let n = committed(&commits);
        moves += n;
        if n == SLOTS && at + 2 * CHUNK_LEN <= F::ERASE_SIZE as u32 {
            at += CHUNK_LEN;
        } else {
            return Ok(Segment {
                moves,
                end: at + CHUNK_LEN,
            });
        }
    }
}

/// Calls `f` with the first `count` directions of the segment whose chunk 0 starts at flash
/// address `start` (the caller knows they are committed and in this sector).
pub(crate) fn read_directions<F: ReadNorFlash>(
    flash: &mut F,
    start: u32,
    count: u32,
    f: &mut impl FnMut(Direction),
) -> Result<(), F::Error> {
    let mut dirs = [0u8; 16];
    for i in 0..count {
        let slot = i % SLOTS;
        if slot == 0 {
            flash.read(start + i / SLOTS * CHUNK_LEN, &mut dirs)?;
        }
        let (byte, shift) = direction_bits(slot);
        let code = (dirs[byte as usize] >> shift) & 3;
        f(Direction::ALL[code as usize]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_is_a_prefix() {
        assert_eq!(committed(&[0xFF; 8]), 0);
        assert_eq!(committed(&[0; 8]), 64);
        assert_eq!(committed(&[0xF8, 0xFF, 0, 0, 0, 0, 0, 0]), 3);
        // slot 1 committed without slot 0: nothing is stored
        assert_eq!(
            committed(&[0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            0
        );
        assert_eq!(committed(&[0, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), 9);
    }

    #[test]
    fn directions_pack_into_two_bits() {
        let mut b = 0xFF;
        for (slot, dir) in Direction::ALL.into_iter().enumerate() {
            let (_, shift) = direction_bits(slot as u32);
            b = with_direction(b, shift, dir);
        }
        // up 0, right 1, down 2, left 3 from the low bits up
        assert_eq!(b, 0b11_10_01_00);
    }
}
