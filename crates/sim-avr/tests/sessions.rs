//! Each AVR board's shipped image (the `.hex` `just firmware` writes) in simavr on its
//! real-chip path, played by its buttons: the QEMU sessions' kinds of games (to game over,
//! with presses that move nothing; interrupted by a power cut) and the host's requests
//! (hello, pull all, pull, ack, bad requests), across two boots on the same EEPROM. Every
//! game, live and pulled from the store, equal to the host's replay; the screens of whole
//! games equal the panel crate's host rendering; no hardware rule broken; the stack never
//! reaches the static data.
//!
//! Needs the harness (`just avr-sim`) and the AVR toolchain; fails, never skips, without them.
#![cfg(unix)] // the emulator runs on Unix only

mod session;

use session::plan::Plan;
use session::player::{Played, Player};
use session::screens;
use twenty48_devicelog::{check, decode_capture, DeviceFact, DeviceGame, Event, Problem};
use twenty48_deviceproto::ErrorCode;
use twenty48_engine::{Direction, Status};
use twenty48_sim_avr::{board, Board, Image, Options, DEBOUNCE_MS};

/// The device's games in a capture, by number (the last copy of each).
fn games_in(image: &Image, capture: &[u8]) -> Vec<DeviceGame> {
    let decoded = decode_capture(&image.elf_bytes, capture).expect("the ELF has a defmt table");
    assert!(decoded.damage.is_empty(), "{:?}", decoded.damage);
    decoded.games
}

/// The device's game `played`, found in `games`: its start and every move the host's, every
/// move verified by the host's replay.
fn same_game<'a>(games: &'a [DeviceGame], played: &Played) -> &'a DeviceGame {
    let game = games
        .iter()
        .rev()
        .find(|g| g.number == played.number)
        .unwrap_or_else(|| panic!("game {} is not in the log", played.number));
    assert_eq!((game.rules, game.seed), (played.rules, played.seed));
    let dirs: Vec<Direction> = game.moves.iter().map(|m| m.dir).collect();
    assert_eq!(dirs, played.moves, "game {}'s moves", played.number);
    let result = check(game);
    // A game still being played when the log stops is a truncated game, every move of it
    // verified.
    let open = game.end.is_none()
        && matches!(result.problem, Some(Problem::Truncated { .. }))
        && result.verified_moves as usize == played.moves.len();
    assert!(
        result.is_verified() || open,
        "game {}: {:?}",
        played.number,
        result.problem
    );
    game
}

/// A game played to its end, as it ended: the host's final score, hash and status.
fn ended(game: &DeviceGame, played: &Played) {
    let end = game.end.expect("an end frame");
    assert!(!end.partial);
    assert_eq!(end.status, played.game.status());
    assert_eq!(end.status, Status::Over);
    assert_eq!(
        (end.score, end.hash),
        (Some(played.game.score()), Some(played.game.state_hash()))
    );
}

/// What every run must keep: no hardware rule broken, no floating button, no byte a plain
/// link would have lost, the stack off the static data. Returns the stack's figures.
fn kept_the_rules(player: &mut Player) -> twenty48_sim_avr::Stack {
    let name = player.sim.image().board.name;
    let stats = player.sim.stats().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        player.sim.violations.is_empty(),
        "{name}: {:?}",
        player.sim.violations
    );
    assert_eq!(
        stats.floating_reads, 0,
        "{name}: a button read without its pull-up"
    );
    assert_eq!(
        stats.held_bytes, 0,
        "{name}: the USART's receive buffer overflowed"
    );
    player.stack_kept()
}

/// The screens of each game played to its end, against the host's rendering; the count.
fn screens_of(player: &Player, games: &[&Played]) -> usize {
    let board = player.sim.image().board;
    if !board.lcd {
        assert!(player.sim.spi.is_empty(), "{}: the LCD is off", board.name);
        return 0;
    }
    games
        .iter()
        .map(|g| {
            screens::shown(&player.panel.screens, &screens::of_game(g))
                .unwrap_or_else(|e| panic!("{} game {}: {e}", board.name, g.number))
        })
        .sum()
}

fn session(board: &Board) {
    let image = Image::shipped(board).unwrap_or_else(|e| panic!("{e}"));
    let options = Options {
        noise: 0x5eed ^ board.eeprom as u64,
        bounce: 7,
        ..Options::default()
    };
    // First boot, a new chip.
    let mut first = Player::boot(&image, &options);
    let (dev, next) = first.hello();
    assert_eq!(next, 1, "a new chip's first game is 1");
    let unknown = first.request(
        "{bogus}",
        |e| matches!(e, Event::Device(DeviceFact::Error { .. })),
        2_000_000_000,
    );
    assert!(unknown
        .iter()
        .any(|e| matches!(e, Event::Device(DeviceFact::Error { code, .. }) if *code == ErrorCode::Unknown as u8)));
    // A touch shorter than the debounce starts nothing.
    let glitch = first.touch(Direction::Up, DEBOUNCE_MS / 2);
    assert!(
        !glitch
            .iter()
            .any(|e| matches!(e, Event::GameStarted { .. })),
        "{}: a {} ms touch started a game",
        board.name,
        DEBOUNCE_MS / 2
    );
    let g1 = first
        .game(Direction::Up, Plan::ToGameOver { noop_every: 5 })
        .expect("game 1 starts");
    let g2 = first
        .game(Direction::Left, Plan::ToGameOver { noop_every: 3 })
        .expect("game 2 starts");
    let g3 = first
        .game(
            Direction::Right,
            Plan::Cycle {
                letters: "LDRU",
                moves: 6,
            },
        )
        .expect("game 3 starts");
    assert_eq!((g1.number, g2.number, g3.number), (1, 2, 3));
    let live = games_in(&image, &first.sim.uart);
    ended(same_game(&live, &g1), &g1);
    ended(same_game(&live, &g2), &g2);
    assert!(
        same_game(&live, &g3).end.is_none(),
        "game 3 is still being played"
    );
    let shown = screens_of(&first, &[&g1, &g2]);
    let stack1 = kept_the_rules(&mut first);
    let presses = g1.presses + g2.presses + g3.presses + 3;
    // The power goes off during game 3; the EEPROM is all that stays.
    let emulated = first.sim.now_ns();
    let eeprom = first.off();

    let mut second = Player::boot(
        &image,
        &Options {
            eeprom: Some(eeprom),
            noise: options.noise + 1,
            ..options.clone()
        },
    );
    let (dev2, next2) = second.hello();
    assert_eq!(dev2, dev, "the device id is kept");
    assert_eq!(next2, 4, "game numbers go on after a power cut");
    let pulled = {
        second.pull_all();
        let stored = games_in(&image, &second.sim.uart);
        ended(same_game(&stored, &g1), &g1);
        ended(same_game(&stored, &g2), &g2);
        let cut = same_game(&stored, &g3);
        assert!(cut.is_partial(), "game 3 comes as interrupted");
        // Acknowledged games leave the plain pull; a wrong check or an unknown game is
        // refused.
        let g1_check = same_game(&stored, &g1)
            .end
            .and_then(|e| e.check)
            .expect("a check");
        for (request, refusal) in [
            (
                format!("{{ack 1 {}}}", g1_check ^ 1),
                ErrorCode::CheckMismatch,
            ),
            ("{ack 99 0}".to_string(), ErrorCode::NoGame),
        ] {
            let reply = second.request(
                &request,
                |e| matches!(e, Event::Device(DeviceFact::Error { .. })),
                2_000_000_000,
            );
            assert!(
                reply.iter().any(|e| matches!(e,
                    Event::Device(DeviceFact::Error { code, .. }) if *code == refusal as u8)),
                "{}: {request} got {reply:?}",
                board.name
            );
        }
        second.request(
            &format!("{{ack 1 {g1_check}}}"),
            |e| matches!(e, Event::Device(DeviceFact::Acked { game: 1, .. })),
            2_000_000_000,
        );
        let from = second.sim.uart.len();
        second.request(
            "{pull}",
            |e| matches!(e, Event::Device(DeviceFact::PullDone { .. })),
            30_000_000_000,
        );
        let again: Vec<u32> = games_in(&image, &second.sim.uart[from..])
            .iter()
            .map(|g| g.number)
            .collect();
        assert_eq!(again, vec![2, 3], "a pull after the ack");
        3
    };
    let g4 = second
        .game(
            Direction::Down,
            Plan::Cycle {
                letters: "URDL",
                moves: 3,
            },
        )
        .expect("game 4 starts");
    assert_eq!(g4.number, 4);
    same_game(&games_in(&image, &second.sim.uart), &g4);
    let stack2 = kept_the_rules(&mut second);
    let stack = if stack1.peak >= stack2.peak {
        stack1
    } else {
        stack2
    };
    println!(
        "{} in simavr: 4 games by {} presses (2 to game over, 1 cut by the power, 1 after \
         it), {pulled} pulled from the store, every one equal to the host's replay; {shown} \
         screens equal to the host's rendering; flash {} B, static RAM {} B, stack peak {} B \
         of {} B, {} B never touched; {:.1} s emulated",
        board.name,
        presses + g4.presses + 1,
        image.flash_used(),
        image.static_ram(),
        stack.peak,
        stack.room,
        stack.untouched,
        (emulated + second.sim.now_ns()) as f64 / 1e9,
    );
}

#[test]
fn mega2560_plays_by_its_buttons_and_keeps_its_games() {
    session(&board::MEGA2560);
}

#[test]
fn mega1280_plays_by_its_buttons_and_keeps_its_games() {
    session(&board::MEGA1280);
}

#[test]
fn uno_plays_by_its_buttons_and_keeps_its_games() {
    session(&board::UNO);
}
