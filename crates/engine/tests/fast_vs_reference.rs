//! Property tests: the fast engine against the reference engine, on random boards with tiles
//! up to 2^17 and on whole random games. Failures shrink to a small board or move list.

use proptest::prelude::*;
use twenty48_engine::bitboard::{FastSlide, Packed, Wide};
use twenty48_engine::reference::Board;
use twenty48_engine::{
    Direction, Engine, FourChance, Game, Opening, OpeningSpawn, Rules, Scoring, Win,
};

fn direction() -> impl Strategy<Value = Direction> {
    (0u8..4).prop_map(|c| Direction::from_code(c).unwrap())
}

/// Exponents 0..=17, biased towards small tiles and empty cells so merges are common.
fn cell() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => Just(0u8),
        6 => 1u8..=4,
        2 => 5u8..=17,
        1 => 14u8..=17,
    ]
}

fn rules() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just(4u8), 2u8..=8],
        (0u32..=10, 1u32..=10),
        prop::collection::vec(prop::bool::ANY, 1..=3),
        prop::option::of((2u8..=6, prop::bool::ANY)),
        prop::bool::ANY,
    )
        .prop_map(|(size, (n, d), opening, win, count)| {
            let opening: Vec<OpeningSpawn> = opening
                .into_iter()
                .map(|two| {
                    if two {
                        OpeningSpawn::Two
                    } else {
                        OpeningSpawn::Normal
                    }
                })
                .collect();
            Rules {
                size,
                four_chance: FourChance::new(n.min(d), d),
                opening: Opening::new(&opening[..opening.len().min(size as usize * size as usize)])
                    .unwrap(),
                win: win.map(|(exponent, ends_game)| Win {
                    exponent: exponent.min(size * size + 1),
                    ends_game,
                }),
                scoring: if count {
                    Scoring::MergeCount
                } else {
                    Scoring::MergedValues
                },
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_boards_match_reference(cells in prop::array::uniform16(cell()), dir in direction()) {
        // The exact wide board counts, finds and judges cells as the reference does.
        let before = Board::from_cells(&cells).unwrap();
        let wide = Wide(cells);
        prop_assert_eq!(wide.empty_count(), before.empty_count());
        for k in 0..=before.empty_count() {
            prop_assert_eq!(wide.nth_empty(k), before.nth_empty(k));
        }
        prop_assert_eq!(wide.is_stuck(), before.is_stuck());
        let mut reference = before;
        let expected = reference.slide(dir);
        let fast = Packed::from_cells(&cells).map(|p| p.slide(dir));
        match fast {
            Some(FastSlide::Done { board, merged_value, merges }) => {
                prop_assert_eq!(&board.cells()[..], reference.cells());
                prop_assert_eq!(merged_value as u64, expected.merged_value);
                prop_assert_eq!(merges, expected.merges);
            }
            // Tiles past 2^15 (or a merge of two): the exact wide path.
            Some(FastSlide::Overflow) | None => {
                let mut wide = Wide(cells);
                let (moved, value, merges) = wide.slide(dir);
                prop_assert_eq!(&wide.0[..], reference.cells());
                prop_assert_eq!(moved, expected.moved);
                prop_assert_eq!(value, expected.merged_value);
                prop_assert_eq!(merges, expected.merges);
            }
        }
    }

    #[test]
    fn random_games_match_reference(
        rules in rules(),
        seed in any::<u64>(),
        moves in prop::collection::vec(direction(), 0..300),
    ) {
        let mut fast = Game::with_engine(rules, seed, Engine::Fast).unwrap();
        let mut reference = Game::with_engine(rules, seed, Engine::Reference).unwrap();
        prop_assert_eq!(fast.cells(), reference.cells());
        for (i, dir) in moves.into_iter().enumerate() {
            prop_assert_eq!(fast.legal_moves(), reference.legal_moves(), "legal moves before move {}", i);
            let a = fast.play(dir);
            let b = reference.play(dir);
            prop_assert_eq!(a, b, "outcome of move {} ({})", i, dir);
            prop_assert_eq!(fast.cells(), reference.cells(), "board after move {}", i);
            prop_assert_eq!(fast.state_hash(), reference.state_hash());
            prop_assert_eq!(fast.max_exponent(), reference.max_exponent());
            if a.is_err() {
                break;
            }
        }
    }

    /// The search's board-only slides, on boards of nibbles with one, two or more 32768s
    /// among them: each direction's board is the reference engine's, or `None` exactly where
    /// two 32768s merge (a nibble cannot hold the result); `slide_each` gives all four.
    #[test]
    fn board_only_slides_match_reference_with_32768s(
        cells in prop::array::uniform16(prop_oneof![3 => Just(0u8), 3 => 1u8..=14, 2 => Just(15u8)]),
    ) {
        let packed = Packed::from_cells(&cells).unwrap();
        let each = packed.slide_each();
        for dir in Direction::ALL {
            let mut reference = Board::from_cells(&cells).unwrap();
            reference.slide(dir);
            let slid = packed.slide_board(dir);
            prop_assert_eq!(each[dir.code() as usize], slid, "slide_each against slide_board {}", dir);
            match slid {
                Some(board) => prop_assert_eq!(&board.cells()[..], reference.cells(), "{}", dir),
                None => prop_assert_eq!(reference.max_exponent(), 16, "{}: None without a 65536", dir),
            }
        }
    }

    /// Per-move events (moves, then merges, then the spawn) rebuild exactly the next board.
    #[test]
    fn events_rebuild_the_board(seed in any::<u64>(), moves in prop::collection::vec(direction(), 1..80)) {
        let mut game = Game::new(Rules::CLASSIC, seed).unwrap();
        for dir in moves {
            let mut cells = game.cells().exponents().to_vec();
            let mut events = Vec::new();
            let outcome = game.play_with_events(dir, &mut |e| events.push(e)).unwrap();
            // Apply events: moves first (a tile leaves `from`, lands on `to`), merges set the
            // new exponent, the spawn places its tile.
            let mut next = cells.clone();
            let mut moved_to = Vec::new();
            for e in &events {
                if let twenty48_engine::Event::Moved { from, to } = *e {
                    next[from as usize] = 0;
                    moved_to.push((to, cells[from as usize]));
                }
            }
            for (to, e) in moved_to {
                next[to as usize] = e;
            }
            for e in &events {
                match *e {
                    twenty48_engine::Event::Merged { into, exponent } => next[into as usize] = exponent,
                    twenty48_engine::Event::Spawned { cell, exponent } => next[cell as usize] = exponent,
                    _ => {}
                }
            }
            if outcome.moved {
                let after = game.cells();
                prop_assert_eq!(&next[..], after.exponents());
            } else {
                prop_assert!(events.is_empty());
            }
            cells.clear();
            if game.status().is_finished() {
                break;
            }
        }
    }

    /// `play_all` plays exactly like `play` move by move, and stops where `play` would
    /// refuse.
    #[test]
    fn play_all_equals_playing_one_by_one(
        rules in rules(),
        seed in any::<u64>(),
        moves in prop::collection::vec(direction(), 0..200),
    ) {
        let mut one = Game::new(rules, seed).unwrap();
        let mut expected = Ok(());
        for (index, &direction) in moves.iter().enumerate() {
            match one.play(direction) {
                Ok(o) if o.moved => {}
                Ok(_) => { expected = Err(twenty48_engine::Refusal::NoMove { index, direction }); break; }
                Err(twenty48_engine::PlayError::Finished { status }) => {
                    expected = Err(twenty48_engine::Refusal::Finished { index, status });
                    break;
                }
                Err(e) => panic!("{e}"),
            }
        }
        let mut all = Game::new(rules, seed).unwrap();
        prop_assert_eq!(all.play_all(&moves), expected);
        prop_assert_eq!(all.state_hash(), one.state_hash());
        prop_assert_eq!(all.cells(), one.cells());
        prop_assert_eq!(all.score(), one.score());
        prop_assert_eq!(all.move_count(), one.move_count());
        prop_assert_eq!(all.max_exponent(), one.max_exponent());
        prop_assert_eq!(all.rng_draws(), one.rng_draws());
        prop_assert_eq!(all.status(), one.status());
        prop_assert_eq!(all.reached_win(), one.reached_win());
    }
}

/// A full board without equal neighbours is stuck on the wide board too, whatever its tiles.
#[test]
fn a_full_board_without_equal_neighbours_is_stuck() {
    let mut cells = [1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 17];
    assert!(Wide(cells).is_stuck());
    assert!(Board::from_cells(&cells).unwrap().is_stuck());
    cells[14] = 17;
    assert!(!Wide(cells).is_stuck(), "two 2^17 side by side merge");
    cells[14] = 0;
    assert!(!Wide(cells).is_stuck(), "an empty cell");
}
