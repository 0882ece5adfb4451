//! Issue 34: the NOR flash store and the EEPROM store are one abstraction, `GameStore`, that
//! the firmware's game loop and pull reply are written against. The same session through the
//! trait gives the same games, moves, counts and acknowledgements on both.

use twenty48_devicestore::eeprom::{EepromStore, MemEeprom};
use twenty48_devicestore::{
    Claims, Closing, Counts, Ending, GameEntry, GameStart, GameStore, MemFlash, Store, StoreError,
};
use twenty48_engine::{Direction, Rules};

/// What a session through the trait saw: each game as listed, its moves, the counts before
/// and after the acknowledgements, and the error an unknown game's ack gave.
#[derive(Debug, PartialEq)]
struct Seen {
    games: Vec<(u32, GameStart, u32, Closing)>,
    moves: Vec<Vec<Direction>>,
    /// Games stored and not yet acknowledged (the free room differs with the memory).
    before: (u32, u32),
    after: (u32, u32),
    in_progress: Option<u32>,
}

fn pair(c: Counts) -> (u32, u32) {
    (c.stored, c.unpulled)
}

fn session<S: GameStore>(store: &mut S) -> Seen
where
    S::Error: core::fmt::Debug,
{
    use Direction::*;
    let first = store.next_game_number();
    for (i, moves) in [&[Left, Up, Right][..], &[Down, Down], &[Up]]
        .iter()
        .enumerate()
    {
        let start = GameStart {
            rules: Rules::ARDUINO,
            seed: 7 + i as u64,
        };
        let number = store.begin_game(&start).unwrap();
        assert_eq!(number, first + i as u32);
        assert_eq!(store.game_in_progress(), Some(number));
        for &dir in *moves {
            store.record_move(dir).unwrap();
        }
        if i < 2 {
            let claims = Claims {
                score: 4 * i as u64,
                hash: 99 + i as u64,
            };
            store.end_game(&Ending { result: 2, claims }).unwrap();
        }
    }
    // The third game is still being played.
    let before = pair(store.counts().unwrap());
    let mut games = Vec::new();
    let mut moves = Vec::new();
    let mut after: Option<GameEntry> = None;
    while let Some(entry) = store.game_after(after.as_ref()).unwrap() {
        let mut m = Vec::new();
        store.read_moves(&entry, |d| m.push(d)).unwrap();
        games.push((entry.number, entry.start, entry.moves, entry.closing));
        moves.push(m);
        assert_eq!(store.find_game(entry.number).unwrap(), Some(entry));
        after = Some(entry);
    }
    let first_entry = store.find_game(first).unwrap().unwrap();
    store.ack(&first_entry).unwrap();
    Seen {
        games,
        moves,
        before,
        after: pair(store.counts().unwrap()),
        in_progress: store.game_in_progress(),
    }
}

#[test]
fn both_stores_keep_the_same_session_the_same_way() {
    let mut nor = Store::open(MemFlash::new([0xFF; 4 * 4096])).unwrap();
    let mut eeprom = EepromStore::open(MemEeprom::new([0xFF; 1024])).unwrap();
    let a = session(&mut nor);
    let b = session(&mut eeprom);
    assert_eq!(a, b);
    assert_eq!(
        a.moves[0],
        [Direction::Left, Direction::Up, Direction::Right]
    );
    assert_eq!(a.after.1 + 1, a.before.1, "the ack marked one pulled");
    assert_eq!(a.in_progress, Some(3));
    // A game the store does not hold: the NOR store names the error the pull answers
    // with error 3 (no game).
    let mut entry = nor.find_game(1).unwrap().unwrap();
    entry.number = 77;
    assert!(matches!(
        GameStore::ack(&mut nor, &entry),
        Err(StoreError::UnknownGame { number: 77 })
    ));
}
