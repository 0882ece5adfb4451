//! A full store: games not acknowledged are never erased (the store says Full); acknowledged
//! ones make room, oldest sector first. On 4096-byte sectors, and on an AVR's EEPROM (4 KB of
//! 256-byte sectors, 1 KB of 128-byte ones).

mod common;

use common::*;
use twenty48_devicestore::StoreError;

fn headers<const S: usize>(flash: &Flash<S>) -> Vec<Vec<u8>> {
    (0..flash.bytes().len() / S)
        .map(|s| flash.bytes()[s * S..s * S + 16].to_vec())
        .collect()
}

fn seqs(headers: &[Vec<u8>]) -> Vec<u32> {
    headers
        .iter()
        .map(|h| u32::from_le_bytes(h[4..8].try_into().unwrap()))
        .collect()
}

/// Plays games of `len` moves until the store is full; returns the model (the last game cut
/// short and interrupted).
fn fill<const S: usize>(store: &mut TestStore<S>, rng: &mut Rng, len: usize) -> Vec<Expected> {
    let mut model = Vec::new();
    for i in 0.. {
        let before = headers(store.flash());
        let start = start(i);
        let number = match store.begin_game(&start) {
            Ok(n) => n,
            Err(StoreError::Full) => break,
            Err(e) => panic!("{e}"),
        };
        let mut e = Expected {
            number,
            start,
            moves: Vec::new(),
            ended: None,
            acked: false,
        };
        let mut full = false;
        for d in rng.dirs(len) {
            match store.record_move(d) {
                Ok(()) => e.moves.push(d),
                Err(StoreError::Full) => full = true,
                Err(err) => panic!("{err}"),
            }
        }
        match store.end_game(&ending(2)) {
            Ok(()) => e.ended = Some(2),
            Err(StoreError::Full) => full = true,
            Err(err) => panic!("{err}"),
        }
        model.push(e);
        if full {
            assert_eq!(
                headers(store.flash()),
                before,
                "a full store erased a sector"
            );
            break;
        }
    }
    model
}

fn unacknowledged_games_fill_the_store_and_stay<const S: usize>(
    sectors: usize,
    len: usize,
    at_least: usize,
) {
    let mut store = open_blank::<S>(sectors);
    let model = fill(&mut store, &mut Rng(1), len);
    assert!(model.len() > at_least, "{} games", model.len());
    let before = headers(store.flash());
    assert_eq!(
        store.begin_game(&start(99)).err(),
        Some(StoreError::Full),
        "no room for another game"
    );
    assert_eq!(headers(store.flash()), before);
    store = reopen(store);
    assert_matches(&mut store, &model);
    assert_eq!(store.begin_game(&start(99)).err(), Some(StoreError::Full));
    let counts = store.counts().unwrap();
    assert_eq!(
        (counts.stored, counts.unpulled, counts.free_sectors),
        (model.len() as u32, model.len() as u32, 0)
    );
}

#[test]
fn unacknowledged_games_fill_the_store_and_stay_4096() {
    unacknowledged_games_fill_the_store_and_stay::<4096>(4, 1000, 30);
}

#[test]
fn unacknowledged_games_fill_the_store_and_stay_256() {
    unacknowledged_games_fill_the_store_and_stay::<256>(16, 300, 15);
}

#[test]
fn unacknowledged_games_fill_the_store_and_stay_128() {
    unacknowledged_games_fill_the_store_and_stay::<128>(8, 100, 6);
}

fn acknowledged_games_are_reclaimed_oldest_sector_first<const S: usize>(
    sectors: usize,
    len: usize,
) {
    let mut store = open_blank::<S>(sectors);
    let mut model = fill(&mut store, &mut Rng(2), len);
    // Every game acknowledged but the first: the oldest sector holds it, so still full (the
    // store never skips to a younger sector).
    for e in &mut model[1..] {
        store.ack(e.number).unwrap();
        e.acked = true;
    }
    assert_eq!(store.begin_game(&start(50)).err(), Some(StoreError::Full));
    store.ack(model[0].number).unwrap();
    model[0].acked = true;
    store = reopen(store);
    assert_matches(&mut store, &model);
    // Now the oldest sector (physical 0) is erased and reused: its games are gone, the rest
    // stay.
    let seq_before = seqs(&headers(store.flash()));
    let mut rng = Rng(3);
    play(&mut store, &mut model, start(51), &rng.dirs(10), 1);
    let seq_after = seqs(&headers(store.flash()));
    assert_eq!(
        seq_after[0],
        seq_before[sectors - 1] + 1,
        "sector 0 reclaimed first"
    );
    assert_eq!(seq_after[1..], seq_before[1..]);
    let mut store = reopen(store);
    let listed = read_all(&mut store);
    let gone = model.len() - listed.len();
    assert!(gone > 0);
    assert_matches(&mut store, &model[gone..]);
}

#[test]
fn acknowledged_games_are_reclaimed_oldest_sector_first_4096() {
    acknowledged_games_are_reclaimed_oldest_sector_first::<4096>(4, 1000);
}

#[test]
fn acknowledged_games_are_reclaimed_oldest_sector_first_256() {
    acknowledged_games_are_reclaimed_oldest_sector_first::<256>(16, 300);
}

#[test]
fn acknowledged_games_are_reclaimed_oldest_sector_first_128() {
    acknowledged_games_are_reclaimed_oldest_sector_first::<128>(8, 100);
}

/// One game of `len` moves in a blank store that holds between `least` and `len` of them.
fn a_game_longer_than_the_store_gets_full<const S: usize>(
    sectors: usize,
    len: usize,
    least: usize,
) {
    let mut store = open_blank::<S>(sectors);
    let mut rng = Rng(4);
    let start = start(1);
    let number = store.begin_game(&start).unwrap();
    let mut stored = Vec::new();
    let mut fulls = 0;
    for d in rng.dirs(len) {
        match store.record_move(d) {
            Ok(()) => {
                assert_eq!(fulls, 0, "a move stored after Full");
                stored.push(d);
            }
            Err(StoreError::Full) => fulls += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(fulls > 0 && stored.len() > least, "{} stored", stored.len());
    assert_eq!(store.end_game(&ending(2)).err(), Some(StoreError::Full));
    let model = vec![Expected {
        number,
        start,
        moves: stored,
        ended: None,
        acked: false,
    }];
    store = reopen(store);
    assert_matches(&mut store, &model);
    assert_eq!(store.begin_game(&start).err(), Some(StoreError::Full));
    // Acknowledged (as the partial game it is), it makes room; its start goes first.
    store.ack(number).unwrap();
    let n = store.begin_game(&start).unwrap();
    assert_eq!(n, number + 1);
    store.end_game(&ending(0)).unwrap();
    let mut store = reopen(store);
    let listed = read_all(&mut store);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0.number, n);
    assert_eq!(listed[0].0.closing, ended(0));
}

#[test]
fn a_game_longer_than_the_store_gets_full_4096() {
    a_game_longer_than_the_store_gets_full::<4096>(4, 50_000, 40_000);
}

#[test]
fn a_game_longer_than_the_store_gets_full_256() {
    a_game_longer_than_the_store_gets_full::<256>(16, 10_000, 9_000);
}

#[test]
fn a_game_longer_than_the_store_gets_full_128() {
    a_game_longer_than_the_store_gets_full::<128>(8, 2_500, 1_900);
}
