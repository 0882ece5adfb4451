//! Each AVR board's shipped image in simavr at a player's pace (issue 36): presses made on a
//! clock whatever the board is doing, every one of them becoming the move the host's game
//! makes of it, or logged as a press that moved nothing, in order; presses made while the store writes and while the screen is drawn
//! kept; and the time from a release to the screen drawn, measured and printed, a move's
//! within 100 ms.
//!
//! Needs the harness (`just avr-sim`) and the AVR toolchain; fails, never skips, without them.

mod session;

use session::plan::{presses, Plan};
use session::player::{button, Player};
use twenty48_engine::{Direction, Game};
use twenty48_sim_avr::session::pace::{median_and_worst_ms, round, Pace};
use twenty48_sim_avr::{board, Board, Image, Options};

/// Presses a game makes at each pace.
const PRESSES: usize = 24;

/// How long a press is held at a pace (the shortest).
const HOLD_MS: u64 = 40;

/// A move must be on the screen this soon after its release.
const MOVE_DRAWN_NS: u64 = 100_000_000;

fn boot(image: &Image) -> Player {
    Player::boot(
        image,
        &Options {
            noise: 36,
            bounce: 36,
            ..Options::default()
        },
    )
}

/// Presses 100, 170 and 310 ms apart, held 40 ms: the moves the host makes of them, all of
/// them, in order.
fn every_press_is_a_move(image: &Image) {
    let name = image.board.name;
    for every_ms in [100, 170, 310] {
        let mut player = boot(image);
        let pace = Pace {
            every_ms,
            hold_ms: HOLD_MS,
        };
        // To game over, with a press that moves nothing after every third move.
        let plan = Plan::ToGameOver { noop_every: 3 };
        let paced = player.paced(Direction::Up, plan, PRESSES, pace);
        println!(
            "{name}: a press every {every_ms} ms, held {HOLD_MS} ms: {} of {} moves logged, \
             {} of {} presses that moved nothing",
            paced.logged.len(),
            paced.expected.len(),
            paced.logged_presses.iter().filter(|p| !p.1).count(),
            paced.expected_presses.iter().filter(|p| !p.1).count()
        );
        assert!(paced.expected.len() > PRESSES / 2, "{name}: a real game");
        assert_eq!(
            paced.logged, paced.expected,
            "{name}: the moves of presses {every_ms} ms apart"
        );
        // Every press shows in the log, in order: a move, or a press that moved nothing.
        assert_eq!(paced.logged_presses, paced.expected_presses, "{name}");
        assert!(
            paced.expected_presses.iter().any(|p| !p.1),
            "{name}: a press moved nothing"
        );
        player.stack_kept();
        assert!(
            player.sim.violations.is_empty(),
            "{:?}",
            player.sim.violations
        );
    }
}

/// Runs until `happened` says so of the board (in steps of 0.2 ms, at most 2 s).
fn run_until(player: &mut Player, happened: impl Fn(&Player) -> bool) {
    let name = player.sim.image().board.name;
    let until = player.sim.now_ns() + 2_000_000_000;
    while !happened(player) {
        assert!(player.sim.now_ns() < until, "{name}: it never happened");
        player
            .sim
            .run_for(200_000)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// A press that starts as the store writes a move, and one that starts as the screen is
/// being drawn: both kept, both moves.
fn presses_while_busy_are_kept(image: &Image) {
    let name = image.board.name;
    let mut player = boot(image);
    let (number, rules, seed) = player.start(Direction::Up).expect("a game starts");
    // Three presses that each move the board, each of another button than the one before
    // (a button let go for less than the debounce was never let go), chosen on the host.
    let mut game = Game::new(rules, seed).expect("valid rules");
    let mut expected: Vec<Direction> = Vec::new();
    for _ in 0..3 {
        let d = [
            Direction::Left,
            Direction::Down,
            Direction::Right,
            Direction::Up,
        ]
        .into_iter()
        .find(|&d| expected.last() != Some(&d) && game.can_play(d))
        .expect("a new game can move");
        assert!(game.play(d).is_ok_and(|o| o.moved));
        expected.push(d);
    }
    let dirs = &expected;
    let ops = player.sim.eeprom_ops.ops.len();
    player.sim.tap(button(dirs[0]), HOLD_MS).unwrap();
    // The first move's store write begins: the second press starts.
    run_until(&mut player, |p| p.sim.eeprom_ops.ops.len() > ops);
    let writing = player.sim.now_ns();
    player.sim.tap(button(dirs[1]), HOLD_MS).unwrap();
    // The screen is being drawn (the second move's): the third press starts.
    let spi_before = player.sim.spi.len();
    run_until(&mut player, |p| p.sim.spi.len() > spi_before);
    let drawing = player.sim.now_ns();
    player.sim.tap(button(dirs[2]), HOLD_MS).unwrap();
    player
        .sim
        .settle(twenty48_sim_avr::DEBOUNCE_MS + 1, 5_000_000_000)
        .unwrap();
    player.follow(true);
    let logged: Vec<Direction> = player
        .events
        .iter()
        .filter_map(|e| match e {
            twenty48_devicelog::Event::Moved { game, mv } if *game == number => Some(mv.dir),
            _ => None,
        })
        .collect();
    println!(
        "{name}: a press from the store write at {:.1} ms and one from the redraw at {:.1} ms: \
         {} of 3 moves logged",
        writing as f64 / 1e6,
        drawing as f64 / 1e6,
        logged.len()
    );
    assert_eq!(
        logged, expected,
        "{name}: presses during a write and a redraw"
    );
}

/// The time from a release to the end of the screen's SPI traffic, for 16 moves (each at
/// most 100 ms) and for a game's end (its result screen), printed.
fn screens_follow_releases(image: &Image) {
    let name = image.board.name;
    let mut player = boot(image);
    let (_, rules, seed) = player.start(Direction::Up).expect("a game starts");
    let mut moves = Vec::new();
    let mut game = Game::new(rules, seed).expect("valid rules");
    for d in round(16) {
        let moved = game.play(d).is_ok_and(|o| o.moved);
        let drawn = player.timed_press(d, 1_000_000_000);
        if moved {
            let drawn = drawn.unwrap_or_else(|| panic!("{name}: a move drew nothing"));
            moves.push(drawn.drawn_ns);
        }
    }
    let slow: Vec<u64> = moves
        .iter()
        .copied()
        .filter(|&t| t > MOVE_DRAWN_NS)
        .collect();
    let (median, worst) = median_and_worst_ms(&mut moves);
    println!(
        "{name}: release to screen drawn, {} moves: median {median:.1} ms, worst {worst:.1} ms",
        moves.len()
    );
    assert!(slow.is_empty(), "{name}: moves drawn after {slow:?} ns");
    // A game to its end, on a fresh board: the last press brings the result screen.
    let mut player = boot(image);
    let (_, rules, seed) = player.start(Direction::Up).expect("a game starts");
    let plan = presses(Plan::ToGameOver { noop_every: 1000 }, rules, seed);
    let (last, before) = plan.split_last().expect("a game has moves");
    for &(d, _) in before {
        assert!(player.press(d), "{name}: the power held");
    }
    // The last press, then 24 more while the result screen stays up (the application takes
    // none then): the queue's 16 fill, the rest are dropped, and the board says so.
    let seen = player.sim.spi.len();
    let from = player.events.len();
    let release = player.sim.tap(button(last.0), 25).unwrap();
    player.sim.run_for(30_000_000).unwrap();
    for d in round(24) {
        player.sim.tap(button(d), 30).unwrap();
        player.sim.run_for(30_000_000).unwrap();
    }
    player
        .sim
        .settle(twenty48_sim_avr::DEBOUNCE_MS + 1, 10_000_000_000)
        .unwrap();
    player.follow(true);
    // The result screen is drawn within 1.5 s; the final score's comes 2 s after it.
    let drawn = player.sim.spi[seen..]
        .iter()
        .map(|b| b.at_ns)
        .filter(|&t| t > release && t < release + 1_500_000_000)
        .max()
        .unwrap_or_else(|| panic!("{name}: the game's end drew nothing"));
    println!(
        "{name}: release to the result screen drawn at a game's end: {:.1} ms",
        (drawn - release) as f64 / 1e6
    );
    let said = player.events[from..].iter().find_map(|e| match e {
        twenty48_devicelog::Event::Message(m) if m.text.contains("presses dropped") => {
            Some(m.text.clone())
        }
        _ => None,
    });
    println!("{name}: 24 presses during the result screens: {said:?}");
    assert!(
        said.is_some_and(|t| t.ends_with("total=8")),
        "{name}: an overflow of the buttons' queue is logged"
    );
}

fn at_a_players_pace(board: &Board) {
    let image = Image::shipped(board).unwrap_or_else(|e| panic!("{e}"));
    every_press_is_a_move(&image);
    presses_while_busy_are_kept(&image);
    screens_follow_releases(&image);
}

#[test]
fn mega2560_keeps_every_press_and_draws_a_move_within_100_ms() {
    at_a_players_pace(&board::MEGA2560);
}

#[test]
fn mega1280_keeps_every_press_and_draws_a_move_within_100_ms() {
    at_a_players_pace(&board::MEGA1280);
}

#[test]
fn uno_keeps_every_press_and_draws_a_move_within_100_ms() {
    at_a_players_pace(&board::UNO);
}
