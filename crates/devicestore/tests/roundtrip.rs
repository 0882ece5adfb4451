//! Games written and read back, across reopenings: lengths around the chunk size, games over
//! several sectors, many games over many sectors; on 4096-byte sectors (the RP2040's flash)
//! and on 256- and 128-byte ones (an AVR's EEPROM).

mod common;

use common::*;
use twenty48_devicestore::{Closing, MemFlash, Store, StoreError};

/// Moves a segment holds in a sector of `S` bytes: after the header and a GAME record
/// (`first`), or after the header and a CONT record (`cont`).
fn moves_per_sector<const S: usize>() -> (usize, usize) {
    let first = (S - 16 - 32) / 24 * 64;
    let cont = (S - 16 - 16) / 24 * 64;
    (first, cont)
}

fn games_of_chunk_edge_lengths_round_trip<const S: usize>(sectors: usize) {
    let mut store = open_blank::<S>(sectors);
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
fn games_of_chunk_edge_lengths_round_trip_4096() {
    games_of_chunk_edge_lengths_round_trip::<4096>(8);
}

#[test]
fn games_of_chunk_edge_lengths_round_trip_256() {
    games_of_chunk_edge_lengths_round_trip::<256>(16);
}

#[test]
fn games_of_chunk_edge_lengths_round_trip_128() {
    games_of_chunk_edge_lengths_round_trip::<128>(32);
}

/// A game that needs three sectors of four.
fn a_game_spans_sectors<const S: usize>() {
    let mut store = open_blank::<S>(4);
    let mut model = Vec::new();
    let (first, cont) = moves_per_sector::<S>();
    // The last chunk not full, so the END fits after it in a 128-byte sector.
    let dirs = Rng(2).dirs(first + cont + cont / 2 - 1);
    play(&mut store, &mut model, start(5), &dirs, 2);
    store = reopen(store);
    assert_matches(&mut store, &model);
    assert_eq!(store.counts().unwrap().free_sectors, 1);
    let bytes = store.flash().bytes().to_vec();
    assert_eq!((bytes[S + 16], bytes[2 * S + 16]), (b'C', b'C'));
    play(&mut store, &mut model, start(6), &Rng(3).dirs(100), 1);
    store = reopen(store);
    assert_matches(&mut store, &model);
}

#[test]
fn a_game_spans_sectors_4096() {
    a_game_spans_sectors::<4096>();
}

#[test]
fn a_game_spans_sectors_256() {
    a_game_spans_sectors::<256>();
}

#[test]
fn a_game_spans_sectors_128() {
    a_game_spans_sectors::<128>();
}

fn an_interrupted_game_reads_as_interrupted_and_the_next_goes_on<const S: usize>() {
    let mut store = open_blank::<S>(4);
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

#[test]
fn an_interrupted_game_reads_as_interrupted_and_the_next_goes_on_4096() {
    an_interrupted_game_reads_as_interrupted_and_the_next_goes_on::<4096>();
}

#[test]
fn an_interrupted_game_reads_as_interrupted_and_the_next_goes_on_128() {
    an_interrupted_game_reads_as_interrupted_and_the_next_goes_on::<128>();
}

/// Many games of many lengths fill the sectors (but for those the longest game might need):
/// every END and GAME position occurs, including an END alone at the start of a sector and a
/// full last chunk followed by an empty one.
fn many_games_over_many_sectors<const S: usize>(sectors: usize) {
    let mut store = open_blank::<S>(sectors);
    let mut model = Vec::new();
    let mut rng = Rng(5);
    let (first, cont) = moves_per_sector::<S>();
    let longest = (first + 7).max(1399) as u32;
    let mut i = 0;
    while store.counts().unwrap().free_sectors * cont as u32 > longest {
        let len = match i % 4 {
            0 => 64 * (rng.next() % 20) as usize,
            1 => (rng.next() % 1400) as usize,
            2 => first - 8 + (rng.next() % 16) as usize,
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
    let starts: Vec<u8> = (0..sectors).map(|s| bytes[s * S + 16]).collect();
    assert!(starts.contains(&b'C'), "{starts:?}");
    println!(
        "{} games in {sectors} sectors of {S} bytes; sector starts {:?}",
        model.len(),
        String::from_utf8_lossy(&starts)
    );
}

#[test]
fn many_games_over_many_sectors_4096() {
    many_games_over_many_sectors::<4096>(16);
}

#[test]
fn many_games_over_many_sectors_256() {
    many_games_over_many_sectors::<256>(64);
}

#[test]
fn many_games_over_many_sectors_128() {
    many_games_over_many_sectors::<128>(64);
}

/// An END that does not fit in the rest of the sector goes alone to the next one.
fn an_end_alone_in_the_next_sector<const S: usize>() {
    // Sector 0: GAME at 16, full chunks up to less than a chunk from the end. Sector 1: CONT
    // at 16, full chunks from 32 up to less than an END from the end (4096: 169 of them end
    // at 4088; 256: 9 end at 248; 128: 4 end at 128).
    let (first, cont) = moves_per_sector::<S>();
    assert!(S - 32 - cont / 64 * 24 < 16);
    let mut store = open_blank::<S>(4);
    let mut model = Vec::new();
    play(
        &mut store,
        &mut model,
        start(9),
        &Rng(7).dirs(first + cont),
        2,
    );
    assert_eq!(store.flash().bytes()[2 * S + 16], b'E');
    store = reopen(store);
    assert_matches(&mut store, &model);
    play(&mut store, &mut model, start(10), &Rng(6).dirs(5), 1);
    store = reopen(store);
    assert_matches(&mut store, &model);
}

#[test]
fn an_end_alone_in_the_next_sector_4096() {
    an_end_alone_in_the_next_sector::<4096>();
}

#[test]
fn an_end_alone_in_the_next_sector_256() {
    an_end_alone_in_the_next_sector::<256>();
}

#[test]
fn an_end_alone_in_the_next_sector_128() {
    an_end_alone_in_the_next_sector::<128>();
}

/// Sectors of a power of two from 128 to 65536 bytes; the store refuses others.
#[test]
fn sectors_from_128_to_65536_bytes() {
    fn opens<const S: usize>() -> bool {
        match Store::open(MemFlash::<_, S>::new_sized(vec![0xFF; 2 * S])) {
            Ok(_) => true,
            Err(StoreError::Geometry { erase_size, .. }) => {
                assert_eq!(erase_size, S);
                false
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(!opens::<64>());
    assert!(opens::<128>());
    assert!(opens::<512>());
    assert!(opens::<65536>());
    assert!(!opens::<131072>());
    let mut store = open_blank::<65536>(2);
    let mut model = Vec::new();
    play(&mut store, &mut model, start(1), &Rng(8).dirs(20_000), 2);
    store = reopen(store);
    assert_matches(&mut store, &model);
}
