//! The damaged variants of the v2 captures, each made from a clean capture by a fixed recipe
//! on its frames (the bytes between zero separators): a frame's bits flipped, the capture cut
//! inside a frame, every frame of a game dropped (a gap), a capture opened mid-session.

use std::ops::Range;

use twenty48_devicelog::{CaptureDecoder, Event};

use super::session::firmware_elf;

/// What a frame of a capture is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A game's start frame.
    Start,
    /// The `n`th move frame of its game (from 1).
    Move(u32),
    /// A game's end or partial frame.
    End,
    /// A device frame (hello, pull, ack, error, lost) or a message.
    Other,
}

/// One frame: its bytes (without the separator), the game it belongs to, what it is.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Where its bytes are in the capture.
    pub bytes: Range<usize>,
    /// Its game's number (start, move and end frames).
    pub game: Option<u32>,
    /// What it is.
    pub kind: Kind,
}

/// The frames of a clean capture, in order, each decoded on its own.
pub fn frames(capture: &[u8]) -> Vec<Frame> {
    let mut decoder = CaptureDecoder::new(firmware_elf()).unwrap();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in capture.iter().enumerate() {
        if b != 0 {
            continue;
        }
        let events = decoder.feed(&capture[start..=i]);
        if i > start {
            let (game, kind) = events
                .iter()
                .rev()
                .find_map(|e| match e {
                    Event::GameStarted { number, .. } => Some((Some(*number), Kind::Start)),
                    Event::Moved { game, mv } => Some((Some(*game), Kind::Move(mv.seq))),
                    Event::StoredMoves { game, first, count } => {
                        Some((Some(*game), Kind::Move(first + count)))
                    }
                    Event::GameClosed(g) if g.end.is_some() => Some((Some(g.number), Kind::End)),
                    Event::Damaged(d) => panic!("a clean capture has damage: {d}"),
                    _ => None,
                })
                .unwrap_or((None, Kind::Other));
            out.push(Frame {
                bytes: start..i,
                game,
                kind,
            });
        }
        start = i + 1;
    }
    out
}

/// The `nth` frame (from 0) of `game` of kind `kind`.
pub fn find(capture: &[u8], game: u32, kind: Kind, nth: usize) -> Range<usize> {
    frames(capture)
        .into_iter()
        .filter(|f| f.game == Some(game) && f.kind == kind)
        .nth(nth)
        .unwrap_or_else(|| panic!("game {game} has no {kind:?} number {nth}"))
        .bytes
}

/// The capture with every frame of `game` (all its copies) left out, separators too.
pub fn without_game(capture: &[u8], game: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for f in frames(capture) {
        if f.game != Some(game) {
            out.extend_from_slice(&capture[f.bytes.clone()]);
            out.push(0);
        }
    }
    out
}

/// The capture with bit `bit` of byte `at` flipped.
pub fn flipped(capture: &[u8], at: usize, bit: u32) -> Vec<u8> {
    let mut out = capture.to_vec();
    out[at] ^= 1 << bit;
    out
}

/// The offset of the `nth` (from 0) device frame whose decoded fact reads `text`.
pub fn fact_frame(capture: &[u8], text: &str, nth: usize) -> Range<usize> {
    let mut decoder = CaptureDecoder::new(firmware_elf()).unwrap();
    let mut seen = 0;
    for f in frames(capture)
        .into_iter()
        .filter(|f| f.kind == Kind::Other)
    {
        decoder.feed(&capture[f.bytes.clone()]);
        let events = decoder.feed(&[0]);
        let fact = events.iter().any(|e| match e {
            Event::Device(fact) => fact.to_string().contains(text),
            _ => false,
        });
        if fact {
            if seen == nth {
                return f.bytes;
            }
            seen += 1;
        }
    }
    panic!("no device frame {nth} reading {text:?}")
}
