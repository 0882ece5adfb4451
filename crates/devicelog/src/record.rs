//! What a [`CaptureDecoder`](crate::CaptureDecoder) keeps of each game it assembles: every
//! frame's move ([`DeviceGame`], for looking at a capture), or only what a pull needs
//! ([`ReceivedGame`](crate::ReceivedGame): each move checked as it comes, the verified ones
//! kept at 2 bits each).

use std::fmt;

use crate::game::{DeviceGame, DeviceMove, GameEnd};

/// A kind of game record a [`CaptureDecoder`](crate::CaptureDecoder) can assemble:
/// [`DeviceGame`] (every move as it came) or [`ReceivedGame`](crate::ReceivedGame) (what a
/// pull keeps). Sealed: no other type can be one.
pub trait GameRecord: sealed::Assemble + Clone + fmt::Debug + PartialEq + Eq {}

impl GameRecord for DeviceGame {}

pub(crate) mod sealed {
    use twenty48_engine::Rules;

    use crate::game::{DeviceMove, GameEnd};

    /// A game's start frame, as the decoder read it.
    #[derive(Clone, Copy, Debug)]
    pub struct Start {
        /// v2: the device's game number; v1: the game's place in the capture.
        pub number: u32,
        /// v2: the device id.
        pub dev: Option<u64>,
        /// v2: the start frame's check.
        pub start_check: Option<u32>,
        /// The rules.
        pub rules: Rules,
        /// The seed.
        pub seed: u64,
        /// The start frame's byte offset.
        pub offset: usize,
        /// v2: started inside a pull reply of its device (a stored game), not live.
        pub stored: bool,
    }

    /// How the decoder builds a game record.
    pub trait Assemble: Sized {
        /// A game whose start frame came.
        fn start(start: Start) -> Self;
        /// A move of it came.
        fn push(&mut self, mv: &DeviceMove);
        /// It is closed: by its end (or partial) frame, or without one (`None`).
        fn close(&mut self, end: Option<GameEnd>);
        /// Its number.
        fn number(&self) -> u32;
        /// Its start frame's byte offset.
        fn offset(&self) -> usize;
    }
}

use sealed::{Assemble, Start};

impl Assemble for DeviceGame {
    fn start(s: Start) -> DeviceGame {
        DeviceGame {
            number: s.number,
            dev: s.dev,
            start_check: s.start_check,
            rules: s.rules,
            seed: s.seed,
            moves: Vec::new(),
            end: None,
            offset: s.offset,
        }
    }

    fn push(&mut self, mv: &DeviceMove) {
        self.moves.push(*mv);
    }

    fn close(&mut self, end: Option<GameEnd>) {
        self.end = end;
    }

    fn number(&self) -> u32 {
        self.number
    }

    fn offset(&self) -> usize {
        self.offset
    }
}
