//! UF2 blocks: written from flash pages, read back and checked.

use std::collections::BTreeMap;

use crate::error::Uf2Error;
use crate::rp2040::{PAGE, RP2040_FLASH};

const MAGIC_START0: u32 = 0x0A32_4655;
const MAGIC_START1: u32 = 0x9E5D_5157;
const MAGIC_END: u32 = 0x0AB1_6F30;
/// Flag: the file-size field holds a family id.
const FLAG_FAMILY: u32 = 0x0000_2000;
const BLOCK: usize = 512;

/// A UF2 image: 256-byte flash pages by address, and the family they are for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uf2 {
    pages: BTreeMap<u32, [u8; PAGE as usize]>,
    family: u32,
}

impl Uf2 {
    /// Lays `(address, bytes)` segments out in 256-byte pages of the RP2040's flash (the
    /// unused part of a page is zero, as other converters do).
    pub fn from_segments(segments: &[(u32, Vec<u8>)], family: u32) -> Result<Uf2, Uf2Error> {
        let mut ranges = Vec::new();
        for (address, data) in segments {
            let len = u32::try_from(data.len()).unwrap_or(u32::MAX);
            let end = address.checked_add(len);
            if *address < RP2040_FLASH.start || end.is_none_or(|e| e > RP2040_FLASH.end) {
                return Err(Uf2Error::OutsideFlash {
                    address: *address,
                    len,
                });
            }
            ranges.push((*address, address + len));
        }
        ranges.sort_unstable();
        if let Some(w) = ranges.windows(2).find(|w| w[1].0 < w[0].1) {
            return Err(Uf2Error::Overlap {
                address: w[1].0 & !(PAGE - 1),
            });
        }
        let mut pages = BTreeMap::new();
        for (address, data) in segments {
            for (i, &byte) in data.iter().enumerate() {
                let at = address + i as u32;
                let page_at = at & !(PAGE - 1);
                pages.entry(page_at).or_insert([0u8; PAGE as usize])[(at - page_at) as usize] =
                    byte;
            }
        }
        if pages.is_empty() {
            return Err(Uf2Error::Empty);
        }
        Ok(Uf2 { pages, family })
    }

    /// The UF2 image of an ELF file's loadable segments.
    pub fn from_elf(elf: &[u8], family: u32) -> Result<Uf2, Uf2Error> {
        Uf2::from_segments(&crate::load_segments(elf)?, family)
    }

    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.pages.len()
    }

    /// The file's bytes: one 512-byte block a page, in address order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let total = self.pages.len() as u32;
        let mut out = Vec::with_capacity(self.pages.len() * BLOCK);
        for (n, (address, data)) in self.pages.iter().enumerate() {
            let mut block = [0u8; BLOCK];
            let words = [
                MAGIC_START0,
                MAGIC_START1,
                FLAG_FAMILY,
                *address,
                PAGE,
                n as u32,
                total,
                self.family,
            ];
            for (i, w) in words.iter().enumerate() {
                block[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
            }
            block[32..32 + PAGE as usize].copy_from_slice(data);
            block[BLOCK - 4..].copy_from_slice(&MAGIC_END.to_le_bytes());
            out.extend_from_slice(&block);
        }
        out
    }
}

/// What a valid UF2 file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Number of blocks.
    pub blocks: usize,
    /// The family id every block names.
    pub family: u32,
    /// The lowest target address.
    pub first_address: u32,
    /// The end of the highest block's data.
    pub end_address: u32,
    /// Bytes of data carried (blocks x payload).
    pub payload_bytes: u64,
}

fn word(block: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(block[i * 4..i * 4 + 4].try_into().expect("4 bytes"))
}

/// Checks every block of a UF2 file: its magic numbers, the family-id flag and one family for
/// all, 256-byte payloads at 256-aligned addresses inside the RP2040's flash, block numbers
/// 0, 1, 2, ... with the right total, and no address twice.
pub fn check(bytes: &[u8]) -> Result<Summary, Uf2Error> {
    if bytes.is_empty() || bytes.len() % BLOCK != 0 {
        return Err(Uf2Error::BadBlock {
            block: bytes.len() / BLOCK,
            reason: format!(
                "the file is {} bytes, not a whole number of 512-byte blocks",
                bytes.len()
            ),
        });
    }
    let total = bytes.len() / BLOCK;
    let mut seen = BTreeMap::new();
    let mut family = None;
    for (n, block) in bytes.chunks(BLOCK).enumerate() {
        let bad = |reason: String| Uf2Error::BadBlock { block: n, reason };
        if word(block, 0) != MAGIC_START0 || word(block, 1) != MAGIC_START1 {
            return Err(bad("bad start magic".into()));
        }
        if word(block, 127) != MAGIC_END {
            return Err(bad("bad end magic".into()));
        }
        if word(block, 2) & FLAG_FAMILY == 0 {
            return Err(bad("no family id flag".into()));
        }
        let (address, size, number, count, fam) = (
            word(block, 3),
            word(block, 4),
            word(block, 5),
            word(block, 6),
            word(block, 7),
        );
        if size != PAGE {
            return Err(bad(format!("payload of {size} bytes, not 256")));
        }
        if address % PAGE != 0 || !RP2040_FLASH.contains(&address) {
            return Err(bad(format!(
                "target address {address:#010x} not a flash page"
            )));
        }
        if number as usize != n || count as usize != total {
            return Err(bad(format!(
                "numbered {number} of {count}, expected {n} of {total}"
            )));
        }
        if *family.get_or_insert(fam) != fam {
            return Err(bad(format!(
                "family {fam:#010x} differs from the first block's"
            )));
        }
        if seen.insert(address, n).is_some() {
            return Err(bad(format!("address {address:#010x} appears twice")));
        }
    }
    let first_address = *seen.keys().next().expect("at least one block");
    let end_address = seen.keys().next_back().expect("at least one block") + PAGE;
    Ok(Summary {
        blocks: total,
        family: family.expect("at least one block"),
        first_address,
        end_address,
        payload_bytes: total as u64 * PAGE as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RP2040_FAMILY;

    #[test]
    fn pages_are_laid_out_and_read_back() {
        let segs = vec![
            (0x1000_0000, vec![1u8; 256]),
            (0x1000_0100, vec![2u8; 10]),
            (0x1000_1000, vec![3u8; 1]),
        ];
        let uf2 = Uf2::from_segments(&segs, RP2040_FAMILY).unwrap();
        let bytes = uf2.to_bytes();
        assert_eq!(bytes.len(), 3 * 512);
        let s = check(&bytes).unwrap();
        assert_eq!(
            (s.blocks, s.first_address, s.end_address),
            (3, 0x1000_0000, 0x1000_1100)
        );
        // The second page: 10 bytes of 2, then zeros.
        assert_eq!(&bytes[512 + 32..512 + 42], &[2u8; 10]);
        assert_eq!(bytes[512 + 42], 0);
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(matches!(
            Uf2::from_segments(&[(0x2000_0000, vec![1])], RP2040_FAMILY),
            Err(Uf2Error::OutsideFlash { .. })
        ));
        assert_eq!(Uf2::from_segments(&[], RP2040_FAMILY), Err(Uf2Error::Empty));
        assert!(matches!(
            Uf2::from_segments(
                &[(0x1000_0000, vec![1; 8]), (0x1000_0004, vec![2; 8])],
                RP2040_FAMILY
            ),
            Err(Uf2Error::Overlap { .. })
        ));
        let good = Uf2::from_segments(&[(0x1000_0000, vec![1; 600])], RP2040_FAMILY)
            .unwrap()
            .to_bytes();
        assert!(check(&good[..1000]).is_err());
        for (offset, what) in [
            (0, "start"),
            (508, "end"),
            (12, "address"),
            (20, "number"),
            (28, "family"),
        ] {
            let mut bad = good.clone();
            bad[512 + offset] ^= 0x40;
            let err = check(&bad).unwrap_err().to_string();
            assert!(err.starts_with("UF2 block 1"), "{what}: {err}");
        }
    }
}
