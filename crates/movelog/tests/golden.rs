//! The example file of docs/format.md, byte for byte.

use crate::common;

use common::{example, example_bytes, fix_crc, parse_hex, EXAMPLE_MOVES};
use twenty48_engine::{Rules, Status};
use twenty48_movelog::{Claims, MoveLog, PackedLog, FORMAT_VERSION, MAGIC, OLDEST_FORMAT_VERSION};

#[test]
fn example_encodes_to_the_committed_bytes() {
    assert_eq!(example().encode(), example_bytes());
}

#[test]
fn committed_bytes_decode_to_the_example() {
    let log = MoveLog::decode(&example_bytes()).unwrap();
    assert_eq!(log, example());
    assert_eq!(log.rules, Rules::CLASSIC);
    assert_eq!(log.seed, 1);
    assert_eq!(log.moves, EXAMPLE_MOVES);
    assert_eq!(log.checkpoint_interval, 4);
    assert_eq!(log.checkpoints, [0xd372_5a17]);
    assert_eq!(log.checkpoint_after(4), Some(0xd372_5a17));
    assert_eq!(log.checkpoint_after(3), None);
    assert_eq!(log.checkpoint_after(8), None);
    assert_eq!(
        log.claims,
        Claims {
            move_count: 6,
            score: 12,
            max_exponent: 2,
            final_hash: 0x2bf3_2b11_6020_36b5,
            status: Status::Playing,
        }
    );
    assert!(log.complete);
    assert!(!log.hinted);
}

/// Format version 2 (docs/format.md, "Version 2"): a hinted game is the example with the
/// version at byte 4 set to 2 and bit 1 of the flags byte (byte 64) set, then a new CRC.
#[test]
fn a_hinted_log_is_version_2_with_one_more_flag() {
    let mut log = example();
    log.hinted = true;
    let bytes = log.encode();
    let mut expected = example_bytes();
    expected[4] = 2;
    expected[64] = 0b11;
    fix_crc(&mut expected);
    assert_eq!(bytes, expected);
    assert_eq!(MoveLog::decode(&bytes), Ok(log.clone()));
    // A partial hinted log: bit 0 clear.
    log.complete = false;
    let bytes = log.encode();
    assert_eq!((bytes[4], bytes[64]), (2, 0b10));
    assert_eq!(MoveLog::decode(&bytes), Ok(log));
}

/// Each flag of version 2 is read from its own bit: a version-2 file (which no writer makes
/// without hints, but any may be given) with bit 1 clear is not hinted, whatever bit 0 says.
#[test]
fn version_2_reads_each_flag_from_its_own_bit() {
    for flags in [0b00, 0b01, 0b10, 0b11] {
        let mut bytes = example_bytes();
        bytes[4] = 2;
        bytes[64] = flags;
        fix_crc(&mut bytes);
        let log = MoveLog::decode(&bytes).unwrap();
        assert_eq!(
            (log.complete, log.hinted),
            (flags & 1 != 0, flags & 2 != 0),
            "flags {flags:#04b}"
        );
        let packed = PackedLog::decode(&bytes).unwrap();
        assert_eq!((packed.complete, packed.hinted), (log.complete, log.hinted));
        // Issue 28: the version is the one the file states, hints or not.
        assert_eq!(packed.format_version, 2, "flags {flags:#04b}");
    }
    assert_eq!(
        PackedLog::decode(&example_bytes()).unwrap().format_version,
        1
    );
}

#[test]
fn constants_are_as_documented() {
    assert_eq!(MAGIC, [0x54, 0x34, 0x38, 0x1a]);
    assert_eq!(FORMAT_VERSION, 2);
    assert_eq!(OLDEST_FORMAT_VERSION, 1);
    assert_eq!(twenty48_movelog::EXTENSION, "t48");
    assert_eq!(twenty48_movelog::DEFAULT_CHECKPOINT_INTERVAL, 256);
}

/// The hex dump in docs/format.md is the committed golden file: the spec cannot drift.
#[test]
fn format_md_shows_the_golden_bytes() {
    let doc = include_str!("../../../docs/format.md");
    let start = doc
        .find("<!-- example-hex-start -->")
        .expect("format.md marks its hex dump");
    let end = doc.find("<!-- example-hex-end -->").unwrap();
    // Each dump line is `offset: hex bytes  | comment`; keep the hex bytes.
    let hex: String = doc[start..end]
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(off, _)| {
            off.trim().chars().all(|c| c.is_ascii_hexdigit()) && !off.trim().is_empty()
        })
        .map(|(_, rest)| rest.split('|').next().unwrap().to_string() + "\n")
        .collect();
    assert_eq!(parse_hex(&hex), example_bytes());
}

#[test]
fn crc_is_the_ieee_crc32() {
    // Published check value of CRC-32/ISO-HDLC (zlib, PNG).
    assert_eq!(common::crc32(b"123456789"), 0xcbf4_3926);
    let bytes = example_bytes();
    let n = bytes.len() - 4;
    assert_eq!(
        u32::from_le_bytes(bytes[n..].try_into().unwrap()),
        common::crc32(&bytes[..n])
    );
}
