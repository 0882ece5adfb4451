//! The fixed-width parts of the file, as serde structs encoded by bincode with one pinned
//! configuration. The variable-length parts (opening kinds, RNG name, moves, checkpoints)
//! are read by hand in `codec.rs`, after their lengths are checked against the bytes present.

use bincode::config::{Configuration, Fixint, Limit, LittleEndian};
use serde::{Deserialize, Serialize};

/// The four bytes every move log starts with: `T`, `4`, `8`, then 0x1A (ASCII SUB, which
/// stops `type` on DOS-like systems from printing the binary rest).
pub const MAGIC: [u8; 4] = *b"T48\x1a";

/// The largest fixed-width block below, in bytes; bincode may never read or write more.
const LIMIT: usize = 32;

/// The bincode configuration: little-endian, fixed-width integers (no varints), at most
/// [`LIMIT`] bytes per block. With only integers and byte arrays in the structs, this gives
/// exactly the layout docs/format.md fixes; the tests compare it against committed bytes.
pub(crate) const CONFIG: Configuration<LittleEndian, Fixint, Limit<LIMIT>> =
    bincode::config::standard()
        .with_little_endian()
        .with_fixed_int_encoding()
        .with_limit::<LIMIT>();

/// A block of fields with a fixed width.
pub(crate) trait Block: Serialize + for<'de> Deserialize<'de> {
    /// Its width in bytes.
    const SIZE: usize;
    /// What a truncation error calls it.
    const NAME: &'static str;
}

/// Offsets 0..6.
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
pub(crate) struct Lead {
    pub magic: [u8; 4],
    pub version: u16,
}

impl Block for Lead {
    const SIZE: usize = 6;
    const NAME: &'static str = "the magic and format version";
}

/// Offsets 6..16; the opening kinds follow.
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
pub(crate) struct RulesHead {
    pub size: u8,
    pub four_numerator: u32,
    pub four_denominator: u32,
    pub opening_len: u8,
}

impl Block for RulesHead {
    const SIZE: usize = 10;
    const NAME: &'static str = "the board size, four chance and opening length";
}

/// After the opening kinds; the RNG name follows.
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
pub(crate) struct RulesTail {
    pub win_present: u8,
    pub win_exponent: u8,
    pub win_ends_game: u8,
    pub scoring: u8,
    pub seed: u64,
    pub rng_name_len: u8,
}

impl Block for RulesTail {
    const SIZE: usize = 13;
    const NAME: &'static str = "the win, scoring, seed and RNG name length";
}

/// After the RNG name; the packed moves follow.
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
pub(crate) struct ClaimsBlock {
    pub checkpoint_interval: u32,
    pub move_count: u32,
    pub score: u64,
    pub max_exponent: u8,
    pub final_hash: u64,
    pub status: u8,
    pub complete: u8,
}

impl Block for ClaimsBlock {
    const SIZE: usize = 27;
    const NAME: &'static str = "the checkpoint interval and claims";
}

/// Bit 0 of the version-2 flags byte (the version-1 complete flag): the log is complete.
pub(crate) const FLAG_COMPLETE: u8 = 1;
/// Bit 1 of the version-2 flags byte: hints were shown while the game was played.
pub(crate) const FLAG_HINTED: u8 = 2;

/// The newest format version this build writes and reads: 2, whose claims end in a flags
/// byte (complete, hints shown) where version 1 has the complete flag alone.
pub const FORMAT_VERSION: u16 = 2;
/// The oldest format version this build reads. A log without hints is written as version 1
/// (byte for byte as before version 2 existed), so older readers still read it.
pub const OLDEST_FORMAT_VERSION: u16 = 1;

/// The format version a log is written in: the oldest that holds it, 1 unless hints were
/// shown (a version-2 flag).
pub const fn version_for(hinted: bool) -> u16 {
    if hinted {
        2
    } else {
        1
    }
}

/// Appends a block's bytes.
pub(crate) fn put<B: Block>(out: &mut Vec<u8>, block: &B) {
    let start = out.len();
    let mut buf = [0u8; LIMIT];
    // Every block is a few integers well under LIMIT bytes: the encoding cannot fail.
    let n = bincode::serde::encode_into_slice(block, &mut buf, CONFIG).unwrap_or(0);
    out.extend_from_slice(&buf[..n]);
    debug_assert_eq!(out.len() - start, B::SIZE);
}

/// Reads a block from exactly `B::SIZE` bytes; `None` only if bincode disagrees with the
/// width, which the tests rule out.
pub(crate) fn get<B: Block>(bytes: &[u8]) -> Option<B> {
    match bincode::serde::decode_from_slice::<B, _>(bytes, CONFIG) {
        Ok((block, n)) if n == B::SIZE && bytes.len() == B::SIZE => Some(block),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<B: Block + core::fmt::Debug + PartialEq>(b: B) {
        let mut out = Vec::new();
        put(&mut out, &b);
        assert_eq!(out.len(), B::SIZE, "{}", B::NAME);
        assert_eq!(get::<B>(&out), Some(b));
    }

    #[test]
    fn blocks_have_their_documented_widths() {
        round_trip(Lead {
            magic: MAGIC,
            version: 0x0102,
        });
        round_trip(RulesHead {
            size: 4,
            four_numerator: 1,
            four_denominator: u32::MAX,
            opening_len: 2,
        });
        round_trip(RulesTail {
            win_present: 1,
            win_exponent: 11,
            win_ends_game: 0,
            scoring: 0,
            seed: u64::MAX,
            rng_name_len: 7,
        });
        round_trip(ClaimsBlock {
            checkpoint_interval: 128,
            move_count: 1000,
            score: u64::MAX,
            max_exponent: 17,
            final_hash: 0x0102_0304_0506_0708,
            status: 2,
            complete: 1,
        });
    }

    #[test]
    fn integers_are_little_endian_and_fixed_width() {
        let mut out = Vec::new();
        put(
            &mut out,
            &Lead {
                magic: MAGIC,
                version: 0x0102,
            },
        );
        assert_eq!(out, [0x54, 0x34, 0x38, 0x1a, 0x02, 0x01]);
    }
}
