//! One frame of the log, as the host understands it.

use twenty48_engine::{Direction, Rules};

use crate::game::{DeviceMove, GameEnd};

/// One frame of the log, as the host understands it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LogFrame {
    Start {
        rules: Rules,
        seed: u64,
    },
    Move(DeviceMove),
    End(GameEnd),
    /// Protocol v2: the device says who it is and what its store holds.
    Hello {
        dev: u64,
        next: u32,
        stored: u32,
        unpulled: u32,
    },
    /// Protocol v2: a game starts (live) or a stored game is sent (pull reply).
    Start2 {
        dev: u64,
        game: u32,
        rules: Rules,
        seed: u64,
        check: u32,
    },
    /// Protocol v2: a move of game `game`.
    Move2 {
        game: u32,
        mv: DeviceMove,
    },
    /// Protocol v3: moves of stored game `game` after its first `first`.
    Moves3 {
        game: u32,
        first: u32,
        dirs: Vec<Direction>,
    },
    /// Protocol v2: game `game` ended (or, `end.partial`, was interrupted).
    End2 {
        game: u32,
        end: GameEnd,
    },
    /// Protocol v2: the device dropped frames.
    Lost {
        game: u32,
        at_move: u32,
        frames: u32,
    },
    /// Protocol v2: the store is full.
    Full {
        game: u32,
        at_move: u32,
    },
    /// Protocol v2: a pull reply begins.
    PullBegin {
        dev: u64,
        games: u32,
    },
    /// Protocol v2: a pull reply ends.
    PullDone {
        dev: u64,
        sent: u32,
    },
    /// Protocol v2: the device marked a game as pulled.
    Acked {
        game: u32,
    },
    /// Protocol v2: the device refused a request.
    Error {
        code: u8,
        game: u32,
    },
    /// A v2 protocol frame whose check value does not match its other values: damaged.
    CheckMismatch,
    /// A protocol frame whose values do not make sense (wrong version, bad rules...).
    Invalid {
        reason: String,
    },
    /// Any other log message of the firmware.
    Other {
        text: String,
    },
}
