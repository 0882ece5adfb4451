//! Each AVR board's shipped image in simavr at a player's pace (issue 36): presses made on a
//! clock whatever the board is doing, every one of them becoming the move the host's game
//! makes of it, or logged as a press that moved nothing, in order; presses made and let go
//! while the store writes and while the screen is drawn kept; the time from a release to the
//! screen drawn, measured and printed, a move's within 100 ms; presses no game takes (a
//! result screen's) counted and logged.
//!
//! Needs the harness (`just avr-sim`) and the AVR toolchain; fails, never skips, without them.
#![cfg(unix)] // the emulator runs on Unix only

mod session;

use session::plan::{presses, Plan};
use session::player::{button, Player};
use twenty48_engine::{Direction, Game};
use twenty48_sim_avr::session::pace::{median_and_worst_ms, presses_logged, round, Pace};
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

/// Presses 70, 100, 170 and 310 ms apart, held 40 ms: each logged as the host's game takes
/// it, in order (at 70 ms a press the board is often still busy with one when the next
/// comes: the queue holds them). 70 ms is about the quickest a debounced button can go: the
/// contact bounces up to 6.4 ms at each edge here, so a press takes up to 53 ms, and the
/// release between two presses of one button must last the debounce's 10 ms, or the two
/// are one press.
fn every_press_is_a_move(image: &Image) {
    let name = image.board.name;
    for every_ms in [70, 100, 170, 310] {
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

/// Two presses pressed and let go while the board is busy all along, never back at its
/// input in between (the harness counts its idle loop's turns): one from the store's write
/// at a game's start, one while its first screen (a whole one, 106 ms and more on the
/// wire) is drawn. Both are kept: each logged as the host's game takes it, in order. A board
/// that only looked at its buttons when idle would have lost both.
fn presses_while_busy_are_kept(image: &Image) {
    let name = image.board.name;
    let mut player = boot(image);
    let (ops, spi, from) = (
        player.sim.eeprom_ops.ops.len(),
        player.sim.spi.len(),
        player.events.len(),
    );
    player.sim.tap(button(Direction::Up), HOLD_MS).unwrap();
    // The game's start is written to the store: the first press.
    run_until(&mut player, |p| p.sim.eeprom_ops.ops.len() > ops);
    let idles = player.sim.stats().unwrap().idles;
    let writing = player.sim.now_ns();
    let first = Direction::Left;
    player.sim.tap(button(first), 15).unwrap();
    // Its first screen is being drawn: the second (another button).
    run_until(&mut player, |p| p.sim.spi.len() > spi);
    let drawing = player.sim.now_ns();
    let second = Direction::Down;
    player.sim.tap(button(second), 15).unwrap();
    assert_eq!(
        player.sim.stats().unwrap().idles,
        idles,
        "{name}: the board waited for input between the presses: they prove nothing"
    );
    player
        .sim
        .settle(twenty48_sim_avr::DEBOUNCE_MS + 1, 5_000_000_000)
        .unwrap();
    player.follow(true);
    let (number, rules, seed) = player.events[from..]
        .iter()
        .find_map(|e| match e {
            twenty48_devicelog::Event::GameStarted {
                number,
                rules,
                seed,
                ..
            } => Some((*number, *rules, *seed)),
            _ => None,
        })
        .expect("a game started");
    let mut game = Game::new(rules, seed).expect("valid rules");
    let expected: Vec<(Direction, bool)> = [first, second]
        .into_iter()
        .map(|d| (d, game.play(d).is_ok_and(|o| o.moved)))
        .collect();
    let logged = presses_logged(&player.events[from..], number);
    println!(
        "{name}: a press from the store's write at {:.1} ms and one from the screen's drawing \
         at {:.1} ms, the board busy all along: {} of 2 logged",
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
    // none then): the queue's 16 fill, the rest are dropped, the pause's end clears the 16,
    // and the board says so: all 24 counted.
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
    // 16 queued then cleared by the pause, 8 more with the queue full: all counted.
    assert!(
        said.is_some_and(|t| t.ends_with("total=24")),
        "{name}: the presses of the result screens are logged as dropped"
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
