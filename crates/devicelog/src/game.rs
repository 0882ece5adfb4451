//! A game as the device logged it.

use twenty48_engine::{Direction, Rules, Status};

/// One move that changed the board on the device: from a move frame (live), or from a
/// `t48 moves` frame of a stored game (protocol v3), which carries the directions only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceMove {
    /// The move's number in its game, 1 for the first.
    pub seq: u32,
    /// The direction.
    pub dir: Direction,
    /// The score after the move, as the device counted it (`None`: a stored game's move,
    /// sent without it; the game's end frame has the device's final score).
    pub score: Option<u64>,
    /// The state hash after the move (spawn included), as the device computed it (`None`
    /// as for `score`).
    pub hash: Option<u64>,
}

/// The game-end frame, or (protocol v2, `partial`) the partial frame of a stored game that
/// was interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// How the game ended: [`Status::Won`], [`Status::Over`], or [`Status::Playing`] for a
    /// game abandoned for another one (QEMU only) and for an interrupted game.
    pub status: Status,
    /// The final score (`None`: a protocol v3 partial frame, which has none).
    pub score: Option<u64>,
    /// The number of moves played.
    pub moves: u32,
    /// The final state hash (`None` as for `score`).
    pub hash: Option<u64>,
    /// Protocol v2 and v3: a partial frame: the game was interrupted (power cut, reset) after
    /// `moves` stored moves (v3: or its END record kept no score and hash); its log is a
    /// verified prefix, marked incomplete.
    pub partial: bool,
    /// Protocol v2: the digest of the game's start (`start=`), which must equal the check
    /// of the game-start frame.
    pub start: Option<u32>,
    /// Protocol v2: this frame's own check (`crc=`), which the host names when it
    /// acknowledges the game.
    pub check: Option<u32>,
}

/// One game found in a capture: its start frame and what followed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceGame {
    /// The game's number: protocol v2, the device's game number; v1, its number within
    /// the capture, from 1.
    pub number: u32,
    /// Protocol v2: the device id from the game-start frame (`None` for v1).
    pub dev: Option<u64>,
    /// Protocol v2: the game-start frame's check (the start digest its end must carry).
    pub start_check: Option<u32>,
    /// The rules from the game-start frame.
    pub rules: Rules,
    /// The seed from the game-start frame.
    pub seed: u64,
    /// The move frames, in the order they arrived.
    pub moves: Vec<DeviceMove>,
    /// The game-end frame; `None` when the capture has none (truncated game).
    pub end: Option<GameEnd>,
    /// Byte offset of the game-start frame in the capture.
    pub offset: usize,
}

impl DeviceGame {
    /// Whether the game came with a partial frame: a stored game that was interrupted.
    pub fn is_partial(&self) -> bool {
        self.end.is_some_and(|e| e.partial)
    }
}
