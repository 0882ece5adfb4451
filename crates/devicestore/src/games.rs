//! [`GameStore`]: what keeps a board's games, whichever memory holds them ([`Store`] on NOR
//! flash, [`EepromStore`] on the AVR boards' EEPROM). The firmware's game loop and its pull
//! reply are written once against it.

use embedded_storage::nor_flash::NorFlash;
use twenty48_engine::Direction;

use crate::eeprom::{Eeprom, EepromStore};
use crate::nor::NorError;
use crate::{Counts, Ending, GameEntry, GameStart, Store, StoreError};

/// What keeps a board's games: their numbers, their moves as they are played, their ends,
/// and what a pull reads and an acknowledgement marks.
pub trait GameStore {
    /// The memory's own error, inside [`StoreError::Flash`].
    type Error;

    /// The number the next game will be given.
    fn next_game_number(&self) -> u32;
    /// The number of the game in progress, if one is.
    fn game_in_progress(&self) -> Option<u32>;
    /// Begins a game and gives it its number; an error: the game must not be played.
    ///
    /// # Errors
    /// The store is full, a game is in progress, or the memory failed.
    fn begin_game(&mut self, start: &GameStart) -> Result<u32, StoreError<Self::Error>>;
    /// Keeps a move of the game in progress.
    ///
    /// # Errors
    /// No game is in progress, the store is full, or the memory failed.
    fn record_move(&mut self, dir: Direction) -> Result<(), StoreError<Self::Error>>;
    /// Ends the game in progress: its result, final score and state hash.
    ///
    /// # Errors
    /// No game is in progress, or the memory failed.
    fn end_game(&mut self, ending: &Ending) -> Result<(), StoreError<Self::Error>>;
    /// The games kept, and how many of them are not yet acknowledged.
    ///
    /// # Errors
    /// The memory could not be read.
    fn counts(&mut self) -> Result<Counts, StoreError<Self::Error>>;
    /// The game after `after` in store order (the oldest for `None`).
    ///
    /// # Errors
    /// The memory could not be read.
    fn game_after(
        &mut self,
        after: Option<&GameEntry>,
    ) -> Result<Option<GameEntry>, StoreError<Self::Error>>;
    /// Game `number`, if it is kept.
    ///
    /// # Errors
    /// The memory could not be read.
    fn find_game(&mut self, number: u32) -> Result<Option<GameEntry>, StoreError<Self::Error>>;
    /// Calls `f` with each of the game's stored moves, in order.
    ///
    /// # Errors
    /// The memory could not be read.
    fn read_moves(
        &mut self,
        entry: &GameEntry,
        f: impl FnMut(Direction),
    ) -> Result<(), StoreError<Self::Error>>;
    /// Marks the game `entry` (as this store listed it) pulled.
    ///
    /// # Errors
    /// The game is not kept ([`StoreError::UnknownGame`]), is in progress, or the memory
    /// failed.
    fn ack(&mut self, entry: &GameEntry) -> Result<(), StoreError<Self::Error>>;
}

impl<F: NorFlash> GameStore for Store<F> {
    type Error = F::Error;

    fn next_game_number(&self) -> u32 {
        Store::next_game_number(self)
    }
    fn game_in_progress(&self) -> Option<u32> {
        Store::game_in_progress(self)
    }
    fn begin_game(&mut self, start: &GameStart) -> Result<u32, StoreError<F::Error>> {
        Store::begin_game(self, start)
    }
    fn record_move(&mut self, dir: Direction) -> Result<(), StoreError<F::Error>> {
        Store::record_move(self, dir)
    }
    fn end_game(&mut self, ending: &Ending) -> Result<(), StoreError<F::Error>> {
        Store::end_game(self, ending)
    }
    fn counts(&mut self) -> Result<Counts, StoreError<F::Error>> {
        Store::counts(self)
    }
    fn game_after(
        &mut self,
        after: Option<&GameEntry>,
    ) -> Result<Option<GameEntry>, StoreError<F::Error>> {
        Store::game_after(self, after)
    }
    fn find_game(&mut self, number: u32) -> Result<Option<GameEntry>, StoreError<F::Error>> {
        Store::find_game(self, number)
    }
    fn read_moves(
        &mut self,
        entry: &GameEntry,
        f: impl FnMut(Direction),
    ) -> Result<(), StoreError<F::Error>> {
        Store::read_moves(self, entry, f)
    }
    fn ack(&mut self, entry: &GameEntry) -> Result<(), StoreError<F::Error>> {
        Store::ack(self, entry.number)
    }
}

/// The EEPROM store reads from memory that cannot fail to be read: its reads are `Ok`.
impl<E: Eeprom> GameStore for EepromStore<E> {
    type Error = NorError;

    fn next_game_number(&self) -> u32 {
        EepromStore::next_game_number(self)
    }
    fn game_in_progress(&self) -> Option<u32> {
        EepromStore::game_in_progress(self)
    }
    fn begin_game(&mut self, start: &GameStart) -> Result<u32, StoreError<NorError>> {
        EepromStore::begin_game(self, start)
    }
    fn record_move(&mut self, dir: Direction) -> Result<(), StoreError<NorError>> {
        EepromStore::record_move(self, dir)
    }
    fn end_game(&mut self, ending: &Ending) -> Result<(), StoreError<NorError>> {
        EepromStore::end_game(self, ending)
    }
    fn counts(&mut self) -> Result<Counts, StoreError<NorError>> {
        Ok(EepromStore::counts(self))
    }
    fn game_after(
        &mut self,
        after: Option<&GameEntry>,
    ) -> Result<Option<GameEntry>, StoreError<NorError>> {
        Ok(EepromStore::game_after(self, after))
    }
    fn find_game(&mut self, number: u32) -> Result<Option<GameEntry>, StoreError<NorError>> {
        Ok(EepromStore::find_game(self, number))
    }
    fn read_moves(
        &mut self,
        entry: &GameEntry,
        f: impl FnMut(Direction),
    ) -> Result<(), StoreError<NorError>> {
        EepromStore::read_moves(self, entry, f);
        Ok(())
    }
    fn ack(&mut self, entry: &GameEntry) -> Result<(), StoreError<NorError>> {
        EepromStore::ack_entry(self, entry);
        Ok(())
    }
}
