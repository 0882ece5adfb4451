//! An invalid rule set names the byte of the field at fault, not the start of the rules.

use twenty48_engine::{Direction, Rules, RulesError};
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
