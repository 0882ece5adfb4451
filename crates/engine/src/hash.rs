//! The stable state hash: 64-bit FNV-1a over a fixed byte encoding of the game state.
//!
//! The bytes hashed, in order (docs/rules.md, "State hash"):
//! 1. the board side, one byte;
//! 2. every cell's exponent (0 = empty), one byte each, row-major from the top-left;
//! 3. the score, 8 bytes little-endian;
//! 4. the move count, 4 bytes little-endian.

/// FNV-1a 64-bit offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Incremental FNV-1a 64.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Fnv1a {
    /// A fresh hasher.
    pub const fn new() -> Fnv1a {
        Fnv1a(FNV_OFFSET)
    }

    /// Feeds bytes.
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }

    /// The hash of everything fed so far.
    pub const fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a::new()
    }
}

/// The state hash of a board (`cells` row-major exponents of a `size`-sided board),
/// a score and a move count.
pub fn state_hash(size: u8, cells: &[u8], score: u64, moves: u32) -> u64 {
    let mut h = Fnv1a::new();
    h.write(&[size]);
    h.write(cells);
    h.write(&score.to_le_bytes());
    h.write(&moves.to_le_bytes());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_known_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(Fnv1a::new().finish(), 0xcbf29ce484222325);
        let mut h = Fnv1a::new();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
        let mut h = Fnv1a::new();
        h.write(b"foobar");
        assert_eq!(h.finish(), 0x85944171f73967e8);
    }
}
