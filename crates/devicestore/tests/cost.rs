//! What games cost in flash: the figures in the crate docs.

mod common;

use common::*;
use twenty48_devicestore::{Store, StoreError};

#[test]
fn a_1000_move_game_costs_432_bytes() {
    let mut store = Store::open(blank(1)).unwrap();
    play(&mut store, &mut Vec::new(), start(1), &Rng(1).dirs(1000), 2);
    let bytes = store.flash().bytes();
    // GAME at 16, 16 chunks, END at 16 + 32 + 16 * 24 = 432; erased after it.
    assert_eq!(bytes[16], b'G');
    assert_eq!(bytes[432], b'E');
    assert!(bytes[448..].iter().all(|&b| b == 0xFF));
    let cost = 448 - 16;
    assert_eq!(cost, 432);
    println!("a 1000-move game: {cost} bytes (32 GAME + 16 x 24 chunks + 16 END)");
}

#[test]
fn capacity_in_1000_move_games() {
    const SECTORS: usize = 32;
    let mut store = Store::open(blank(SECTORS)).unwrap();
    let mut rng = Rng(2);
    let mut games = 0;
    'fill: loop {
        if store.begin_game(&start(games)).is_err() {
            break;
        }
        for d in rng.dirs(1000) {
            if let Err(e) = store.record_move(d) {
                assert_eq!(e, StoreError::Full);
                break 'fill;
            }
        }
        store.end_game(2).unwrap();
        games += 1;
    }
    let per_sector = games as f64 / SECTORS as f64;
    let big = (per_sector * 3840.0) as u64;
    println!(
        "{games} whole 1000-move games in {SECTORS} sectors ({per_sector:.2} a sector): \
         3,840 sectors (15 MB) hold about {big}"
    );
    assert!((9.2..9.5).contains(&per_sector), "{per_sector}");
}
