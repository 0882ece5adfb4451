//! What became of each copy of a game a pull received, and the pull's progress step by
//! step.

use crate::check::GameCheck;
use crate::event::{Damage, Event};
use crate::fact::DeviceFact;
use crate::received::ReceivedGame;
use crate::reply::Reply;

/// What became of one game received.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Verified and written to a new file.
    Written,
    /// Verified; the directory already held the very same file (pulled before).
    AlreadyPulled,
    /// Verified; the same game with the same content was received earlier in this pull.
    Duplicate,
    /// Verified, but another copy of the same game (same device and number) differs: not
    /// written as complete, never overwriting a file.
    Conflict {
        /// What differs.
        reason: String,
    },
    /// Not verified: its verified moves were written marked incomplete (`--keep-partial`).
    DamagedPrefix,
    /// Not verified and not written.
    NotWritten,
    /// Not checked yet: the pull writes when the capture ends (capture files).
    Deferred,
    /// Protocol v2, a live port: the game was still being played when the pull ended (every
    /// move so far verified, no end yet). It is in the device's store; the next pull brings
    /// it. Not written, not a failure.
    InProgress,
}

/// What became of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pulled {
    /// The game as the pull received it (its verified moves kept).
    pub game: ReceivedGame,
    /// Its host replay.
    pub check: GameCheck,
    /// The file written (or already there), its name in the pull's
    /// [`Folder`](super::Folder), if any: the whole game when it verified, a stored
    /// interrupted game as a verified prefix marked incomplete (`.partial.t48`), else (with
    /// `keep_partial`) the verified moves of a damaged game marked incomplete.
    pub file: Option<String>,
    /// What was done with it.
    pub outcome: Outcome,
    /// Protocol v2: the acknowledgement to send the device once the game is safely on disk
    /// (written, already pulled or a duplicate of either).
    pub ack: Option<twenty48_deviceproto::Ack>,
    /// The file of a shorter prefix of the same game that this pull wrote before, and that
    /// this copy's file now stands for (replaced by it, or removed once the whole game was
    /// written): an earlier report of that copy names it.
    pub replaces: Option<String>,
}

impl Pulled {
    /// The copy `game`, its host replay `check`, not written (yet).
    pub(super) fn unwritten(game: ReceivedGame, check: GameCheck) -> Pulled {
        Pulled {
            game,
            check,
            file: None,
            outcome: Outcome::NotWritten,
            ack: None,
            replaces: None,
        }
    }

    /// Whether the game verified (whole, or as the stored prefix of an interrupted game).
    pub fn is_verified(&self) -> bool {
        self.check.is_verified()
    }

    /// Whether the game is safely in the directory: verified and written now or before.
    pub fn is_received(&self) -> bool {
        self.is_verified()
            && matches!(
                self.outcome,
                Outcome::Written | Outcome::AlreadyPulled | Outcome::Duplicate
            )
    }
}

/// Progress of a pull, one step at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Progress {
    /// A game began (its number, seed and rules are in the event).
    Started(Event<ReceivedGame>),
    /// A move frame (or a protocol v3 `t48 moves` frame) arrived for game `game`.
    Moved {
        /// Game number.
        game: u32,
        /// The sequence number in its game of the frame's last move.
        seq: u32,
        /// How many moves the frame brought (1, or up to 256 in a `t48 moves` frame).
        moves: u32,
    },
    /// A game was closed, checked and (perhaps) written.
    Pulled(Box<Pulled>),
    /// A damaged stretch of the capture.
    Damaged(Damage),
    /// Protocol v2: the device's own frames (hello, lost, full, pull, acked, error).
    Device(DeviceFact),
    /// Protocol v2: a pull reply of the device began or ended, after the frame that did it
    /// (a reply cut off by the end of the bytes: at the end).
    Reply(Reply),
    /// The device answered an acknowledgement this pull sent (a
    /// [`Conversation`](super::Conversation)'s): it marked this game pulled.
    Acked(u32),
    /// The `pull done` just received ends a reply that began before this pull was
    /// listening (an earlier pull's, cut off): the pull waits for its own.
    EarlierReplyEnded,
}
