//! The byte layouts of the sector header and the GAME, CONT and END records
//! (docs/firmware.md, "The game store on the board"). All integers little-endian.
//!
//! Each sector says in its header which layout its records follow: layout 2 (written now,
//! magic `"T48"` and the byte 2) or layout 1 (magic `"T48S"`, the first store), whose END
//! record is 16 bytes and has no score or hash. Layout-1 sectors are read, never written.

use twenty48_engine::{FourChance, Opening, OpeningSpawn, Rules, Scoring, Win, MAX_OPENING};

use crate::game::{Claims, GameStart};
use twenty48_deviceproto::crc32;

/// Bytes of the sector header.
pub(crate) const HEADER_LEN: u32 = 16;
/// Bytes of a GAME record.
pub(crate) const GAME_LEN: u32 = 32;
/// Bytes of a CONT record.
pub(crate) const CONT_LEN: u32 = 16;
/// Bytes of an END record (layout 2).
pub(crate) const END_LEN: u32 = 32;
/// Bytes of a layout-1 END record.
pub(crate) const END_LEN_1: u32 = 16;
/// Offset of the ack byte in a GAME record.
pub(crate) const ACK_AT: u32 = 31;

pub(crate) const GAME: u8 = b'G';
pub(crate) const CONT: u8 = b'C';
pub(crate) const END: u8 = b'E';
/// The sector magic of layout 2: `"T48"` and the layout number.
const MAGIC: [u8; 4] = *b"T48\x02";
/// The sector magic of layout 1 (its END records have no score or hash).
const MAGIC_1: [u8; 4] = *b"T48S";
/// The layout the store writes.
pub(crate) const LAYOUT: u8 = 2;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn crc_ok(b: &[u8], covered: usize) -> bool {
    crc32(&b[..covered]) == u32_at(b, covered)
}

fn seal(b: &mut [u8], covered: usize) {
    let crc = crc32(&b[..covered]);
    b[covered..covered + 4].copy_from_slice(&crc.to_le_bytes());
}

/// What the first 16 bytes of a sector say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Header {
    /// All 0xFF.
    Free,
    /// Neither free nor valid: a torn erase or header write (treated as free).
    Garbage,
    /// A valid header: the ring's order, the next game number when it was opened, and
    /// the layout of its records (1 or 2).
    InUse {
        seq: u32,
        next_game: u32,
        layout: u8,
    },
}

impl Header {
    pub(crate) fn decode(b: &[u8; 16]) -> Header {
        if b.iter().all(|&x| x == 0xFF) {
            Header::Free
        } else if (b[..4] == MAGIC || b[..4] == MAGIC_1) && crc_ok(b, 12) {
            Header::InUse {
                seq: u32_at(b, 4),
                next_game: u32_at(b, 8),
                layout: if b[3] == MAGIC[3] { LAYOUT } else { 1 },
            }
        } else {
            Header::Garbage
        }
    }

    pub(crate) fn encode(seq: u32, next_game: u32) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..4].copy_from_slice(&MAGIC);
        b[4..8].copy_from_slice(&seq.to_le_bytes());
        b[8..12].copy_from_slice(&next_game.to_le_bytes());
        seal(&mut b, 12);
        b
    }
}

/// A GAME record: the game's number and start, and whether the host acknowledged it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameRecord {
    pub number: u32,
    pub start: GameStart,
    pub acked: bool,
}

impl GameRecord {
    /// The record, not acknowledged (ack byte 0xFF).
    pub(crate) fn encode(number: u32, start: &GameStart) -> [u8; 32] {
        let r = &start.rules;
        let mut b = [0xFFu8; 32];
        b[0] = GAME;
        b[1..5].copy_from_slice(&number.to_le_bytes());
        b[5..13].copy_from_slice(&start.seed.to_le_bytes());
        b[13] = r.size;
        b[14..18].copy_from_slice(&r.four_chance.numerator.to_le_bytes());
        b[18..22].copy_from_slice(&r.four_chance.denominator.to_le_bytes());
        let spawns = r.opening.spawns();
        b[22] = spawns.len() as u8;
        b[23] = spawns
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == OpeningSpawn::Two)
            .fold(0u8, |m, (i, _)| m | 1 << i);
        b[24] = r.win.map_or(0, |w| w.exponent);
        b[25] = r.win.is_some_and(|w| w.ends_game) as u8;
        b[26] = r.scoring as u8;
        seal(&mut b, 27);
        b
    }

    /// The record, or `None` if it is not a valid GAME record (type, crc, or rules that do not
    /// decode canonically and validate).
    pub(crate) fn decode(b: &[u8; 32]) -> Option<GameRecord> {
        if b[0] != GAME || !crc_ok(b, 27) {
            return None;
        }
        let len = b[22] as usize;
        let twos = b[23];
        if len == 0 || len > MAX_OPENING || (len < 8 && twos >> len != 0) {
            return None;
        }
        let mut spawns = [OpeningSpawn::Normal; MAX_OPENING];
        for (i, s) in spawns.iter_mut().enumerate().take(len) {
            if twos & 1 << i != 0 {
                *s = OpeningSpawn::Two;
            }
        }
        let win = match (b[24], b[25]) {
            (0, 0) => None,
            (0, _) => return None,
            (exponent, ends @ (0 | 1)) => Some(Win {
                exponent,
                ends_game: ends == 1,
            }),
            _ => return None,
        };
        let scoring = match b[26] {
            0 => Scoring::MergedValues,
            1 => Scoring::MergeCount,
            _ => return None,
        };
        let rules = Rules {
            size: b[13],
            four_chance: FourChance::new(u32_at(b, 14), u32_at(b, 18)),
            opening: Opening::new(&spawns[..len])?,
            win,
            scoring,
        };
        rules.validate().ok()?;
        Some(GameRecord {
            number: u32_at(b, 1),
            start: GameStart {
                rules,
                seed: u64::from_le_bytes(b[5..13].try_into().ok()?),
            },
            acked: b[ACK_AT as usize] != 0xFF,
        })
    }
}

/// A CONT record: game `number` goes on, `first_move` moves stored before this segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ContRecord {
    pub number: u32,
    pub first_move: u32,
}

impl ContRecord {
    pub(crate) fn encode(&self) -> [u8; 16] {
        let mut b = [0xFFu8; 16];
        b[0] = CONT;
        b[1..5].copy_from_slice(&self.number.to_le_bytes());
        b[5..9].copy_from_slice(&self.first_move.to_le_bytes());
        seal(&mut b, 12);
        b
    }

    pub(crate) fn decode(b: &[u8; 16]) -> Option<ContRecord> {
        (b[0] == CONT && crc_ok(b, 12)).then(|| ContRecord {
            number: u32_at(b, 1),
            first_move: u32_at(b, 5),
        })
    }
}

/// An END record: game `number` ended after `moves` moves with `result`; layout 2 also
/// keeps the device's final score and hash (`claims`; `None` in a layout-1 sector).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EndRecord {
    pub number: u32,
    pub moves: u32,
    pub result: u8,
    pub claims: Option<Claims>,
}

impl EndRecord {
    /// The layout-2 record (`claims` must be `Some`; `None` writes zeros).
    pub(crate) fn encode(&self) -> [u8; END_LEN as usize] {
        let mut b = [0xFFu8; END_LEN as usize];
        b[0] = END;
        b[1..5].copy_from_slice(&self.number.to_le_bytes());
        b[5..9].copy_from_slice(&self.moves.to_le_bytes());
        b[9] = self.result;
        let c = self.claims.unwrap_or(Claims { score: 0, hash: 0 });
        b[10..18].copy_from_slice(&c.score.to_le_bytes());
        b[18..26].copy_from_slice(&c.hash.to_le_bytes());
        seal(&mut b, 28);
        b
    }

    /// The record in a sector of `layout` (`b` holds at least [`END_LEN_1`] bytes, and
    /// [`END_LEN`] in layout 2).
    pub(crate) fn decode(b: &[u8], layout: u8) -> Option<EndRecord> {
        let covered = if layout == 1 { 12 } else { 28 };
        if b.len() < covered + 4 || b[0] != END || !crc_ok(b, covered) {
            return None;
        }
        let u64_at = |at: usize| u64::from(u32_at(b, at)) | u64::from(u32_at(b, at + 4)) << 32;
        Some(EndRecord {
            number: u32_at(b, 1),
            moves: u32_at(b, 5),
            result: b[9],
            claims: (layout != 1).then(|| Claims {
                score: u64_at(10),
                hash: u64_at(18),
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::Preset;

    #[test]
    fn records_round_trip() {
        for preset in Preset::ALL {
            let start = GameStart {
                rules: preset.rules(),
                seed: 0x0123_4567_89AB_CDEF,
            };
            let b = GameRecord::encode(7, &start);
            let r = GameRecord::decode(&b).unwrap();
            assert_eq!((r.number, r.start, r.acked), (7, start, false));
            let mut acked = b;
            acked[ACK_AT as usize] = 0;
            assert!(GameRecord::decode(&acked).unwrap().acked);
            let mut bad = b;
            bad[5] ^= 1;
            assert_eq!(GameRecord::decode(&bad), None);
        }
        let c = ContRecord {
            number: 3,
            first_move: 1360,
        };
        assert_eq!(ContRecord::decode(&c.encode()), Some(c));
        let e = EndRecord {
            number: 3,
            moves: 1400,
            result: 2,
            claims: Some(Claims {
                score: 0x0102_0304_0506_0708,
                hash: 0xF0E0_D0C0_B0A0_9080,
            }),
        };
        let b = e.encode();
        assert_eq!(EndRecord::decode(&b, 2), Some(e));
        for i in 0..28 {
            let mut bad = b;
            bad[i] ^= 4;
            assert_eq!(EndRecord::decode(&bad, 2), None, "byte {i}");
        }
        assert_eq!(
            Header::decode(&Header::encode(5, 9)),
            Header::InUse {
                seq: 5,
                next_game: 9,
                layout: 2
            }
        );
        assert_eq!(Header::decode(&[0xFF; 16]), Header::Free);
        assert_eq!(Header::decode(&[0; 16]), Header::Garbage);
    }

    /// A layout-1 sector (the first store's): its header and its 16-byte END records, which
    /// have no score or hash, still read.
    #[test]
    fn layout_1_records_still_read() {
        let mut h = Header::encode(5, 9);
        h[..4].copy_from_slice(b"T48S");
        seal(&mut h, 12);
        assert_eq!(
            Header::decode(&h),
            Header::InUse {
                seq: 5,
                next_game: 9,
                layout: 1
            }
        );
        // The END of layout 1: 'E', game, moves, result, two 0xFF, CRC of bytes 0..12.
        let mut b = [0xFFu8; 16];
        b[0] = END;
        b[1..5].copy_from_slice(&3u32.to_le_bytes());
        b[5..9].copy_from_slice(&1400u32.to_le_bytes());
        b[9] = 2;
        seal(&mut b, 12);
        let e = EndRecord::decode(&b, 1).unwrap();
        assert_eq!((e.number, e.moves, e.result, e.claims), (3, 1400, 2, None));
        assert_eq!(EndRecord::decode(&b, 2), None, "not a layout-2 record");
    }
}
