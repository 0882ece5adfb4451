//! What the store tells about a game.

use twenty48_engine::Rules;

/// How a game starts: everything needed, with its moves, to replay it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameStart {
    /// The rule set.
    pub rules: Rules,
    /// The seed of the spawn generator.
    pub seed: u64,
}

/// The device's own score and state hash of a game when it ended: what its engine
/// computed, kept so that a host replaying the stored moves can compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claims {
    /// The final score.
    pub score: u64,
    /// The final state hash.
    pub hash: u64,
}

/// How a stored game closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closing {
    /// An END record closes it: `result` as given to [`Store::end_game`](crate::Store::end_game)
    /// (the protocol's 1 won, 2 over, 0 abandoned), and the device's final score and state
    /// hash (`None` for a game stored by the first store layout, which kept none).
    Ended {
        /// The result code.
        result: u8,
        /// The device's final score and hash.
        claims: Option<Claims>,
    },
    /// No END record and not being written: a power cut or reset stopped it, or the store
    /// filled up under it. Its stored moves are a prefix of the moves played.
    Interrupted,
    /// The game this [`Store`](crate::Store) is writing now.
    InProgress,
}

/// How a game ends, as [`Store::end_game`](crate::Store::end_game) stores it: the result
/// and what the device's engine computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result code (the protocol's 1 won, 2 over, 0 abandoned).
    pub result: u8,
    /// The final score and state hash.
    pub claims: Claims,
}

/// Where a game's GAME record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Location {
    /// Physical sector index.
    pub sector: u32,
    /// The sector's seq (tells a stale location from a reused sector).
    pub seq: u32,
    /// Offset of the GAME record in the sector.
    pub offset: u32,
}

/// A stored game, as listed by [`Store::for_each_game`](crate::Store::for_each_game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// The game number (counted by the store from 1, never reused).
    pub number: u32,
    /// Rules and seed.
    pub start: GameStart,
    /// Moves stored (committed).
    pub moves: u32,
    /// How it closes.
    pub closing: Closing,
    /// Whether the host acknowledged it (pulled it and checked it).
    pub acked: bool,
    pub(crate) loc: Location,
}

/// Games and sectors in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Counts {
    /// Games a `{pull all}` sends: every listed game but the one in progress.
    pub stored: u32,
    /// Of those, the games not acknowledged (what a `{pull}` sends).
    pub unpulled: u32,
    /// Sectors not in use (free, or garbage to erase before use).
    pub free_sectors: u32,
}
