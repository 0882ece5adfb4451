//! An invalid rule set names the byte of the field at fault, not the start of the rules.

use twenty48_engine::{Direction, OpeningSpawn, Rules, RulesError};
use twenty48_movelog::{DecodeError, MoveLog};

/// Classic rules, seed 1: two opening spawns (`L = 2`), so the win exponent is at byte 19.
fn example() -> Vec<u8> {
    let moves = [Direction::Left, Direction::Up, Direction::Right];
    MoveLog::from_moves(Rules::CLASSIC, 1, &moves, 4)
        .unwrap()
        .encode()
}

fn decode_with(edits: &[(usize, u8)]) -> DecodeError {
    let mut b = example();
    for &(i, v) in edits {
        b[i] = v;
    }
    let end = b.len() - 4;
    let crc = crc32fast::hash(&b[..end]);
    b[end..].copy_from_slice(&crc.to_le_bytes());
    MoveLog::decode(&b).unwrap_err()
}

fn offset(err: &DecodeError) -> u64 {
    match err {
        DecodeError::InvalidRules { offset, .. } => *offset,
        other => panic!("not an invalid-rules error: {other}"),
    }
}

#[test]
fn each_rules_error_names_its_own_field() {
    // Board size 9: byte 6.
    let err = decode_with(&[(6, 9)]);
    assert_eq!(offset(&err), 6, "{err}");
    // Four chance 11/10: the numerator, byte 7.
    let err = decode_with(&[(7, 11)]);
    assert!(
        err.to_string().starts_with("invalid rules at byte 7: "),
        "{err}"
    );
    // Denominator 0: byte 11.
    let err = decode_with(&[(11, 0)]);
    assert_eq!(offset(&err), 11, "{err}");
    // A 2x2 board with the two-spawn opening still fits; the win exponent 11 does not.
    let err = decode_with(&[(6, 2)]);
    assert!(
        matches!(
            err,
            DecodeError::InvalidRules {
                offset: 19,
                source: RulesError::WinTile { .. }
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("invalid rules at byte 19: "),
        "{err}"
    );
    // Win exponent 40 on a 4x4 board: byte 19.
    let err = decode_with(&[(19, 40)]);
    assert_eq!(offset(&err), 19, "{err}");
}

/// The example with its opening (bytes 16 and 17) replaced by `kinds` and the opening
/// length (byte 15) set to match, CRC fixed.
fn with_opening(kinds: &[u8]) -> Vec<u8> {
    let b = example();
    let mut out = b[..15].to_vec();
    out.push(kinds.len() as u8);
    out.extend_from_slice(kinds);
    out.extend_from_slice(&b[18..]);
    let end = out.len() - 4;
    let crc = crc32fast::hash(&out[..end]);
    out[end..].copy_from_slice(&crc.to_le_bytes());
    out
}

#[test]
fn an_opening_of_0_or_more_than_8_spawns_names_the_opening_length() {
    for len in [0usize, 9, 12, 255] {
        let err = MoveLog::decode(&with_opening(&vec![0; len])).unwrap_err();
        assert_eq!(
            err,
            DecodeError::InvalidRules {
                offset: 15,
                source: RulesError::Opening {
                    spawns: len as u8,
                    cells: 16
                }
            },
            "{len} spawns"
        );
        assert!(
            err.to_string().starts_with("invalid rules at byte 15: "),
            "{err}"
        );
    }
    // The edges that fit: 1 and 8 spawns decode.
    for len in [1usize, 8] {
        let log = MoveLog::decode(&with_opening(&vec![1; len])).unwrap();
        assert_eq!(log.rules.opening.spawns(), vec![OpeningSpawn::Two; len]);
    }
}

#[test]
fn win_field_errors_name_their_byte() {
    // Byte 18 win present, 19 win exponent, 20 ends-game flag, 21 scoring.
    let field = |edits: &[(usize, u8)]| match decode_with(edits) {
        DecodeError::InvalidField {
            offset,
            field,
            value,
            ..
        } => (offset, field, value),
        other => panic!("not an invalid-field error: {other}"),
    };
    assert_eq!(field(&[(18, 2)]), (18, "win present flag", 2));
    assert_eq!(field(&[(18, 0)]), (19, "win exponent", 11));
    assert_eq!(
        field(&[(18, 0), (19, 0), (20, 1)]),
        (20, "win ends-game flag", 1)
    );
    assert_eq!(field(&[(20, 2)]), (20, "win ends-game flag", 2));
    assert_eq!(field(&[(21, 2)]), (21, "scoring", 2));
    // A log without a win (all three bytes 0) decodes as one.
    let mut b = example();
    b[18] = 0;
    b[19] = 0;
    let end = b.len() - 4;
    let crc = crc32fast::hash(&b[..end]);
    b[end..].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(MoveLog::decode(&b).unwrap().rules.win, None);
}

#[test]
fn an_opening_longer_than_the_board_names_the_opening_length() {
    // Five spawns fit the format but not a 2x2 board (four cells): the rules check finds it,
    // and the error still names byte 15.
    let mut b = with_opening(&[0; 5]);
    b[6] = 2;
    let end = b.len() - 4;
    let crc = crc32fast::hash(&b[..end]);
    b[end..].copy_from_slice(&crc.to_le_bytes());
    assert_eq!(
        MoveLog::decode(&b).unwrap_err(),
        DecodeError::InvalidRules {
            offset: 15,
            source: RulesError::Opening {
                spawns: 5,
                cells: 4
            }
        }
    );
}
