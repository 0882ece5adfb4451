//! [`EepromStore`]: the games of a 1 KB byte-writable EEPROM (the Arduino Uno's), in blocks
//! of 24 bytes used as a ring.

use twenty48_engine::Direction;

use crate::eeprom::as_nor::AsNor;
use crate::eeprom::block::{self, addr, next, BLOCKS, EEPROM_LEN, SLOTS};
use crate::eeprom::chip::Eeprom;
use crate::error::StoreError;
use crate::game::{Closing, Counts, Ending, GameEntry, GameStart, Location};
use crate::nor::NorError;
use crate::GameCounter;

type Result<T> = core::result::Result<T, StoreError<NorError>>;

/// The game counter's records: 16 bytes each, at 0 and 16 (a NOR flash of 16-byte sectors
/// over the EEPROM).
fn counter_flash<E: Eeprom>(eeprom: &mut E) -> AsNor<&mut E, 16> {
    AsNor(eeprom)
}

/// The game being written.
#[derive(Clone, Copy, Debug)]
struct Writing {
    number: u32,
    /// The MOVES block the next move goes into (or the one that just filled).
    block: u8,
    moves: u16,
    /// The store filled up: no more of this game is stored.
    full: bool,
}

/// How a stored game goes on after its START: its moves, the last block it uses, and
/// whether that is its END.
struct Walk {
    moves: u16,
    last: u8,
    ended: bool,
}

/// The game store of a 1 KB EEPROM (the Arduino Uno's; docs/firmware.md, "The Uno's store"):
/// the same promises as [`Store`](crate::Store) on an EEPROM whose bytes are written one at
/// a time, with code and RAM to fit a 32 KB, 2 KB chip.
///
/// ```
/// use twenty48_devicestore::eeprom::{EepromStore, MemEeprom};
/// use twenty48_devicestore::{Claims, Closing, Ending, GameStart};
/// use twenty48_engine::{Direction, Rules};
///
/// let mut store = EepromStore::open(MemEeprom::new([0xFF; 1024]))?;
/// let start = GameStart { rules: Rules::ARDUINO, seed: 42 };
/// let number = store.begin_game(&start)?;
/// store.record_move(Direction::Left)?; // in EEPROM before the next press is handled
/// store.record_move(Direction::Up)?;
/// let claims = Claims { score: 4, hash: 0x0123_4567_89ab_cdef };
/// store.end_game(&Ending { result: 2, claims })?;
///
/// // After a power cycle: open the same EEPROM again.
/// let mut store = EepromStore::open(store.into_eeprom())?;
/// let game = store.find_game(number).unwrap();
/// assert_eq!((game.start, game.moves), (start, 2));
/// assert_eq!(game.closing, Closing::Ended { result: 2, claims: Some(claims) });
/// let mut moves = Vec::new();
/// store.read_moves(&game, |dir| moves.push(dir));
/// assert_eq!(moves, [Direction::Left, Direction::Up]);
/// assert_eq!(store.next_game_number(), number + 1);
/// # Ok::<(), twenty48_devicestore::StoreError<twenty48_devicestore::nor::NorError>>(())
/// ```
///
/// # The layout
///
/// Bytes 0..32 are the [`GameCounter`]'s two records (what the Uno kept before it had a
/// store, so its game numbers go on), bytes 896..912 the device id
/// ([`device_id`](crate::device_id)), and the rest 40 blocks of 24 bytes, a ring: a game is
/// a START block (number, seed, rules, ack byte), MOVES blocks of 64 moves (commit bits,
/// then 2 bits a direction) and an END block (result, moves, score, hash), each game right
/// after the one before. Every byte is changed by one erase (to 0xFF) or one program
/// (clearing bits), so a power cut tears at most the byte in flight, and only the bits it
/// was changing.
///
/// # Power cuts
///
/// - A move is two programs: its direction bits, then its commit bit; committed moves are a
///   prefix, so a cut loses at most the move in flight.
/// - A block is erased (its first byte first) before it is written. The MOVES block after a
///   START is erased before the START is written, and the block after a MOVES block is
///   erased before that block's last move is committed: a game's blocks are never read from
///   what an older game left.
/// - A START and an END count only whole: each ends in a CRC-32, the END's XORed with the
///   game number.
/// - A game's number is taken from the counter before its START is written, so a cut in
///   between loses only an unused number.
///
/// # Room
///
/// The next game goes after the newest one. A block in the way is erased when it is not the
/// START of a game the host has not acknowledged (so the oldest acknowledged games go
/// first); otherwise the store is full: a game does not start, or a game in progress is
/// stored only up to there and stays interrupted.
#[derive(Debug)]
pub struct EepromStore<E> {
    eeprom: E,
    counter: GameCounter,
    /// Where the next game's START goes.
    pos: u8,
    game: Option<Writing>,
}

impl<E: Eeprom> EepromStore<E> {
    /// Opens the store on `eeprom` (at least 1024 bytes): reads the counter and every
    /// block, and finds the newest game. Writes nothing.
    pub fn open(mut eeprom: E) -> Result<EepromStore<E>> {
        if eeprom.capacity() < EEPROM_LEN {
            return Err(StoreError::Geometry {
                write_size: 1,
                erase_size: 1,
                capacity: eeprom.capacity() as usize,
            });
        }
        let counter =
            GameCounter::open(&mut counter_flash(&mut eeprom), 0).map_err(StoreError::Flash)?;
        let mut store = EepromStore {
            eeprom,
            counter,
            pos: 0,
            game: None,
        };
        let mut newest: Option<(u32, u8)> = None;
        for b in 0..BLOCKS {
            if let Some(s) = block::read_start(&mut store.eeprom, b) {
                if newest.is_none_or(|(n, _)| s.number > n) {
                    newest = Some((s.number, b));
                }
            }
        }
        if let Some((number, b)) = newest {
            store.counter.at_least(number.saturating_add(1));
            store.pos = next(store.walk(b, number).last);
        }
        Ok(store)
    }

    /// The EEPROM.
    pub fn eeprom(&self) -> &E {
        &self.eeprom
    }

    /// The EEPROM.
    pub fn into_eeprom(self) -> E {
        self.eeprom
    }

    /// The number the next new game will get.
    pub fn next_game_number(&self) -> u32 {
        self.counter.next_game_number()
    }

    /// The number of the game being written, if any.
    pub fn game_in_progress(&self) -> Option<u32> {
        self.game.map(|g| g.number)
    }

    /// Stores the start of a new game and returns its number.
    ///
    /// `Full` (nothing written) when the blocks it needs hold a game not acknowledged;
    /// `BadRules` for rules that are not a preset's (the START keeps the preset).
    pub fn begin_game(&mut self, start: &GameStart) -> Result<u32> {
        if let Some(g) = self.game {
            return Err(StoreError::GameInProgress { number: g.number });
        }
        let s = self.pos;
        if !self.reclaimable(s) || !self.reclaimable(next(s)) {
            return Err(StoreError::Full);
        }
        // Checked before the counter moves: a game that cannot be stored takes no number.
        let preset = block::preset_of(start).ok_or(StoreError::BadRules)?;
        let number = self
            .counter
            .take(&mut counter_flash(&mut self.eeprom))
            .map_err(StoreError::Flash)?;
        block::erase(&mut self.eeprom, s);
        block::erase(&mut self.eeprom, next(s));
        let bytes = block::start_bytes(number, start.seed, preset);
        block::write(&mut self.eeprom, addr(s), &bytes);
        self.game = Some(Writing {
            number,
            block: next(s),
            moves: 0,
            full: false,
        });
        Ok(number)
    }

    /// Stores the next move of the game in progress: its direction, then its commit bit.
    /// When this returns `Ok` the move survives a power cut.
    ///
    /// `Full` when the game needs a block that holds a game not acknowledged: this move and
    /// every later one of the game are not stored.
    pub fn record_move(&mut self, dir: Direction) -> Result<()> {
        let mut g = self.game.ok_or(StoreError::NoGame)?;
        if g.full {
            return Err(StoreError::Full);
        }
        let slot = g.moves % SLOTS;
        if slot == 0 && g.moves > 0 {
            // Erased when the block before filled.
            g.block = next(g.block);
        }
        block::write_direction(&mut self.eeprom, g.block, slot, dir);
        if slot == SLOTS - 1 {
            // The block fills with this move: the next one is erased first, or, when it
            // holds a game not acknowledged (which a reader stops at), the game stops here.
            let after = next(g.block);
            if self.reclaimable(after) {
                block::erase(&mut self.eeprom, after);
            } else {
                g.full = true;
            }
        }
        block::commit(&mut self.eeprom, g.block, slot);
        g.moves += 1;
        self.game = Some(g);
        Ok(())
    }

    /// Ends the game in progress by storing its END: its result (1 won, 2 over, 0
    /// abandoned) and the device's final score and state hash. The game is no longer in
    /// progress afterwards, whatever the outcome.
    ///
    /// `Full` when the END's block holds a game not acknowledged, or when the game was
    /// already cut short by `Full`: it stays stored as interrupted.
    pub fn end_game(&mut self, ending: &Ending) -> Result<()> {
        let g = self.game.take().ok_or(StoreError::NoGame)?;
        let e = next(g.block);
        self.pos = e;
        // (After a full block the next one was erased when it filled: reclaimable.)
        if g.full || !self.reclaimable(e) {
            return Err(StoreError::Full);
        }
        block::erase(&mut self.eeprom, e);
        let bytes = block::end_bytes(g.number, g.moves, ending.result, &ending.claims);
        block::write(&mut self.eeprom, addr(e), &bytes);
        self.pos = next(e);
        Ok(())
    }

    /// Whether block `b` may be erased: it is not the START of a game the host has not
    /// acknowledged (nor of the game in progress).
    fn reclaimable(&mut self, b: u8) -> bool {
        block::read_start(&mut self.eeprom, b).is_none_or(|s| s.acked)
    }

    /// Game `number`'s blocks after its START at `s`.
    fn walk(&mut self, s: u8, number: u32) -> Walk {
        let (mut b, mut moves, mut more) = (s, 0, true);
        loop {
            let m = next(b);
            let tag = block::tag(&mut self.eeprom, m);
            if m == s || block::is_record(tag) || !more {
                let ended = m != s && block::is_end(&mut self.eeprom, m, number, moves);
                let last = if ended { m } else { b };
                return Walk { moves, last, ended };
            }
            let n = block::committed(&mut self.eeprom, m);
            moves += n;
            b = m;
            more = n == SLOTS;
        }
    }

    /// The stored game whose START is block `b` (never inlined: the pull and the ack share
    /// it).
    #[inline(never)]
    fn entry(&mut self, b: u8) -> Option<GameEntry> {
        let s = block::read_start(&mut self.eeprom, b)?;
        let (moves, closing) = match self.game {
            Some(g) if g.number == s.number => (g.moves, Closing::InProgress),
            _ => {
                let w = self.walk(b, s.number);
                let closing = if w.ended {
                    let (result, claims) = block::read_end(&mut self.eeprom, w.last);
                    Closing::Ended {
                        result,
                        claims: Some(claims),
                    }
                } else {
                    Closing::Interrupted
                };
                (w.moves, closing)
            }
        };
        Some(GameEntry {
            number: s.number,
            start: block::read_game_start(&mut self.eeprom, b),
            moves: moves.into(),
            closing,
            acked: s.acked,
            loc: Location {
                sector: b.into(),
                seq: 0,
                offset: 0,
            },
        })
    }

    /// The games stored (all but the one in progress) and those not acknowledged.
    pub fn counts(&mut self) -> Counts {
        let mut counts = Counts::default();
        let in_progress = self.game_in_progress();
        for b in 0..BLOCKS {
            if let Some(s) = block::read_start(&mut self.eeprom, b) {
                if Some(s.number) != in_progress {
                    counts.stored += 1;
                    counts.unpulled += u32::from(!s.acked);
                }
            }
        }
        counts
    }

    /// The stored game numbered `number` (the game in progress too).
    pub fn find_game(&mut self, number: u32) -> Option<GameEntry> {
        let b = self.block_of(number)?;
        self.entry(b)
    }

    /// The START block of game `number`.
    fn block_of(&mut self, number: u32) -> Option<u8> {
        (0..BLOCKS)
            .find(|&b| block::read_start(&mut self.eeprom, b).is_some_and(|s| s.number == number))
    }

    /// The game after `after` in number order (the oldest game for `None`).
    pub fn game_after(&mut self, after: Option<&GameEntry>) -> Option<GameEntry> {
        let floor = after.map_or(0, |g| g.number);
        let mut best: Option<(u32, u8)> = None;
        for b in 0..BLOCKS {
            if let Some(s) = block::read_start(&mut self.eeprom, b) {
                if s.number > floor && best.is_none_or(|(n, _)| s.number < n) {
                    best = Some((s.number, b));
                }
            }
        }
        let (_, b) = best?;
        self.entry(b)
    }

    /// Calls `f` with the first `entry.moves` directions of a game this store listed.
    pub fn read_moves(&mut self, entry: &GameEntry, mut f: impl FnMut(Direction)) {
        let mut b = entry.loc.sector as u8;
        for i in 0..entry.moves as u16 {
            let slot = i % SLOTS;
            if slot == 0 {
                b = next(b);
            }
            f(block::direction(&mut self.eeprom, b, slot));
        }
    }

    /// Marks game `number` pulled, so its blocks may be reused. `UnknownGame` when no
    /// stored game but the one in progress has that number.
    pub fn ack(&mut self, number: u32) -> Result<()> {
        let b = self
            .block_of(number)
            .filter(|_| self.game_in_progress() != Some(number))
            .ok_or(StoreError::UnknownGame { number })?;
        self.eeprom.program(addr(b) + block::ACK_AT, 0);
        Ok(())
    }

    /// Marks the game `entry` pulled: a game this store listed ([`find_game`] or
    /// [`game_after`], not the one in progress), whose START it does not read again.
    ///
    /// [`find_game`]: EepromStore::find_game
    /// [`game_after`]: EepromStore::game_after
    pub fn ack_entry(&mut self, entry: &GameEntry) {
        self.eeprom
            .program(addr(entry.loc.sector as u8) + block::ACK_AT, 0);
    }
}
