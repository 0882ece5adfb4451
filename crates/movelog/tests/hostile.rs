//! Broken and hostile input: every one is an error naming what and where, never a panic.

use crate::common;

use common::{example, example_bytes, fix_crc};
use proptest::prelude::*;
use twenty48_engine::RulesError;
use twenty48_movelog::{DecodeError, MoveLog};

/// Offsets in the example (docs/format.md).
const MOVE_COUNT: usize = 42;
const MOVES: usize = 65;

#[test]
fn every_truncation_is_an_error() {
    let bytes = example_bytes();
    for len in 0..bytes.len() {
        let err = MoveLog::decode(&bytes[..len]).unwrap_err();
        // Even an empty file: a prefix of the magic is a cut-off log, not a foreign file.
        assert!(
            matches!(err, DecodeError::Truncated { .. }),
            "length {len}: {err}"
        );
        assert!(err.to_string().contains("at byte"), "{err}");
    }
}

#[test]
fn truncation_names_the_field() {
    let bytes = example_bytes();
    let err = MoveLog::decode(&bytes[..66]).unwrap_err();
    assert_eq!(
        err,
        DecodeError::Truncated {
            offset: 65,
            what: "the packed moves",
            needed: 2,
            available: 1
        }
    );
    assert_eq!(
        err.to_string(),
        "the file is truncated: the packed moves at byte 65: 2 bytes needed, only 1 left"
    );
}

#[test]
fn every_single_byte_flip_is_an_error() {
    let bytes = example_bytes();
    for i in 0..bytes.len() {
        for mask in 1..=255u8 {
            let mut b = bytes.clone();
            b[i] ^= mask;
            let err = MoveLog::decode(&b).expect_err(&format!("byte {i} ^ {mask:#04x}"));
            assert!(err.to_string().contains("at byte"), "{err}");
        }
    }
}

#[test]
fn a_flipped_field_is_caught_by_the_crc_before_its_meaning() {
    let mut b = example_bytes();
    b[63] = 7; // status
    let err = MoveLog::decode(&b).unwrap_err();
    let DecodeError::CrcMismatch {
        offset,
        stored,
        computed,
    } = err
    else {
        panic!("{err}")
    };
    assert_eq!(offset, 71);
    assert_eq!(stored, 0x8ef5_221f);
    assert_ne!(computed, stored);
    assert!(err.to_string().starts_with("CRC-32 mismatch"), "{err}");
}

#[test]
fn a_bad_status_with_a_good_crc_is_named() {
    let mut b = example_bytes();
    b[63] = 7;
    fix_crc(&mut b);
    let err = MoveLog::decode(&b).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid status 7 at byte 63 (expected 0 playing, 1 won or 2 over)"
    );
}

#[test]
fn a_huge_move_count_in_a_tiny_file_is_refused_before_allocating() {
    let mut b = example_bytes();
    b[MOVE_COUNT..MOVE_COUNT + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = MoveLog::decode(&b).unwrap_err();
    assert_eq!(
        err,
        DecodeError::Truncated {
            offset: MOVES as u64,
            what: "the packed moves",
            needed: 1 << 30,
            available: 10,
        }
    );
    // The same with the count just fitting the moves but not the checkpoints.
    let mut b = example_bytes();
    b[MOVE_COUNT..MOVE_COUNT + 4].copy_from_slice(&24u32.to_le_bytes());
    assert!(matches!(
        MoveLog::decode(&b),
        Err(DecodeError::Truncated {
            what: "the checkpoints",
            ..
        })
    ));
}

#[test]
fn unknown_version() {
    let mut b = example_bytes();
    b[4] = 7;
    let err = MoveLog::decode(&b).unwrap_err();
    assert_eq!(
        err,
        DecodeError::UnsupportedVersion {
            offset: 4,
            version: 7
        }
    );
    assert!(err
        .to_string()
        .contains("format version 7 is newer than this build understands (2)"));
    b[4] = 0;
    assert!(MoveLog::decode(&b)
        .unwrap_err()
        .to_string()
        .contains("format version 0 at byte 4 does not exist"));
    // The version is checked before the structure: a new version may be longer or shorter.
    assert!(matches!(
        MoveLog::decode(&[0x54, 0x34, 0x38, 0x1a, 3, 0]),
        Err(DecodeError::UnsupportedVersion { version: 3, .. })
    ));
}

/// Version 1's byte 64 is the complete flag alone (0 or 1); version 2's is a flags byte whose
/// bits above bit 1 must be clear. Each is reported at byte 64 with what it may hold.
#[test]
fn flags_byte_by_version() {
    let with = |version: u8, flags: u8| {
        let mut b = example_bytes();
        b[4] = version;
        b[64] = flags;
        fix_crc(&mut b);
        MoveLog::decode(&b)
    };
    let err = with(1, 2).unwrap_err();
    assert!(
        matches!(
            err,
            DecodeError::InvalidField {
                offset: 64,
                value: 2,
                ..
            }
        ),
        "{err}"
    );
    assert!(with(2, 2).unwrap().hinted);
    assert!(!with(2, 2).unwrap().complete);
    let err = with(2, 4).unwrap_err();
    assert!(
        matches!(
            err,
            DecodeError::InvalidField {
                offset: 64,
                value: 4,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("bit 1 hints shown"), "{err}");
}

#[test]
fn bad_magic() {
    let mut b = example_bytes();
    b[0] = b'X';
    let err = MoveLog::decode(&b).unwrap_err();
    assert_eq!(
        err.to_string(),
        "not a twenty48 move log: the file starts with 58 34 38 1a at byte 0, not the magic 54 34 38 1a"
    );
    assert!(matches!(
        MoveLog::decode(b"\x89PNG\r\n\x1a\n"),
        Err(DecodeError::NotAMoveLog { .. })
    ));
    assert!(matches!(
        MoveLog::decode(b"T4"),
        Err(DecodeError::Truncated { offset: 0, .. })
    ));
    assert!(matches!(
        MoveLog::decode(b"X"),
        Err(DecodeError::NotAMoveLog { len: 1, .. })
    ));
}

#[test]
fn non_zero_padding_names_the_move() {
    // Six moves: the second move byte holds moves 5 and 6 in bits 0-3; bits 4-7 pad.
    let mut b = example_bytes();
    b[MOVES + 1] |= 0b0100_0000;
    fix_crc(&mut b);
    let err = MoveLog::decode(&b).unwrap_err();
    assert_eq!(
        err,
        DecodeError::NonZeroPadding {
            offset: 66,
            move_number: 8,
            move_count: 6
        }
    );
    assert_eq!(
        err.to_string(),
        "non-zero padding bits for move 8 at byte 66, after the last move (6)"
    );
    let mut b = example_bytes();
    b[MOVES + 1] |= 0b0001_0000;
    fix_crc(&mut b);
    assert!(matches!(
        MoveLog::decode(&b),
        Err(DecodeError::NonZeroPadding { move_number: 7, .. })
    ));
}

#[test]
fn trailing_garbage() {
    let mut b = example_bytes();
    b.extend_from_slice(b"junk");
    let err = MoveLog::decode(&b).unwrap_err();
    assert_eq!(
        err,
        DecodeError::TrailingBytes {
            offset: 75,
            count: 4
        }
    );
    assert_eq!(
        err.to_string(),
        "4 unexpected trailing bytes after the end of the move log at byte 75"
    );
}

#[test]
fn bad_rules() {
    let mut b = example_bytes();
    b[6] = 9;
    fix_crc(&mut b);
    let err = MoveLog::decode(&b).unwrap_err();
    assert_eq!(
        err,
        DecodeError::InvalidRules {
            offset: 6,
            source: RulesError::Size { size: 9 }
        }
    );
    assert_eq!(
        err.to_string(),
        "invalid rules at byte 6: board size 9 is not supported (sizes 2 to 8 are)"
    );
    assert!(std::error::Error::source(&err).is_some());

    // Four chance 11/10.
    let mut b = example_bytes();
    b[7] = 11;
    fix_crc(&mut b);
    assert!(matches!(
        MoveLog::decode(&b),
        Err(DecodeError::InvalidRules {
            source: RulesError::FourChance { .. },
            ..
        })
    ));

    // An opening spawn kind of 2.
    let mut b = example_bytes();
    b[17] = 2;
    fix_crc(&mut b);
    assert_eq!(
        MoveLog::decode(&b).unwrap_err().to_string(),
        "invalid opening spawn kind 2 at byte 17 (expected 0 normal or 1 always-two)"
    );

    // A win flag of 2, and a win exponent without a win.
    let mut b = example_bytes();
    b[18] = 2;
    fix_crc(&mut b);
    assert!(matches!(
        MoveLog::decode(&b),
        Err(DecodeError::InvalidField { offset: 18, .. })
    ));
    let mut b = example_bytes();
    b[18] = 0;
    fix_crc(&mut b);
    assert!(matches!(
        MoveLog::decode(&b),
        Err(DecodeError::InvalidField {
            offset: 19,
            field: "win exponent",
            ..
        })
    ));
}

/// Replaces the RNG name (offset 30: length, then the name) and fixes the CRC.
fn with_rng_name(name: &[u8]) -> Vec<u8> {
    let b = example_bytes();
    let mut out = b[..30].to_vec();
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    out.extend_from_slice(&b[38..]);
    fix_crc(&mut out);
    out
}

#[test]
fn unknown_rng_name() {
    assert_eq!(MoveLog::decode(&with_rng_name(b"chacha8")), Ok(example()));
    let err = MoveLog::decode(&with_rng_name(b"pcg64")).unwrap_err();
    assert_eq!(
        err,
        DecodeError::UnknownRng {
            offset: 31,
            name: "pcg64".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "unknown random number generator \"pcg64\" at byte 31 (this build knows only \"chacha8\")"
    );
    assert!(matches!(
        MoveLog::decode(&with_rng_name(b"")),
        Err(DecodeError::UnknownRng { .. })
    ));
    assert!(matches!(
        MoveLog::decode(&with_rng_name(b"\xff\xfe")),
        Err(DecodeError::UnknownRng { .. })
    ));
}

#[test]
fn complete_flag_must_be_a_flag() {
    let mut b = example_bytes();
    b[64] = 0;
    fix_crc(&mut b);
    let mut partial = example();
    partial.complete = false;
    assert_eq!(MoveLog::decode(&b), Ok(partial.clone()));
    assert_eq!(partial.encode(), b);
    b[64] = 2;
    fix_crc(&mut b);
    assert!(matches!(
        MoveLog::decode(&b),
        Err(DecodeError::InvalidField {
            offset: 64,
            field: "complete flag",
            ..
        })
    ));
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = MoveLog::decode(&bytes);
    }

    #[test]
    fn random_bytes_behind_a_valid_lead_never_panic(
        rest in proptest::collection::vec(any::<u8>(), 0..400),
        fix in any::<bool>(),
    ) {
        let mut bytes = vec![0x54, 0x34, 0x38, 0x1a, 1, 0];
        bytes.extend_from_slice(&rest);
        if fix && bytes.len() >= 10 {
            fix_crc(&mut bytes);
        }
        if let Err(e) = MoveLog::decode(&bytes) {
            prop_assert!(e.to_string().contains("at byte"), "{}", e);
        }
    }

    #[test]
    fn corrupting_a_valid_file_never_panics(
        edits in proptest::collection::vec((0usize..75, any::<u8>()), 1..6),
        fix in any::<bool>(),
    ) {
        let mut bytes = example_bytes();
        for (i, v) in edits {
            bytes[i] = v;
        }
        if fix {
            fix_crc(&mut bytes);
        }
        let _ = MoveLog::decode(&bytes);
    }
}
