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

use crate::eeprom::chip::Eeprom;
use crate::game::Claims;
use crate::game::GameStart;
use twenty48_deviceproto::crc32;

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

/// A START block's game: its number and whether the host acknowledged it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Start {
    pub number: u32,
    pub acked: bool,
}

/// Reads `N` bytes from `at`.
fn read<const N: usize>(eeprom: &mut impl Eeprom, at: u16) -> [u8; N] {
    let mut b = [0u8; N];
    for (i, x) in b.iter_mut().enumerate() {
        *x = eeprom.read(at + i as u16);
    }
    b
}

/// The `u64` at `at`.
fn read_u64(eeprom: &mut impl Eeprom, at: u16) -> u64 {
    u64::from_le_bytes(read(eeprom, at))
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

/// The game whose START is block `b`, if it is one (whole, of this layout, of a preset).
pub(crate) fn read_start(eeprom: &mut impl Eeprom, b: u8) -> Option<Start> {
    if tag(eeprom, b) != START {
        return None;
    }
    let r: [u8; 20] = read(eeprom, addr(b));
    let crc = u32::from_le_bytes([r[15], r[16], r[17], r[18]]);
    let whole = r[1] == LAYOUT && (r[14] as usize) < Preset::ALL.len() && crc32(&r[..15]) == crc;
    whole.then(|| Start {
        number: u32::from_le_bytes([r[2], r[3], r[4], r[5]]),
        acked: r[ACK_AT as usize] != 0xFF,
    })
}

/// The rules and seed of the START at block `b` (one [`read_start`] found).
pub(crate) fn read_game_start(eeprom: &mut impl Eeprom, b: u8) -> GameStart {
    let at = addr(b);
    GameStart {
        rules: Preset::ALL[eeprom.read(at + 14) as usize % Preset::ALL.len()].rules(),
        seed: read_u64(eeprom, at + 6),
    }
}

/// The index in `Preset::ALL` of the preset whose rules are `start`'s, if one is.
pub(crate) fn preset_of(start: &GameStart) -> Option<u8> {
    start.rules.preset().map(|p| p as u8)
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

fn end_check(r: &[u8], number: u32) -> u32 {
    crc32(&r[..20]) ^ number
}

/// Whether block `b` is the END of game `number` after `moves` moves.
pub(crate) fn is_end(eeprom: &mut impl Eeprom, b: u8, number: u32, moves: u16) -> bool {
    let r: [u8; 24] = read(eeprom, addr(b));
    r[0] == END
        && u16::from_le_bytes([r[2], r[3]]) == moves
        && end_check(&r, number) == u32::from_le_bytes([r[20], r[21], r[22], r[23]])
}

/// The result and claims of the END at block `b` (one [`is_end`] found).
pub(crate) fn read_end(eeprom: &mut impl Eeprom, b: u8) -> (u8, Claims) {
    let at = addr(b);
    (
        eeprom.read(at + 1),
        Claims {
            score: read_u64(eeprom, at + 4),
            hash: read_u64(eeprom, at + 12),
        },
    )
}

/// An END's bytes: game `number`'s result, moves and claims.
pub(crate) fn end_bytes(number: u32, moves: u16, result: u8, claims: &Claims) -> [u8; 24] {
    let mut r = [0u8; 24];
    r[0] = END;
    r[1] = result;
    r[2..4].copy_from_slice(&moves.to_le_bytes());
    r[4..12].copy_from_slice(&claims.score.to_le_bytes());
    r[12..20].copy_from_slice(&claims.hash.to_le_bytes());
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
    fn a_preset_is_kept_as_its_index_in_all() {
        for (i, p) in Preset::ALL.into_iter().enumerate() {
            assert_eq!(p as usize, i);
            let start = GameStart {
                rules: p.rules(),
                seed: 5,
            };
            assert_eq!(preset_of(&start), Some(i as u8));
        }
    }

    #[test]
    fn a_commit_byte_is_never_a_record_tag() {
        for n in 0..=8 {
            let c = (0xFFu16 << n) as u8;
            assert!(!is_record(c), "{c:#x}");
        }
    }
}
