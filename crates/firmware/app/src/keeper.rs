//! Where the games are kept: the game store ([`Store`] on NOR flash, `EepromStore` on the
//! Arduino Uno's EEPROM). Every shipped board has one since the Uno got its EEPROM store;
//! the host still understands a board without one (error frame `NoStore`).

use embedded_storage::nor_flash::NorFlash;
use twenty48_deviceproto::Request;
use twenty48_devicestore::eeprom::{Eeprom, EepromStore};
use twenty48_devicestore::{Counts, Ending, GameStart, Store, StoreError};
use twenty48_engine::Direction;

use crate::board::Board;
use crate::protocol::Log;

/// Why a game or a move was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The store is full.
    Full,
    /// The store (or the counter) could not be read or written.
    Failed,
}

impl core::fmt::Display for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Refusal::Full => "the store is full",
            Refusal::Failed => "the store could not be read or written",
        })
    }
}

/// What keeps the games the application plays: their numbers, and their moves if it can.
pub trait Keeper {
    /// The number the next game will be given.
    fn next_game_number(&self) -> u32;
    /// The games kept (`None`: they could not be counted).
    fn counts(&mut self) -> Option<Counts>;
    /// Begins a game and gives it its number; an error: the game must not be played.
    fn begin_game(&mut self, start: &GameStart) -> Result<u32, Refusal>;
    /// Keeps a move of the game in progress.
    fn record_move(&mut self, dir: Direction) -> Result<(), Refusal>;
    /// Ends the game in progress: its result (0 abandoned, 1 won, 2 over), final score and
    /// state hash.
    fn end_game(&mut self, ending: &Ending) -> Result<(), Refusal>;
    /// The number of the game in progress, if one is.
    fn game_in_progress(&self) -> Option<u32>;
    /// Answers a store request (`{pull}`, `{pull all}`, `{ack N C}`, or one unknown).
    fn answer<B: Board>(&mut self, board: &mut B, log: &mut Log, request: Request);
}

fn refusal<E>(e: StoreError<E>) -> Refusal {
    match e {
        StoreError::Full => Refusal::Full,
        _ => Refusal::Failed,
    }
}

impl<F: NorFlash> Keeper for Store<F> {
    fn next_game_number(&self) -> u32 {
        Store::next_game_number(self)
    }
    fn counts(&mut self) -> Option<Counts> {
        Store::counts(self).ok()
    }
    fn begin_game(&mut self, start: &GameStart) -> Result<u32, Refusal> {
        Store::begin_game(self, start).map_err(refusal)
    }
    fn record_move(&mut self, dir: Direction) -> Result<(), Refusal> {
        Store::record_move(self, dir).map_err(refusal)
    }
    fn end_game(&mut self, ending: &Ending) -> Result<(), Refusal> {
        Store::end_game(self, ending).map_err(refusal)
    }
    fn game_in_progress(&self) -> Option<u32> {
        Store::game_in_progress(self)
    }
    fn answer<B: Board>(&mut self, board: &mut B, log: &mut Log, request: Request) {
        crate::pull::answer(board, self, log, request);
    }
}

impl<E: Eeprom> Keeper for EepromStore<E> {
    fn next_game_number(&self) -> u32 {
        EepromStore::next_game_number(self)
    }
    fn counts(&mut self) -> Option<Counts> {
        Some(EepromStore::counts(self))
    }
    fn begin_game(&mut self, start: &GameStart) -> Result<u32, Refusal> {
        EepromStore::begin_game(self, start).map_err(refusal)
    }
    fn record_move(&mut self, dir: Direction) -> Result<(), Refusal> {
        EepromStore::record_move(self, dir).map_err(refusal)
    }
    fn end_game(&mut self, ending: &Ending) -> Result<(), Refusal> {
        EepromStore::end_game(self, ending).map_err(refusal)
    }
    fn game_in_progress(&self) -> Option<u32> {
        EepromStore::game_in_progress(self)
    }
    fn answer<B: Board>(&mut self, board: &mut B, log: &mut Log, request: Request) {
        crate::pull::answer(board, self, log, request);
    }
}
