//! Power cuts at the EEPROM writes of each AVR board's shipped image in simavr: a session
//! (a new chip's first boot, a game to game over, a game cut short) is run once; then the
//! power is cut during its EEPROM operations one at a time (the byte in flight torn), the
//! board powered up again on what the EEPROM kept, and asked `{hello}` and `{pull all}`.
//! Every game the device had announced before the cut is pulled; every pulled game is a
//! verified prefix of the game played, complete when its end was stored; no game appears
//! that was not played; game numbers never go back; the device id stays once written. Every
//! eighth cut the board also plays a new game after the cut, is powered off and up again,
//! and pulls it.
//!
//! The image a cut leaves is rebuilt from the uncut run's operations
//! (`twenty48_sim_avr::eeprom::Ops::cut_at`: the EEPROM is all that survives a power cut);
//! the harness's own `--cut` gives the same bytes (checked at a few operations per board).
//!
//! `TWENTY48_AVR_CUTS` sets the cuts per board (`all`: every operation), and
//! `TWENTY48_AVR_TEARS` the tears of each (`just avr-soak`).
#![cfg(unix)] // the emulator runs on Unix only

mod session;

use session::plan::Plan;
use session::player::{Played, Player};
use twenty48_devicelog::{check, decode_capture, DeviceFact, DeviceGame, Event};
use twenty48_engine::Direction;
use twenty48_sim_avr::eeprom::Ops;
use twenty48_sim_avr::{board, Board, Image, Options};

/// Cuts per board in `just test`: 75 on each Mega, 60 on the Uno (210 across the three).
fn cuts_per_board(board: &Board) -> Option<usize> {
    match std::env::var("TWENTY48_AVR_CUTS").as_deref() {
        Ok("all") => None,
        Ok(n) => Some(n.parse().expect("TWENTY48_AVR_CUTS: a number or `all`")),
        Err(_) => Some(if board.eeprom < 4096 { 60 } else { 75 }),
    }
}

fn tears() -> u64 {
    std::env::var("TWENTY48_AVR_TEARS")
        .map(|n| n.parse().expect("TWENTY48_AVR_TEARS: a number"))
        .unwrap_or(1)
}

/// The uncut session: what was played and what the EEPROM went through.
struct Uncut {
    ops: Ops,
    uart: Vec<u8>,
    uart_at: Vec<u64>,
    played: Vec<Played>,
    dev: u64,
    /// Emulated time the first log byte went out: operations before it made the device id.
    first_byte_ns: u64,
}

fn options(board: &Board) -> Options {
    Options {
        noise: 0xC07 ^ board.eeprom as u64,
        bounce: 3,
        ..Options::default()
    }
}

/// The session; with `cut`, stopped there by the harness. Returns the player and the games.
fn play(image: &Image, cut: Option<(u64, u64)>) -> (Player, Vec<Played>) {
    let mut player = Player::boot(
        image,
        &Options {
            cut,
            ..options(&image.board)
        },
    );
    let mut played = Vec::new();
    for (starter, plan) in [
        (Direction::Up, Plan::ToGameOver { noop_every: 4 }),
        (
            Direction::Down,
            Plan::Cycle {
                letters: "LURD",
                moves: 5,
            },
        ),
    ] {
        match player.game(starter, plan) {
            Some(game) => played.push(game),
            None => break,
        }
    }
    (player, played)
}

fn uncut(image: &Image) -> Uncut {
    let (mut player, played) = play(image, None);
    let dev = player
        .events
        .iter()
        .find_map(|e| match e {
            Event::Device(DeviceFact::Hello { dev, .. }) => Some(*dev),
            _ => None,
        })
        .expect("a hello at boot");
    assert!(
        player.sim.violations.is_empty(),
        "{:?}",
        player.sim.violations
    );
    player.stack_kept();
    Uncut {
        ops: player.sim.eeprom_ops.clone(),
        uart: player.sim.uart.clone(),
        uart_at: player.sim.uart_at.clone(),
        played,
        dev,
        first_byte_ns: player.sim.uart_at[0],
    }
}

/// What the device had announced before emulated time `t`: the games of the log up to then.
fn announced(image: &Image, uncut: &Uncut, t: u64) -> Vec<DeviceGame> {
    let n = uncut.uart_at.partition_point(|&at| at < t);
    decode_capture(&image.elf_bytes, &uncut.uart[..n])
        .expect("the ELF has a defmt table")
        .games
}

/// Checks what a board powered up after a cut at operation `k` pulls; returns whether it
/// was checked after a new game too.
fn after_cut(image: &Image, uncut: &Uncut, k: u64, seed: u64, again: bool) -> bool {
    let board = image.board;
    let op = uncut.ops.ops[k as usize - 1];
    let what = format!("{} cut at EEPROM operation {k} ({:?})", board.name, op);
    let eeprom = uncut.ops.cut_at(k, seed).expect("the operation exists");
    let later = Options {
        eeprom: Some(eeprom),
        noise: seed,
        ..options(&board)
    };
    let mut player = Player::boot(image, &later);
    let (dev, next) = player.hello();
    if op.at_ns > uncut.first_byte_ns {
        assert_eq!(dev, uncut.dev, "{what}: the device id changed");
    }
    let seen = announced(image, uncut, op.at_ns);
    let highest = seen.iter().map(|g| g.number).max().unwrap_or(0);
    assert!(
        next > highest,
        "{what}: next game {next} after game {highest} was announced"
    );
    let pulled = {
        player.pull_all();
        let pulled = decode_capture(&image.elf_bytes, &player.sim.uart)
            .expect("the ELF has a defmt table")
            .games;
        for game in &pulled {
            let result = check(game);
            assert!(
                result.is_verified(),
                "{what}: game {}: {:?}",
                game.number,
                result.problem
            );
            assert!(
                game.number < next,
                "{what}: game {} pulled, next is {next}",
                game.number
            );
            let played = uncut
                .played
                .iter()
                .find(|p| p.number == game.number)
                .unwrap_or_else(|| panic!("{what}: game {} was never played", game.number));
            assert_eq!(
                (game.rules, game.seed),
                (played.rules, played.seed),
                "{what}"
            );
            let dirs: Vec<Direction> = game.moves.iter().map(|m| m.dir).collect();
            assert!(
                played.moves.starts_with(&dirs),
                "{what}: game {} pulled is not a prefix of the game played",
                game.number
            );
            if !game.is_partial() {
                assert_eq!(
                    dirs.len(),
                    played.moves.len(),
                    "{what}: game {}",
                    game.number
                );
            }
        }
        for shown in &seen {
            let game = pulled
                .iter()
                .find(|g| g.number == shown.number)
                .unwrap_or_else(|| panic!("{what}: game {} was lost", shown.number));
            assert!(
                game.moves.len() >= shown.moves.len(),
                "{what}: game {} lost stored moves ({} of {})",
                shown.number,
                game.moves.len(),
                shown.moves.len()
            );
            if shown.end.is_some() {
                assert!(
                    !game.is_partial(),
                    "{what}: game {} lost its end",
                    shown.number
                );
            }
        }
        pulled.len()
    };
    assert!(
        player.sim.violations.is_empty(),
        "{what}: {:?}",
        player.sim.violations
    );
    player.stack_kept();
    if !again {
        return false;
    }
    // The store goes on: a new game after the cut gets the next number and is kept.
    let new = player
        .game(
            Direction::Left,
            Plan::Cycle {
                letters: "RDLU",
                moves: 2,
            },
        )
        .expect("a game starts after the cut");
    assert_eq!(new.number, next, "{what}: the new game's number");
    let kept = player.off();
    let mut third = Player::boot(
        image,
        &Options {
            eeprom: Some(kept),
            noise: seed + 1,
            ..options(&board)
        },
    );
    let (dev3, next3) = third.hello();
    assert_eq!(dev3, dev, "{what}: the device id after the new game");
    assert_eq!(next3, next + 1, "{what}: the number after the new game");
    third.pull_all();
    let games = decode_capture(&image.elf_bytes, &third.sim.uart)
        .expect("the ELF has a defmt table")
        .games;
    assert_eq!(
        games.len(),
        pulled + 1,
        "{what}: the games after the new one"
    );
    let last = games
        .iter()
        .find(|g| g.number == new.number)
        .expect("the new game");
    let dirs: Vec<Direction> = last.moves.iter().map(|m| m.dir).collect();
    assert_eq!(dirs, new.moves, "{what}: the new game's moves");
    assert!(check(last).is_verified(), "{what}: the new game");
    true
}

fn cuts(board: &Board) {
    let image = Image::shipped(board).unwrap_or_else(|e| panic!("{e}"));
    let uncut = uncut(&image);
    let total = uncut.ops.ops.len() as u64;
    assert!(total > 20, "{}: only {total} EEPROM operations", board.name);
    // (operation, tear): spread over the operations; with more cuts than operations, the
    // operations again with other tears.
    let cases: Vec<(u64, u64)> = match cuts_per_board(board) {
        None => (1..=total)
            .flat_map(|k| (0..tears()).map(move |t| (k, t)))
            .collect(),
        Some(n) if n as u64 <= total => (0..n as u64)
            .flat_map(|i| (0..tears()).map(move |t| (1 + i * total / n as u64, t)))
            .collect(),
        Some(n) => (0..n as u64).map(|i| (1 + i % total, i / total)).collect(),
    };
    let mut continued = 0;
    for (i, &(k, tear)) in cases.iter().enumerate() {
        let seed = k * 0x9E37_79B9 + tear * 7 + board.eeprom as u64;
        continued += usize::from(after_cut(&image, &uncut, k, seed, i % 8 == 0));
    }
    let operations: std::collections::BTreeSet<u64> = cases.iter().map(|c| c.0).collect();
    // The harness's own cut leaves what the rebuilt image says, at a few operations.
    for k in [total / 5, total / 2] {
        let seed = 77 + k;
        let (mut player, _) = play(&image, Some((k, seed)));
        let cut = player.sim.eeprom().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            player.sim.eeprom_ops.ops.len() as u64,
            k,
            "{}: stopped at {k}",
            board.name
        );
        assert_eq!(
            Some(cut),
            uncut.ops.cut_at(k, seed),
            "{}: the cut at {k}",
            board.name
        );
    }
    let games = uncut.played.len();
    println!(
        "{}: {} power cuts at {} of the session's {total} EEPROM operations ({continued} \
         followed by a new game and another power cycle): 0 games lost, 0 wrong; {games} \
         games in the session",
        board.name,
        cases.len(),
        operations.len()
    );
}

#[test]
fn mega2560_loses_no_game_to_a_power_cut() {
    cuts(&board::MEGA2560);
}

#[test]
fn mega1280_loses_no_game_to_a_power_cut() {
    cuts(&board::MEGA1280);
}

#[test]
fn uno_loses_no_game_to_a_power_cut() {
    cuts(&board::UNO);
}
