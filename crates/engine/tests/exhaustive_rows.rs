//! Every one of the 65,536 rows of four nibbles, slid in both directions along a row and
//! along a column: the fast path must equal the reference engine, score and merges included.

use twenty48_engine::bitboard::{FastSlide, Packed};
use twenty48_engine::reference::Board;
use twenty48_engine::Direction;

fn check(cells: [u8; 16], dir: Direction) {
    let mut reference = Board::from_cells(&cells).unwrap();
    let expected = reference.slide(dir);
    let packed = Packed::from_cells(&cells).unwrap();
    let fast = packed.slide(dir);
    // The board-only slide agrees with the scored one, overflow included.
    match (fast, packed.slide_board(dir)) {
        (FastSlide::Done { board, .. }, Some(b)) => assert_eq!(board, b, "{cells:?} {dir}"),
        (FastSlide::Overflow, None) => {}
        (a, b) => panic!("{cells:?} {dir}: {a:?} against {b:?}"),
    }
    let row_has_15_pair = expected.merges > 0 && reference.max_exponent() == 16;
    match fast {
        FastSlide::Overflow => assert!(row_has_15_pair, "{cells:?} {dir}: spurious overflow"),
        FastSlide::Done {
            board,
            merged_value,
            merges,
        } => {
            assert!(!row_has_15_pair, "{cells:?} {dir}: overflow not flagged");
            assert_eq!(board.cells(), reference.cells(), "{cells:?} {dir}: board");
            assert_eq!(
                merged_value as u64, expected.merged_value,
                "{cells:?} {dir}: score"
            );
            assert_eq!(merges, expected.merges, "{cells:?} {dir}: merges");
            assert_eq!(board != Packed::from_cells(&cells).unwrap(), expected.moved);
        }
    }
}

#[test]
fn every_row_both_directions_matches_reference() {
    for row in 0u32..65536 {
        let nibbles: [u8; 4] = core::array::from_fn(|i| ((row >> (4 * i)) & 0xF) as u8);
        // As row 2 of the board (left/right)...
        let mut cells = [0u8; 16];
        cells[8..12].copy_from_slice(&nibbles);
        check(cells, Direction::Left);
        check(cells, Direction::Right);
        // ...and as column 1 (up/down).
        let mut cells = [0u8; 16];
        for (r, &n) in nibbles.iter().enumerate() {
            cells[r * 4 + 1] = n;
        }
        check(cells, Direction::Up);
        check(cells, Direction::Down);
    }
}
