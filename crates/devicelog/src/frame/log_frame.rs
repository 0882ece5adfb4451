//! One frame of the log, as the host understands it.

use twenty48_engine::{Direction, Rules};

use crate::fact::DeviceFact;
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
    /// Protocol v2: a frame of the device about itself, its store or a request (hello,
    /// lost, full, pull begin and done, acked, error), as the report gives it; the decoder
    /// names the device of those that do not carry it ([`DeviceFact::of_device`]).
    Device(DeviceFact),
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
