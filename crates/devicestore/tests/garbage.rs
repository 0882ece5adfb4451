//! Damaged flash: random bytes at open never panic, never list a game without a valid GAME
//! record, and the store goes on working after them.

mod common;

use common::*;
use twenty48_devicestore::{crc32, MemFlash, Store, StoreError};

/// Opens, lists every game and reads its moves (errors allowed, panics not), then plays a game
/// on the strict flash and finds it after a reopening. Returns the games listed at first.
fn survive<const S: usize>(bytes: Vec<u8>) -> usize {
    let mut store = match Store::open(MemFlash::<_, S>::new_sized(bytes).strict()) {
        Ok(s) => s,
        Err(e) => panic!("open failed: {e}"),
    };
    let mut entries = Vec::new();
    store.for_each_game(|g| entries.push(*g)).unwrap();
    for g in &entries {
        // Every game listed has a GAME record with a valid crc.
        let raw = store.flash().bytes();
        let mut want = [b'G', 0, 0, 0, 0];
        want[1..].copy_from_slice(&g.number.to_le_bytes());
        assert!(
            raw.windows(32)
                .any(|w| w[..5] == want && crc32(&w[..27]).to_le_bytes() == w[27..31]),
            "game {} listed without a valid GAME record",
            g.number
        );
        let _ = store.read_moves(g, |_| {});
    }
    let _ = store.counts().unwrap();
    let next = store.next_game_number();
    match store.begin_game(&start(3)) {
        Ok(n) => {
            assert_eq!(n, next);
            for d in Rng(n as u64).dirs(100) {
                store.record_move(d).unwrap();
            }
            store.end_game(&ending(2)).unwrap();
            let mut store = reopen(store);
            let g = store.find_game(n).unwrap().expect("the new game is stored");
            assert_eq!(g.moves, 100);
        }
        // Damage that looks like unacknowledged games may leave no room.
        Err(StoreError::Full) => {}
        Err(e) => panic!("{e}"),
    }
    entries.len()
}

/// Random bytes over `sectors` `S`-byte sectors.
fn random_bytes_never_panic<const S: usize>(sectors: usize) {
    for seed in 0..200u64 {
        let mut rng = Rng(seed);
        let mut bytes: Vec<u8> = (0..sectors * S).map(|_| rng.next() as u8).collect();
        // Half the time, give some sectors valid headers over the random records (of either
        // layout: the first store's, whose END records are shorter, and the current one).
        if seed % 2 == 1 {
            for s in 0..sectors {
                if rng.next() % 3 > 0 {
                    let h = &mut bytes[s * S..s * S + 16];
                    h[..4].copy_from_slice(if s % 2 == 0 { b"T48S" } else { b"T48\x02" });
                    h[4..12].copy_from_slice(&(rng.next() % 8).to_le_bytes());
                    let crc = crc32(&h[..12]);
                    h[12..].copy_from_slice(&crc.to_le_bytes());
                }
                // And some erased stretches, like a fresh log.
                if rng.next() % 2 == 0 {
                    let at = s * S + 16 + (rng.next() % (S as u64 - 96)) as usize;
                    bytes[at..(s + 1) * S].fill(0xFF);
                }
            }
        }
        assert_eq!(
            survive::<S>(bytes),
            0,
            "seed {seed}: a game in random bytes"
        );
    }
}

#[test]
fn random_bytes_never_panic_4096() {
    random_bytes_never_panic::<4096>(4);
}

#[test]
fn random_bytes_never_panic_128() {
    random_bytes_never_panic::<128>(8);
}

/// Stores of `games` games of up to `longest` moves on `sectors` `S`-byte sectors, with a few
/// random bytes changed.
fn damaged_stores_never_panic<const S: usize>(sectors: usize, games: u64, longest: u64) {
    let mut model = Vec::new();
    let mut store = open_blank::<S>(sectors);
    let mut rng = Rng(7);
    for i in 0..games {
        let n = (rng.next() % longest) as usize;
        play(&mut store, &mut model, start(i), &rng.dirs(n), 2);
    }
    let good = store.into_flash().into_inner();
    let mut listed = 0;
    for seed in 0..300u64 {
        let mut rng = Rng(seed);
        let mut bytes = good.clone();
        for _ in 0..1 + seed % 20 {
            let at = (rng.next() % bytes.len() as u64) as usize;
            bytes[at] = rng.next() as u8;
        }
        listed += survive::<S>(bytes);
    }
    assert!(listed > 0);
}

#[test]
fn damaged_stores_never_panic_4096() {
    damaged_stores_never_panic::<4096>(4, 30, 1500);
}

#[test]
fn damaged_stores_never_panic_128() {
    damaged_stores_never_panic::<128>(32, 15, 200);
}
