//! What games cost in flash: the figures in the crate docs.

mod common;

use common::*;
use twenty48_devicestore::{Store, StoreError};

#[test]
fn a_1000_move_game_costs_448_bytes() {
    let mut store = Store::open(blank(1)).unwrap();
    play(&mut store, &mut Vec::new(), start(1), &Rng(1).dirs(1000), 2);
    let bytes = store.flash().bytes();
    // GAME at 16, 16 chunks, END at 16 + 32 + 16 * 24 = 432; erased after it.
    assert_eq!(bytes[16], b'G');
    assert_eq!(bytes[432], b'E');
    assert!(bytes[464..].iter().all(|&b| b == 0xFF));
    let cost = 464 - 16;
    assert_eq!(cost, 448);
    println!("a 1000-move game: {cost} bytes (32 GAME + 16 x 24 chunks + 32 END)");
}

/// Whole 1000-move games a blank store of `sectors` `S`-byte sectors takes before it is full.
fn capacity<const S: usize>(sectors: usize) -> u32 {
    let mut store = open_blank::<S>(sectors);
    let mut rng = Rng(2);
    let mut games = 0;
    'fill: loop {
        if store.begin_game(&start(games.into())).is_err() {
            break;
        }
        for d in rng.dirs(1000) {
            if let Err(e) = store.record_move(d) {
                assert_eq!(e, StoreError::Full);
                break 'fill;
            }
        }
        match store.end_game(&ending(2)) {
            Ok(()) => games += 1,
            Err(StoreError::Full) => break,
            Err(e) => panic!("{e}"),
        }
    }
    games
}

/// The moves of the longest game a blank store of `sectors` `S`-byte sectors takes.
fn longest_game<const S: usize>(sectors: usize) -> u32 {
    let mut store = open_blank::<S>(sectors);
    store.begin_game(&start(1)).unwrap();
    let mut moves = 0;
    for d in Rng(3).dirs(1_000_000) {
        match store.record_move(d) {
            Ok(()) => moves += 1,
            Err(StoreError::Full) => break,
            Err(e) => panic!("{e}"),
        }
    }
    moves
}

#[test]
fn capacity_in_1000_move_games() {
    const SECTORS: usize = 32;
    let games = capacity::<4096>(SECTORS);
    let per_sector = f64::from(games) / SECTORS as f64;
    let big = (per_sector * 3840.0) as u64;
    println!(
        "{games} whole 1000-move games in {SECTORS} sectors of 4096 bytes ({per_sector:.2} a \
         sector): 3,840 sectors (15 MB) hold about {big}"
    );
    assert!((8.9..9.2).contains(&per_sector), "{per_sector}");
}

/// An AVR's EEPROM less its last sector (the board's id): an Arduino Mega 2560's 4 KB as 15
/// sectors of 256 bytes, an Uno's 1 KB as 7 sectors of 128 bytes.
#[test]
fn capacity_of_an_eeprom_in_1000_move_games() {
    let mega = capacity::<256>(15);
    let mega_longest = longest_game::<256>(15);
    println!(
        "15 sectors of 256 bytes: {mega} whole 1000-move games; one game of at most \
         {mega_longest} moves"
    );
    let uno = capacity::<128>(7);
    let uno_longest = longest_game::<128>(7);
    println!(
        "7 sectors of 128 bytes: {uno} whole 1000-move games; one game of at most \
         {uno_longest} moves"
    );
    // 256: a GAME sector holds 8 chunks (512 moves), a CONT sector 9 (576 moves).
    assert_eq!(mega_longest, 512 + 14 * 576);
    // 128: a GAME sector holds 3 chunks (192 moves), a CONT sector 4 (256 moves).
    assert_eq!(uno_longest, 192 + 6 * 256);
    assert_eq!((mega, uno), (7, 1));
}

/// The whole 15 MB store of the Nano RP2040 Connect (3,840 sectors of 4096 bytes), filled with
/// 1000-move games. Slow in a debug build: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn capacity_of_15_mb_in_1000_move_games() {
    let games = capacity::<4096>(3840);
    println!("3,840 sectors of 4096 bytes (15 MB): {games} whole 1000-move games");
    assert!((34_000..35_000).contains(&games), "{games}");
}
