//! Lookups in a big store: `find_game` jumps to its game's sector by the sector headers,
//! `counts` is kept in RAM. Both always agree with reading the whole store, whatever happens.

mod common;

use common::*;
use embedded_storage::nor_flash::{ErrorType, NorFlash, ReadNorFlash};
use twenty48_devicestore::{Closing, GameEntry, MemFlash, Store, StoreError};

/// A flash that counts the bytes read from it.
struct Counting<F> {
    flash: F,
    read: usize,
}

impl<F: ErrorType> ErrorType for Counting<F> {
    type Error = F::Error;
}

impl<F: ReadNorFlash> ReadNorFlash for Counting<F> {
    const READ_SIZE: usize = F::READ_SIZE;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), Self::Error> {
        self.read += bytes.len();
        self.flash.read(offset, bytes)
    }

    fn capacity(&self) -> usize {
        self.flash.capacity()
    }
}

impl<F: NorFlash> NorFlash for Counting<F> {
    const WRITE_SIZE: usize = F::WRITE_SIZE;
    const ERASE_SIZE: usize = F::ERASE_SIZE;

    fn erase(&mut self, from: u32, to: u32) -> Result<(), Self::Error> {
        self.flash.erase(from, to)
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), Self::Error> {
        self.flash.write(offset, bytes)
    }
}

/// The bytes `f` reads from the store's flash.
fn bytes_read<T>(
    store: &mut Store<Counting<Flash>>,
    f: impl FnOnce(&mut Store<Counting<Flash>>) -> T,
) -> (T, usize) {
    let before = store.flash().read;
    let t = f(store);
    (t, store.flash().read - before)
}

#[test]
fn find_game_reads_a_few_headers_and_sectors_and_counts_read_nothing() {
    // 256 sectors (1 MB) of short games, a long one here and there; then the ring wraps.
    const SECTORS: usize = 256;
    let flash = Counting {
        flash: blank(SECTORS),
        read: 0,
    };
    let mut store = Store::open(flash).unwrap();
    let mut rng = Rng(1);
    let mut i = 0;
    while store.counts().unwrap().free_sectors > 0 || i % 2 == 1 {
        let len = if i % 50 == 0 { 5000 } else { 10 };
        let n = store.begin_game(&start(i)).unwrap();
        for d in rng.dirs(len) {
            store.record_move(d).unwrap();
        }
        store.end_game(&ending(2)).unwrap();
        // The second half of the store: every other game not acknowledged.
        if i % 2 == 0 || store.counts().unwrap().free_sectors > SECTORS as u32 / 2 {
            store.ack(n).unwrap();
        }
        i += 1;
    }
    // The oldest sectors reclaimed.
    let seq = |store: &mut Store<Counting<Flash>>| store.flash().flash.bytes()[4..8].to_vec();
    let first = seq(&mut store);
    while seq(&mut store) == first {
        let n = store.begin_game(&start(i)).unwrap();
        store.end_game(&ending(1)).unwrap();
        store.ack(n).unwrap();
        i += 1;
    }
    let mut store = Store::open(store.into_flash()).unwrap();
    let (all, whole) = bytes_read(&mut store, |s| {
        let mut all: Vec<GameEntry> = Vec::new();
        s.for_each_game(|g| all.push(*g)).unwrap();
        all
    });
    assert!(all[0].number > 1, "the oldest games were reclaimed");
    let mut worst = 0;
    for g in all
        .iter()
        .step_by(97)
        .chain([all.first().unwrap(), all.last().unwrap()])
    {
        let (found, read) = bytes_read(&mut store, |s| s.find_game(g.number).unwrap());
        assert_eq!(found, Some(*g));
        worst = worst.max(read);
    }
    let (missing, miss) = bytes_read(&mut store, |s| s.find_game(u32::MAX - 1).unwrap());
    assert_eq!(missing, None);
    let (reclaimed, gone) = bytes_read(&mut store, |s| s.find_game(1).unwrap());
    assert_eq!(reclaimed, None);
    assert!(gone <= worst, "{gone}");
    let (counts, counting) = bytes_read(&mut store, |s| s.counts().unwrap());
    assert_eq!(counts, recount(&mut store_view(&mut store)));
    println!(
        "{} games in {SECTORS} sectors: listing them reads {whole} bytes, finding one at most \
         {worst}, a number reclaimed {gone}, a number past the last {miss}, the counts \
         {counting}",
        all.len()
    );
    assert!(worst * 50 < whole, "{worst} of {whole}");
    assert_eq!(miss, 0);
    assert_eq!(counting, 0);
}

/// The same store over its bytes, for the test helpers.
fn store_view(store: &mut Store<Counting<Flash>>) -> TestStore {
    let bytes = store.flash().flash.bytes().to_vec();
    Store::open(MemFlash::new(bytes)).unwrap()
}

/// A random session on `sectors` `S`-byte sectors: games of random lengths, acks of random
/// games, reopenings. After every operation the cached counts equal a recount; every so often
/// `find_game` and `game_after` agree with the listing.
fn random_session<const S: usize>(sectors: usize, seed: u64, ops: usize) {
    let mut store = open_blank::<S>(sectors);
    let mut rng = Rng(seed);
    let mut old: Option<GameEntry> = None;
    let mut full = 0;
    for op in 0..ops {
        let playing = store.game_in_progress().is_some();
        match rng.next() % 100 {
            0..=2 => store = reopen(store),
            3..=12 if !playing => match store.begin_game(&start(rng.next())) {
                Ok(_) => {}
                Err(StoreError::Full) => full += 1,
                Err(e) => panic!("{e}"),
            },
            13..=17 if playing => match store.end_game(&ending((rng.next() % 3) as u8)) {
                Ok(()) | Err(StoreError::Full) => {}
                Err(e) => panic!("{e}"),
            },
            18..=27 => {
                // Ack a listed game, the oldest not acked most of the time.
                let mut listed = Vec::new();
                store.for_each_game(|g| listed.push(*g)).unwrap();
                listed.retain(|g| g.closing != Closing::InProgress);
                let pick = if rng.next() % 4 == 0 {
                    listed.get((rng.next() % listed.len().max(1) as u64) as usize)
                } else {
                    listed.iter().find(|g| !g.acked)
                };
                if let Some(g) = pick {
                    store.ack(g.number).unwrap();
                }
            }
            _ if playing => {
                let n = (rng.next() % 100) as usize;
                for d in rng.dirs(n) {
                    match store.record_move(d) {
                        Ok(()) => {}
                        Err(StoreError::Full) => {
                            full += 1;
                            break;
                        }
                        Err(e) => panic!("{e}"),
                    }
                }
            }
            _ => {}
        }
        assert_eq!(store.counts().unwrap(), recount(&mut store), "op {op}");
        if op % 10 == 0 {
            assert_lookups(&mut store);
            // The game after an old entry (perhaps reclaimed since) is the first listed with
            // a later number.
            let mut listed = Vec::new();
            store.for_each_game(|g| listed.push(*g)).unwrap();
            if let Some(old) = old {
                let want = listed.iter().find(|g| g.number > old.number).copied();
                assert_eq!(store.game_after(Some(&old)).unwrap(), want, "op {op}");
            }
            assert_eq!(store.game_after(None).unwrap(), listed.first().copied());
            if old.is_none() || rng.next() % 8 == 0 {
                old = listed.first().copied();
            }
        }
    }
    println!(
        "{ops} operations on {sectors} sectors of {S} bytes: next game {}, Full {full} times, \
         {:?}",
        store.next_game_number(),
        store.counts().unwrap()
    );
}

#[test]
fn cached_counts_and_lookups_in_random_sessions_4096() {
    random_session::<4096>(4, 1, 2000);
}

#[test]
fn cached_counts_and_lookups_in_random_sessions_256() {
    random_session::<256>(16, 2, 2000);
    random_session::<256>(4, 3, 2000);
}

#[test]
fn cached_counts_and_lookups_in_random_sessions_128() {
    random_session::<128>(8, 4, 2000);
    random_session::<128>(32, 5, 2000);
}

/// A young store (most sectors never used): finding a game reads the headers of the unused
/// sectors at most once, and the games' sector.
#[test]
fn find_game_in_a_young_store() {
    const SECTORS: usize = 1024;
    let flash = Counting {
        flash: MemFlash::new(vec![0xFF; SECTORS * 4096]),
        read: 0,
    };
    let mut store = Store::open(flash).unwrap();
    let mut numbers = Vec::new();
    for i in 0..300 {
        numbers.push(store.begin_game(&start(i)).unwrap());
        for d in Rng(i).dirs(100) {
            store.record_move(d).unwrap();
        }
        store.end_game(&ending(2)).unwrap();
    }
    let mut store = Store::open(store.into_flash()).unwrap();
    let (_, whole) = bytes_read(&mut store, |s| s.for_each_game(|_| {}).unwrap());
    let mut worst = 0;
    for &n in &numbers {
        let (found, read) = bytes_read(&mut store, |s| s.find_game(n).unwrap());
        assert_eq!(found.map(|g| g.number), Some(n));
        worst = worst.max(read);
    }
    println!(
        "300 games in the first sectors of {SECTORS}: listing reads {whole} bytes, finding \
         one at most {worst}"
    );
    assert!(worst < 16 * SECTORS + 2 * 4096, "{worst}");
}
