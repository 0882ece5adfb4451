//! Captured bytes to games: frame splitting, defmt decoding, and game assembly, in one pass
//! that works the same on a whole file and on bytes arriving from a serial port.

use std::collections::BTreeMap;
use std::fmt;

use defmt_decoder::{Encoding, Table};
use twenty48_engine::Rules;

use crate::error::DeviceLogError;
use crate::fact::{DeviceFact, Message};
use crate::frame::{self, LogFrame};
use crate::game::{DeviceGame, DeviceMove};
use crate::rzcobs::{self, MAX_FRAME_BYTES};

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

/// Everything decoded from a capture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// The games, in the order they were closed (their end frame came, or the capture
    /// ended). Protocol v2: a game received twice (live, then from the store) is here twice.
    pub games: Vec<DeviceGame>,
    /// The damaged stretches, in capture order.
    pub damage: Vec<Damage>,
    /// Other log messages.
    pub messages: Vec<Message>,
    /// Protocol v2: the device's own frames (hello, lost, full, pull, acked, error).
    pub facts: Vec<DeviceFact>,
}

/// What a [`CaptureDecoder`] found in the bytes fed to it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
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
    /// Protocol v2: a frame of the device about itself, its store or a request.
    Device(DeviceFact),
}

/// Decodes a capture incrementally: feed bytes as they arrive, get events as frames
/// complete. Each frame is decoded on its own, so damage never spreads past the next
/// frame separator.
pub struct CaptureDecoder {
    table: Table,
    /// Bytes of the frame being received (at most [`MAX_FRAME_BYTES`]).
    pending: Vec<u8>,
    /// Skipping an oversized stretch up to the next separator.
    oversized: bool,
    /// Offset of `pending[0]` in the capture.
    pending_offset: usize,
    /// Bytes fed so far.
    fed: usize,
    /// Protocol v1: the open game.
    open: Option<DeviceGame>,
    /// Protocol v1: games started so far.
    games: u32,
    /// Protocol v2: the open games by (device, number).
    open2: BTreeMap<(u64, u32), DeviceGame>,
    /// Protocol v2: the device last announced (hello, start or pull frames).
    dev: Option<u64>,
    /// The game the last frame named, for damage reports.
    last_game: Option<u32>,
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
            oversized: false,
            pending_offset: 0,
            fed: 0,
            open: None,
            games: 0,
            open2: BTreeMap::new(),
            dev: None,
            last_game: None,
        })
    }

    /// Bytes fed so far.
    pub fn bytes_fed(&self) -> usize {
        self.fed
    }

    /// The game in progress, if any (protocol v1), or the most recently started open
    /// game (v2).
    pub fn open_game(&self) -> Option<&DeviceGame> {
        self.open
            .as_ref()
            .or_else(|| self.open2.values().max_by_key(|g| g.offset))
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
                self.oversized = false;
                self.pending_offset = self.fed;
            } else if self.oversized {
            } else if self.pending.len() == MAX_FRAME_BYTES {
                // No frame is this long: damage now, and nothing kept until the next
                // separator.
                events.push(Event::Damaged(Damage {
                    offset: self.pending_offset,
                    len: MAX_FRAME_BYTES + 1,
                    game: self.open.as_ref().map(|g| g.number).or(self.last_game),
                    kind: DamageKind::Oversized,
                }));
                self.pending = Vec::new();
                self.oversized = true;
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
                game: self.open.as_ref().map(|g| g.number).or(self.last_game),
                kind: DamageKind::Unterminated,
            }));
            self.pending.clear();
            self.pending_offset = self.fed;
        }
        if let Some(game) = self.open.take() {
            events.push(Event::GameClosed(game));
        }
        let mut open: Vec<DeviceGame> = std::mem::take(&mut self.open2).into_values().collect();
        open.sort_by_key(|g| g.offset);
        events.extend(open.into_iter().map(Event::GameClosed));
        events
    }

    /// Decodes one block (the bytes between two separators) to a frame, checking that the
    /// frame is all the block holds.
    fn decode_block(&self, bytes: &[u8]) -> Result<LogFrame, DamageKind> {
        let raw = rzcobs::decode(bytes).ok_or(DamageKind::Malformed)?;
        let (frame, consumed) = self.table.decode(&raw).map_err(|_| DamageKind::Malformed)?;
        // rzCOBS decodes in groups of 7 bytes: the first group may bring up to 6 zero bytes
        // of padding at the end. Anything else after the frame is another frame.
        let rest = &raw[consumed..];
        if rest.len() >= 7 || rest.iter().any(|&b| b != 0) {
            return Err(DamageKind::Merged {
                trailing: rest.len(),
            });
        }
        Ok(frame::read(&frame))
    }

    fn frame(&mut self, bytes: &[u8], offset: usize, events: &mut Vec<Event>) {
        let read = self.decode_block(bytes);
        let game = self.open.as_ref().map(|g| g.number).or(self.last_game);
        let damage = |kind| {
            Event::Damaged(Damage {
                offset,
                len: bytes.len(),
                game,
                kind,
            })
        };
        let read = match read {
            Ok(read) => read,
            Err(kind) => return events.push(damage(kind)),
        };
        match read {
            LogFrame::CheckMismatch => events.push(damage(DamageKind::CheckMismatch)),
            LogFrame::Invalid { reason } => events.push(damage(DamageKind::Invalid { reason })),
            LogFrame::Other { text } => events.push(Event::Message(Message { offset, text })),
            LogFrame::Start { rules, seed } => {
                if let Some(game) = self.open.take() {
                    events.push(Event::GameClosed(game));
                }
                self.games += 1;
                self.open = Some(DeviceGame {
                    number: self.games,
                    dev: None,
                    start_check: None,
                    rules,
                    seed,
                    moves: Vec::new(),
                    end: None,
                    offset,
                });
                events.push(Event::GameStarted {
                    dev: None,
                    number: self.games,
                    rules,
                    seed,
                });
            }
            LogFrame::Move(mv) => match self.open.as_mut() {
                Some(game) => {
                    game.moves.push(mv);
                    events.push(Event::Moved {
                        game: game.number,
                        mv,
                    });
                }
                None => events.push(damage(DamageKind::Orphan)),
            },
            LogFrame::End(end) => match self.open.take() {
                Some(mut game) => {
                    game.end = Some(end);
                    events.push(Event::GameClosed(game));
                }
                None => events.push(damage(DamageKind::Orphan)),
            },
            LogFrame::Hello {
                dev,
                next,
                stored,
                unpulled,
            } => {
                self.dev = Some(dev);
                events.push(Event::Device(DeviceFact::Hello {
                    dev,
                    next,
                    stored,
                    unpulled,
                }));
            }
            LogFrame::Start2 {
                dev,
                game,
                rules,
                seed,
                check,
            } => {
                self.dev = Some(dev);
                self.last_game = Some(game);
                // The same game again (a live game cut short, now from the store): the
                // first reception ends here.
                if let Some(old) = self.open2.remove(&(dev, game)) {
                    events.push(Event::GameClosed(old));
                }
                self.open2.insert(
                    (dev, game),
                    DeviceGame {
                        number: game,
                        dev: Some(dev),
                        start_check: Some(check),
                        rules,
                        seed,
                        moves: Vec::new(),
                        end: None,
                        offset,
                    },
                );
                events.push(Event::GameStarted {
                    dev: Some(dev),
                    number: game,
                    rules,
                    seed,
                });
            }
            LogFrame::Move2 { game, mv } => self.moved2(game, [mv], offset, bytes.len(), events),
            LogFrame::Moves3 { game, first, dirs } => {
                let moves = dirs
                    .into_iter()
                    .zip(first.saturating_add(1)..)
                    .map(|(dir, seq)| DeviceMove {
                        seq,
                        dir,
                        score: None,
                        hash: None,
                    });
                self.moved2(game, moves, offset, bytes.len(), events);
            }
            LogFrame::End2 { game, end } => {
                self.last_game = Some(game);
                let key = (self.dev.unwrap_or(0), game);
                match self.open2.remove(&key) {
                    Some(mut open) => {
                        open.end = Some(end);
                        events.push(Event::GameClosed(open));
                    }
                    None => events.push(Event::Damaged(Damage {
                        offset,
                        len: bytes.len(),
                        game: Some(game),
                        kind: DamageKind::Orphan,
                    })),
                }
            }
            LogFrame::Lost {
                game,
                at_move,
                frames,
            } => events.push(Event::Device(DeviceFact::Lost {
                dev: self.dev,
                game,
                at_move,
                frames,
            })),
            LogFrame::Full { game, at_move } => events.push(Event::Device(DeviceFact::Full {
                dev: self.dev,
                game,
                at_move,
            })),
            LogFrame::PullBegin { dev, games } => {
                self.dev = Some(dev);
                events.push(Event::Device(DeviceFact::PullBegin { dev, games }));
            }
            LogFrame::PullDone { dev, sent } => {
                self.dev = Some(dev);
                events.push(Event::Device(DeviceFact::PullDone { dev, sent }));
            }
            LogFrame::Acked { game } => events.push(Event::Device(DeviceFact::Acked {
                dev: self.dev,
                game,
            })),
            LogFrame::Error { code, game } => events.push(Event::Device(DeviceFact::Error {
                dev: self.dev,
                code,
                game,
            })),
        }
    }
}

impl CaptureDecoder {
    /// Protocol v2 and v3: `moves` of game `game` (a move frame's one, or a `t48 moves`
    /// frame's), from the frame at `offset` of `len` bytes: added to the open game, or an
    /// orphan when none is open.
    fn moved2(
        &mut self,
        game: u32,
        moves: impl IntoIterator<Item = DeviceMove>,
        offset: usize,
        len: usize,
        events: &mut Vec<Event>,
    ) {
        self.last_game = Some(game);
        let key = (self.dev.unwrap_or(0), game);
        match self.open2.get_mut(&key) {
            Some(open) => {
                for mv in moves {
                    open.moves.push(mv);
                    events.push(Event::Moved { game, mv });
                }
            }
            None => events.push(Event::Damaged(Damage {
                offset,
                len,
                game: Some(game),
                kind: DamageKind::Orphan,
            })),
        }
    }
}

/// rzCOBS, decoded (defmt's default encoding): `data` is one whole encoded frame without
/// its `0x00` separator. `None` when the bytes are not a valid encoding.
///
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
            Event::Device(f) => out.facts.push(f),
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
