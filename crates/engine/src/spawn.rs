//! Seeded spawns: the ChaCha8 stream, and the reductions from raw numbers to cells and values.
//!
//! docs/rules.md ("Spawns") is the normative text; this module implements it.

#[cfg(not(feature = "compact-rng"))]
use core::fmt;

#[cfg(not(feature = "compact-rng"))]
use rand_chacha::rand_core::block::BlockRngCore;
#[cfg(not(feature = "compact-rng"))]
use rand_chacha::ChaCha8Core;
#[cfg(not(feature = "compact-rng"))]
use rand_core::SeedableRng;

#[cfg(any(test, not(feature = "compact-rng")))]
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

#[cfg(not(feature = "compact-rng"))]
/// The generator every spawn is drawn from.
///
/// The 32-byte ChaCha key is the seed as 8 little-endian bytes followed by 24 zero bytes;
/// the stream number and the block counter start at 0. Outputs are the keystream's 32-bit
/// little-endian words in order.
///
/// The keystream comes from `rand_chacha`'s ChaCha8 block function 64 words (four blocks) at
/// a time, read from a buffer here: the same words, in the same order, as `rand_chacha::ChaCha8Rng`
/// gives (pinned by the value-stability tests), without its per-call bookkeeping.
#[derive(Clone)]
pub struct SpawnRng {
    core: ChaCha8Core,
    buffer: Block,
    /// The next unread word of `buffer`; `WORDS` when all are read.
    index: usize,
    /// How many times `buffer` was filled.
    refills: u64,
}

#[cfg(not(feature = "compact-rng"))]
/// What one call of the block function fills: four 16-word blocks.
type Block = <ChaCha8Core as BlockRngCore>::Results;

#[cfg(not(feature = "compact-rng"))]
/// Words per buffer fill.
const WORDS: usize = 64;

#[cfg(not(feature = "compact-rng"))]
impl SpawnRng {
    /// The generator for a game seed.
    pub fn new(seed: u64) -> SpawnRng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        SpawnRng {
            core: ChaCha8Core::from_seed(key),
            buffer: Block::default(),
            index: WORDS,
            refills: 0,
        }
    }

    #[cold]
    fn refill(&mut self) {
        self.core.generate(&mut self.buffer);
        self.index = 0;
        self.refills += 1;
    }

    /// The next raw 32-bit output.
    #[inline]
    pub fn next_raw(&mut self) -> u32 {
        if self.index == WORDS {
            self.refill();
        }
        let word = self.buffer.as_ref()[self.index];
        self.index += 1;
        word
    }

    /// The next two raw outputs, in order.
    #[inline(always)]
    fn next_pair(&mut self) -> (u32, u32) {
        let i = self.index;
        if i + 2 <= WORDS {
            let words = self.buffer.as_ref();
            self.index = i + 2;
            (words[i], words[i + 1])
        } else {
            (self.next_raw(), self.next_raw())
        }
    }

    /// The buffered words not drawn yet, for a caller that draws many spawns in a row (each
    /// a cell word then a value word, reduced as [`SpawnRng::draw`] does) and then reports
    /// how many with [`SpawnRng::consume_spawns`]. Fills the buffer first when it is used up.
    /// A single word is left only after an odd number of [`SpawnRng::next_raw`] calls: the
    /// next spawn then straddles two fills and must go through [`SpawnRng::draw`].
    #[inline(always)]
    pub fn buffered(&mut self) -> &[u32] {
        if self.index == WORDS {
            self.refill();
        }
        &self.buffer.as_ref()[self.index..]
    }

    /// Marks the words of the first `n` spawns of [`SpawnRng::buffered`] as drawn.
    ///
    /// # Panics
    /// Debug builds panic when `n` is more than were buffered.
    #[inline(always)]
    pub fn consume_spawns(&mut self, n: usize) {
        debug_assert!(self.index + 2 * n <= WORDS);
        self.index += 2 * n;
    }

    /// How many raw outputs have been drawn so far.
    pub fn draws(&self) -> u64 {
        // Before the first fill: 0 fills and `index == WORDS`.
        self.refills * WORDS as u64 + self.index as u64 - WORDS as u64
    }

    /// Draws one spawn: `k` (the index among the `empty` empty cells, counted row-major)
    /// and whether the tile is a 4. `always_two` forces a 2 but still consumes the value draw.
    ///
    /// # Panics
    /// Debug builds panic when `empty` is 0; callers spawn only on boards with an empty cell.
    #[inline(always)]
    pub fn draw(&mut self, empty: u32, four: FourChance, always_two: bool) -> (u32, u8) {
        debug_assert!(empty > 0);
        spawn_of(self.next_pair(), empty, four, always_two)
    }
}

#[cfg(not(feature = "compact-rng"))]
impl PartialEq for SpawnRng {
    /// Equal generators give the same outputs from here on: the block function's state and
    /// the position in the buffer it filled decide them.
    fn eq(&self, other: &SpawnRng) -> bool {
        self.core == other.core && self.index == other.index && self.refills == other.refills
    }
}

#[cfg(not(feature = "compact-rng"))]
impl Eq for SpawnRng {}

#[cfg(not(feature = "compact-rng"))]
impl fmt::Debug for SpawnRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpawnRng")
            .field("draws", &self.draws())
            .finish_non_exhaustive()
    }
}

/// ChaCha8's block function written small, for the compact generator.
#[cfg(any(test, feature = "compact-rng"))]
mod compact;

#[cfg(feature = "compact-rng")]
/// The generator of feature `compact-rng`.
mod compact_rng;
#[cfg(feature = "compact-rng")]
pub use compact_rng::SpawnRng;

/// From a generator's raw draws to a spawn.
mod reduce;
#[cfg(not(feature = "compact-rng"))]
use reduce::spawn_of;
pub use reduce::{four_threshold, reduce_cell, reduce_four};

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn the_compact_block_function_gives_the_words_of_chacha8rng() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{RngCore, SeedableRng};
        for seed in [0u64, 1, 42, 0xDEAD_BEEF_0123_4567, u64::MAX] {
            let mut key = [0u8; 32];
            key[..8].copy_from_slice(&seed.to_le_bytes());
            let mut expected = ChaCha8Rng::from_seed(key);
            // Nine blocks: across the boundaries of rand_chacha's four-block buffer too.
            for counter in 0..9u64 {
                let mut out = [0u32; 16];
                compact::block(seed, counter, &mut out);
                for (i, word) in out.into_iter().enumerate() {
                    assert_eq!(
                        word,
                        expected.next_u32(),
                        "seed {seed} block {counter} word {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_buffer_gives_the_words_of_chacha8rng() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{RngCore, SeedableRng};
        for seed in [0u64, 1, 0xDEAD_BEEF_0123_4567, u64::MAX] {
            let mut key = [0u8; 32];
            key[..8].copy_from_slice(&seed.to_le_bytes());
            let mut expected = ChaCha8Rng::from_seed(key);
            let mut rng = SpawnRng::new(seed);
            // Pairs and single words mixed, so that pairs straddle buffer fills too.
            let mut words = 0;
            for step in 0..500u32 {
                if step % 7 == 3 {
                    assert_eq!(rng.next_raw(), expected.next_u32());
                    words += 1;
                } else {
                    let pair = rng.next_pair();
                    assert_eq!(pair, (expected.next_u32(), expected.next_u32()));
                    words += 2;
                }
                assert_eq!(rng.draws(), words);
            }
        }
    }

    #[test]
    fn the_four_threshold_decides_like_reduce_four() {
        let mut chances = std::vec::Vec::new();
        for d in 1..=12u32 {
            for n in 0..=d {
                chances.push(FourChance::new(n, d));
            }
        }
        for (n, d) in [
            (1, 3),
            (7, 1000),
            (999_999, 1_000_000),
            (1, u32::MAX),
            (u32::MAX, u32::MAX),
        ] {
            chances.push(FourChance::new(n, d));
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for chance in chances {
            let t = four_threshold(chance);
            let mut raws: std::vec::Vec<u32> = [0, 1, u32::MAX, u32::MAX - 1].into();
            for delta in -2i64..=2 {
                let r = t as i64 + delta;
                if (0..=u32::MAX as i64).contains(&r) {
                    raws.push(r as u32);
                }
            }
            for _ in 0..1000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                raws.push(x as u32);
            }
            for raw in raws {
                assert_eq!(
                    (raw as u64) < t,
                    reduce_four(raw, chance),
                    "{raw} {chance:?}"
                );
            }
        }
    }

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
