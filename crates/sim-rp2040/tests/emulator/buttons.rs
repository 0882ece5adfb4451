//! The buttons on the emulated board: presses through the firmware's real debounce, with
//! contact bounce, while the board is busy.

use std::time::Duration;

use crate::support::player::{started, Played};
use crate::support::{board, garbage_flash, scratch};
use twenty48_engine::Direction;
use twenty48_sim_rp2040::{Button, Options};

/// Found by the emulator (issue 24): a sector erase keeps interrupts off for tens of
/// milliseconds (hundreds on a slow chip), so the buttons' timer interrupt saw nothing of a
/// press made and released meanwhile: the press was lost. Here the erase takes 300 ms (the
/// datasheet's maximum) and four presses fall inside it; the board must make the moves the
/// host's replay of them makes.
#[test]
fn issue_24_presses_during_a_sector_erase_are_not_lost() {
    let flash = scratch("erase.flash");
    garbage_flash(&flash, 1);
    let mut nano = board(Options {
        flash: Some(flash.clone()),
        sector_erase: Duration::from_millis(300),
        ..Options::default()
    });
    let _ = std::fs::remove_file(&flash);
    nano.run(Duration::from_millis(400)).unwrap();
    // Up starts a game: its sector holds garbage and is erased first.
    nano.press(Button::Up, Duration::from_millis(16), Duration::ZERO)
        .unwrap();
    let erase = loop {
        nano.run(Duration::from_millis(1)).unwrap();
        if let Some(op) = nano.seen().ops.iter().find(|o| o.erase) {
            break *op;
        }
        assert!(nano.now() < Duration::from_secs(1), "no sector erase");
    };
    let presses = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Up,
    ];
    for dir in presses {
        nano.press(
            crate::support::player::button(dir),
            Duration::from_millis(20),
            Duration::from_millis(20),
        )
        .unwrap();
    }
    assert!(
        nano.now() < Duration::from_nanos(erase.at_ns) + Duration::from_millis(300),
        "the presses were made during the erase"
    );
    let mut game: Played = started(&mut nano, 0);
    for dir in presses {
        game.record(dir);
    }
    nano.run(Duration::from_millis(300)).unwrap();
    let capture = crate::support::decoded(&nano.seen().usb);
    let board_moves: Vec<Direction> = capture.games[0].moves.iter().map(|m| m.dir).collect();
    assert!(!game.moves.is_empty());
    assert_eq!(board_moves, game.moves, "the host's replay of the presses");
}

/// Issue 36, the pace check the AVR boards have too: 24 presses 100 ms apart, each held
/// 40 ms (the board drawing, storing and logging meanwhile), become exactly the moves the
/// host's replay of them makes, in order.
#[test]
fn issue_36_presses_100_ms_apart_are_every_one_a_move() {
    let mut nano = board(Options::default());
    nano.run(Duration::from_millis(400)).unwrap();
    let mut shown = crate::support::player::BOOT_RULES;
    let mut game =
        crate::support::player::start(&mut nano, &mut shown, twenty48_engine::Preset::Arduino);
    let round = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Down,
    ];
    for &dir in round.iter().cycle().take(24) {
        game.record(dir);
        // About 1 ms of bounce each way: a press every 100 ms.
        nano.press(
            crate::support::player::button(dir),
            Duration::from_millis(40),
            Duration::from_millis(58),
        )
        .unwrap();
    }
    nano.run(Duration::from_millis(300)).unwrap();
    let capture = crate::support::decoded(&nano.seen().usb);
    let board_moves: Vec<Direction> = capture.games[0].moves.iter().map(|m| m.dir).collect();
    println!(
        "nano: a press every 100 ms, held 40 ms: {} of {} moves logged",
        board_moves.len(),
        game.moves.len()
    );
    assert!(game.moves.len() > 12, "a real game");
    assert_eq!(board_moves, game.moves, "the host's replay of the presses");
}
