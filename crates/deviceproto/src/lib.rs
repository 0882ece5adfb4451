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
mod version;

pub use crc::{crc32, crc32_update, Crc32};
pub use request::{Ack, ErrorCode, Request, RequestError, MAX_REQUEST};
pub use start::StartFields;
pub use version::PROTOCOL_VERSION;

/// Moves in a full `t48 moves` frame (64 bytes of directions, 2 bits a move): a stored game
/// is sent in frames of this many moves, the last one shorter.
pub const MOVES_PER_FRAME: u32 = 256;

/// The device id the QEMU board reports (a real board reports its flash chip's unique id).
pub const QEMU_DEVICE_ID: u64 = 0x7e57_0000_0000_0001;
