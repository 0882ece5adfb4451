//! A new game played in the page and recorded move by move, as `twenty48 play` records one.

use core::fmt;

use twenty48_engine::{Direction, Event, Game, Preset};
use twenty48_movelog::{DecodeError, MoveLog, Recorder};

use crate::frame::Frame;

/// Why a game cannot be started or resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SessionError {
    /// The seed is not a whole number from 0 to 2^64 - 1.
    Seed {
        /// The text given.
        text: String,
    },
    /// No preset has that name.
    Preset {
        /// The name given.
        name: String,
    },
    /// The saved game is not a log.
    Saved {
        /// Why.
        source: DecodeError,
    },
    /// The saved game's move cannot be played (the saved bytes were changed).
    SavedMove {
        /// The 1-based move number.
        move_number: u32,
    },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Seed { text } => write!(
                f,
                "the seed {text:?} is not a whole number from 0 to 18446744073709551615"
            ),
            SessionError::Preset { name } => write!(
                f,
                "no rule preset is called {name:?} (classic, arduino or console)"
            ),
            SessionError::Saved { source } => {
                write!(f, "the saved game cannot be read: {source}")
            }
            SessionError::SavedMove { move_number } => write!(
                f,
                "the saved game cannot be resumed: its move {move_number} does not play"
            ),
        }
    }
}

impl std::error::Error for SessionError {}

/// A game being played and recorded.
#[derive(Clone, Debug)]
pub struct Session {
    recorder: Recorder,
}

impl Session {
    /// A new game under `preset` (by name) with `seed` (decimal text).
    ///
    /// ```
    /// use twenty48_engine::Direction;
    /// use twenty48_web::Session;
    ///
    /// let mut session = Session::new("classic", "42").unwrap();
    /// let (frame, events) = session.play(Direction::Left);
    /// assert_eq!(frame.move_number, 1);
    /// assert!(!events.is_empty());
    /// let again = Session::resume(&session.bytes()).unwrap();
    /// assert_eq!(again.frame(), session.frame());
    /// ```
    pub fn new(preset: &str, seed: &str) -> Result<Session, SessionError> {
        let rules = Preset::from_name(preset)
            .ok_or_else(|| SessionError::Preset {
                name: preset.to_string(),
            })?
            .rules();
        let seed = seed.trim().parse::<u64>().map_err(|_| SessionError::Seed {
            text: seed.to_string(),
        })?;
        let recorder = Recorder::new(rules, seed).expect("the presets are valid rules");
        Ok(Session { recorder })
    }

    /// The game saved as [`Session::bytes`], played again move by move.
    pub fn resume(bytes: &[u8]) -> Result<Session, SessionError> {
        let log = MoveLog::decode(bytes).map_err(|source| SessionError::Saved { source })?;
        let mut recorder = Recorder::new(log.rules, log.seed)
            .map_err(|_| SessionError::SavedMove { move_number: 1 })?;
        for (i, &dir) in log.moves.iter().enumerate() {
            match recorder.play(dir) {
                Ok(outcome) if outcome.moved => {}
                _ => {
                    return Err(SessionError::SavedMove {
                        move_number: i as u32 + 1,
                    })
                }
            }
        }
        Ok(Session { recorder })
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.recorder.game()
    }

    /// The board as it stands.
    pub fn frame(&self) -> Frame {
        Frame::of(self.game(), self.recorder.moves().last().copied(), 0)
    }

    /// Plays `dir`: the frame after it and its animation events (none when the press changes
    /// nothing or the game has ended; such presses are not recorded).
    pub fn play(&mut self, dir: Direction) -> (Frame, Vec<Event>) {
        let mut events = Vec::new();
        let mut probe = self.game().clone();
        let gained = match probe.play_with_events(dir, &mut |e| events.push(e)) {
            Ok(outcome) if outcome.moved => {
                let _ = self.recorder.play(dir);
                outcome.gained
            }
            _ => {
                events.clear();
                0
            }
        };
        let mut frame = self.frame();
        frame.gained = gained;
        (frame, events)
    }

    /// The game so far as a `.t48` file (claims of the game as it stands; a game still being
    /// played verifies as one whose status is `playing`).
    pub fn bytes(&self) -> Vec<u8> {
        self.recorder.finish().encode()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_verify::{verify, EngineChoice};

    #[test]
    fn a_played_game_verifies_and_resumes_where_it_was() {
        let mut s = Session::new("arduino", " 7 ").unwrap();
        let mut moved = 0;
        for i in 0..200 {
            let dir = Direction::ALL[i % 4];
            let before = s.frame();
            let (frame, events) = s.play(dir);
            if events.is_empty() {
                assert_eq!(frame.hash, before.hash);
            } else {
                moved += 1;
            }
        }
        assert_eq!(s.game().move_count(), moved);
        let log = MoveLog::decode(&s.bytes()).unwrap();
        assert!(verify(&log, EngineChoice::Both).is_ok());
        let again = Session::resume(&s.bytes()).unwrap();
        assert_eq!(again.frame().hash, s.frame().hash);
    }

    #[test]
    fn bad_seeds_presets_and_saves_are_named() {
        assert_eq!(
            Session::new("classic", "-1").unwrap_err().to_string(),
            "the seed \"-1\" is not a whole number from 0 to 18446744073709551615"
        );
        assert!(Session::new("classic", "18446744073709551616").is_err());
        assert!(Session::new("classic", "18446744073709551615").is_ok());
        assert!(matches!(
            Session::new("tetris", "1"),
            Err(SessionError::Preset { .. })
        ));
        assert!(matches!(
            Session::resume(b"not a log"),
            Err(SessionError::Saved { .. })
        ));
    }
}
