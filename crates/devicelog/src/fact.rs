//! What a device says about itself, its store and the host's requests (protocol v2 and
//! v3), and the log messages that are not part of the game protocol.

use std::fmt;

/// A log message that is not part of the game protocol (kept, not interpreted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Byte offset of the frame.
    pub offset: usize,
    /// The rendered message.
    pub text: String,
}

/// Protocol v2: what the device said about itself, its store and the host's requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeviceFact {
    /// A hello frame: the device, the number its next game will get, the games in its store
    /// and how many of them are not yet acknowledged.
    Hello {
        /// Device id.
        dev: u64,
        /// The number the next new game will get.
        next: u32,
        /// Games in the store.
        stored: u32,
        /// Stored games not acknowledged.
        unpulled: u32,
    },
    /// The device dropped `frames` frames (ring full, link down), the first of game `game`
    /// (0: none) at move `at_move` (0: a start or other frame).
    Lost {
        /// Device id (the last one announced).
        dev: Option<u64>,
        /// Game number.
        game: u32,
        /// Move number.
        at_move: u32,
        /// How many frames.
        frames: u32,
    },
    /// The store was full: game `game` is not stored from move `at_move` on.
    Full {
        /// Device id.
        dev: Option<u64>,
        /// Game number.
        game: u32,
        /// First move not stored (0: none of the game).
        at_move: u32,
    },
    /// A pull reply begins: `games` games follow.
    PullBegin {
        /// Device id.
        dev: u64,
        /// Games in the reply.
        games: u32,
    },
    /// A pull reply ended after `sent` games.
    PullDone {
        /// Device id.
        dev: u64,
        /// Games sent.
        sent: u32,
    },
    /// The device marked game `game` as pulled.
    Acked {
        /// Device id.
        dev: Option<u64>,
        /// Game number.
        game: u32,
    },
    /// The device refused a request (`code`: see `twenty48_deviceproto::ErrorCode`).
    Error {
        /// Device id.
        dev: Option<u64>,
        /// Error code.
        code: u8,
        /// The game the request named (0: none).
        game: u32,
    },
}

impl DeviceFact {
    /// The fact with its device named `dev` (the device last announced) when its frame
    /// carries none (lost, full, acked, error); a fact that names its device keeps it.
    pub(crate) fn of_device(self, dev: Option<u64>) -> DeviceFact {
        match self {
            DeviceFact::Lost {
                dev: None,
                game,
                at_move,
                frames,
            } => DeviceFact::Lost {
                dev,
                game,
                at_move,
                frames,
            },
            DeviceFact::Full {
                dev: None,
                game,
                at_move,
            } => DeviceFact::Full { dev, game, at_move },
            DeviceFact::Acked { dev: None, game } => DeviceFact::Acked { dev, game },
            DeviceFact::Error {
                dev: None,
                code,
                game,
            } => DeviceFact::Error { dev, code, game },
            named => named,
        }
    }
}

impl fmt::Display for DeviceFact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DeviceFact::Hello {
                dev,
                next,
                stored,
                unpulled,
            } => write!(
                f,
                "device {dev:016x}: next game {next}, {stored} stored, {unpulled} not yet pulled"
            ),
            DeviceFact::Lost {
                game,
                at_move,
                frames,
                ..
            } => {
                let noun = if frames == 1 { "frame" } else { "frames" };
                write!(f, "the device dropped {frames} {noun}")?;
                match (game, at_move) {
                    (0, _) => Ok(()),
                    (g, 0) => write!(f, " from game {g} (its start or another frame)"),
                    (g, m) => write!(f, " from game {g}, move {m}"),
                }
            }
            DeviceFact::Full { game, at_move, .. } => {
                write!(f, "the device's store is full: game {game} ")?;
                if at_move == 0 {
                    f.write_str("is not stored")
                } else {
                    write!(f, "is not stored from move {at_move} on")
                }
            }
            DeviceFact::PullBegin { games, .. } => write!(f, "pull reply of {games} games"),
            DeviceFact::PullDone { sent, .. } => write!(f, "pull reply done, {sent} games sent"),
            DeviceFact::Acked { game, .. } => write!(f, "the device marked game {game} as pulled"),
            DeviceFact::Error { code, game, .. } => {
                let what = twenty48_deviceproto::ErrorCode::from_code(code)
                    .map_or("unknown error code", |c| c.describe());
                write!(f, "the device refused a request: error {code} ({what})")?;
                if game != 0 {
                    write!(f, ", game {game}")?;
                }
                Ok(())
            }
        }
    }
}
