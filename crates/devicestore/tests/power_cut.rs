//! Power cut at every operation of a session, with several torn-bit seeds: what was stored
//! before the cut survives, the game in flight keeps a prefix of its moves, nothing is
//! invented, numbers are never reused, and the store goes on working.
//!
//! Each session runs on a flash filled beforehand with acknowledged games, so that it writes
//! every kind of operation: GAME records, direction and commit bytes, END records (one alone
//! in a fresh sector), CONT records, sector headers, the erase of a reclaimed sector, and
//! acks. The flashes: 4 sectors of 4096 bytes (the RP2040's), and an AVR's EEPROM: 1 KB and
//! 4 KB of 128- and 256-byte sectors.

mod common;

use std::ops::Range;

use common::*;
use twenty48_devicestore::{nor::NorError, Closing, GameStart, MemFlash, Store, StoreError};
use twenty48_engine::Direction;

#[derive(Clone, Copy, Debug)]
enum Step {
    Begin(GameStart),
    Move(Direction),
    End(u8),
    /// Ack the game at this index of the model.
    Ack(usize),
}

/// The store call the power cut interrupted.
#[derive(Clone, Copy, Debug)]
enum InFlight {
    /// `begin_game` of the game that would have had this number.
    Begin(u32, GameStart),
    /// `record_move` of this direction in the model's game at this index.
    Move(usize, Direction),
    /// `end_game` of the model's game at this index.
    End(usize, u8),
    /// `ack` of the model's game at this index.
    Ack(usize),
}

impl InFlight {
    fn kind(&self) -> usize {
        match self {
            InFlight::Begin(..) => 0,
            InFlight::Move(..) => 1,
            InFlight::End(..) => 2,
            InFlight::Ack(..) => 3,
        }
    }
}

/// Runs `steps` until the first error, which must be the power cut. Returns the call it
/// interrupted.
fn run<const S: usize>(
    store: &mut TestStore<S>,
    model: &mut Vec<Expected>,
    steps: &[Step],
) -> Option<InFlight> {
    for &step in steps {
        let current = model.len() - 1;
        let (flight, result) = match step {
            Step::Begin(start) => {
                let number = store.next_game_number();
                let r = store.begin_game(&start).map(|n| {
                    assert_eq!(n, number);
                    model.push(Expected {
                        number,
                        start,
                        moves: Vec::new(),
                        ended: None,
                        acked: false,
                    });
                });
                (InFlight::Begin(number, start), r)
            }
            Step::Move(d) => (
                InFlight::Move(current, d),
                store.record_move(d).map(|()| model[current].moves.push(d)),
            ),
            Step::End(result) => (
                InFlight::End(current, result),
                store
                    .end_game(&ending(result))
                    .map(|()| model[current].ended = Some(result)),
            ),
            Step::Ack(i) => (
                InFlight::Ack(i),
                store.ack(model[i].number).map(|()| model[i].acked = true),
            ),
        };
        match result {
            Ok(()) => {}
            Err(StoreError::Flash(NorError::PowerCut)) => return Some(flight),
            Err(e) => panic!("{step:?}: {e}"),
        }
    }
    None
}

/// Checks the reopened store against the model and the interrupted call.
fn check<const S: usize>(store: &mut TestStore<S>, model: &[Expected], flight: InFlight) {
    let got = read_all(store);
    let mut listed = got.iter().peekable();
    let mut kept_one = false;
    for (i, e) in model.iter().enumerate() {
        let Some((g, moves)) = listed.next_if(|(g, _)| g.number == e.number) else {
            // Only the oldest games may be gone, and only acknowledged ones (reclaimed).
            assert!(e.acked && !kept_one, "game {} is missing", e.number);
            continue;
        };
        kept_one = true;
        assert_eq!(g.start, e.start, "game {}", e.number);
        let (extra, ending) = match flight {
            InFlight::Move(j, d) if j == i => (Some(d), None),
            InFlight::End(j, r) if j == i => (None, Some(r)),
            _ => (None, None),
        };
        // The stored moves are the moves played, or those and the move in flight.
        assert!(
            moves.starts_with(&e.moves),
            "game {}: moves differ",
            e.number
        );
        assert!(
            moves.len() == e.moves.len()
                || (extra.is_some() && moves[e.moves.len()..] == [extra.unwrap()]),
            "game {}: {} moves stored, {} played",
            e.number,
            moves.len(),
            e.moves.len()
        );
        match e.ended {
            Some(result) => assert_eq!(g.closing, ended(result)),
            None => assert!(
                g.closing == Closing::Interrupted
                    || ending.is_some_and(|result| g.closing == ended(result)),
                "game {}: {:?}",
                e.number,
                g.closing
            ),
        }
        let acking = matches!(flight, InFlight::Ack(j) if j == i);
        assert!(g.acked == e.acked || acking, "game {}: ack", e.number);
    }
    // Nothing else, but perhaps the game whose begin was cut (a GAME record torn complete).
    if let Some((g, _)) = listed.next() {
        let InFlight::Begin(number, start) = flight else {
            panic!("invented game {}", g.number);
        };
        assert_eq!((g.number, g.start, g.moves), (number, start, 0));
        assert_eq!(g.closing, Closing::Interrupted);
    }
    assert!(listed.next().is_none(), "invented games");
    assert_lookups(store);
    // Numbers are never reused.
    let last = got.last().map_or(0, |(g, _)| g.number);
    let begun = model.last().map_or(0, |e| e.number);
    assert!(store.next_game_number() > last.max(begun));
}

/// A store of `sectors` `S`-byte sectors, all in use with acknowledged games (of `lens` moves,
/// and a shorter one) but the last, its head with about `room` bytes free; and the model of
/// it.
fn setup<const S: usize>(
    sectors: usize,
    room: u32,
    lens: Range<usize>,
) -> (Vec<u8>, Vec<Expected>) {
    let mut store = open_blank::<S>(sectors);
    let mut model = Vec::new();
    let mut rng = Rng(room as u64);
    let mut i = 0;
    loop {
        assert!(i < 10_000, "no game left {room} bytes free in the head");
        let full = store.counts().unwrap().free_sectors == 0;
        let (head, used) = head::<S>(store.flash().bytes());
        let free = S as u32 - used;
        // Small sectors (128 bytes) have no head with room for a filler game: a head that
        // has about `room` bytes free already will do.
        if full && free <= room + 23 {
            break;
        }
        if full && free >= room + 64 + 24 {
            // A filler game leaves `room` bytes (to within 23).
            let chunks = (free - room - 64) / 24;
            play(
                &mut store,
                &mut model,
                start(i),
                &rng.dirs(64 * (chunks as usize - 1) + 1),
                2,
            );
            assert_eq!(head, self::head::<S>(store.flash().bytes()).0);
            break;
        }
        // Acknowledged at once: when the ring wraps, the oldest sectors are reclaimed.
        let len = match lens.len() {
            1 => lens.start,
            n => lens.start + (rng.next() % n as u64) as usize,
        };
        play(&mut store, &mut model, start(i), &rng.dirs(len), 2);
        let e = model.last_mut().unwrap();
        store.ack(e.number).unwrap();
        e.acked = true;
        i += 1;
    }
    let e = model.last_mut().unwrap();
    store.ack(e.number).unwrap();
    e.acked = true;
    // The last one is acked during the session: set its ack byte back.
    let mut bytes = store.into_flash().into_inner();
    let last = model.last_mut().unwrap();
    last.acked = false;
    clear_ack(&mut bytes, last.number);
    (bytes, model)
}

/// The head sector (highest seq) and how many of its bytes are used (up to the last byte
/// that is not 0xFF).
fn head<const S: usize>(bytes: &[u8]) -> (usize, u32) {
    let mut best = None;
    for s in 0..bytes.len() / S {
        let h = &bytes[s * S..s * S + 16];
        if &h[..4] == b"T48\x02" {
            let seq = u32::from_le_bytes(h[4..8].try_into().unwrap());
            if best.is_none_or(|(_, q)| seq > q) {
                best = Some((s, seq));
            }
        }
    }
    let Some((s, _)) = best else {
        return (0, S as u32);
    };
    let sector = &bytes[s * S..(s + 1) * S];
    let used = sector.iter().rposition(|&b| b != 0xFF).map_or(0, |p| p + 1);
    // Round up past a record's trailing 0xFF bytes to the 8-byte grid.
    (s, (used as u32).div_ceil(8) * 8)
}

/// Sets the ack byte of game `number`'s GAME record back to 0xFF (as if never acked).
fn clear_ack(bytes: &mut [u8], number: u32) {
    let mut want = [b'G', 0, 0, 0, 0];
    want[1..].copy_from_slice(&number.to_le_bytes());
    let at = bytes.windows(5).rposition(|w| w == want).unwrap();
    assert_eq!(bytes[at + 31], 0);
    bytes[at + 31] = 0xFF;
}

/// The session: an ack, games of 150, 0, 64 and 700 moves with acks between, and a game of
/// 65 moves left in progress.
fn session(first: usize) -> Vec<Step> {
    let mut rng = Rng(99);
    let mut steps = vec![Step::Ack(first - 1)];
    let mut game = |steps: &mut Vec<Step>, i: u64, n: usize, end: Option<u8>| {
        steps.push(Step::Begin(start(100 + i)));
        steps.extend(rng.dirs(n).into_iter().map(Step::Move));
        steps.extend(end.map(Step::End));
    };
    game(&mut steps, 0, 150, Some(2));
    game(&mut steps, 1, 0, Some(1));
    game(&mut steps, 2, 64, Some(0));
    steps.push(Step::Ack(first));
    steps.push(Step::Ack(first + 1));
    game(&mut steps, 3, 700, Some(2));
    steps.push(Step::Ack(first + 2));
    game(&mut steps, 4, 65, None);
    steps
}

const SEEDS: u64 = 3;

/// Opens a store on a strict copy of `bytes`, cut at operation `cut` if any.
fn open_at<const S: usize>(bytes: &[u8], cut: Option<(u32, u64)>) -> TestStore<S> {
    let mut flash = MemFlash::<_, S>::new_sized(bytes.to_vec()).strict();
    if let Some((k, seed)) = cut {
        flash.cut_power_at(k, seed);
    }
    Store::open(flash).unwrap()
}

/// Cuts the power at every operation of the session with `SEEDS` seeds, on the store of
/// [`setup`]; returns the number of cases and how many cut each kind of call (begin, move,
/// end, ack).
fn cut_everywhere<const S: usize>(
    sectors: usize,
    room: u32,
    lens: Range<usize>,
) -> (usize, [usize; 4]) {
    let (bytes, model0) = setup::<S>(sectors, room, lens);
    let steps = session(model0.len());
    // The whole session once, to count its operations and check it needs a reclaim.
    let mut store = open_at::<S>(&bytes, None);
    let mut model = model0.clone();
    assert!(run(&mut store, &mut model, &steps).is_none());
    let total = store.flash().ops();
    // A sector header changed: the session reclaimed (erased) a sector.
    let after = store.flash().bytes();
    assert!((0..sectors).any(|s| after[s * S..s * S + 16] != bytes[s * S..s * S + 16]));
    let starts: String = (0..sectors).map(|s| after[s * S + 16] as char).collect();
    println!(
        "{sectors} sectors of {S} bytes, room {room}: {total} operations; records opening \
         the sectors: {starts}"
    );
    let mut cases = 0;
    let mut kinds = [0; 4];
    for k in 1..=total {
        for seed in 0..SEEDS {
            let mut store = open_at::<S>(&bytes, Some((k, seed)));
            let mut model = model0.clone();
            let flight = run(&mut store, &mut model, &steps)
                .unwrap_or_else(|| panic!("op {k} of {total} did not cut the session"));
            kinds[flight.kind()] += 1;
            let bytes = store.into_flash().into_inner();
            let mut store = open_at::<S>(&bytes, None);
            check(&mut store, &model, flight);
            // The store goes on: another game, stored and found after a reopening.
            let before = store.next_game_number();
            let dirs = Rng(k as u64).dirs(70);
            let number = store.begin_game(&start(7)).unwrap();
            assert_eq!(number, before);
            for &d in &dirs {
                store.record_move(d).unwrap();
            }
            store.end_game(&ending(1)).unwrap();
            assert_lookups(&mut store);
            let mut store = reopen(store);
            let g = store.find_game(number).unwrap().unwrap();
            assert_eq!(g.closing, ended(1));
            let mut moves = Vec::new();
            store.read_moves(&g, |d| moves.push(d)).unwrap();
            assert_eq!(moves, dirs);
            assert!(store.next_game_number() > number);
            cases += 1;
        }
    }
    (cases, kinds)
}

#[test]
fn power_cut_with_a_cont_and_a_reclaim_mid_game() {
    let (cases, kinds) = cut_everywhere::<4096>(4, 464, 3000..3001);
    println!("{cases} power-cut cases (begin, move, end, ack: {kinds:?})");
    assert!(kinds.iter().all(|&n| n > 0));
}

#[test]
fn power_cut_with_an_end_alone_in_a_fresh_sector() {
    let (cases, kinds) = cut_everywhere::<4096>(4, 180, 3000..3001);
    println!("{cases} power-cut cases (begin, move, end, ack: {kinds:?})");
    assert!(kinds.iter().all(|&n| n > 0));
}

/// An Arduino Uno's EEPROM: 1 KB of 128-byte sectors.
#[test]
fn power_cut_on_1_kb_of_128_byte_sectors() {
    let (cases, kinds) = cut_everywhere::<128>(8, 20, 50..250);
    println!("{cases} power-cut cases (begin, move, end, ack: {kinds:?})");
    assert!(kinds.iter().all(|&n| n > 0));
}

/// An Arduino Mega 2560's EEPROM: 4 KB of 256-byte sectors.
#[test]
fn power_cut_on_4_kb_of_256_byte_sectors() {
    let (cases, kinds) = cut_everywhere::<256>(16, 100, 100..700);
    println!("{cases} power-cut cases (begin, move, end, ack: {kinds:?})");
    assert!(kinds.iter().all(|&n| n > 0));
}

/// 4 KB of 128-byte sectors.
#[test]
fn power_cut_on_4_kb_of_128_byte_sectors() {
    let (cases, kinds) = cut_everywhere::<128>(32, 20, 50..250);
    println!("{cases} power-cut cases (begin, move, end, ack: {kinds:?})");
    assert!(kinds.iter().all(|&n| n > 0));
}

/// 1 KB of 256-byte sectors.
#[test]
fn power_cut_on_1_kb_of_256_byte_sectors() {
    let (cases, kinds) = cut_everywhere::<256>(4, 100, 100..700);
    println!("{cases} power-cut cases (begin, move, end, ack: {kinds:?})");
    assert!(kinds.iter().all(|&n| n > 0));
}
