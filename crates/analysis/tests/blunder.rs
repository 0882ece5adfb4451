//! A game with known errors (the web page's test uses the same game): the expectimax bot's
//! first 200 moves at depth 3 under seed 7, then move 201, left, which pulls the 256 out of
//! its corner where down keeps it, then move 202, up.

use twenty48_analysis::Analysis;
use twenty48_engine::{Direction, Rules};

const MOVES: [&str; 3] = [
    "RDUDRRRDRDDDDDDDRDRDRRRRRRRRRRDRRRRRRRRRRDDUDRRDDDDDRRRDRLLRLLLRDDDDDDDDDRDDDDDU",
    "DRRRDDDRDRDDRRRRUDUDDURDRURDRUUDUDDDRDDRDRRDRRDURDDRRRDDDRUDURUDRURRRRRRRRDDDDRR",
    "UUDRRUDRRDRDRDDRRURURRRDURRUUUDUURRRDDRRLU",
];

fn moves() -> Vec<Direction> {
    MOVES
        .concat()
        .chars()
        .map(|c| Direction::from_letter(c).expect("a move letter"))
        .collect()
}

#[test]
fn the_corner_lost_is_an_error_at_a_shallow_depth_and_a_deep_one() {
    for depth in [3, 6] {
        let a = Analysis::of_game(Rules::CLASSIC, 7, moves(), depth).unwrap();
        assert_eq!(a.ratings.len(), 202);
        assert!(a.stopped.is_none());
        let r = a.ratings[200];
        assert_eq!((r.move_number, r.played), (201, Direction::Left));
        assert_eq!(r.best, Some(Direction::Down), "depth {depth}");
        assert!(r.class.is_error(), "depth {depth}: error {}", r.error);
        assert!(a.ratings[201].class.is_error(), "depth {depth}");
        assert_eq!(a.summary.worst()[0].move_number, 202);
    }
}

#[test]
fn a_move_after_the_end_or_that_changes_nothing_stops_the_analysis_there() {
    // Seed 9: left twice; the second changes nothing (the engine's own doc example).
    let a = Analysis::of_game(Rules::CLASSIC, 9, [Direction::Left, Direction::Left], 2).unwrap();
    assert_eq!(a.ratings.len(), 1);
    assert_eq!(
        a.stopped.map(|e| e.to_string()).as_deref(),
        Some("move 2 (left) does not change the board")
    );
    let big = Rules {
        size: 5,
        ..Rules::CLASSIC
    };
    let e = Analysis::of_game(big, 1, [Direction::Left], 2).unwrap_err();
    assert!(e.to_string().contains("4x4 boards only"), "{e}");
}

#[test]
fn ratings_do_not_depend_on_the_order_of_rating() {
    use twenty48_analysis::{Positions, Rater};
    let positions: Vec<_> = Positions::new(Rules::CLASSIC, 7, moves().into_iter().take(60))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut forward = Rater::new(&Rules::CLASSIC, 4);
    let in_order: Vec<_> = positions.iter().map(|p| forward.rate(p)).collect();
    let mut backward = Rater::new(&Rules::CLASSIC, 4);
    let mut reversed: Vec<_> = positions.iter().rev().map(|p| backward.rate(p)).collect();
    reversed.reverse();
    assert_eq!(in_order, reversed);
}
