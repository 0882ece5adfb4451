//! Games written and read back, across reopenings: lengths around the chunk size, games over
//! several sectors, many games over many sectors.

mod common;

use common::*;
use twenty48_devicestore::{Closing, Store};

#[test]
fn games_of_chunk_edge_lengths_round_trip() {
    let mut store = Store::open(blank(8)).unwrap();
    let mut model = Vec::new();
    let mut rng = Rng(1);
    for (i, len) in [0usize, 1, 63, 64, 65, 127, 128, 129, 1000]
        .into_iter()
        .enumerate()
    {
        let dirs = rng.dirs(len);
        play(
            &mut store,
            &mut model,
            start(i as u64),
            &dirs,
            (i % 3) as u8,
        );
        store = reopen(store);
        assert_matches(&mut store, &model);
        assert_eq!(store.next_game_number(), model.last().unwrap().number + 1);
    }
    assert_eq!(model.first().unwrap().number, 1);
    // Acks survive a reopening; an ack twice is fine.
    for e in model.iter_mut().step_by(2) {
        store.ack(e.number).unwrap();
        store.ack(e.number).unwrap();
        e.acked = true;
    }
    store = reopen(store);
    assert_matches(&mut store, &model);
    let counts = store.counts().unwrap();
    assert_eq!(counts.stored, 9);
    assert_eq!(counts.unpulled, 4);
}

#[test]
fn a_game_spans_sectors() {
    let mut store = Store::open(blank(4)).unwrap();
    let mut model = Vec::new();
    // A sector holds 170 chunks of 64 moves, less the records: this game needs three.
    let dirs = Rng(2).dirs(25_000);
    play(&mut store, &mut model, start(5), &dirs, 2);
    store = reopen(store);
    assert_matches(&mut store, &model);
    assert_eq!(store.counts().unwrap().free_sectors, 1);
    let bytes = store.flash().bytes().to_vec();
    assert_eq!((bytes[4096 + 16], bytes[2 * 4096 + 16]), (b'C', b'C'));
    play(&mut store, &mut model, start(6), &Rng(3).dirs(100), 1);
    store = reopen(store);
    assert_matches(&mut store, &model);
}

#[test]
fn an_interrupted_game_reads_as_interrupted_and_the_next_goes_on() {
    let mut store = Store::open(blank(4)).unwrap();
    let mut model = Vec::new();
    let dirs = Rng(3).dirs(70);
    let number = store.begin_game(&start(1)).unwrap();
    for &d in &dirs {
        store.record_move(d).unwrap();
    }
    store
        .for_each_game(|g| assert_eq!(g.closing, Closing::InProgress))
        .unwrap();
    model.push(Expected {
        number,
        start: start(1),
        moves: dirs,
        ended: None,
        acked: false,
    });
    store = reopen(store);
    assert_matches(&mut store, &model);
    play(&mut store, &mut model, start(2), &Rng(4).dirs(10), 1);
    store = reopen(store);
    assert_matches(&mut store, &model);
}

/// Many games of many lengths fill 16 sectors: every END and GAME position occurs, including
/// an END alone at the start of a sector and a full last chunk followed by an empty one.
#[test]
fn many_games_over_many_sectors() {
    let mut store = Store::open(blank(16)).unwrap();
    let mut model = Vec::new();
    let mut rng = Rng(5);
    let mut i = 0;
    while store.counts().unwrap().free_sectors > 0 {
        let len = match i % 4 {
            0 => 64 * (rng.next() % 20) as usize,
            1 => (rng.next() % 1400) as usize,
            2 => 10_752 - 8 + (rng.next() % 16) as usize,
            _ => (rng.next() % 40) as usize,
        };
        let dirs = rng.dirs(len);
        play(&mut store, &mut model, start(i), &dirs, (i % 3) as u8);
        i += 1;
        if i % 7 == 0 {
            store = reopen(store);
        }
    }
    store = reopen(store);
    assert_matches(&mut store, &model);
    let bytes = store.flash().bytes();
    let starts: Vec<u8> = (0..16).map(|s| bytes[s * 4096 + 16]).collect();
    assert!(starts.contains(&b'C'), "{starts:?}");
    println!(
        "{} games in 16 sectors; sector starts {:?}",
        model.len(),
        starts
    );
}

/// An END that does not fit in the rest of the sector goes alone to the next one.
#[test]
fn an_end_alone_in_the_next_sector() {
    // Sector 0: GAME at 16, 168 full chunks up to 4080 (no room for another). Sector 1: CONT
    // at 16, chunks from 32: 169 full ones end at 4088, and the END (16) does not fit.
    let len = 168 * 64 + 169 * 64;
    {
        let mut store = Store::open(blank(4)).unwrap();
        let mut model = Vec::new();
        play(&mut store, &mut model, start(9), &Rng(7).dirs(len), 2);
        if store.flash().bytes()[2 * 4096 + 16] == b'E' {
            store = reopen(store);
            assert_matches(&mut store, &model);
            play(&mut store, &mut model, start(10), &Rng(6).dirs(5), 1);
            store = reopen(store);
            assert_matches(&mut store, &model);
            return;
        }
    }
    panic!("no length put the END alone in the next sector");
}
