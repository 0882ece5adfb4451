//! Captured bytes to games: frame splitting, defmt decoding, and game assembly, in one pass
//! that works the same on a whole file and on bytes arriving from a serial port.

use std::fmt;

use defmt_decoder::{Encoding, Table};
use twenty48_engine::Rules;

use crate::error::DeviceLogError;
use crate::frame::{self, LogFrame};
use crate::game::{DeviceGame, DeviceMove};

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
        }
    }
}

/// A log message that is not part of the game protocol (kept, not interpreted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Byte offset of the frame.
    pub offset: usize,
    /// The rendered message.
    pub text: String,
}

/// Everything decoded from a capture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// The games, in the order their start frames came.
    pub games: Vec<DeviceGame>,
    /// The damaged stretches, in capture order.
    pub damage: Vec<Damage>,
    /// Other log messages.
    pub messages: Vec<Message>,
}

/// What a [`CaptureDecoder`] found in the bytes fed to it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A game-start frame.
    GameStarted {
        /// Game number in the capture.
        number: u32,
        /// Its rules.
        rules: Rules,
        /// Its seed.
        seed: u64,
    },
    /// A move frame of the open game.
    Moved {
        /// Game number.
        game: u32,
        /// The move.
        mv: DeviceMove,
    },
    /// A game is over as far as the capture goes: its end frame came, or another game
    /// started, or (from [`CaptureDecoder::finish`]) the capture ended.
    GameClosed(DeviceGame),
    /// A damaged stretch.
    Damaged(Damage),
    /// Another log message.
    Message(Message),
}

/// Decodes a capture incrementally: feed bytes as they arrive, get events as frames
/// complete. Each frame is decoded on its own, so damage never spreads past the next
/// frame separator.
pub struct CaptureDecoder {
    table: Table,
    /// Bytes of the frame being received.
    pending: Vec<u8>,
    /// Offset of `pending[0]` in the capture.
    pending_offset: usize,
    /// Bytes fed so far.
    fed: usize,
    open: Option<DeviceGame>,
    games: u32,
}

impl fmt::Debug for CaptureDecoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CaptureDecoder")
            .field("fed", &self.fed)
            .field("games", &self.games)
            .finish_non_exhaustive()
    }
}

impl CaptureDecoder {
    /// A decoder for the log of the firmware in `elf`.
    pub fn new(elf: &[u8]) -> Result<CaptureDecoder, DeviceLogError> {
        let table = Table::parse(elf)
            .map_err(|e| DeviceLogError::Elf {
                message: e.to_string(),
            })?
            .ok_or(DeviceLogError::NoDefmtTable)?;
        if !matches!(table.encoding(), Encoding::Rzcobs) {
            return Err(DeviceLogError::RawEncoding);
        }
        Ok(CaptureDecoder {
            table,
            pending: Vec::new(),
            pending_offset: 0,
            fed: 0,
            open: None,
            games: 0,
        })
    }

    /// Bytes fed so far.
    pub fn bytes_fed(&self) -> usize {
        self.fed
    }

    /// The game in progress, if any.
    pub fn open_game(&self) -> Option<&DeviceGame> {
        self.open.as_ref()
    }

    /// Reads more bytes; returns what they completed.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        for &b in bytes {
            self.fed += 1;
            if b == 0 {
                if !self.pending.is_empty() {
                    let frame = std::mem::take(&mut self.pending);
                    self.frame(&frame, self.pending_offset, &mut events);
                }
                self.pending_offset = self.fed;
            } else {
                self.pending.push(b);
            }
        }
        events
    }

    /// Ends the capture: an unfinished frame is damage, an open game is closed (truncated).
    pub fn finish(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        if !self.pending.is_empty() {
            events.push(Event::Damaged(Damage {
                offset: self.pending_offset,
                len: self.pending.len(),
                game: self.open.as_ref().map(|g| g.number),
                kind: DamageKind::Unterminated,
            }));
            self.pending.clear();
            self.pending_offset = self.fed;
        }
        if let Some(game) = self.open.take() {
            events.push(Event::GameClosed(game));
        }
        events
    }

    fn frame(&mut self, bytes: &[u8], offset: usize, events: &mut Vec<Event>) {
        let mut framed = Vec::with_capacity(bytes.len() + 1);
        framed.extend_from_slice(bytes);
        framed.push(0);
        let mut decoder = self.table.new_stream_decoder();
        decoder.received(&framed);
        let read = match decoder.decode() {
            Ok(frame) => Some(frame::read(&frame)),
            Err(_) => None,
        };
        let game = self.open.as_ref().map(|g| g.number);
        let damage = |kind| {
            Event::Damaged(Damage {
                offset,
                len: bytes.len(),
                game,
                kind,
            })
        };
        match read {
            None => events.push(damage(DamageKind::Malformed)),
            Some(LogFrame::Invalid { reason }) => {
                events.push(damage(DamageKind::Invalid { reason }))
            }
            Some(LogFrame::Other { text }) => events.push(Event::Message(Message { offset, text })),
            Some(LogFrame::Start { rules, seed }) => {
                if let Some(game) = self.open.take() {
                    events.push(Event::GameClosed(game));
                }
                self.games += 1;
                self.open = Some(DeviceGame {
                    number: self.games,
                    rules,
                    seed,
                    moves: Vec::new(),
                    end: None,
                    offset,
                });
                events.push(Event::GameStarted {
                    number: self.games,
                    rules,
                    seed,
                });
            }
            Some(LogFrame::Move(mv)) => match self.open.as_mut() {
                Some(game) => {
                    game.moves.push(mv);
                    events.push(Event::Moved {
                        game: game.number,
                        mv,
                    });
                }
                None => events.push(damage(DamageKind::Orphan)),
            },
            Some(LogFrame::End(end)) => match self.open.take() {
                Some(mut game) => {
                    game.end = Some(end);
                    events.push(Event::GameClosed(game));
                }
                None => events.push(damage(DamageKind::Orphan)),
            },
        }
    }
}

/// Decodes a whole capture with the firmware's ELF: every game, every damaged stretch.
///
/// Damage in the capture is reported in [`Capture::damage`], never as an error; the error
/// is for an ELF that cannot be used.
pub fn decode_capture(elf: &[u8], capture: &[u8]) -> Result<Capture, DeviceLogError> {
    let mut decoder = CaptureDecoder::new(elf)?;
    let mut events = decoder.feed(capture);
    events.extend(decoder.finish());
    let mut out = Capture::default();
    for event in events {
        match event {
            Event::GameClosed(game) => out.games.push(game),
            Event::Damaged(d) => out.damage.push(d),
            Event::Message(m) => out.messages.push(m),
            Event::GameStarted { .. } | Event::Moved { .. } => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_an_elf_is_an_error_not_damage() {
        let err = decode_capture(b"not an ELF file", b"\x01\x02\x00").unwrap_err();
        assert!(matches!(err, DeviceLogError::Elf { .. }), "{err:?}");
        assert!(err
            .to_string()
            .starts_with("the firmware ELF could not be read"));
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
