//! Captured bytes to games: frame splitting, defmt decoding, and game assembly, in one pass
//! that works the same on a whole file and on bytes arriving from a serial port.

use std::fmt;

use defmt_decoder::{Encoding, Table};

use crate::assembly::{Assembly, At};
use crate::error::DeviceLogError;
use crate::event::{Damage, DamageKind, Event};
use crate::fact::{DeviceFact, Message};
use crate::frame::{self, LogFrame};
use crate::game::DeviceGame;
use crate::record::sealed::Start;
use crate::record::GameRecord;
use crate::rzcobs::{self, MAX_FRAME_BYTES};

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

/// Decodes a capture incrementally: feed bytes as they arrive, get events as frames
/// complete. Each frame is decoded on its own, so damage never spreads past the next
/// frame separator. `G` is how each game is kept: [`DeviceGame`] (every move as it came,
/// [`CaptureDecoder::new`]) or [`ReceivedGame`](crate::ReceivedGame) (what a pull keeps,
/// [`CaptureDecoder::with_record`]). What the decoder holds is bounded: the frame being
/// received (at most [`MAX_FRAME_BYTES`]) and the games open (at most
/// [`MAX_OPEN_GAMES`](crate::MAX_OPEN_GAMES)).
pub struct CaptureDecoder<G = DeviceGame> {
    table: Table,
    /// Bytes of the frame being received (at most [`MAX_FRAME_BYTES`]).
    pending: Vec<u8>,
    /// Skipping an oversized stretch up to the next separator.
    oversized: bool,
    /// Offset of `pending[0]` in the capture.
    pending_offset: usize,
    /// Bytes fed so far.
    fed: usize,
    /// The games being assembled.
    games: Assembly<G>,
}

impl<G> fmt::Debug for CaptureDecoder<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CaptureDecoder")
            .field("fed", &self.fed)
            .field("games", &self.games.games)
            .finish_non_exhaustive()
    }
}

impl CaptureDecoder {
    /// A decoder for the log of the firmware in `elf`, keeping every move of each game.
    pub fn new(elf: &[u8]) -> Result<CaptureDecoder, DeviceLogError> {
        CaptureDecoder::with_record(elf)
    }
}

impl<G: GameRecord> CaptureDecoder<G> {
    /// A decoder for the log of the firmware in `elf`, keeping each game as a `G`.
    pub fn with_record(elf: &[u8]) -> Result<CaptureDecoder<G>, DeviceLogError> {
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
            games: Assembly::new(),
        })
    }

    /// The firmware's defmt table: its entries' indexes and symbols, in order.
    pub(crate) fn table_entries(&self) -> Vec<(usize, &str)> {
        self.table.indices().zip(self.table.raw_symbols()).collect()
    }

    /// Bytes fed so far.
    pub fn bytes_fed(&self) -> usize {
        self.fed
    }

    /// The game in progress, if any (protocol v1), or the most recently started open
    /// game (v2).
    pub fn open_game(&self) -> Option<&G> {
        self.games.open_game()
    }

    /// How many games are open (at most [`MAX_OPEN_GAMES`](crate::MAX_OPEN_GAMES), and
    /// one of protocol v1).
    pub fn open_games(&self) -> usize {
        self.games.open_count()
    }

    /// Reads more bytes; returns what they completed.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event<G>> {
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
                    game: self.games.current(),
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
    pub fn finish(&mut self) -> Vec<Event<G>> {
        let mut events = Vec::new();
        if !self.pending.is_empty() {
            events.push(Event::Damaged(Damage {
                offset: self.pending_offset,
                len: self.pending.len(),
                game: self.games.current(),
                kind: DamageKind::Unterminated,
            }));
            self.pending.clear();
            self.pending_offset = self.fed;
        }
        self.games.finish(&mut events);
        events
    }

    fn frame(&mut self, bytes: &[u8], offset: usize, events: &mut Vec<Event<G>>) {
        let read = self.decode_block(bytes);
        let at = At {
            offset,
            len: bytes.len(),
        };
        let game = self.games.current();
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
        let games = &mut self.games;
        match read {
            LogFrame::CheckMismatch => events.push(damage(DamageKind::CheckMismatch)),
            LogFrame::Invalid { reason } => events.push(damage(DamageKind::Invalid { reason })),
            LogFrame::Other { text } => events.push(Event::Message(Message { offset, text })),
            LogFrame::Start { rules, seed } => games.start1(rules, seed, offset, events),
            LogFrame::Move(mv) => games.move1(mv, at, events),
            LogFrame::End(end) => games.end1(end, at, events),
            LogFrame::Start2 {
                dev,
                game,
                rules,
                seed,
                check,
            } => games.start2(
                Start {
                    number: game,
                    dev: Some(dev),
                    start_check: Some(check),
                    rules,
                    seed,
                    offset,
                    stored: false,
                },
                events,
            ),
            LogFrame::Move2 { game, mv } => games.moved2(game, mv, at, events),
            LogFrame::Moves3 { game, first, dirs } => {
                games.stored_moves(game, first, &dirs, at, events)
            }
            LogFrame::End2 { game, end } => games.end2(game, end, at, events),
            LogFrame::Device(fact) => {
                let fact = fact.of_device(games.dev());
                events.push(Event::Device(fact));
                match fact {
                    DeviceFact::Hello { dev, .. } => games.hello(dev, events),
                    DeviceFact::PullBegin { dev, games: n } => games.reply_begins(dev, n, events),
                    DeviceFact::PullDone { dev, sent } => games.reply_done(dev, sent, events),
                    _ => {}
                }
            }
        }
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
            Event::GameClosed(game) => out.games.push(*game),
            Event::Damaged(d) => out.damage.push(d),
            Event::Message(m) => out.messages.push(m),
            Event::Device(f) => out.facts.push(f),
            Event::GameStarted { .. }
            | Event::Moved { .. }
            | Event::StoredMoves { .. }
            | Event::Stray { .. }
            | Event::Reply(_) => {}
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
}
