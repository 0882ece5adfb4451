//! Device logs of twenty48 firmware, decoded and verified. Always runs on the host.
//!
//! The firmware (crates/firmware) logs every game as defmt frames; docs/firmware.md
//! specifies them. Protocol v3 (current; v2 differs only in its pull replies, which sent a
//! stored game as a move frame per move; stored games now come as stored, 2 bits a move in
//! `t48 moves` frames, the device's final score and hash in their end frame, and the host
//! replays them). Since v2 every frame carries a CRC-32 of its values
//! (`twenty48_deviceproto`), games are numbered by the device and keyed here by (device id,
//! game number), the device reports frames it dropped, and stored games come again in pull
//! replies (start, moves, end or partial). Protocol v1 captures (no identity, no check)
//! still decode. This crate
//!
//! - decodes captured bytes with `defmt-decoder` and the firmware's ELF, one rzCOBS block
//!   at a time, so a damaged stretch is skipped and reported with its byte offset; a v2
//!   frame whose check fails, and a block holding a frame plus more bytes (two frames
//!   merged by a lost separator), are damage, never a decoded frame ([`decode_capture`], or
//!   [`CaptureDecoder`] for bytes arriving live);
//! - rebuilds each game ([`DeviceGame`]) and replays it on the host engine, checking every
//!   move's sequence number, score and hash and the end frame's start digest ([`check`]),
//!   reporting the first problem by game and move number ([`Problem`]); for a pull, each
//!   move is checked as it arrives and only the verified ones are kept, 2 bits each
//!   ([`ReceivedGame`]), and at most [`MAX_OPEN_GAMES`] games are open at once;
//! - turns what is certain into a `.t48` move log ([`DeviceGame::to_movelog`]) and writes it
//!   once, never overwriting, accounting for duplicates, conflicts, gaps in the game
//!   numbers and frames the device lost ([`pull`], the library half of `twenty48 pull`);
//! - tells which of several firmware ELFs a log is from ([`Probe`]: the one whose table
//!   reads its frames), for a pull not told the ELF.
//!
//! ```no_run
//! let elf = std::fs::read("twenty48-qemu")?;
//! let bytes = std::fs::read("capture.bin")?;
//! let capture = twenty48_devicelog::decode_capture(&elf, &bytes)?;
//! for damage in &capture.damage {
//!     println!("damage: {damage}");
//! }
//! for game in &capture.games {
//!     let result = twenty48_devicelog::check(game);
//!     match &result.problem {
//!         None => println!("game {}: {} moves verified", game.number, result.verified_moves),
//!         Some(problem) => println!("{problem}"),
//!     }
//!     let _log = game.to_movelog(false); // Some only when verified
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod assembly;
mod capture;
mod check;
#[cfg(feature = "directory")]
mod directory;
mod error;
mod event;
mod fact;
mod frame;
mod game;
mod probe;
pub mod pull;
mod received;
mod record;
mod reply;
mod rzcobs;

pub use assembly::MAX_OPEN_GAMES;
pub use capture::{decode_capture, Capture, CaptureDecoder};
pub use check::{check, GameCheck, Problem};
#[cfg(feature = "directory")]
pub use directory::Directory;
pub use error::DeviceLogError;
pub use event::{Damage, DamageKind, Event, StrayFrame};
pub use fact::{DeviceFact, Message};
pub use frame::LOG_FORMAT_VERSION;
pub use game::{DeviceGame, DeviceMove, GameEnd};
pub use probe::Probe;
pub use received::ReceivedGame;
pub use record::GameRecord;
pub use reply::{Reply, MAX_REPLY_DEVICES};
pub use rzcobs::MAX_FRAME_BYTES;
pub use twenty48_deviceproto::{ErrorCode, PROTOCOL_VERSION};
