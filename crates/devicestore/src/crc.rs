//! CRC-32/ISO-HDLC (reflected, polynomial 0xEDB88320, init and final XOR 0xFFFFFFFF), bit by
//! bit: a few instructions of code and no table, for small boards. The same values as zlib's
//! and `crc32fast`'s.

/// The CRC-32 of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    !crc32_update(0xFFFF_FFFF, bytes)
}

/// Feeds `bytes` into a CRC-32 register `state`: a CRC over pieces starts from 0xFFFF_FFFF,
/// feeds each piece, and is the register's complement at the end
/// (`!crc32_update(crc32_update(!0, a), b)` is the CRC-32 of `a` then `b`).
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
    use super::{crc32, crc32_update};

    #[test]
    fn check_value() {
        // The catalogue's check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn same_as_crc32fast() {
        let mut bytes = [0u8; 300];
        let mut x = 0x9E37_79B9u32;
        for b in bytes.iter_mut() {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *b = x as u8;
        }
        for len in 0..bytes.len() {
            let (a, b) = bytes[..len].split_at(len / 3);
            assert_eq!(!crc32_update(crc32_update(!0, a), b), crc32(&bytes[..len]));
            assert_eq!(
                crc32(&bytes[..len]),
                crc32fast::hash(&bytes[..len]),
                "len {len}"
            );
        }
    }
}
