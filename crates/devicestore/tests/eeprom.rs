//! The EEPROM store (the Arduino Uno's): games written and read back, the room it has, what
//! it reclaims and when it is full, a Uno upgraded from its game counter, and a power cut at
//! every EEPROM operation of a session that wraps the ring and fills it, each torn several
//! ways.

mod common;

use std::collections::BTreeSet;

use common::{ending, start, Rng};
use twenty48_devicestore::eeprom::{AsNor, EepromStore, MemEeprom};
use twenty48_devicestore::nor::NorError;
use twenty48_devicestore::{device_id, Closing, Ending, GameCounter, GameStart, StoreError};
use twenty48_engine::{Direction, Rules};

type Eeprom = MemEeprom<Vec<u8>>;
type Uno = EepromStore<Eeprom>;

fn blank() -> Eeprom {
    MemEeprom::new(vec![0xFF; 1024])
}

fn reopen(store: Uno) -> Uno {
    EepromStore::open(MemEeprom::new(store.into_eeprom().into_inner())).unwrap()
}

fn moves_of(store: &mut Uno, number: u32) -> Vec<Direction> {
    let game = store.find_game(number).expect("the game is stored");
    let mut moves = Vec::new();
    store.read_moves(&game, |d| moves.push(d));
    moves
}

/// Plays a game of `dirs` to its end; returns its number and whether every move was stored.
fn play(store: &mut Uno, i: u64, dirs: &[Direction]) -> Result<u32, StoreError<NorError>> {
    let number = store.begin_game(&start(i))?;
    for &d in dirs {
        store.record_move(d)?;
    }
    store.end_game(&ending(2))?;
    Ok(number)
}

#[test]
fn games_come_back_as_played() {
    let mut store = EepromStore::open(blank()).unwrap();
    let mut rng = Rng(1);
    let mut games = Vec::new();
    // Lengths around the 64-move blocks.
    for (i, n) in [0usize, 1, 63, 64, 65, 128, 200].into_iter().enumerate() {
        let dirs = rng.dirs(n);
        let number = play(&mut store, i as u64, &dirs).unwrap();
        games.push((number, i as u64, dirs));
    }
    let interrupted = store.begin_game(&start(9)).unwrap();
    let cut = rng.dirs(70);
    for &d in &cut {
        store.record_move(d).unwrap();
    }
    assert_eq!(
        store.find_game(interrupted).unwrap().closing,
        Closing::InProgress
    );
    let mut store = reopen(store);
    for (number, i, dirs) in &games {
        let game = store.find_game(*number).unwrap();
        assert_eq!((game.start, game.moves as usize), (start(*i), dirs.len()));
        assert_eq!(game.closing, common::ended(2));
        assert_eq!(&moves_of(&mut store, *number), dirs, "game {number}");
    }
    assert_eq!(
        store.find_game(interrupted).unwrap().closing,
        Closing::Interrupted
    );
    assert_eq!(moves_of(&mut store, interrupted), cut);
    let counts = store.counts();
    assert_eq!((counts.stored, counts.unpulled), (8, 8));
    assert_eq!(store.next_game_number(), interrupted + 1);
    // In number order.
    let mut after = None;
    let mut listed = Vec::new();
    while let Some(g) = store.game_after(after.as_ref()) {
        listed.push(g.number);
        after = Some(g);
    }
    assert_eq!(listed, (1..=8).collect::<Vec<_>>());
}

#[test]
fn the_store_takes_only_the_presets() {
    let mut store = EepromStore::open(blank()).unwrap();
    let mut rules = Rules::ARDUINO;
    rules.four_chance = twenty48_engine::FourChance::new(1, 2);
    let custom = GameStart { rules, seed: 1 };
    assert_eq!(store.begin_game(&custom), Err(StoreError::BadRules));
    // No number was taken.
    assert_eq!(store.begin_game(&start(0)), Ok(1));
}

#[test]
fn what_a_1_kb_eeprom_holds() {
    // Whole 1000-move games.
    let mut store = EepromStore::open(blank()).unwrap();
    let mut rng = Rng(2);
    let mut whole = 0;
    while play(&mut store, whole, &rng.dirs(1000)).is_ok() {
        whole += 1;
    }
    // The longest game.
    let mut store = EepromStore::open(blank()).unwrap();
    store.begin_game(&start(1)).unwrap();
    let mut longest = 0;
    while store.record_move(Direction::Up).is_ok() {
        longest += 1;
    }
    assert_eq!(store.end_game(&ending(2)), Err(StoreError::Full));
    let mut store = reopen(store);
    assert_eq!(moves_of(&mut store, 1).len(), longest);
    // Games of 20 moves.
    let mut store = EepromStore::open(blank()).unwrap();
    let mut short = 0;
    while play(&mut store, short, &rng.dirs(20)).is_ok() {
        short += 1;
    }
    println!(
        "a 1 KB EEPROM holds {whole} games of 1000 moves, {short} of 20, one of {longest} \
         moves (interrupted)"
    );
    assert_eq!((whole, short, longest), (2, 13, 39 * 64));
}

#[test]
fn acknowledged_games_make_room_and_others_never_go() {
    let mut store = EepromStore::open(blank()).unwrap();
    let mut rng = Rng(3);
    let mut ended = Vec::new();
    // Games of 200 moves until one does not fit: it is stored as far as there was room and
    // stays interrupted.
    let cut_short = loop {
        let number = store.begin_game(&start(ended.len() as u64)).unwrap();
        let dirs = rng.dirs(200);
        let stored = dirs
            .iter()
            .take_while(|&&d| store.record_move(d).is_ok())
            .count();
        match store.end_game(&ending(2)) {
            Ok(()) => ended.push(number),
            Err(StoreError::Full) => break (number, dirs[..stored].to_vec()),
            Err(e) => panic!("{e:?}"),
        }
    };
    let mut store = reopen(store);
    assert_eq!(
        store.find_game(cut_short.0).unwrap().closing,
        Closing::Interrupted
    );
    assert_eq!(moves_of(&mut store, cut_short.0), cut_short.1);
    // Nothing was erased: every game ended is there, whole.
    for &n in &ended {
        assert_eq!(store.find_game(n).unwrap().moves, 200);
    }
    assert_eq!(store.begin_game(&start(50)), Err(StoreError::Full));
    assert_eq!(store.next_game_number(), cut_short.0 + 1, "no number taken");
    // The oldest acknowledged: the next game takes its blocks, and only its.
    store.ack(ended[0]).unwrap();
    assert_eq!(store.counts().unpulled as usize, ended.len());
    let next = store.begin_game(&start(51)).unwrap();
    assert_eq!(next, cut_short.0 + 1);
    // The game in progress cannot be acknowledged.
    assert_eq!(
        store.ack(next),
        Err(StoreError::UnknownGame { number: next })
    );
    store.end_game(&ending(1)).unwrap();
    let mut store = reopen(store);
    assert!(store.find_game(ended[0]).is_none());
    for &n in &ended[1..] {
        assert_eq!(store.find_game(n).unwrap().moves, 200, "game {n}");
    }
    assert_eq!(store.find_game(next).unwrap().closing, common::ended(1));
    assert_eq!(store.ack(999), Err(StoreError::UnknownGame { number: 999 }));
}

#[test]
fn a_uno_that_kept_only_its_game_counter_goes_on_with_its_numbers_and_its_id() {
    let mut bytes = vec![0x3Cu8; 1024]; // a previous sketch's bytes
    {
        let mut eeprom = AsNor::<_, 16>(MemEeprom::new(&mut bytes[..]));
        let mut counter = GameCounter::open(&mut eeprom, 0).unwrap();
        for _ in 0..56 {
            counter.take(&mut eeprom).unwrap();
        }
        let (id, _) = device_id(&mut eeprom, 896, || 0xABCD_0328).unwrap();
        assert_eq!(id, 0xABCD_0328);
    }
    let id_record = bytes[896..912].to_vec();
    let mut store = EepromStore::open(MemEeprom::new(bytes)).unwrap();
    assert_eq!(store.next_game_number(), 57);
    assert_eq!(store.counts().stored, 0);
    let number = play(&mut store, 1, &Rng(4).dirs(300)).unwrap();
    assert_eq!(number, 57);
    let mut store = reopen(store);
    assert_eq!(store.next_game_number(), 58);
    assert_eq!(moves_of(&mut store, 57).len(), 300);
    let mut bytes = store.into_eeprom().into_inner();
    assert_eq!(bytes[896..912], id_record[..]);
    let mut eeprom = AsNor::<_, 16>(MemEeprom::new(&mut bytes[..]));
    assert_eq!(
        device_id(&mut eeprom, 896, || 1).unwrap(),
        (0xABCD_0328, false)
    );
}

/// What the session asks of the store.
#[derive(Clone, Copy, Debug)]
enum Act {
    /// Power off and on (no cut).
    Boot,
    /// Begin a game with `start(i)`.
    Begin(u64),
    /// Play this many moves of the game in progress.
    Moves(usize),
    /// End the game in progress.
    End(u8),
    /// Acknowledge the i-th game begun in the session.
    Ack(usize),
}

/// A game as the session played it, and what the store said.
#[derive(Debug)]
struct Played {
    number: u32,
    start: GameStart,
    played: Vec<Direction>,
    /// Moves the store said were stored.
    stored: usize,
    ended: Option<Ending>,
    acked: bool,
}

/// Where the power went off: the game and what was being done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InFlight {
    Begin,
    Move,
    End,
    Ack,
}

/// The session: games around the block size, acks, a game that wraps the ring into the
/// acknowledged games and stops at one that is not, a full store, more acks, more games.
fn session() -> Vec<Act> {
    use Act::*;
    vec![
        Begin(0),
        Moves(30),
        End(2),
        Begin(1),
        Moves(64),
        End(2),
        Begin(2),
        Moves(65),
        End(1),
        Begin(3),
        End(0),
        Begin(4),
        Moves(10),
        Boot,
        Ack(0),
        Ack(1),
        Begin(5),
        Moves(200),
        End(2),
        Begin(6),
        Moves(128),
        End(2),
        Ack(2),
        Ack(3),
        Ack(4),
        Begin(7),
        Moves(1900),
        End(2),
        Boot,
        Begin(8),
        Ack(5),
        Begin(9),
        Moves(5),
        End(2),
        Ack(7),
        Ack(6),
        Begin(10),
        Moves(40),
        End(2),
        Boot,
        Begin(11),
        Moves(3),
    ]
}

/// Runs the session on `eeprom` until its power is cut; returns the games, what was in
/// flight when it was (the last game's action), and the EEPROM.
fn run(eeprom: Eeprom, acts: &[Act]) -> (Vec<Played>, Option<InFlight>, Eeprom) {
    let mut store = EepromStore::open(eeprom).unwrap();
    let mut games: Vec<Played> = Vec::new();
    let mut rng = Rng(7);
    for &act in acts {
        let flight = match act {
            Act::Boot => {
                // The same EEPROM (its operations counted on), the store opened again.
                store = EepromStore::open(store.into_eeprom()).unwrap();
                continue;
            }
            Act::Begin(i) => {
                if let Ok(number) = store.begin_game(&start(i)) {
                    games.push(Played {
                        number,
                        start: start(i),
                        played: Vec::new(),
                        stored: 0,
                        ended: None,
                        acked: false,
                    });
                }
                InFlight::Begin
            }
            Act::Moves(n) => {
                let game = games.last_mut().unwrap();
                let mut flight = None;
                for d in rng.dirs(n) {
                    game.played.push(d);
                    let stored = store.record_move(d).is_ok();
                    if store.eeprom().is_cut() {
                        flight = Some(InFlight::Move);
                        break;
                    }
                    game.stored += usize::from(stored && game.stored + 1 == game.played.len());
                }
                if let Some(f) = flight {
                    return (games, Some(f), store.into_eeprom());
                }
                continue;
            }
            Act::End(result) => {
                if store.end_game(&ending(result)).is_ok() {
                    games.last_mut().unwrap().ended = Some(ending(result));
                }
                InFlight::End
            }
            Act::Ack(i) => {
                if let Some(game) = games.get_mut(i) {
                    game.acked |= store.ack(game.number).is_ok();
                }
                InFlight::Ack
            }
        };
        if store.eeprom().is_cut() {
            return (games, Some(flight), store.into_eeprom());
        }
    }
    (games, None, store.into_eeprom())
}

/// What the EEPROM a cut left must hold: every game begun and not acknowledged, each a prefix
/// of the game played with every move the store took (the move in flight or not), ended when
/// its end was stored; nothing else; numbers never given again. Returns the numbers listed.
fn check(bytes: Vec<u8>, games: &[Played], flight: Option<InFlight>, what: &str) -> Uno {
    let mut store = EepromStore::open(MemEeprom::new(bytes)).unwrap();
    let last = games.len().wrapping_sub(1);
    let mut listed = BTreeSet::new();
    let mut after = None;
    while let Some(entry) = store.game_after(after.as_ref()) {
        let i = games
            .iter()
            .position(|g| g.number == entry.number)
            .unwrap_or_else(|| panic!("{what}: game {} was never begun", entry.number));
        let game = &games[i];
        let in_flight = if i == last { flight } else { None };
        assert!(
            listed.insert(entry.number),
            "{what}: game {} twice",
            game.number
        );
        assert_eq!(entry.start, game.start, "{what}: game {}", game.number);
        let mut moves = Vec::new();
        store.read_moves(&entry, |d| moves.push(d));
        assert!(
            game.played.starts_with(&moves),
            "{what}: game {} is no prefix",
            game.number
        );
        let extra = usize::from(in_flight == Some(InFlight::Move));
        assert!(
            (game.stored..=game.stored + extra).contains(&moves.len()),
            "{what}: game {}: {} moves of {} stored",
            game.number,
            moves.len(),
            game.stored
        );
        match entry.closing {
            Closing::Ended { result, claims } => {
                let ending = game
                    .ended
                    .or((in_flight == Some(InFlight::End)).then(|| ending(result)))
                    .unwrap_or_else(|| panic!("{what}: game {} ended", game.number));
                assert_eq!(
                    (result, claims),
                    (ending.result, Some(ending.claims)),
                    "{what}"
                );
                assert_eq!(moves.len(), game.stored, "{what}: game {}", game.number);
            }
            Closing::Interrupted => assert!(
                game.ended.is_none() || in_flight == Some(InFlight::End),
                "{what}: game {} lost its end",
                game.number
            ),
            Closing::InProgress => panic!("{what}: a game in progress after a boot"),
        }
        if !game.acked && in_flight != Some(InFlight::Ack) {
            assert!(!entry.acked, "{what}: game {} acknowledged", game.number);
        }
        assert!(
            store.next_game_number() > game.number,
            "{what}: numbers go back"
        );
        after = Some(entry);
    }
    for (i, game) in games.iter().enumerate() {
        // A game whose begin the cut stopped was never played: its number is not given
        // (a cut before its counter record is whole gives it again).
        if i == last && flight == Some(InFlight::Begin) {
            continue;
        }
        let may_go = game.acked || (i == last && flight == Some(InFlight::Ack));
        if !may_go {
            assert!(
                listed.contains(&game.number),
                "{what}: game {} was lost",
                game.number
            );
        }
        assert!(
            store.next_game_number() > game.number,
            "{what}: numbers go back"
        );
    }
    store
}

#[test]
fn a_power_cut_at_any_eeprom_operation_loses_at_most_the_move_in_flight() {
    let acts = session();
    let mut garbage = vec![0x3Cu8; 1024]; // a previous sketch's bytes, but for the id
    garbage[896..912].fill(0xFF);
    let (games, flight, uncut) = run(MemEeprom::new(garbage.clone()), &acts);
    assert_eq!(flight, None);
    // The session wrapped the ring and filled it: game 8 was cut short.
    assert!(games[7].stored < games[7].played.len() && games[7].ended.is_none());
    let total = uncut.ops();
    let tears = 3;
    let mut cases = 0;
    for k in 1..=total {
        for tear in 0..tears {
            let mut eeprom = MemEeprom::new(garbage.clone());
            eeprom.cut_power_at(k, u64::from(k) * 31 + tear);
            let (games, flight, bytes) = run(eeprom, &acts);
            let what = format!("cut at operation {k} of {total} (tear {tear}, {flight:?})");
            assert!(flight.is_some(), "{what}: not cut");
            let mut store = check(bytes.into_inner(), &games, flight, &what);
            // The store goes on: once what it lists is acknowledged, a new game is stored
            // with a new number.
            let mut after = None;
            while let Some(g) = store.game_after(after.as_ref()) {
                store.ack(g.number).unwrap();
                after = Some(g);
            }
            let number = play(&mut store, 40, &[Direction::Up, Direction::Left]).unwrap();
            let given = games.len() - usize::from(flight == Some(InFlight::Begin));
            assert!(games[..given].iter().all(|g| g.number < number), "{what}");
            let mut store = reopen(store);
            assert_eq!(
                moves_of(&mut store, number),
                [Direction::Up, Direction::Left]
            );
            cases += 1;
        }
    }
    println!("{cases} power cuts at {total} EEPROM operations: 0 games lost, 0 wrong");
}
