//! Helpers shared by the store's tests: flashes, random moves, a model of what was stored,
//! and reading everything back.
#![allow(dead_code)]

use twenty48_devicestore::{
    crc32, nor::NorError, Claims, Closing, Counts, Ending, GameEntry, GameStart, MemFlash, Store,
};
use twenty48_engine::{Direction, Preset};

/// A flash of `S`-byte sectors (4096 unless said).
pub type Flash<const S: usize = 4096> = MemFlash<Vec<u8>, S>;
pub type TestStore<const S: usize = 4096> = Store<Flash<S>>;

/// A blank (all 0xFF) strict flash of `sectors` 4096-byte sectors.
pub fn blank(sectors: usize) -> Flash {
    blank_sized(sectors)
}

/// A blank (all 0xFF) strict flash of `sectors` `S`-byte sectors.
pub fn blank_sized<const S: usize>(sectors: usize) -> Flash<S> {
    MemFlash::new_sized(vec![0xFF; sectors * S]).strict()
}

/// Opens a store on a blank flash of `sectors` `S`-byte sectors.
pub fn open_blank<const S: usize>(sectors: usize) -> TestStore<S> {
    Store::open(blank_sized(sectors)).unwrap()
}

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn dirs(&mut self, n: usize) -> Vec<Direction> {
        (0..n)
            .map(|_| Direction::ALL[(self.next() % 4) as usize])
            .collect()
    }
}

/// A start that differs from game to game.
pub fn start(i: u64) -> GameStart {
    GameStart {
        rules: Preset::ALL[(i % 3) as usize].rules(),
        seed: i.wrapping_mul(0x1234_5678_9ABC_DEF1) ^ 77,
    }
}

/// How the tests end a game with `result`: claims made from the result, so that each reads
/// back as written.
pub fn ending(result: u8) -> Ending {
    Ending {
        result,
        claims: claims(result),
    }
}

/// The claims [`ending`] stores for `result`.
pub fn claims(result: u8) -> Claims {
    Claims {
        score: 1000 + u64::from(result),
        hash: 0x0123_4567_89AB_CDEF ^ u64::from(result),
    }
}

/// The closing of a game ended by [`ending`] with `result`.
pub fn ended(result: u8) -> Closing {
    Closing::Ended {
        result,
        claims: Some(claims(result)),
    }
}

/// A game as the test played it.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    pub number: u32,
    pub start: GameStart,
    pub moves: Vec<Direction>,
    /// `Some(result)` once `end_game` returned `Ok`.
    pub ended: Option<u8>,
    pub acked: bool,
}

/// Every stored game with its moves, oldest first.
pub fn read_all<const S: usize>(store: &mut TestStore<S>) -> Vec<(GameEntry, Vec<Direction>)> {
    let mut entries = Vec::new();
    store.for_each_game(|g| entries.push(*g)).unwrap();
    entries
        .into_iter()
        .map(|g| {
            let mut moves = Vec::new();
            store.read_moves(&g, |d| moves.push(d)).unwrap();
            assert_eq!(moves.len(), g.moves as usize);
            (g, moves)
        })
        .collect()
}

/// Plays `moves` as a whole game and ends it with `result`, appending it to `model`.
pub fn play<const S: usize>(
    store: &mut TestStore<S>,
    model: &mut Vec<Expected>,
    start: GameStart,
    moves: &[Direction],
    result: u8,
) {
    let number = store.begin_game(&start).unwrap();
    for &d in moves {
        store.record_move(d).unwrap();
    }
    store.end_game(&ending(result)).unwrap();
    model.push(Expected {
        number,
        start,
        moves: moves.to_vec(),
        ended: Some(result),
        acked: false,
    });
}

/// Asserts that the store lists exactly the `model` games (all ended or interrupted), with
/// their numbers, starts, moves, closings and acks.
pub fn assert_matches<const S: usize>(store: &mut TestStore<S>, model: &[Expected]) {
    let got = read_all(store);
    assert_eq!(got.len(), model.len(), "number of games");
    for ((g, moves), e) in got.iter().zip(model) {
        assert_eq!(g.number, e.number);
        assert_eq!(g.start, e.start, "game {}", e.number);
        assert_eq!(moves, &e.moves, "game {}", e.number);
        let closing = e.ended.map_or(Closing::Interrupted, ended);
        assert_eq!(g.closing, closing, "game {}", e.number);
        assert_eq!(g.acked, e.acked, "game {}", e.number);
    }
}

/// The counts read from the flash: every listed game but the one in progress, and every
/// sector without a valid header.
pub fn recount<const S: usize>(store: &mut TestStore<S>) -> Counts {
    let mut counts = Counts::default();
    store
        .for_each_game(|g| {
            if g.closing != Closing::InProgress {
                counts.stored += 1;
                counts.unpulled += u32::from(!g.acked);
            }
        })
        .unwrap();
    let bytes = store.flash().bytes();
    counts.free_sectors = (0..bytes.len() / S)
        .filter(|s| {
            let h = &bytes[s * S..s * S + 16];
            let magic = h[..4] == *b"T48\x02" || h[..4] == *b"T48S";
            !(magic && crc32(&h[..12]).to_le_bytes() == h[12..])
        })
        .count() as u32;
    counts
}

/// Asserts that the store's counts are the recount, and that `find_game` finds every listed
/// game (and no number not listed, up to the next number and a little past it).
pub fn assert_lookups<const S: usize>(store: &mut TestStore<S>) {
    let recount = recount(store);
    assert_eq!(store.counts().unwrap(), recount, "cached counts");
    let mut listed = Vec::new();
    store.for_each_game(|g| listed.push(*g)).unwrap();
    for g in &listed {
        assert_eq!(store.find_game(g.number).unwrap(), Some(*g));
    }
    for n in 0..store.next_game_number() + 2 {
        if !listed.iter().any(|g| g.number == n) {
            assert_eq!(store.find_game(n).unwrap(), None, "game {n}");
        }
    }
}

/// Reopens the store on the same flash (a power cycle).
pub fn reopen<const S: usize>(store: TestStore<S>) -> TestStore<S> {
    Store::open(store.into_flash()).unwrap()
}

pub type Error = twenty48_devicestore::StoreError<NorError>;
