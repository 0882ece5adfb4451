//! [`Store`]: writing games and reading them back, with recovery at open.

use embedded_storage::nor_flash::NorFlash;
use twenty48_engine::Direction;

use crate::chunk::{commit_bit, direction_bits, with_direction, CHUNK_LEN, SLOTS};
use crate::error::StoreError;
use crate::game::{Closing, Counts, Ending, GameEntry, GameStart};
use crate::nor::{Geometry, MAX_SECTOR_SIZE, MIN_SECTOR_SIZE};
use crate::record::{
    ContRecord, EndRecord, GameRecord, Header, ACK_AT, CONT_LEN, END_LEN, GAME_LEN, HEADER_LEN,
    LAYOUT,
};
use crate::ring::{self, ReadError};
use crate::sector::{self, base, read_header, sector_size, Flow, Item, Stop};

type Result<T, F> =
    core::result::Result<T, StoreError<<F as embedded_storage::nor_flash::ErrorType>::Error>>;

/// The sector new sectors follow: the one with the highest seq.
#[derive(Clone, Copy, Debug)]
struct Head {
    index: u32,
    seq: u32,
}

/// The game being written.
#[derive(Clone, Copy, Debug)]
struct Writing {
    number: u32,
    /// Moves stored so far.
    moves: u32,
    /// Moves stored before the current segment.
    segment_first: u32,
    /// Flash address of the current chunk.
    chunk: u32,
    /// The store filled up: no more of this game is stored.
    full: bool,
}

/// The game store over a NOR flash `F` (see the crate docs).
///
/// RAM: a few dozen bytes; every read goes through a small stack buffer.
#[derive(Debug)]
pub struct Store<F> {
    flash: F,
    sectors: u32,
    head: Option<Head>,
    /// Offset in the head where the next record goes; `None`: in a fresh sector.
    pos: Option<u32>,
    next: u32,
    game: Option<Writing>,
    halted: bool,
    /// What [`Store::counts`] answers: counted at open, kept up to date by every write.
    counts: Counts,
}

impl<F: NorFlash> Store<F> {
    /// Bytes in a sector: the flash's `ERASE_SIZE`.
    const SECTOR: u32 = sector_size::<F>();

    /// Opens the store on the whole of `flash`: reads every sector header and the games,
    /// decides where new records go and what the next game number is. Writes nothing.
    ///
    /// The flash must read and write single bytes, have sectors (`ERASE_SIZE`) of a power of
    /// two from 128 to 65536 bytes, and hold at least one sector (`Geometry` otherwise).
    pub fn open(mut flash: F) -> Result<Store<F>, F> {
        let capacity = flash.capacity();
        let erase = F::ERASE_SIZE;
        if F::READ_SIZE != 1
            || F::WRITE_SIZE != 1
            || !erase.is_power_of_two()
            || !(MIN_SECTOR_SIZE..=MAX_SECTOR_SIZE).contains(&(erase as u32))
            || capacity % erase != 0
            || capacity == 0
            // Every sector's end address fits in a u32.
            || capacity as u64 + erase as u64 > 1 << 32
        {
            return Err(StoreError::Geometry {
                write_size: F::WRITE_SIZE,
                erase_size: F::ERASE_SIZE,
                capacity,
            });
        }
        let sectors = (capacity / erase) as u32;
        let mut head: Option<Head> = None;
        // Whether the head's records are of the layout written now (new records go on in
        // it only then).
        let mut head_current = false;
        let mut next = 1u32;
        let mut counts = Counts::default();
        for index in 0..sectors {
            match read_header(&mut flash, index).map_err(StoreError::Flash)? {
                Header::InUse {
                    seq,
                    next_game,
                    layout,
                } => {
                    next = next.max(next_game);
                    if head.is_none_or(|h| seq > h.seq) {
                        head = Some(Head { index, seq });
                        head_current = layout == LAYOUT;
                    }
                }
                _ => counts.free_sectors += 1,
            }
        }
        let mut store = Store {
            flash,
            sectors,
            head,
            pos: None,
            next,
            game: None,
            halted: false,
            counts,
        };
        let Some(h) = head else {
            return Ok(store);
        };
        let summary = ring::scan(
            &mut store.flash,
            sectors,
            h.index + 1,
            sectors,
            None,
            &mut |g| {
                store.counts.stored += 1;
                store.counts.unpulled += u32::from(!g.acked);
                false
            },
        )
        .map_err(StoreError::Flash)?;
        store.next = store.next.max(summary.next_number);
        if let Some((index, w)) = summary.last {
            // New records go on in the head only if its data ends cleanly after an END (or
            // it is empty) and everything after is erased.
            if index == h.index
                && head_current
                && w.stop == Stop::Clean
                && w.last_end
                && sector::erased_from(&mut store.flash, index, w.at).map_err(StoreError::Flash)?
            {
                store.pos = Some(w.at);
            }
        }
        Ok(store)
    }

    /// The number the next new game will get.
    pub fn next_game_number(&self) -> u32 {
        self.next
    }

    /// The number of the game being written, if any.
    pub fn game_in_progress(&self) -> Option<u32> {
        self.game.map(|g| g.number)
    }

    /// Stores the start of a new game and returns its number.
    ///
    /// `Full` (nothing written) when it does not fit and the next sector cannot be reclaimed.
    pub fn begin_game(&mut self, start: &GameStart) -> Result<u32, F> {
        self.check_writable()?;
        if let Some(g) = self.game {
            return Err(StoreError::GameInProgress { number: g.number });
        }
        if start.rules.validate().is_err() {
            return Err(StoreError::BadRules);
        }
        let at = match self.pos {
            Some(p) if p + GAME_LEN + CHUNK_LEN <= Self::SECTOR => p,
            _ => self.fresh_sector()?,
        };
        let number = self.next;
        let addr = self.head_base() + at;
        self.program(addr, &GameRecord::encode(number, start))?;
        self.next = number.saturating_add(1);
        self.pos = None;
        self.game = Some(Writing {
            number,
            moves: 0,
            segment_first: 0,
            chunk: addr + GAME_LEN,
            full: false,
        });
        Ok(number)
    }

    /// Stores the next move of the game in progress: its direction, then its commit bit.
    /// When this returns `Ok` the move survives a power cut.
    ///
    /// `Full` when the game needs a new sector and none can be reclaimed: this move and every
    /// later one of the game are not stored.
    pub fn record_move(&mut self, dir: Direction) -> Result<(), F> {
        self.check_writable()?;
        let mut g = self.game.ok_or(StoreError::NoGame)?;
        if g.full {
            return Err(StoreError::Full);
        }
        let in_segment = g.moves - g.segment_first;
        if in_segment > 0 && in_segment % SLOTS == 0 {
            if g.chunk % Self::SECTOR + 2 * CHUNK_LEN <= Self::SECTOR {
                g.chunk += CHUNK_LEN;
            } else {
                match self.fresh_sector() {
                    Ok(at) => {
                        let cont = ContRecord {
                            number: g.number,
                            first_move: g.moves,
                        };
                        let addr = self.head_base() + at;
                        self.program(addr, &cont.encode())?;
                        self.pos = None;
                        g.chunk = addr + CONT_LEN;
                        g.segment_first = g.moves;
                    }
                    Err(StoreError::Full) => {
                        g.full = true;
                        self.game = Some(g);
                        return Err(StoreError::Full);
                    }
                    Err(e) => return Err(e),
                }
            }
            self.game = Some(g);
        }
        let slot = (g.moves - g.segment_first) % SLOTS;
        if dir != Direction::Left {
            let (byte, shift) = direction_bits(slot);
            let old = self.read_byte(g.chunk + byte)?;
            self.program(g.chunk + byte, &[with_direction(old, shift, dir)])?;
        }
        let (byte, bit) = commit_bit(slot);
        let old = self.read_byte(g.chunk + byte)?;
        self.program(g.chunk + byte, &[old & !(1 << bit)])?;
        g.moves += 1;
        self.game = Some(g);
        Ok(())
    }

    /// Ends the game in progress by storing its END record: its result (1 won, 2 over, 0
    /// abandoned) and the device's final score and state hash. The game is no longer in
    /// progress afterwards, whatever the outcome.
    ///
    /// `Full` when the END does not fit and no sector can be reclaimed, or when the game was
    /// already cut short by `Full`: it stays stored as interrupted.
    pub fn end_game(&mut self, ending: &Ending) -> Result<(), F> {
        self.check_writable()?;
        let g = self.game.take().ok_or(StoreError::NoGame)?;
        // No longer in progress: listed from now on, ended or interrupted.
        self.counts.stored += 1;
        self.counts.unpulled += 1;
        if g.full {
            return Err(StoreError::Full);
        }
        let in_segment = g.moves - g.segment_first;
        let offset = g.chunk % Self::SECTOR;
        // A full last chunk has an empty chunk after it, when one fits (the extent rule).
        let segment_end = if in_segment > 0
            && in_segment % SLOTS == 0
            && offset + 2 * CHUNK_LEN <= Self::SECTOR
        {
            offset + 2 * CHUNK_LEN
        } else {
            offset + CHUNK_LEN
        };
        let at = if segment_end + END_LEN <= Self::SECTOR {
            segment_end
        } else {
            self.fresh_sector()?
        };
        let end = EndRecord {
            number: g.number,
            moves: g.moves,
            result: ending.result,
            claims: Some(ending.claims),
        };
        self.program(self.head_base() + at, &end.encode())?;
        self.pos = Some(at + END_LEN);
        Ok(())
    }

    /// Calls `f` with every stored game, oldest first.
    pub fn for_each_game(&mut self, mut f: impl FnMut(&GameEntry)) -> Result<(), F> {
        self.scan_all(|g| {
            f(g);
            false
        })
    }

    /// The game after `after` in store order (the oldest game for `None`): walk the store a
    /// game at a time, reading each one's moves, without rescanning it all each time.
    pub fn game_after(&mut self, after: Option<&GameEntry>) -> Result<Option<GameEntry>, F> {
        let (Some(after), Some(head)) = (after, self.head) else {
            let mut found = None;
            self.scan_all(|g| {
                found = Some(*g);
                true
            })?;
            return Ok(found);
        };
        let loc = after.loc;
        let current = matches!(
            read_header(&mut self.flash, loc.sector).map_err(StoreError::Flash)?,
            Header::InUse { seq, .. } if seq == loc.seq
        );
        let mut found = None;
        if current {
            let count = (head.index + self.sectors - loc.sector) % self.sectors + 1;
            let mut seen = false;
            let in_progress = self.game_in_progress();
            ring::scan(
                &mut self.flash,
                self.sectors,
                loc.sector,
                count,
                in_progress,
                &mut |g| {
                    if seen {
                        found = Some(*g);
                        return true;
                    }
                    seen = g.loc == loc;
                    false
                },
            )
            .map_err(StoreError::Flash)?;
        } else {
            // `after` was reclaimed: go on from the first later number.
            if let Some(later) = after.number.checked_add(1) {
                found = self.first_from(later)?;
            }
        }
        Ok(found)
    }

    /// The stored game with this number, if any.
    ///
    /// Reads about log2(sectors) sector headers, as a binary search does, to find the newest
    /// sector whose header's next game number is at most `number` (the sectors before it hold
    /// older games only), and the games from there on up to the first numbered `number` or
    /// more: a few sectors, however big the store. (In flash damaged other than by power cuts,
    /// so that games are no longer in the order of their numbers, a game listed by
    /// [`for_each_game`](Store::for_each_game) may not be found.)
    pub fn find_game(&mut self, number: u32) -> Result<Option<GameEntry>, F> {
        if number >= self.next && self.next != u32::MAX {
            return Ok(None);
        }
        Ok(self.first_from(number)?.filter(|g| g.number == number))
    }

    /// Calls `f` with each stored move of `entry`, in order (`entry.moves` calls).
    ///
    /// `Corrupt` when the game is no longer where `entry` says (reclaimed since it was listed).
    pub fn read_moves(&mut self, entry: &GameEntry, f: impl FnMut(Direction)) -> Result<(), F> {
        ring::read_moves(&mut self.flash, self.sectors, entry, f).map_err(|e| match e {
            ReadError::Flash(e) => StoreError::Flash(e),
            ReadError::Corrupt => StoreError::Corrupt,
        })
    }

    /// Marks game `number` as acknowledged by the host (idempotent). Only acknowledged games
    /// are ever erased to make room.
    pub fn ack(&mut self, number: u32) -> Result<(), F> {
        self.check_writable()?;
        if self.game_in_progress() == Some(number) {
            return Err(StoreError::GameInProgress { number });
        }
        let entry = self
            .find_game(number)?
            .ok_or(StoreError::UnknownGame { number })?;
        if !entry.acked {
            self.program(
                base::<F>(entry.loc.sector) + entry.loc.offset + ACK_AT,
                &[0],
            )?;
            self.counts.unpulled = self.counts.unpulled.saturating_sub(1);
        }
        Ok(())
    }

    /// How many games are stored and not acknowledged, and how many sectors are free.
    ///
    /// Reads nothing: counted at open and kept up to date by every write (after a failed
    /// write, counted again from the flash).
    pub fn counts(&mut self) -> Result<Counts, F> {
        if self.halted {
            return self.recount();
        }
        Ok(self.counts)
    }

    /// [`counts`](Store::counts) read from the flash: every game and every sector header.
    fn recount(&mut self) -> Result<Counts, F> {
        let mut counts = Counts::default();
        self.scan_all(|g| {
            if g.closing != Closing::InProgress {
                counts.stored += 1;
                counts.unpulled += u32::from(!g.acked);
            }
            false
        })?;
        for index in 0..self.sectors {
            if !matches!(
                read_header(&mut self.flash, index).map_err(StoreError::Flash)?,
                Header::InUse { .. }
            ) {
                counts.free_sectors += 1;
            }
        }
        Ok(counts)
    }

    /// The flash, to read it directly (do not write it behind the store's back).
    pub fn flash(&mut self) -> &mut F {
        &mut self.flash
    }

    /// The flash back.
    pub fn into_flash(self) -> F {
        self.flash
    }

    /// The ring position (0: the sector after the head, the oldest; `sectors - 1`: the head)
    /// where a scan for game `number` starts: the newest sector in use whose header's next
    /// game number is at most `number` (0 when none). Every GAME record before it is of an
    /// older game: a sector's header has the number the next new game got when it was opened.
    ///
    /// A binary search over the positions, reading a header at each step: the next game
    /// numbers of the sectors in use grow from the oldest to the head. A sector not in use
    /// (never used, or a torn erase or header: before the sectors in use, unless the flash is
    /// damaged) counts as the first sector in use after it.
    fn jump(&mut self, number: u32) -> Result<u32, F> {
        let Some(h) = self.head else {
            return Ok(0);
        };
        let (mut lo, mut hi) = (0, self.sectors);
        // Positions before `lo` hold games older than `number` only; from `hi` on, none.
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let mut older = None;
            for p in mid..hi {
                let index = (h.index + 1 + p) % self.sectors;
                if let Header::InUse { next_game, .. } =
                    read_header(&mut self.flash, index).map_err(StoreError::Flash)?
                {
                    older = (next_game <= number).then_some(p);
                    break;
                }
            }
            match older {
                Some(p) => lo = p + 1,
                None => hi = mid,
            }
        }
        Ok(lo.saturating_sub(1))
    }

    /// The first game in store order whose number is `number` or more, read from the sector
    /// [`Store::jump`] gives (games are in the order of their numbers).
    fn first_from(&mut self, number: u32) -> Result<Option<GameEntry>, F> {
        let Some(h) = self.head else {
            return Ok(None);
        };
        let from = self.jump(number)?;
        let in_progress = self.game_in_progress();
        let mut found = None;
        ring::scan(
            &mut self.flash,
            self.sectors,
            h.index + 1 + from,
            self.sectors - from,
            in_progress,
            &mut |g| {
                if g.number >= number {
                    found = Some(*g);
                }
                found.is_some()
            },
        )
        .map_err(StoreError::Flash)?;
        Ok(found)
    }

    fn scan_all(&mut self, mut emit: impl FnMut(&GameEntry) -> bool) -> Result<(), F> {
        if let Some(h) = self.head {
            let in_progress = self.game_in_progress();
            ring::scan(
                &mut self.flash,
                self.sectors,
                h.index + 1,
                self.sectors,
                in_progress,
                &mut emit,
            )
            .map_err(StoreError::Flash)?;
        }
        Ok(())
    }

    fn check_writable(&self) -> Result<(), F> {
        if self.halted {
            Err(StoreError::Halted)
        } else {
            Ok(())
        }
    }

    fn head_base(&self) -> u32 {
        self.head.map_or(0, |h| base::<F>(h.index))
    }

    fn read_byte(&mut self, addr: u32) -> Result<u8, F> {
        let mut b = [0u8];
        self.flash.read(addr, &mut b).map_err(StoreError::Flash)?;
        Ok(b[0])
    }

    /// Programs `data` at `addr`, one page at a time. A failure halts the store.
    fn program(&mut self, addr: u32, data: &[u8]) -> Result<(), F> {
        for (at, range) in Geometry::new(Self::SECTOR).page_pieces(addr, data.len()) {
            if let Err(e) = self.flash.write(at, &data[range]) {
                self.halted = true;
                return Err(StoreError::Flash(e));
            }
        }
        Ok(())
    }

    /// Opens the next sector in ring order as the head: erases it (reclaiming it if in use
    /// and every game starting there is acknowledged) and writes its header. Returns the
    /// offset where records go. `Full`, erasing nothing, if it holds a game not acknowledged
    /// or the game in progress.
    fn fresh_sector(&mut self) -> Result<u32, F> {
        let target = self.head.map_or(0, |h| (h.index + 1) % self.sectors);
        let header = read_header(&mut self.flash, target).map_err(StoreError::Flash)?;
        // The games listed with a GAME record in the target (all acknowledged), gone once it
        // is reclaimed; or the free sector it takes.
        let mut gone = Counts::default();
        if let Header::InUse { layout, .. } = header {
            let in_progress = self.game_in_progress();
            let mut reclaimable = true;
            sector::walk(&mut self.flash, target, layout, &mut |item| {
                let keep = match item {
                    Item::Game { record, .. } => {
                        !record.acked || Some(record.number) == in_progress
                    }
                    Item::Cont { record, .. } => Some(record.number) == in_progress,
                    Item::End { .. } => false,
                };
                if keep {
                    reclaimable = false;
                    Flow::Stop
                } else {
                    Flow::Next
                }
            })
            .map_err(StoreError::Flash)?;
            if !reclaimable {
                return Err(StoreError::Full);
            }
            // The target is the oldest sector: a scan of the store reads it first, from
            // nothing, just as a scan of it alone does.
            ring::scan(&mut self.flash, self.sectors, target, 1, None, &mut |g| {
                gone.stored += 1;
                gone.unpulled += u32::from(!g.acked);
                false
            })
            .map_err(StoreError::Flash)?;
        } else {
            gone.free_sectors = 1;
        }
        if !sector::erased_from(&mut self.flash, target, 0).map_err(StoreError::Flash)? {
            let at = base::<F>(target);
            if let Err(e) = self.flash.erase(at, at + Self::SECTOR) {
                self.halted = true;
                return Err(StoreError::Flash(e));
            }
        }
        let seq = self.head.map_or(1, |h| h.seq.wrapping_add(1));
        self.program(base::<F>(target), &Header::encode(seq, self.next))?;
        // Saturating: in damaged flash the counts may be off (never below zero).
        let c = &mut self.counts;
        c.stored = c.stored.saturating_sub(gone.stored);
        c.unpulled = c.unpulled.saturating_sub(gone.unpulled);
        c.free_sectors = c.free_sectors.saturating_sub(gone.free_sectors);
        self.head = Some(Head { index: target, seq });
        self.pos = Some(HEADER_LEN);
        Ok(HEADER_LEN)
    }
}
