//! A full store: games not acknowledged are never erased (the store says Full); acknowledged
//! ones make room, oldest sector first.

mod common;

use common::*;
use twenty48_devicestore::{Closing, Store, StoreError};

fn headers(flash: &Flash) -> Vec<Vec<u8>> {
    (0..flash.bytes().len() / 4096)
        .map(|s| flash.bytes()[s * 4096..s * 4096 + 16].to_vec())
        .collect()
}

/// Plays 1000-move games until the store is full; returns the model (the last game cut short
/// and interrupted).
fn fill(store: &mut TestStore, rng: &mut Rng) -> Vec<Expected> {
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
        for d in rng.dirs(1000) {
            match store.record_move(d) {
                Ok(()) => e.moves.push(d),
                Err(StoreError::Full) => full = true,
                Err(err) => panic!("{err}"),
            }
        }
        match store.end_game(2) {
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

#[test]
fn unacknowledged_games_fill_the_store_and_stay() {
    let mut store = Store::open(blank(4)).unwrap();
    let model = fill(&mut store, &mut Rng(1));
    assert!(model.len() > 30, "{} games", model.len());
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
fn acknowledged_games_are_reclaimed_oldest_sector_first() {
    let mut store = Store::open(blank(4)).unwrap();
    let mut model = fill(&mut store, &mut Rng(2));
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
    let seq_before: Vec<u32> = headers(store.flash())
        .iter()
        .map(|h| u32::from_le_bytes(h[4..8].try_into().unwrap()))
        .collect();
    let mut rng = Rng(3);
    play(&mut store, &mut model, start(51), &rng.dirs(10), 1);
    let seq_after: Vec<u32> = headers(store.flash())
        .iter()
        .map(|h| u32::from_le_bytes(h[4..8].try_into().unwrap()))
        .collect();
    assert_eq!(seq_after[0], seq_before[3] + 1, "sector 0 reclaimed first");
    assert_eq!(seq_after[1..], seq_before[1..]);
    let mut store = reopen(store);
    let listed = read_all(&mut store);
    let gone = model.len() - listed.len();
    assert!(gone > 0);
    assert_matches(&mut store, &model[gone..]);
}

#[test]
fn a_game_longer_than_the_store_gets_full() {
    let mut store = Store::open(blank(4)).unwrap();
    let mut rng = Rng(4);
    let start = start(1);
    let number = store.begin_game(&start).unwrap();
    let mut stored = Vec::new();
    let mut fulls = 0;
    for d in rng.dirs(50_000) {
        match store.record_move(d) {
            Ok(()) => {
                assert_eq!(fulls, 0, "a move stored after Full");
                stored.push(d);
            }
            Err(StoreError::Full) => fulls += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(
        fulls > 0 && stored.len() > 40_000,
        "{} stored",
        stored.len()
    );
    assert_eq!(store.end_game(2).err(), Some(StoreError::Full));
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
    store.end_game(0).unwrap();
    let mut store = reopen(store);
    let listed = read_all(&mut store);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0.number, n);
    assert_eq!(listed[0].0.closing, Closing::Ended { result: 0 });
}
