//! CRC-32 (ISO-HDLC: reflected, polynomial 0xEDB88320, init and final XOR 0xFFFFFFFF), bit by
//! bit: small code for small boards; the same values as zlib's and `crc32fast`'s.

/// A CRC-32 being computed over bytes fed in pieces.
#[derive(Clone, Copy, Debug)]
pub struct Crc32 {
    state: u32,
}

impl Default for Crc32 {
    fn default() -> Crc32 {
        Crc32::new()
    }
}

impl Crc32 {
    /// A CRC over no bytes yet.
    pub const fn new() -> Crc32 {
        Crc32 { state: 0xFFFF_FFFF }
    }

    /// Feeds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        self.state = crc32_update(self.state, bytes);
    }

    /// Feeds one byte.
    pub fn u8(&mut self, v: u8) -> &mut Crc32 {
        self.update(&[v]);
        self
    }

    /// Feeds a bool as one byte (1 for true).
    pub fn bool(&mut self, v: bool) -> &mut Crc32 {
        self.u8(v as u8)
    }

    /// Feeds a u16, little-endian.
    pub fn u16(&mut self, v: u16) -> &mut Crc32 {
        self.update(&v.to_le_bytes());
        self
    }

    /// Feeds a u32, little-endian.
    pub fn u32(&mut self, v: u32) -> &mut Crc32 {
        self.update(&v.to_le_bytes());
        self
    }

    /// Feeds a u64, little-endian.
    pub fn u64(&mut self, v: u64) -> &mut Crc32 {
        self.update(&v.to_le_bytes());
        self
    }

    /// The CRC of everything fed.
    pub fn finish(&self) -> u32 {
        !self.state
    }
}

/// The CRC-32 of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    !crc32_update(0xFFFF_FFFF, bytes)
}

/// Feeds `bytes` into a CRC-32 register `state`: a CRC over pieces starts from 0xFFFF_FFFF,
/// feeds each piece, and is the register's complement at the end
/// (`!crc32_update(crc32_update(!0, a), b)` is the CRC-32 of `a` then `b`). The one copy of
/// the loop, [`Crc32`]'s and the device store's (never inlined: small code for small
/// boards).
#[inline(never)]
pub fn crc32_update(mut state: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        state ^= b as u32;
        for _ in 0..8 {
            let mask = (state & 1).wrapping_neg();
            state = (state >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    proptest! {
        #[test]
        fn agrees_with_crc32fast(bytes in proptest::collection::vec(any::<u8>(), 0..300), cut in 0usize..300) {
            let cut = cut.min(bytes.len());
            let mut c = Crc32::new();
            c.update(&bytes[..cut]);
            c.update(&bytes[cut..]);
            prop_assert_eq!(c.finish(), crc32fast::hash(&bytes));
            let (a, b) = bytes.split_at(cut);
            prop_assert_eq!(!crc32_update(crc32_update(!0, a), b), crc32fast::hash(&bytes));
            prop_assert_eq!(crc32(&bytes), crc32fast::hash(&bytes));
        }
    }
}
