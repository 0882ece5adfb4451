//! What decoding a capture finds, frame by frame: game events, damaged stretches, log
//! messages and the device's own frames (those two kinds are in `fact`). Always runs on
//! the host.

use std::fmt;

use twenty48_engine::Rules;

use crate::fact::{DeviceFact, Message};
use crate::game::{DeviceGame, DeviceMove, GameEnd};
use crate::reply::Reply;
use crate::rzcobs::MAX_FRAME_BYTES;

/// What was wrong with a stretch of the capture.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DamageKind {
    /// The bytes between two frame separators are not a valid defmt frame (lost or changed
    /// bytes, or garbage); they were skipped.
    Malformed,
    /// A protocol frame whose values make no sense; it was skipped.
    Invalid {
        /// What is wrong with it.
        reason: String,
    },
    /// A move or game-end frame with no game open (its game-start frame was lost).
    Orphan,
    /// The capture ends in the middle of a frame.
    Unterminated,
    /// Protocol v2: a frame whose check value (`crc=`) does not match its other values;
    /// skipped, never read as another frame.
    CheckMismatch,
    /// The bytes between two separators hold a frame followed by `trailing` more bytes:
    /// a separator was lost and two frames merged. Both are skipped.
    Merged {
        /// The bytes left over after the first frame.
        trailing: usize,
    },
    /// More bytes without a separator than any frame of the firmware has
    /// ([`MAX_FRAME_BYTES`]): not a frame, whatever follows; skipped up to the next
    /// separator without being kept.
    Oversized,
}

/// A damaged stretch of the capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// Byte offset of the stretch in the capture.
    pub offset: usize,
    /// Its length in bytes (without the frame separator).
    pub len: usize,
    /// The game open when it came (its number), if any.
    pub game: Option<u32>,
    /// What was wrong.
    pub kind: DamageKind,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bytes {}..{}", self.offset, self.offset + self.len)?;
        if let Some(game) = self.game {
            write!(f, " (in game {game})")?;
        }
        match &self.kind {
            DamageKind::Malformed => f.write_str(": malformed frame skipped"),
            DamageKind::Invalid { reason } => write!(f, ": invalid frame skipped: {reason}"),
            DamageKind::Orphan => f.write_str(": frame of a game whose start was lost, skipped"),
            DamageKind::Unterminated => f.write_str(": capture ends inside a frame"),
            DamageKind::CheckMismatch => f.write_str(": check mismatch, damaged frame skipped"),
            DamageKind::Oversized => write!(
                f,
                ": more than {MAX_FRAME_BYTES} bytes without a frame separator, skipped"
            ),
            DamageKind::Merged { trailing } => write!(
                f,
                ": merged frames (a lost separator; {trailing} bytes after the first frame), skipped"
            ),
        }
    }
}

/// What a [`CaptureDecoder`](crate::CaptureDecoder) found in the bytes fed to it (`G`: how it keeps each game,
/// [`GameRecord`](crate::GameRecord)).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event<G = DeviceGame> {
    /// A game-start frame.
    GameStarted {
        /// Protocol v2: the device id.
        dev: Option<u64>,
        /// Game number (v2: the device's; v1: in the capture).
        number: u32,
        /// Its rules.
        rules: Rules,
        /// Its seed.
        seed: u64,
    },
    /// A move frame of an open game.
    Moved {
        /// Game number.
        game: u32,
        /// The move.
        mv: DeviceMove,
    },
    /// Protocol v3: a `t48 moves` frame of an open stored game, its moves `first + 1` to
    /// `first + count` (one event for the frame, not one a move, so that what a feed
    /// returns stays small however many moves its bytes hold).
    StoredMoves {
        /// Game number.
        game: u32,
        /// The moves of the game before the frame's.
        first: u32,
        /// The frame's moves.
        count: u32,
    },
    /// A game is over as far as the capture goes: its end frame came, or the stream showed
    /// it cannot go on (the same game or another of its kind started on its device, or
    /// more than [`MAX_OPEN_GAMES`](crate::MAX_OPEN_GAMES) games were open), or (from
    /// [`CaptureDecoder::finish`](crate::CaptureDecoder::finish)) the capture ended.
    GameClosed(Box<G>),
    /// A damaged stretch.
    Damaged(Damage),
    /// Another log message.
    Message(Message),
    /// Protocol v2: a frame of the device about itself, its store or a request.
    Device(DeviceFact),
    /// Protocol v2: a pull reply began or ended, after the frame that did it (a reply cut
    /// off by the end of the bytes: at the end): the one account of the device's replies.
    Reply(Reply),
    /// Protocol v2 and v3: a move, moves or end frame of game `game` of device `dev` with
    /// no such game open. It comes with its [`DamageKind::Orphan`] damage, and says what
    /// the frame held, so that a pull can hold it against a copy of that game it kept.
    Stray {
        /// Device id.
        dev: u64,
        /// Game number.
        game: u32,
        /// What the frame held.
        frame: StrayFrame,
    },
}

/// What a frame of a game not open held ([`Event::Stray`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StrayFrame {
    /// A move frame.
    Move(DeviceMove),
    /// A `t48 moves` frame: the moves after the first `first`.
    Moves {
        /// The moves of the game before the frame's.
        first: u32,
        /// The frame's moves.
        dirs: Vec<twenty48_engine::Direction>,
    },
    /// An end or partial frame.
    End(GameEnd),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_facts_read_like_sentences() {
        for (fact, text) in [
            (
                DeviceFact::Hello {
                    dev: 0xab,
                    next: 7,
                    stored: 3,
                    unpulled: 2,
                },
                "device 00000000000000ab: next game 7, 3 stored, 2 not yet pulled",
            ),
            (
                DeviceFact::Lost {
                    dev: None,
                    game: 0,
                    at_move: 5,
                    frames: 4,
                },
                "the device dropped 4 frames",
            ),
            (
                DeviceFact::Lost {
                    dev: None,
                    game: 3,
                    at_move: 0,
                    frames: 3,
                },
                "the device dropped 3 frames from game 3 (its start or another frame)",
            ),
            (
                DeviceFact::Lost {
                    dev: Some(1),
                    game: 3,
                    at_move: 9,
                    frames: 2,
                },
                "the device dropped 2 frames from game 3, move 9",
            ),
            (
                DeviceFact::Lost {
                    dev: None,
                    game: 2,
                    at_move: 4,
                    frames: 1,
                },
                "the device dropped 1 frame from game 2, move 4",
            ),
            (
                DeviceFact::Full {
                    dev: None,
                    game: 4,
                    at_move: 0,
                },
                "the device's store is full: game 4 is not stored",
            ),
            (
                DeviceFact::Full {
                    dev: None,
                    game: 4,
                    at_move: 12,
                },
                "the device's store is full: game 4 is not stored from move 12 on",
            ),
            (
                DeviceFact::PullBegin { dev: 1, games: 5 },
                "pull reply of 5 games",
            ),
            (
                DeviceFact::PullDone { dev: 1, sent: 5 },
                "pull reply done, 5 games sent",
            ),
            (
                DeviceFact::Acked { dev: None, game: 6 },
                "the device marked game 6 as pulled",
            ),
            (
                DeviceFact::Error {
                    dev: None,
                    code: 200,
                    game: 0,
                },
                "the device refused a request: error 200 (unknown error code)",
            ),
            (
                DeviceFact::Error {
                    dev: None,
                    code: 200,
                    game: 8,
                },
                "the device refused a request: error 200 (unknown error code), game 8",
            ),
        ] {
            assert_eq!(fact.to_string(), text);
        }
    }

    #[test]
    fn damage_reads_like_a_sentence() {
        let d = Damage {
            offset: 120,
            len: 14,
            game: Some(2),
            kind: DamageKind::Malformed,
        };
        assert_eq!(
            d.to_string(),
            "bytes 120..134 (in game 2): malformed frame skipped"
        );
        let d = Damage {
            offset: 0,
            len: 9,
            game: None,
            kind: DamageKind::Orphan,
        };
        assert_eq!(
            d.to_string(),
            "bytes 0..9: frame of a game whose start was lost, skipped"
        );
    }
}
