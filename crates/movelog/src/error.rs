//! What can go wrong reading a move log or recording one.

use core::fmt;

use twenty48_engine::{Direction, RulesError, Status};

use crate::header::{FORMAT_VERSION, MAGIC};

/// Why bytes are not a valid move log. Every variant says where (`offset`, a byte position
/// from the start of the file) and, for moves, which move.
///
/// The checks run in a fixed order so that each broken file gets the most useful error:
/// magic, version, structure (lengths against the bytes present), CRC, trailing bytes, and
/// last the meaning of each field.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// The file does not start with [`MAGIC`](crate::MAGIC).
    NotAMoveLog {
        /// The first bytes of the file (up to four).
        found: [u8; 4],
        /// How many of `found` are real bytes of the file.
        len: u8,
    },
    /// The format version is not one this build reads.
    UnsupportedVersion {
        /// Where the version field is (always 4).
        offset: u64,
        /// The version in the file.
        version: u16,
    },
    /// The file ends inside a field.
    Truncated {
        /// Where the field starts.
        offset: u64,
        /// The field.
        what: &'static str,
        /// Bytes the field needs.
        needed: u64,
        /// Bytes left in the file from `offset`.
        available: u64,
    },
    /// The CRC-32 stored at the end does not match the bytes before it.
    CrcMismatch {
        /// Where the stored CRC is.
        offset: u64,
        /// The CRC in the file.
        stored: u32,
        /// The CRC of bytes `0..offset`.
        computed: u32,
    },
    /// Bytes follow the CRC.
    TrailingBytes {
        /// Where the extra bytes start.
        offset: u64,
        /// How many there are.
        count: u64,
    },
    /// The rule set in the header cannot be played.
    InvalidRules {
        /// Where the rules start (the field at fault for an opening).
        offset: u64,
        /// What is wrong with them.
        source: RulesError,
    },
    /// A field holds a value outside its allowed set (a flag that is not 0 or 1, a status
    /// above 2, ...).
    InvalidField {
        /// Where the field is.
        offset: u64,
        /// The field's name.
        field: &'static str,
        /// The value found.
        value: u8,
        /// The values allowed, in words.
        expected: &'static str,
    },
    /// The random number generator named in the header is not ChaCha8.
    UnknownRng {
        /// Where the name starts.
        offset: u64,
        /// The name, with invalid UTF-8 replaced.
        name: String,
    },
    /// A bit after the last move in the last move byte is set.
    NonZeroPadding {
        /// Where the last move byte is.
        offset: u64,
        /// The 1-based number of the first unused move slot whose bits are set.
        move_number: u32,
        /// The number of moves in the log.
        move_count: u32,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::NotAMoveLog { found, len } => {
                f.write_str("not a twenty48 move log: the file starts with")?;
                if *len == 0 {
                    f.write_str(" nothing")?;
                }
                for b in &found[..*len as usize] {
                    write!(f, " {b:02x}")?;
                }
                f.write_str(" at byte 0, not the magic")?;
                for b in MAGIC {
                    write!(f, " {b:02x}")?;
                }
                Ok(())
            }
            DecodeError::UnsupportedVersion { offset, version } => {
                if *version > FORMAT_VERSION {
                    write!(
                        f,
                        "format version {version} is newer than this build understands \
                         ({FORMAT_VERSION}); the version is at byte {offset}"
                    )
                } else {
                    write!(
                        f,
                        "format version {version} at byte {offset} does not exist \
                         (versions start at 1; this build understands {FORMAT_VERSION})"
                    )
                }
            }
            DecodeError::Truncated {
                offset,
                what,
                needed,
                available,
            } => write!(
                f,
                "the file is truncated: {what} at byte {offset}: {needed} {} needed, only \
                 {available} left",
                if *needed == 1 { "byte" } else { "bytes" }
            ),
            DecodeError::CrcMismatch {
                offset,
                stored,
                computed,
            } => write!(
                f,
                "CRC-32 mismatch: the file stores {stored:#010x} at byte {offset} but \
                 bytes 0 to {} give {computed:#010x}, so the file is corrupt",
                offset.saturating_sub(1)
            ),
            DecodeError::TrailingBytes { offset, count } => write!(
                f,
                "{count} unexpected trailing bytes after the end of the move log at byte {offset}"
            ),
            DecodeError::InvalidRules { offset, source } => {
                write!(f, "invalid rules at byte {offset}: {source}")
            }
            DecodeError::InvalidField {
                offset,
                field,
                value,
                expected,
            } => write!(
                f,
                "invalid {field} {value} at byte {offset} (expected {expected})"
            ),
            DecodeError::UnknownRng { offset, name } => write!(
                f,
                "unknown random number generator {name:?} at byte {offset} \
                 (this build knows only {:?})",
                twenty48_engine::RNG_NAME
            ),
            DecodeError::NonZeroPadding {
                offset,
                move_number,
                move_count,
            } => write!(
                f,
                "non-zero padding bits for move {move_number} at byte {offset}, \
                 after the last move ({move_count})"
            ),
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DecodeError::InvalidRules { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why a list of moves cannot be recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// The rules cannot be played.
    InvalidRules {
        /// What is wrong with them.
        source: RulesError,
    },
    /// A move does not change the board; only real moves are logged.
    NoMove {
        /// The 1-based number of the move in the list.
        move_number: u32,
        /// The direction.
        direction: Direction,
    },
    /// A move comes after the game has ended.
    GameEnded {
        /// The 1-based number of the move in the list.
        move_number: u32,
        /// How the game ended.
        status: Status,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::InvalidRules { source } => write!(f, "invalid rules: {source}"),
            RecordError::NoMove {
                move_number,
                direction,
            } => write!(
                f,
                "move {move_number} ({direction}) does not change the board"
            ),
            RecordError::GameEnded {
                move_number,
                status,
            } => write!(f, "the game already ended ({status}) at move {move_number}"),
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::InvalidRules { source } => Some(source),
            _ => None,
        }
    }
}

/// Why a [`MoveLog`](crate::MoveLog) assembled by hand cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The number of moves is not the claimed move count.
    MoveCount {
        /// Moves in the log.
        moves: u64,
        /// `claims.move_count`.
        claimed: u32,
    },
    /// The number of checkpoints is not one per `checkpoint_interval` moves.
    Checkpoints {
        /// Checkpoints in the log.
        found: u64,
        /// `claims.move_count / checkpoint_interval` (0 for an interval of 0).
        expected: u32,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::MoveCount { moves, claimed } => write!(
                f,
                "the log has {moves} moves but claims a move count of {claimed}"
            ),
            EncodeError::Checkpoints { found, expected } => write!(
                f,
                "the log has {found} checkpoints where its moves and interval call for {expected}"
            ),
        }
    }
}

impl std::error::Error for EncodeError {}
