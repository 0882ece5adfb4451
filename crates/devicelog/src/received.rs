//! A game as a pull receives it: its start and end frames, and its moves checked on the host
//! as they arrive, only the verified ones kept (2 bits each), so that a game in flight
//! costs about a quarter of a byte a move whatever frames brought it.

use std::fmt;

use twenty48_engine::{packed, Direction, Rules};
use twenty48_movelog::{MoveLog, DEFAULT_CHECKPOINT_INTERVAL};

use crate::check::{GameCheck, Replay};
use crate::game::{DeviceGame, DeviceMove, GameEnd};
use crate::record::sealed::{Assemble, Start};
use crate::record::GameRecord;

/// Directions packed four to a byte ([`packed`], as `.t48` files and `t48 moves` frames keep
/// them), growing one move at a time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Packed {
    bytes: Vec<u8>,
    len: u32,
}

impl Packed {
    fn push(&mut self, dir: Direction) {
        if self.len % 4 == 0 {
            self.bytes.push(0);
        }
        packed::put(&mut self.bytes, self.len as usize, dir);
        self.len += 1;
    }

    fn iter(&self) -> impl ExactSizeIterator<Item = Direction> + '_ {
        (0..self.len as usize).map(|i| packed::move_at(&self.bytes, i))
    }
}

/// One copy of a game as a pull received it: what its start frame said, its end frame, how
/// many moves came, and the moves the host confirmed (the verified prefix, 2 bits a move).
/// The moves after the first problem are counted, not kept: no file ever holds them.
#[derive(Clone)]
pub struct ReceivedGame {
    /// The game's number: protocol v2 and v3, the device's game number; v1, its number
    /// within the capture, from 1.
    pub number: u32,
    /// Protocol v2 and v3: the device id from the game-start frame (`None` for v1).
    pub dev: Option<u64>,
    /// Protocol v2 and v3: the game-start frame's check (the start digest its end must
    /// carry).
    pub start_check: Option<u32>,
    /// The rules from the game-start frame.
    pub rules: Rules,
    /// The seed from the game-start frame.
    pub seed: u64,
    /// The game-end (or partial) frame; `None` when none came (a truncated game).
    pub end: Option<GameEnd>,
    /// Byte offset of the game-start frame in the capture.
    pub offset: usize,
    /// Protocol v2 and v3: started inside a pull reply of its device (a stored game), not
    /// live.
    stored: bool,
    received: u32,
    verified: Packed,
    /// While the game is open, the host's replay of it; once closed, its result.
    state: State,
}

#[derive(Clone, Debug)]
enum State {
    Open(Box<Replay>),
    Closed(GameCheck),
}

impl ReceivedGame {
    /// Whether the game came inside a pull reply of its device (a stored game), not live.
    pub fn is_stored(&self) -> bool {
        self.stored
    }

    /// Whether the game came with a partial frame: a stored game that was interrupted.
    pub fn is_partial(&self) -> bool {
        self.end.is_some_and(|e| e.partial)
    }

    /// How many moves arrived for this copy (verified or not).
    pub fn moves_received(&self) -> u32 {
        self.received
    }

    /// The moves the host confirmed, from the first: all of them when the game verified.
    pub fn verified_moves(&self) -> impl ExactSizeIterator<Item = Direction> + '_ {
        self.verified.iter()
    }

    /// The host's replay: verified moves, first problem (an open game: as if it ended
    /// here, truncated).
    pub fn check(&self) -> GameCheck {
        match &self.state {
            State::Open(replay) => replay.finish(self.end.as_ref(), self.start_check),
            State::Closed(check) => check.clone(),
        }
    }

    /// The bytes this copy holds on the heap beyond its own size: what keeping it costs.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.verified.bytes.capacity()
            + match self.state {
                State::Open(_) => std::mem::size_of::<Replay>(),
                State::Closed(_) => 0,
            }
    }

    /// A move log of what is certain about this game, as [`DeviceGame::to_movelog`]: the
    /// whole game when it verified (marked incomplete when it is an interrupted stored
    /// game), else with `keep_partial` its verified moves marked incomplete, else `None`.
    pub fn to_movelog(&self, keep_partial: bool) -> Option<MoveLog> {
        let verified = self.check().is_verified();
        if !verified && !keep_partial {
            return None;
        }
        let moves: Vec<Direction> = self.verified_moves().collect();
        let mut log =
            MoveLog::from_moves(self.rules, self.seed, &moves, DEFAULT_CHECKPOINT_INTERVAL).ok()?;
        log.complete = verified && !self.is_partial();
        Some(log)
    }
}

/// What a device game becomes once checked: a `.t48` log of what the host confirmed, made
/// as a pull makes it (the game received frame by frame, then [`ReceivedGame::to_movelog`]).
impl DeviceGame {
    /// A move log of what is certain about this game.
    ///
    /// A game that [checks](crate::check()) clean gives a complete log of all its moves.
    /// Otherwise, with `keep_partial`, the log holds the moves before the first problem and
    /// is marked incomplete (`complete == false`); without it, `None`. Never a log with a
    /// move the host could not confirm.
    pub fn to_movelog(&self, keep_partial: bool) -> Option<MoveLog> {
        ReceivedGame::from(self).to_movelog(keep_partial)
    }
}

impl From<&DeviceGame> for ReceivedGame {
    /// The game as a pull would have received it, frame by frame.
    fn from(game: &DeviceGame) -> ReceivedGame {
        let mut received = ReceivedGame::start(Start {
            number: game.number,
            dev: game.dev,
            start_check: game.start_check,
            rules: game.rules,
            seed: game.seed,
            offset: game.offset,
            stored: false,
        });
        for mv in &game.moves {
            received.push(mv);
        }
        received.close(game.end);
        received
    }
}

impl fmt::Debug for ReceivedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReceivedGame")
            .field("number", &self.number)
            .field("dev", &self.dev)
            .field("rules", &self.rules)
            .field("seed", &self.seed)
            .field("end", &self.end)
            .field("offset", &self.offset)
            .field("moves_received", &self.received)
            .field("verified_moves", &self.verified.len)
            .finish_non_exhaustive()
    }
}

/// Two copies are equal when their frames said the same and the same moves verified.
impl PartialEq for ReceivedGame {
    fn eq(&self, other: &ReceivedGame) -> bool {
        (
            self.number,
            self.dev,
            self.start_check,
            self.rules,
            self.seed,
            self.end,
            self.offset,
            self.received,
        ) == (
            other.number,
            other.dev,
            other.start_check,
            other.rules,
            other.seed,
            other.end,
            other.offset,
            other.received,
        ) && self.verified == other.verified
            && self.check() == other.check()
    }
}

impl Eq for ReceivedGame {}

impl GameRecord for ReceivedGame {}

impl Assemble for ReceivedGame {
    fn start(s: Start) -> ReceivedGame {
        ReceivedGame {
            number: s.number,
            dev: s.dev,
            start_check: s.start_check,
            rules: s.rules,
            seed: s.seed,
            end: None,
            offset: s.offset,
            stored: s.stored,
            received: 0,
            verified: Packed::default(),
            state: State::Open(Box::new(Replay::new(s.number, s.rules, s.seed))),
        }
    }

    fn push(&mut self, mv: &DeviceMove) {
        self.received = self.received.saturating_add(1);
        if let State::Open(replay) = &mut self.state {
            if replay.push(mv) {
                self.verified.push(mv.dir);
            }
        }
    }

    fn close(&mut self, end: Option<GameEnd>) {
        self.end = end;
        if let State::Open(replay) = &self.state {
            self.state = State::Closed(replay.finish(end.as_ref(), self.start_check));
        }
        self.verified.bytes.shrink_to_fit();
    }

    fn number(&self) -> u32 {
        self.number
    }

    fn offset(&self) -> usize {
        self.offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_four_to_a_byte_and_read_back_in_order() {
        let mut packed = Packed::default();
        let dirs: Vec<Direction> = (0..11).map(|i| Direction::ALL[(i * 7 + 1) % 4]).collect();
        for &d in &dirs {
            packed.push(d);
        }
        assert_eq!(packed.bytes.len(), 3);
        assert_eq!(packed.iter().collect::<Vec<_>>(), dirs);
        // The layout of .t48 files and `t48 moves` frames: move i at bits 2 * (i % 4).
        assert_eq!(packed.bytes[0] & 0b11, dirs[0].code());
        assert_eq!((packed.bytes[2] >> 4) & 0b11, dirs[10].code());
    }
}
