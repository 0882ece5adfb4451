//! Seeded spawns: the ChaCha8 stream, and the reductions from raw numbers to cells and values.
//!
//! docs/rules.md ("Spawns") is the normative text; this module implements it.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::rules::FourChance;

/// The name of the random number generator, as written into move logs.
pub const RNG_NAME: &str = "chacha8";

/// Raw 32-bit outputs consumed by each spawn: first the cell, then the value.
pub const DRAWS_PER_SPAWN: u32 = 2;

/// A spawned tile: where it landed and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Spawn {
    /// Cell index, row-major from the top-left (`row * size + column`).
    pub cell: u8,
    /// Tile exponent: 1 for a 2, 2 for a 4.
    pub exponent: u8,
}

impl Spawn {
    /// The tile's value, 2 or 4.
    pub const fn value(self) -> u32 {
        1 << self.exponent
    }
}

/// The generator every spawn is drawn from.
///
/// The 32-byte ChaCha key is the seed as 8 little-endian bytes followed by 24 zero bytes;
/// the stream number and the block counter start at 0. Outputs are the keystream's 32-bit
/// little-endian words in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpawnRng {
    rng: ChaCha8Rng,
    draws: u64,
}

impl SpawnRng {
    /// The generator for a game seed.
    pub fn new(seed: u64) -> SpawnRng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        SpawnRng {
            rng: ChaCha8Rng::from_seed(key),
            draws: 0,
        }
    }

    /// The next raw 32-bit output.
    #[inline]
    pub fn next_raw(&mut self) -> u32 {
        self.draws += 1;
        self.rng.next_u32()
    }

    /// How many raw outputs have been drawn so far.
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// Draws one spawn: `k` (the index among the `empty` empty cells, counted row-major)
    /// and whether the tile is a 4. `always_two` forces a 2 but still consumes the value draw.
    ///
    /// # Panics
    /// Debug builds panic when `empty` is 0; callers spawn only on boards with an empty cell.
    #[inline]
    pub fn draw(&mut self, empty: u32, four: FourChance, always_two: bool) -> (u32, u8) {
        debug_assert!(empty > 0);
        // One 64-bit read is the next two 32-bit outputs, the first in the low half.
        self.draws += 2;
        let pair = self.rng.next_u64();
        let k = reduce_cell(pair as u32, empty);
        let is_four = reduce_four((pair >> 32) as u32, four);
        (k, if is_four && !always_two { 2 } else { 1 })
    }
}

/// Reduces a raw output to an index in `0..n`: `(raw * n) >> 32`, in 64-bit arithmetic.
///
/// Every index gets `floor` or `ceil` of `2^32 / n` raw values: a bias below `n / 2^32`.
#[inline]
pub const fn reduce_cell(raw: u32, n: u32) -> u32 {
    ((raw as u64 * n as u64) >> 32) as u32
}

/// Reduces a raw output to "is a 4": `((raw * denominator) >> 32) < numerator`, in 64-bit
/// arithmetic. With `numerator == denominator` it is always true, with `0` always false.
#[inline]
pub const fn reduce_four(raw: u32, chance: FourChance) -> bool {
    ((raw as u64 * chance.denominator as u64) >> 32) < chance.numerator as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_cover_their_ranges() {
        assert_eq!(reduce_cell(0, 16), 0);
        assert_eq!(reduce_cell(u32::MAX, 16), 15);
        assert_eq!(reduce_cell(0x1000_0000, 16), 1);
        assert_eq!(reduce_cell(u32::MAX, 1), 0);
        let tenth = FourChance::new(1, 10);
        assert!(reduce_four(0, tenth));
        assert!(reduce_four(429_496_729, tenth)); // floor(2^32/10) - 0: still in the first tenth
        assert!(!reduce_four(429_496_730, tenth));
        assert!(!reduce_four(u32::MAX, tenth));
        assert!(reduce_four(u32::MAX, FourChance::new(1, 1)));
        assert!(!reduce_four(0, FourChance::new(0, 7)));
    }
}
