//! The device log protocol, version 3: what a twenty48 board and its host agree on.
//!
//! The firmware logs every game as defmt frames (docs/firmware.md lists their texts). Every
//! frame since version 2 ends with a `crc=` parameter: the CRC-32 of the frame's *canonical
//! bytes*, one tag byte naming the frame followed by each other parameter in order,
//! little-endian at its defmt width (`u8` and `bool` one byte, `u32` four, `u64` eight; a
//! byte slice is its length as a `u32`, then its bytes). Version 3 sends a stored game as
//! stored (its moves 2 bits each in `t48 moves` frames) instead of a move frame per move;
//! live games keep their move frames. The firmware computes
//! it when it sends a frame, the host when it reads one back, with the same functions from
//! this crate, so a damaged frame is reported as damaged instead of being read as another
//! valid frame. The host's requests (bytes from host to device) are parsed here too.
//!
//! ```
//! use twenty48_deviceproto::{check, Ack, Request};
//!
//! // The device sends `t48 move game=3 seq=1 dir=3 score=0 hash=42 crc=C` with
//! let c = check::moved(3, 1, 3, 0, 42);
//! // and the host recomputes it from the values it read back:
//! assert_eq!(c, check::moved(3, 1, 3, 0, 42));
//! assert_ne!(c, check::moved(3, 1, 2, 0, 42)); // another direction: another check
//!
//! assert_eq!(Request::parse(b"ack 7 1234"), Ok(Request::Ack { game: 7, check: 1234 }));
//! assert_eq!(Request::parse(b"pull all"), Ok(Request::Pull { all: true }));
//! // The host writes its requests with the same type, braces included:
//! # extern crate std;
//! # use std::string::ToString;
//! assert_eq!(Request::from(Ack { game: 7, check: 1234 }).to_string(), "{ack 7 1234}");
//! ```
#![no_std]
#![deny(missing_docs)]

pub mod check;
mod crc;
mod request;
mod start;

pub use crc::{crc32, crc32_update, Crc32};
pub use request::{Ack, Request, RequestError, MAX_REQUEST};
pub use start::StartFields;

/// The protocol version this crate describes (`v=` in hello and game-start frames). A host
/// reads version 2 captures as well (their frames differ only in the pull reply).
pub const PROTOCOL_VERSION: u8 = 3;

/// Moves in a full `t48 moves` frame (64 bytes of directions, 2 bits a move): a stored game
/// is sent in frames of this many moves, the last one shorter.
pub const MOVES_PER_FRAME: u32 = 256;

/// The device id the QEMU board reports (a real board reports its flash chip's unique id).
pub const QEMU_DEVICE_ID: u64 = 0x7e57_0000_0000_0001;

/// The `code` of an error frame: what was wrong with a host request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The request is not one the device knows.
    Unknown = 1,
    /// The request is malformed (bad number, missing field) or longer than [`MAX_REQUEST`].
    Malformed = 2,
    /// The request names a game the store does not hold.
    NoGame = 3,
    /// An acknowledgement whose check does not match the stored game.
    CheckMismatch = 4,
    /// The store could not be read or written.
    Store = 5,
    /// The device keeps no game store (a board built without one; the Arduino Uno's firmware
    /// before issue 25): `{pull}` and `{ack}` have nothing to answer; its games are pulled
    /// live from a capture of its log.
    NoStore = 6,
}

impl ErrorCode {
    /// The code for its number, if it is one.
    pub fn from_code(code: u8) -> Option<ErrorCode> {
        Some(match code {
            1 => ErrorCode::Unknown,
            2 => ErrorCode::Malformed,
            3 => ErrorCode::NoGame,
            4 => ErrorCode::CheckMismatch,
            5 => ErrorCode::Store,
            6 => ErrorCode::NoStore,
            _ => return None,
        })
    }

    /// What the code means, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            ErrorCode::Unknown => "unknown request",
            ErrorCode::Malformed => "malformed or too long request",
            ErrorCode::NoGame => "no such game in the store",
            ErrorCode::CheckMismatch => {
                "the acknowledgement's check does not match the stored game"
            }
            ErrorCode::Store => "the store could not be read or written",
            ErrorCode::NoStore => {
                "the device keeps no game store (pull its games live from a capture)"
            }
        }
    }
}
