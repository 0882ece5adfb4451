//! The generator of feature `compact-rng`: the keystream of the default build, one 16-word
//! block at a time from [`super::compact::block`]. In a file of its own so that the mutation
//! runs (`just mutants`) test it in the one configuration that compiles it.

use core::fmt;

use super::compact;
use super::reduce::spawn_of;
use crate::rules::FourChance;

/// The generator every spawn is drawn from: the same keystream as the default build (see
/// its documentation), one block of 16 words at a time from the small block function, so the
/// state is 80 bytes instead of 400 and the code a loop. Feature `compact-rng`.
#[derive(Clone)]
pub struct SpawnRng {
    seed: u64,
    /// The block in `buffer`, counted from 1 (0: none yet).
    blocks: u64,
    buffer: [u32; WORDS],
    /// The next unread word of `buffer`; `WORDS` when all are read.
    index: usize,
}

/// Words per block.
const WORDS: usize = 16;

impl SpawnRng {
    /// The generator of a game with this seed.
    pub fn new(seed: u64) -> SpawnRng {
        SpawnRng {
            seed,
            blocks: 0,
            buffer: [0; WORDS],
            index: WORDS,
        }
    }

    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        compact::block(self.seed, self.blocks, &mut self.buffer);
        self.blocks += 1;
        self.index = 0;
    }

    /// The next raw 32-bit word.
    #[inline]
    pub fn next_raw(&mut self) -> u32 {
        if self.index == WORDS {
            self.refill();
        }
        let word = self.buffer[self.index];
        self.index += 1;
        word
    }

    #[inline]
    pub(super) fn next_pair(&mut self) -> (u32, u32) {
        (self.next_raw(), self.next_raw())
    }

    /// The words read ahead and not yet used (refilled first when empty).
    #[inline]
    pub fn buffered(&mut self) -> &[u32] {
        if self.index == WORDS {
            self.refill();
        }
        &self.buffer[self.index..]
    }

    /// Marks `n` spawns' words (two each) of [`SpawnRng::buffered`] as used.
    #[inline]
    pub fn consume_spawns(&mut self, n: usize) {
        debug_assert!(self.index + 2 * n <= WORDS);
        self.index += 2 * n;
    }

    /// Words drawn so far.
    pub fn draws(&self) -> u64 {
        self.blocks * WORDS as u64 + self.index as u64 - WORDS as u64
    }

    /// One spawn's draws: the `k`-th of `empty` empty cells, and the exponent (1 or 2).
    #[inline]
    pub fn draw(&mut self, empty: u32, four: FourChance, always_two: bool) -> (u32, u8) {
        debug_assert!(empty > 0);
        spawn_of(self.next_pair(), empty, four, always_two)
    }
}

impl PartialEq for SpawnRng {
    /// Equal when they will give the same words from now on.
    fn eq(&self, other: &SpawnRng) -> bool {
        self.seed == other.seed && self.draws() == other.draws()
    }
}

impl Eq for SpawnRng {}

impl fmt::Debug for SpawnRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpawnRng")
            .field("draws", &self.draws())
            .finish_non_exhaustive()
    }
}
