//! Promises of the engine's API that only whole pinned games checked before mutation testing
//! (issue 15) showed it: legal moves, spawn placement and draws as docs/rules.md states them,
//! the replay loop at its exact four threshold, events on the largest board, wins on the
//! exact move, the rules' edges, and the small accessors and texts.

use twenty48_engine::bitboard::{FastSlide, Packed};
use twenty48_engine::reference::{Board, Event, MAX_CELLS};
use twenty48_engine::spawn::{reduce_cell, reduce_four, Spawn, SpawnRng};
use twenty48_engine::{
    tile_value, Direction, DirectionSet, Engine, FourChance, Game, Opening, OpeningSpawn, Preset,
    Rules, RulesError, Scoring, Status, Win, MAX_OPENING,
};

/// A few rule sets on several board sizes, for games on both engines.
fn rule_sets() -> Vec<Rules> {
    let mut sets = vec![Rules::CLASSIC, Rules::ARDUINO, Rules::CONSOLE];
    for size in [2, 3, 5, 8] {
        sets.push(Rules {
            size,
            opening: Opening::new(&[OpeningSpawn::Two, OpeningSpawn::Normal]).unwrap(),
            four_chance: FourChance::new(1, 3),
            win: None,
            ..Rules::CLASSIC
        });
    }
    sets
}

/// Plays a game, calling `each` on the game before every move, with a direction order that
/// turns every few moves; stops when the game ends or after `limit` moves.
fn walk(mut game: Game, limit: usize, mut each: impl FnMut(&Game, Direction)) -> Game {
    let order = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Up,
    ];
    for step in 0..limit {
        let Some(dir) = (0..4)
            .map(|i| order[(step / 5 + i) % 4])
            .find(|&d| game.can_play(d))
        else {
            break;
        };
        each(&game, dir);
        game.play(dir).unwrap();
    }
    game
}

#[test]
fn legal_moves_are_exactly_the_moves_that_change_the_board() {
    for rules in rule_sets() {
        for engine in [Engine::Fast, Engine::Reference] {
            for seed in 0..6 {
                let game = Game::with_engine(rules, seed, engine).unwrap();
                let end = walk(game, 400, |g, _| {
                    let mut expected = DirectionSet::EMPTY;
                    for d in Direction::ALL {
                        if g.clone().play(d).unwrap().moved {
                            expected = expected.with(d);
                        }
                        assert_eq!(g.can_play(d), expected.contains(d), "{rules} {d}");
                    }
                    assert!(!expected.is_empty(), "a game in play has a move");
                    assert_eq!(g.legal_moves(), expected, "{rules} seed {seed}\n{g:?}");
                });
                if end.status().is_finished() {
                    assert_eq!(end.legal_moves(), DirectionSet::EMPTY);
                    assert!(Direction::ALL.iter().all(|&d| !end.can_play(d)));
                }
            }
        }
    }
}

/// The `k`-th empty cell of `cells`, counted row-major (docs/rules.md, "Spawns").
fn kth_empty_row_major(cells: &[u8], k: u32) -> usize {
    let mut seen = 0;
    for (i, &c) in cells.iter().enumerate() {
        if c == 0 {
            if seen == k {
                return i;
            }
            seen += 1;
        }
    }
    panic!("fewer than {} empty cells", k + 1);
}

/// The spawn the rules dictate on `cells` from the next two words of `rng`: the cell word
/// picks the `k`-th empty cell row-major, the value word a 4 or a 2; an always-two spawn
/// still reads its value word.
fn expected_spawn(rng: &mut SpawnRng, cells: &[u8], rules: &Rules, always_two: bool) -> Spawn {
    let empty = cells.iter().filter(|&&c| c == 0).count() as u32;
    let k = reduce_cell(rng.next_raw(), empty);
    let four = reduce_four(rng.next_raw(), rules.four_chance) && !always_two;
    Spawn {
        cell: kth_empty_row_major(cells, k) as u8,
        exponent: if four { 2 } else { 1 },
    }
}

#[test]
fn spawns_take_the_kth_empty_cell_row_major_and_two_words_each() {
    let mut rules_list = rule_sets();
    rules_list.push(Rules {
        opening: Opening::new(&[OpeningSpawn::Two; MAX_OPENING]).unwrap(),
        four_chance: FourChance::new(1, 1),
        ..Rules::CLASSIC
    });
    for rules in rules_list {
        for engine in [Engine::Fast, Engine::Reference] {
            for seed in 0..4 {
                let game = Game::with_engine(rules, seed, engine).unwrap();
                let mut rng = SpawnRng::new(seed);
                let mut cells = vec![0u8; rules.cells()];
                for (spawn, kind) in game.opening_spawns().zip(rules.opening.spawns()) {
                    let want = expected_spawn(&mut rng, &cells, &rules, *kind == OpeningSpawn::Two);
                    assert_eq!(spawn, want, "{rules} seed {seed} opening");
                    cells[spawn.cell as usize] = spawn.exponent;
                }
                assert_eq!(game.cells().exponents(), &cells[..]);
                assert_eq!(game.rng_draws(), 2 * rules.opening.spawns().len() as u64);
                let mut game = game;
                for step in 0..300 {
                    let Some(dir) = Direction::ALL
                        .into_iter()
                        .cycle()
                        .skip(step % 4)
                        .take(4)
                        .find(|&d| game.can_play(d))
                    else {
                        break;
                    };
                    let mut slid = Board::from_cells(game.cells().exponents()).unwrap();
                    slid.slide(dir);
                    let outcome = game.play(dir).unwrap();
                    let want = expected_spawn(&mut rng, slid.cells(), &rules, false);
                    assert_eq!(outcome.spawn, Some(want), "{rules} seed {seed} move {step}");
                    assert_eq!(game.rng_draws(), rng.draws());
                    if game.status().is_finished() {
                        break;
                    }
                }
            }
        }
    }
}

#[test]
fn the_replay_loop_draws_a_2_at_the_exact_four_threshold() {
    // With a four chance of (r - 1) / (2^32 - 1), a raw value word `r` is exactly the
    // threshold: floor(r * (2^32 - 1) / 2^32) = r - 1 is not below r - 1, so it is a 2, while
    // every word below r is a 4. `play_all` must decide as `play` does.
    for seed in 0..8u64 {
        let mut rng = SpawnRng::new(seed);
        let words: Vec<u32> = (0..4).map(|_| rng.next_raw()).collect();
        // One opening spawn (words 0 and 1); the first move's spawn reads words 2 and 3.
        let r = words[3];
        assert!(r >= 2);
        let chance = FourChance::new(r - 1, u32::MAX);
        assert!(!reduce_four(r, chance));
        assert!(reduce_four(r - 1, chance));
        let rules = Rules {
            opening: Opening::new(&[OpeningSpawn::Normal]).unwrap(),
            four_chance: chance,
            win: None,
            ..Rules::CLASSIC
        };
        let start = Game::new(rules, seed).unwrap();
        let dir = start.legal_moves().iter().next().unwrap();
        let mut one = start.clone();
        let outcome = one.play(dir).unwrap();
        assert_eq!(outcome.spawn.unwrap().exponent, 1, "seed {seed}");
        let mut all = start.clone();
        all.play_all(&[dir]).unwrap();
        assert_eq!(all.cells(), one.cells(), "seed {seed}");
        assert_eq!(all.state_hash(), one.state_hash(), "seed {seed}");
    }
}

#[test]
fn events_fit_on_the_largest_board() {
    // An 8x8 board of 2s only, slid left and right in turn: rows fill with tiles that all
    // move on each slide, so some moves report more events than the board has cells.
    let rules = Rules {
        size: 8,
        four_chance: FourChance::new(0, 1),
        opening: Opening::new(&[OpeningSpawn::Normal; MAX_OPENING]).unwrap(),
        win: None,
        scoring: Scoring::MergeCount,
    };
    let mut most = 0;
    for seed in 0..4 {
        let mut game = Game::new(rules, seed).unwrap();
        for step in 0..600 {
            let order = [
                Direction::Left,
                Direction::Right,
                Direction::Up,
                Direction::Down,
            ];
            let Some(dir) = order
                .into_iter()
                .skip(step % 2)
                .chain([Direction::Left])
                .find(|&d| game.can_play(d))
            else {
                break;
            };
            let before = game.cells();
            let (outcome, events) = game.play_events(dir).unwrap();
            assert!(outcome.moved);
            let slide_events = events.len() - 1;
            most = most.max(slide_events);
            // Every tile that moves is one event, every merge one more.
            let moved = events
                .iter()
                .filter(|e| matches!(e, Event::Moved { .. }))
                .count();
            let merged = events
                .iter()
                .filter(|e| matches!(e, Event::Merged { .. }))
                .count();
            assert_eq!(merged, outcome.merges as usize);
            assert_eq!(moved + merged, slide_events);
            assert!(moved <= before.exponents().iter().filter(|&&e| e != 0).count());
            if game.status().is_finished() {
                break;
            }
        }
    }
    assert!(
        most > MAX_CELLS + 2,
        "the test needs a move with more than {} events (most: {most})",
        MAX_CELLS + 2
    );
}

/// A row of four exponents slid left on both engines, all four ways round: the row as row 0
/// slid left and right (reversed), and as column 0 slid up and down.
fn slide_everywhere(row: [u8; 4]) -> [u8; 4] {
    let mut results = Vec::new();
    for (dir, index) in [
        (Direction::Left, [0, 1, 2, 3]),
        (Direction::Right, [3, 2, 1, 0]),
        (Direction::Up, [0, 4, 8, 12]),
        (Direction::Down, [12, 8, 4, 0]),
    ] {
        let mut cells = [0u8; 16];
        for (k, &i) in index.iter().enumerate() {
            cells[i] = row[k];
        }
        let mut reference = Board::from_cells(&cells).unwrap();
        reference.slide(dir);
        let FastSlide::Done { board, .. } = Packed::from_cells(&cells).unwrap().slide(dir) else {
            panic!("no overflow with small tiles");
        };
        assert_eq!(board.cells(), reference.cells(), "{row:?} {dir}");
        results.push(index.map(|i| reference.get(i)));
    }
    assert!(results.windows(2).all(|w| w[0] == w[1]), "{results:?}");
    results[0]
}

#[test]
fn a_merged_tile_beside_an_equal_tile_stays() {
    // Exponents: 2 2 4 . -> 4 4 . . (the new 4 does not merge with the old one).
    assert_eq!(slide_everywhere([1, 1, 2, 0]), [2, 2, 0, 0]);
    assert_eq!(slide_everywhere([1, 1, 2, 2]), [2, 3, 0, 0]);
    assert_eq!(slide_everywhere([2, 1, 1, 2]), [2, 2, 2, 0]);
    assert_eq!(slide_everywhere([3, 3, 4, 4]), [4, 5, 0, 0]);
}

#[test]
fn a_win_is_reached_on_the_move_that_makes_the_tile() {
    for ends_game in [true, false] {
        let rules = Rules {
            win: Some(Win {
                exponent: 5,
                ends_game,
            }),
            ..Rules::CLASSIC
        };
        for engine in [Engine::Fast, Engine::Reference] {
            for seed in 0..6 {
                let mut game = Game::with_engine(rules, seed, engine).unwrap();
                let mut reported = 0;
                let mut all = game.clone();
                let mut moves = Vec::new();
                while game.status() == Status::Playing && game.max_exponent() < 7 {
                    let dir = game.legal_moves().iter().next().unwrap();
                    let before = game.max_exponent();
                    let outcome = game.play(dir).unwrap();
                    moves.push(dir);
                    let made_now = before < 5 && game.max_exponent() >= 5;
                    assert_eq!(
                        outcome.reached_win,
                        made_now,
                        "seed {seed} move {}",
                        moves.len()
                    );
                    assert_eq!(game.reached_win(), game.max_exponent() >= 5);
                    if made_now {
                        reported += 1;
                        assert_eq!(game.max_exponent(), 5, "the move made 32, no more");
                        let status = if ends_game {
                            Status::Won
                        } else {
                            Status::Playing
                        };
                        assert_eq!(outcome.status, status);
                        assert_eq!(game.status(), status);
                    }
                }
                assert_eq!(reported, 1, "seed {seed}");
                // The replay loop stops (or plays on) on the same move.
                let _ = all.play_all(&moves);
                assert_eq!(all.move_count(), game.move_count());
                assert_eq!(all.status(), game.status());
                assert_eq!(all.reached_win(), game.reached_win());
                assert_eq!(all.state_hash(), game.state_hash());
            }
        }
    }
}

#[test]
fn rules_are_valid_exactly_up_to_their_edges() {
    let with = |f: &dyn Fn(&mut Rules)| {
        let mut r = Rules::CLASSIC;
        f(&mut r);
        r.validate()
    };
    // Sizes 2 and 8 are played; 1 and 9 are not.
    for size in [2, 8] {
        assert_eq!(
            with(&|r| {
                r.size = size;
                r.win = None
            }),
            Ok(())
        );
    }
    for size in [0, 1, 9] {
        assert_eq!(with(&|r| r.size = size), Err(RulesError::Size { size }));
    }
    // Four chances from 0/1 to d/d.
    for (n, d) in [(0, 1), (1, 1), (7, 7), (0, u32::MAX)] {
        assert_eq!(with(&|r| r.four_chance = FourChance::new(n, d)), Ok(()));
    }
    for (n, d) in [(1, 0), (0, 0), (8, 7)] {
        assert_eq!(
            with(&|r| r.four_chance = FourChance::new(n, d)),
            Err(RulesError::FourChance {
                numerator: n,
                denominator: d
            })
        );
    }
    // An opening of exactly MAX_OPENING spawns, and one of exactly as many as the board has
    // cells (2x2: four), are valid; one more is not.
    let eight = Opening::new(&[OpeningSpawn::Normal; MAX_OPENING]).unwrap();
    assert_eq!(eight.spawns().len(), 8);
    assert_eq!(with(&|r| r.opening = eight), Ok(()));
    let small = |spawns: usize| {
        with(&|r| {
            r.size = 2;
            r.win = None;
            r.opening = Opening::new(&vec![OpeningSpawn::Two; spawns]).unwrap();
        })
    };
    assert_eq!(small(4), Ok(()));
    assert_eq!(
        small(5),
        Err(RulesError::Opening {
            spawns: 5,
            cells: 4
        })
    );
    // Win tiles from 4 to the largest reachable one.
    let win = |size: u8, exponent: u8| {
        with(&|r| {
            r.size = size;
            r.win = Some(Win {
                exponent,
                ends_game: true,
            })
        })
    };
    assert_eq!(Rules::CLASSIC.max_exponent(), 17);
    for (size, max) in [(2u8, 5u8), (4, 17), (8, 65)] {
        assert_eq!(win(size, 2), Ok(()));
        assert_eq!(win(size, max), Ok(()));
        assert_eq!(
            win(size, max + 1),
            Err(RulesError::WinTile {
                exponent: max + 1,
                max
            })
        );
        assert_eq!(win(size, 1), Err(RulesError::WinTile { exponent: 1, max }));
    }
    // A game can be made with every edge that validates: eight opening spawns all placed.
    let g = Game::new(
        Rules {
            opening: eight,
            ..Rules::CLASSIC
        },
        3,
    )
    .unwrap();
    assert_eq!(g.opening_spawns().count(), 8);
    assert_eq!(g.cells().exponents().iter().filter(|&&e| e != 0).count(), 8);
}

#[test]
fn texts_and_accessors() {
    // Tiles and spawns.
    assert_eq!(tile_value(0), 0);
    assert_eq!(tile_value(1), 2);
    assert_eq!(tile_value(11), 2048);
    assert_eq!(tile_value(63), 1 << 63);
    assert_eq!(tile_value(200), 1 << 63);
    assert_eq!(
        Spawn {
            cell: 3,
            exponent: 1
        }
        .value(),
        2
    );
    assert_eq!(
        Spawn {
            cell: 3,
            exponent: 2
        }
        .value(),
        4
    );
    // Statuses.
    for (status, name, finished) in [
        (Status::Playing, "playing", false),
        (Status::Won, "won", true),
        (Status::Over, "over", true),
    ] {
        assert_eq!(status.name(), name);
        assert_eq!(status.to_string(), name);
        assert_eq!(status.is_finished(), finished);
    }
    // Cells of a 3x3 game: get, value and rows agree with the row-major exponents.
    let rules = Rules {
        size: 3,
        win: None,
        ..Rules::CLASSIC
    };
    let game = walk(Game::new(rules, 5).unwrap(), 12, |_, _| {});
    assert_eq!((game.seed(), game.engine()), (5, Engine::Fast));
    // The largest tile is the value of the largest exponent.
    assert!(game.max_exponent() >= 2);
    assert_eq!(game.max_tile(), tile_value(game.max_exponent()));
    // The game's debug text names what identifies it and where it stands.
    let debug = format!("{game:?}");
    assert!(
        debug.starts_with("Game { rules: Rules { size: 3,"),
        "{debug}"
    );
    for field in [
        "seed: 5, engine: Fast".to_string(),
        format!("score: {}, moves: {}", game.score(), game.move_count()),
        format!("status: {:?}, cells: {:?} }}", game.status(), game.cells()),
    ] {
        assert!(debug.contains(&field), "{field} in {debug}");
    }
    let other = Game::with_engine(rules, 1 << 40, Engine::Reference).unwrap();
    assert_eq!((other.seed(), other.engine()), (1 << 40, Engine::Reference));
    let cells = game.cells();
    let e = cells.exponents().to_vec();
    assert_eq!(cells.size(), 3);
    assert_eq!(e.len(), 9);
    assert!(e.iter().filter(|&&x| x != 0).count() >= 3);
    let rows: Vec<&[u8]> = cells.rows().collect();
    assert_eq!(rows, [&e[0..3], &e[3..6], &e[6..9]]);
    for r in 0..3 {
        for c in 0..3 {
            assert_eq!(cells.get(r, c), e[r * 3 + c]);
            assert_eq!(cells.value(r, c), tile_value(e[r * 3 + c]));
        }
    }
    let text = cells.to_string();
    assert_eq!(text.lines().count(), 3);
    for (line, row) in text.lines().zip(&rows) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let want: Vec<String> = row
            .iter()
            .map(|&x| match x {
                0 => ".".to_string(),
                x => tile_value(x).to_string(),
            })
            .collect();
        assert_eq!(words, want);
        assert_eq!(line.len(), 3 * 6 + 2);
    }
    assert_eq!(format!("{cells:?}"), text);
    // The reference board's accessors read and write the cells they name.
    let mut board = Board::from_cells(&e).unwrap();
    assert_eq!(board.size(), 3);
    for (i, &x) in e.iter().enumerate() {
        assert_eq!(board.get(i), x);
    }
    assert_eq!(
        board.empty_count() as usize,
        e.iter().filter(|&&x| x == 0).count()
    );
    assert_eq!(board.max_exponent(), *e.iter().max().unwrap());
    // Its debug text: the size, then the exponents row by row.
    let mut debug = String::from("Board 3x3 (exponents):\n");
    for row in e.chunks(3) {
        for x in row {
            debug.push_str(&format!("{x:3}"));
        }
        debug.push('\n');
    }
    assert_eq!(format!("{board:?}"), debug);
    board.set(4, 9);
    assert_eq!(board.get(4), 9);
    assert_eq!(board.max_exponent(), 9);
    // Generators are equal exactly when they will give the same words.
    let mut a = SpawnRng::new(7);
    let mut b = SpawnRng::new(7);
    assert_eq!(a, b);
    assert_ne!(a, SpawnRng::new(8));
    a.next_raw();
    assert_ne!(a, b);
    b.next_raw();
    assert_eq!(a, b);
    assert_eq!(format!("{a:?}"), "SpawnRng { draws: 1, .. }");
    // Same block state, different position in it.
    a.next_raw();
    assert_ne!(a, b);
    assert_ne!(b, a);
    b.next_raw();
    assert_eq!(a, b);
    for _ in 0..70 {
        a.next_raw();
    }
    assert_eq!(a.draws(), 72);
    assert_ne!(a, b);
}

#[test]
fn rules_texts() {
    // The one-line summaries the CLI prints, one per kind of field value.
    assert_eq!(
        Rules::CLASSIC.to_string(),
        "4x4, four 1/10, opening normal,normal, win 2048 (play on), score merged values"
    );
    assert_eq!(
        Rules::ARDUINO.to_string(),
        "4x4, four 3/10, opening normal,two, win 2048 (ends game), score merged values"
    );
    let rules = Rules {
        size: 3,
        opening: Opening::new(&[OpeningSpawn::Two]).unwrap(),
        win: None,
        scoring: Scoring::MergeCount,
        ..Rules::CONSOLE
    };
    assert_eq!(
        rules.to_string(),
        "3x3, four 1/10, opening two, no win, score merge count"
    );
    assert_eq!(FourChance::new(3, 7).to_string(), "3/7");
    assert_eq!(
        format!("{:?}", Rules::CONSOLE.opening),
        "[Two, Normal]",
        "an opening debugs as its list of spawns"
    );
    for preset in Preset::ALL {
        assert_eq!(preset.to_string(), preset.name());
        assert_eq!(Preset::from_name(preset.name()), Some(preset));
    }
    assert_eq!(Preset::from_name("classic "), None);
    assert_eq!(Rules::default(), Rules::CLASSIC);
    assert_eq!(Rules::CONSOLE.preset(), Some(Preset::Console));
    assert_eq!(rules.preset(), None);
    // Errors say what is wrong and what is allowed.
    for (error, text) in [
        (
            RulesError::Size { size: 9 },
            "board size 9 is not supported (sizes 2 to 8 are)",
        ),
        (
            RulesError::FourChance {
                numerator: 3,
                denominator: 2,
            },
            "four chance 3/2 is not a fraction between 0 and 1",
        ),
        (
            RulesError::Opening {
                spawns: 5,
                cells: 4,
            },
            "an opening of 5 spawns does not fit (1 to 8 spawns, at most 4 on this board)",
        ),
        (
            RulesError::WinTile {
                exponent: 1,
                max: 17,
            },
            "winning tile 2^1 cannot be reached (exponents 2 to 17 can on this board)",
        ),
    ] {
        assert_eq!(error.to_string(), text);
    }
}
