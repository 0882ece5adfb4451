//! The EEPROM store's layout (docs/firmware.md, "The Uno's store"): a 1 KB EEPROM as the game
//! counter (bytes 0..32), 40 blocks of 24 bytes (36 in bytes 32..896, 4 in 912..1008) and the
//! device id (896..912). All integers little-endian.
//!
//! - START, a game's first block: `'G'`, the layout (1), the game number u32, the seed u64,
//!   the rules as their index in `Preset::ALL`, CRC-32 of bytes 0..15, the ack byte (0xFF:
//!   not pulled; anything else: pulled), four 0xFF.
//! - MOVES, the blocks after it: 64 move slots, bytes 0..8 the commit bits (slot `i` in byte
//!   `i / 8`, bit `i % 8`; 0 = committed), bytes 8..24 the directions (slot `i` in byte
//!   `8 + i / 4`, bits `(i % 4) * 2`; erased = 3 = left).
//! - END, the block after the last MOVES block: `'E'`, the result, the moves u16, the final
//!   score u64 and state hash u64, then CRC-32 of bytes 0..20 XOR the game number (an END
//!   left by another game does not check).

use twenty48_engine::{Direction, Preset};

use crate::crc::crc32;
use crate::eeprom::Eeprom;
use crate::game::GameStart;
use crate::record::Claims;

/// Bytes in a block.
pub(crate) const BLOCK: u16 = 24;
/// Blocks in the store.
pub(crate) const BLOCKS: u8 = 40;
/// Blocks before the device id's record.
const LOW_BLOCKS: u8 = 36;
/// The first block's address (after the game counter's two records).
const FIRST: u16 = 32;
/// Bytes of EEPROM the layout needs.
pub(crate) const EEPROM_LEN: u16 = 1024;
/// The layout number a START records.
pub(crate) const LAYOUT: u8 = 1;
/// Move slots in a MOVES block.
pub(crate) const SLOTS: u16 = 64;

const START: u8 = b'G';
const END: u8 = b'E';
/// Offset of the ack byte in a START block.
pub(crate) const ACK_AT: u16 = 19;
/// Offset of the directions in a MOVES block.
const DIRS: u16 = 8;

/// The EEPROM address of block `b`: the blocks skip the device id's 16 bytes at 896.
pub(crate) fn addr(b: u8) -> u16 {
    FIRST + BLOCK * b as u16 + if b >= LOW_BLOCKS { 16 } else { 0 }
}

/// The block after `b` in the ring.
pub(crate) fn next(b: u8) -> u8 {
    if b + 1 == BLOCKS {
        0
    } else {
        b + 1
    }
}

/// A START block's game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Start {
    pub number: u32,
    pub start: GameStart,
    pub acked: bool,
}

fn u32_of(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn u64_of(b: &[u8]) -> u64 {
    u64::from(u32_of(b)) | u64::from(u32_of(&b[4..])) << 32
}

/// Reads `N` bytes from `at`.
fn read<const N: usize>(eeprom: &mut impl Eeprom, at: u16) -> [u8; N] {
    let mut b = [0u8; N];
    for (i, x) in b.iter_mut().enumerate() {
        *x = eeprom.read(at + i as u16);
    }
    b
}

/// Programs `bytes` at `at` (a block prepared: every byte 0xFF), in order.
pub(crate) fn write(eeprom: &mut impl Eeprom, at: u16, bytes: &[u8]) {
    for (i, &b) in bytes.iter().enumerate() {
        if b != 0xFF {
            eeprom.program(at + i as u16, b);
        }
    }
}

/// The first byte of block `b`: `'G'` a START, `'E'` an END, else a MOVES block (its first
/// commit byte, which committed prefixes keep to 0xFF shifted left), or garbage.
pub(crate) fn tag(eeprom: &mut impl Eeprom, b: u8) -> u8 {
    eeprom.read(addr(b))
}

/// Whether `tag` is a START's or an END's.
pub(crate) fn is_record(tag: u8) -> bool {
    tag == START || tag == END
}

/// The game whose START is block `b`, if it is one.
pub(crate) fn read_start(eeprom: &mut impl Eeprom, b: u8) -> Option<Start> {
    if tag(eeprom, b) != START {
        return None;
    }
    let r: [u8; 20] = read(eeprom, addr(b));
    let preset = Preset::ALL.get(r[14] as usize)?;
    if r[1] != LAYOUT || crc32(&r[..15]) != u32_of(&r[15..]) {
        return None;
    }
    Some(Start {
        number: u32_of(&r[2..]),
        start: GameStart {
            rules: preset.rules(),
            seed: u64_of(&r[6..]),
        },
        acked: r[ACK_AT as usize] != 0xFF,
    })
}

/// The index in `Preset::ALL` of the preset whose rules are `start`'s, if one is.
pub(crate) fn preset_of(start: &GameStart) -> Option<u8> {
    Preset::ALL
        .iter()
        .position(|p| p.rules() == start.rules)
        .map(|i| i as u8)
}

/// A START's bytes, not acknowledged, for rules of the preset of index `preset`.
pub(crate) fn start_bytes(number: u32, seed: u64, preset: u8) -> [u8; 19] {
    let mut r = [0u8; 19];
    r[0] = START;
    r[1] = LAYOUT;
    r[2..6].copy_from_slice(&number.to_le_bytes());
    r[6..14].copy_from_slice(&seed.to_le_bytes());
    r[14] = preset;
    let crc = crc32(&r[..15]);
    r[15..].copy_from_slice(&crc.to_le_bytes());
    r
}

/// An END's result and claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct End {
    pub result: u8,
    pub claims: Claims,
}

fn end_check(r: &[u8], number: u32) -> u32 {
    crc32(&r[..20]) ^ number
}

/// The END of game `number` after `moves` moves, if block `b` is one.
pub(crate) fn read_end(eeprom: &mut impl Eeprom, b: u8, number: u32, moves: u16) -> Option<End> {
    let r: [u8; 24] = read(eeprom, addr(b));
    let ok = r[0] == END
        && u16::from_le_bytes([r[2], r[3]]) == moves
        && end_check(&r, number) == u32_of(&r[20..]);
    ok.then(|| End {
        result: r[1],
        claims: Claims {
            score: u64_of(&r[4..]),
            hash: u64_of(&r[12..]),
        },
    })
}

/// An END's bytes.
pub(crate) fn end_bytes(number: u32, moves: u16, end: &End) -> [u8; 24] {
    let mut r = [0u8; 24];
    r[0] = END;
    r[1] = end.result;
    r[2..4].copy_from_slice(&moves.to_le_bytes());
    r[4..12].copy_from_slice(&end.claims.score.to_le_bytes());
    r[12..20].copy_from_slice(&end.claims.hash.to_le_bytes());
    let check = end_check(&r, number);
    r[20..].copy_from_slice(&check.to_le_bytes());
    r
}

/// How many slots of MOVES block `b`, from slot 0, are committed.
pub(crate) fn committed(eeprom: &mut impl Eeprom, b: u8) -> u16 {
    let mut n = 0;
    for i in 0..8 {
        let c = eeprom.read(addr(b) + i);
        n += (!c).trailing_ones() as u16;
        if c != 0 {
            break;
        }
    }
    n
}

/// Stores `dir` in slot `slot` of MOVES block `b` (nothing to write for left, the erased 3).
pub(crate) fn write_direction(eeprom: &mut impl Eeprom, b: u8, slot: u16, dir: Direction) {
    let bits = (3 ^ dir.code()) << (slot % 4 * 2);
    if bits != 0 {
        eeprom.program(addr(b) + DIRS + slot / 4, !bits);
    }
}

/// Commits slot `slot` of MOVES block `b`.
pub(crate) fn commit(eeprom: &mut impl Eeprom, b: u8, slot: u16) {
    eeprom.program(addr(b) + slot / 8, !(1 << (slot % 8)));
}

/// The direction in slot `slot` of MOVES block `b`.
pub(crate) fn direction(eeprom: &mut impl Eeprom, b: u8, slot: u16) -> Direction {
    let byte = eeprom.read(addr(b) + DIRS + slot / 4);
    Direction::ALL[((byte >> (slot % 4 * 2)) & 3) as usize]
}

/// Erases block `b`, its first byte first (from then on it is no START or END).
pub(crate) fn erase(eeprom: &mut impl Eeprom, b: u8) {
    for at in addr(b)..addr(b) + BLOCK {
        if eeprom.read(at) != 0xFF {
            eeprom.erase(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blocks_fill_the_eeprom_around_the_counter_and_the_id() {
        assert_eq!(addr(0), 32);
        assert_eq!(addr(35) + BLOCK, 896);
        assert_eq!(addr(36), 912);
        assert_eq!(addr(BLOCKS - 1) + BLOCK, 1008);
        assert_eq!(next(BLOCKS - 1), 0);
    }

    #[test]
    fn a_commit_byte_is_never_a_record_tag() {
        for n in 0..=8 {
            let c = (0xFFu16 << n) as u8;
            assert!(!is_record(c), "{c:#x}");
        }
    }
}
