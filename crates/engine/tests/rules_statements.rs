//! One test per rule statement in shared/seeds.md ("Common ground"), each preset's opening,
//! and win / game-over detection, on both engines.

use twenty48_engine::reference::Board;
use twenty48_engine::spawn::{reduce_cell, reduce_four};
use twenty48_engine::{
    Direction, Engine, FourChance, Game, Opening, OpeningSpawn, Preset, Rules, Scoring, Status, Win,
};

fn slide_row(row: [u8; 4], dir: Direction) -> [u8; 4] {
    let mut cells = [0u8; 16];
    cells[..4].copy_from_slice(&row);
    let mut b = Board::from_cells(&cells).unwrap();
    b.slide(dir);
    b.cells()[..4].try_into().unwrap()
}

/// Exponents: 1 = 2, 2 = 4, 3 = 8.
#[test]
fn a_merged_tile_does_not_merge_again() {
    assert_eq!(slide_row([1, 1, 1, 1], Direction::Left), [2, 2, 0, 0]);
    assert_eq!(slide_row([2, 0, 1, 1], Direction::Left), [2, 2, 0, 0]);
}

#[test]
fn the_pair_nearest_the_wall_merges_first() {
    assert_eq!(slide_row([1, 1, 1, 0], Direction::Left), [2, 1, 0, 0]);
}

#[test]
fn tiles_slide_as_far_as_they_go() {
    assert_eq!(slide_row([0, 0, 0, 3], Direction::Left), [3, 0, 0, 0]);
    assert_eq!(slide_row([3, 0, 1, 0], Direction::Right), [0, 0, 3, 1]);
}

#[test]
fn a_move_that_changes_nothing_is_no_move() {
    for engine in [Engine::Fast, Engine::Reference] {
        let mut game = Game::with_engine(Rules::CLASSIC, 1, engine).unwrap();
        // Find a direction that does not move the opening board, if any; otherwise slide
        // until one exists.
        let mut steps = 0;
        loop {
            let blocked = Direction::ALL.into_iter().find(|d| !game.can_play(*d));
            if let Some(dir) = blocked {
                let hash = game.state_hash();
                let cells = game.cells();
                let draws = game.rng_draws();
                let outcome = game.play(dir).unwrap();
                assert!(!outcome.moved);
                assert_eq!(outcome.spawn, None);
                assert_eq!(outcome.gained, 0);
                assert_eq!(game.state_hash(), hash);
                assert_eq!(game.cells(), cells);
                assert_eq!(game.rng_draws(), draws, "no random number drawn");
                break;
            }
            game.play(Direction::ALL[steps % 4]).unwrap();
            steps += 1;
            assert!(steps < 100);
        }
    }
}

#[test]
fn each_real_move_spawns_one_tile_on_an_empty_cell() {
    let mut game = Game::new(Rules::CLASSIC, 99).unwrap();
    for i in 0..200 {
        let dir = Direction::ALL[i % 4];
        let tiles_before = game.cells().exponents().iter().filter(|&&e| e != 0).count();
        let mut after_slide = game.clone();
        let Ok(outcome) = game.play(dir) else { break };
        if outcome.moved {
            let spawn = outcome.spawn.unwrap();
            let tiles_after = game.cells().exponents().iter().filter(|&&e| e != 0).count();
            assert_eq!(tiles_after, tiles_before - outcome.merges as usize + 1);
            assert!(spawn.exponent == 1 || spawn.exponent == 2);
            // The spawn cell was empty after the slide: slide a copy on the reference engine.
            let mut board = Board::from_cells(after_slide.cells().exponents()).unwrap();
            board.slide(dir);
            assert_eq!(board.get(spawn.cell as usize), 0);
            after_slide = game.clone();
            let _ = after_slide;
        }
    }
}

#[test]
fn spawn_cells_are_uniform_and_fours_follow_the_fraction() {
    // The reductions themselves: every cell index gets an equal share of raw values.
    for n in 1..=64u32 {
        let mut counts = [0u64; 64];
        for i in 0..(1u32 << 16) {
            counts[reduce_cell(i << 16, n) as usize] += 1;
        }
        let lo = counts[..n as usize].iter().min().unwrap();
        let hi = counts[..n as usize].iter().max().unwrap();
        assert!(hi - lo <= 1, "n = {n}: {lo}..{hi}");
    }
    // Over an even grid of raw values, the share of fours is the fraction, to one grid step.
    for (n, d) in [(3u32, 10u32), (1, 10), (1, 2), (0, 1), (1, 1), (2, 3)] {
        let fours = (0..(1u32 << 16))
            .filter(|i| reduce_four(i << 16, FourChance::new(n, d)))
            .count() as i64;
        let exact = (n as i64 * 65536) / d as i64;
        assert!((fours - exact).abs() <= 1, "{n}/{d}: {fours} of 65536");
    }
}

#[test]
fn game_over_when_full_and_no_equal_neighbours() {
    for engine in [Engine::Fast, Engine::Reference] {
        for seed in 0..20 {
            let mut game = Game::with_engine(Rules::CONSOLE, seed, engine).unwrap();
            let mut i = 0;
            while game.status() == Status::Playing {
                // Prefer left/up so the game clogs quickly.
                let dir = [
                    Direction::Left,
                    Direction::Up,
                    Direction::Right,
                    Direction::Down,
                ]
                .into_iter()
                .find(|d| game.can_play(*d))
                .unwrap();
                game.play(dir).unwrap();
                i += 1;
                assert!(i < 5000);
            }
            assert_eq!(game.status(), Status::Over);
            assert!(game.legal_moves().is_empty());
            let cells = game.cells();
            assert!(cells.exponents().iter().all(|&e| e != 0), "board is full");
            let b = Board::from_cells(cells.exponents()).unwrap();
            assert!(b.is_stuck());
            assert_eq!(
                game.play(Direction::Left),
                Err(twenty48_engine::PlayError::Finished {
                    status: Status::Over
                })
            );
        }
    }
}

#[test]
fn openings_follow_each_preset() {
    for seed in 0..200 {
        // classic: two normal spawns.
        let g = Game::new(Rules::CLASSIC, seed).unwrap();
        let o: Vec<_> = g.opening_spawns().collect();
        assert_eq!(o.len(), 2);
        assert_ne!(o[0].cell, o[1].cell);
        assert_eq!(g.rng_draws(), 4, "two draws per spawn");
        // arduino: a normal spawn, then always a 2.
        let g = Game::new(Rules::ARDUINO, seed).unwrap();
        let o: Vec<_> = g.opening_spawns().collect();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].exponent, 1);
        // console: a 2, then a normal spawn.
        let g = Game::new(Rules::CONSOLE, seed).unwrap();
        let o: Vec<_> = g.opening_spawns().collect();
        assert_eq!(o[0].exponent, 1);
        assert_eq!(g.cells().exponents().iter().filter(|&&e| e != 0).count(), 2);
    }
    // Some openings under classic and arduino do start with a 4.
    assert!((0..200).any(|s| Game::new(Rules::CLASSIC, s)
        .unwrap()
        .opening_spawns()
        .any(|sp| sp.exponent == 2)));
    assert!((0..200).any(|s| Game::new(Rules::ARDUINO, s)
        .unwrap()
        .opening_spawns()
        .next()
        .unwrap()
        .exponent
        == 2));
}

/// Plays a game with a fixed preference order until `stop` holds or the game ends.
fn play_until(game: &mut Game, stop: impl Fn(&Game) -> bool) {
    let order = [
        Direction::Down,
        Direction::Left,
        Direction::Right,
        Direction::Up,
    ];
    while game.status() == Status::Playing && !stop(game) {
        let dir = order.into_iter().find(|d| game.can_play(*d)).unwrap();
        game.play(dir).unwrap();
    }
}

#[test]
fn a_win_that_ends_the_game_and_one_that_plays_on() {
    // A small win tile (16) so simple play reaches it.
    let mut stop = Rules::ARDUINO;
    stop.win = Some(Win {
        exponent: 4,
        ends_game: true,
    });
    let mut on = Rules::CLASSIC;
    on.win = Some(Win {
        exponent: 4,
        ends_game: false,
    });
    for engine in [Engine::Fast, Engine::Reference] {
        let mut g = Game::with_engine(stop, 5, engine).unwrap();
        play_until(&mut g, |_| false);
        assert_eq!(g.status(), Status::Won);
        assert!(g.max_exponent() >= 4);
        assert!(g.reached_win());
        assert!(matches!(
            g.play(Direction::Up),
            Err(twenty48_engine::PlayError::Finished {
                status: Status::Won
            })
        ));

        let mut g = Game::with_engine(on, 5, engine).unwrap();
        let mut reported = 0;
        while g.status() == Status::Playing && g.max_exponent() < 6 {
            let dir = Direction::ALL.into_iter().find(|d| g.can_play(*d)).unwrap();
            if g.play(dir).unwrap().reached_win {
                reported += 1;
            }
        }
        assert_eq!(reported, 1, "the win is reported once, play goes on");
        assert!(g.reached_win());
    }
}

#[test]
fn scoring_rules() {
    let mut count = Rules::CLASSIC;
    count.scoring = Scoring::MergeCount;
    let mut values = Game::new(Rules::CLASSIC, 3).unwrap();
    let mut merges = Game::new(count, 3).unwrap();
    let (mut total_merges, mut total_values) = (0u64, 0u64);
    for i in 0..300 {
        let dir = Direction::ALL[(i * 7 / 3) % 4];
        if let (Ok(a), Ok(b)) = (values.play(dir), merges.play(dir)) {
            assert_eq!(a.merges, b.merges);
            assert_eq!(b.gained, b.merges as u64);
            total_merges += b.gained;
            total_values += a.gained;
        }
    }
    assert_eq!(merges.score(), total_merges);
    assert_eq!(values.score(), total_values);
    assert!(values.score() > merges.score());
}

#[test]
fn custom_rules_express_the_other_programs() {
    // Program 3: 2 or 4 with equal chance.
    let mut half = Rules::CLASSIC;
    half.four_chance = FourChance::new(1, 2);
    half.win = None;
    half.validate().unwrap();
    // Program 5: merge-count scoring, other sizes.
    for size in 2..=8 {
        let mut r = Rules::CLASSIC;
        r.size = size;
        r.scoring = Scoring::MergeCount;
        r.opening = Opening::new(&[OpeningSpawn::Normal]).unwrap();
        r.win = None;
        let mut g = Game::new(r, 11).unwrap();
        assert_eq!(g.cells().size(), size);
        play_until(&mut g, |g| g.move_count() >= 50);
    }
    assert_eq!(
        Preset::from_name("arduino").unwrap().rules(),
        Rules::ARDUINO
    );
}

#[test]
fn an_opening_that_places_the_winning_tile_reaches_the_win_at_move_0() {
    let mut rules = Rules::CLASSIC;
    rules.four_chance = FourChance::new(1, 1);
    rules.opening = Opening::new(&[OpeningSpawn::Normal]).unwrap();
    rules.win = Some(Win {
        exponent: 2,
        ends_game: true,
    });
    for engine in [Engine::Fast, Engine::Reference] {
        let g = Game::with_engine(rules, 1, engine).unwrap();
        assert_eq!(g.status(), Status::Won);
        assert!(g.reached_win());
        assert_eq!(g.move_count(), 0);
    }
    rules.win = Some(Win {
        exponent: 2,
        ends_game: false,
    });
    let g = Game::new(rules, 1).unwrap();
    assert_eq!(g.status(), Status::Playing);
    assert!(g.reached_win());
}
