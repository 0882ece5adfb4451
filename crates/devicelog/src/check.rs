//! Replaying a device game on the host engine, move by move.

use std::fmt;

use twenty48_engine::{Direction, Game, Rules, RulesError, Status};

use crate::game::{DeviceGame, DeviceMove, GameEnd};

/// The first thing about a device game that the host replay does not confirm.
///
/// `expected` is always what the host replay computes, `actual` what the device logged.
/// Move numbers count from 1 within the game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The rules in the game-start frame cannot be played.
    InvalidRules {
        /// Game number in the capture.
        game: u32,
        /// Why the engine refused them.
        source: RulesError,
    },
    /// A move frame is missing or out of order: the move number `move_number` was expected,
    /// a frame with sequence number `actual` came instead.
    SequenceGap {
        /// Game number in the capture.
        game: u32,
        /// The move the host was about to replay.
        move_number: u32,
        /// The sequence number that frame should have had.
        expected: u32,
        /// The sequence number it had.
        actual: u32,
    },
    /// The device logged a move that does not change the board on the host.
    NoMove {
        /// Game number in the capture.
        game: u32,
        /// The move.
        move_number: u32,
        /// Its direction.
        dir: Direction,
    },
    /// The device logged a move after the host's replay of the game had ended.
    MoveAfterEnd {
        /// Game number in the capture.
        game: u32,
        /// The move.
        move_number: u32,
        /// How the host's game had ended.
        status: Status,
    },
    /// The score after a move differs.
    ScoreMismatch {
        /// Game number in the capture.
        game: u32,
        /// The move.
        move_number: u32,
        /// Host score.
        expected: u64,
        /// Device score.
        actual: u64,
    },
    /// The state hash after a move differs.
    HashMismatch {
        /// Game number in the capture.
        game: u32,
        /// The move.
        move_number: u32,
        /// Host hash.
        expected: u64,
        /// Device hash.
        actual: u64,
    },
    /// The capture has no game-end frame for the game.
    Truncated {
        /// Game number in the capture.
        game: u32,
        /// The moves that were received (and verified).
        moves: u32,
    },
    /// Protocol v2: the end (or partial) frame's start digest is not the check of the
    /// game-start frame received: the start belongs to another game.
    StartMismatch {
        /// Game number.
        game: u32,
        /// The check of the start frame received.
        expected: u32,
        /// The `start=` of the end frame.
        actual: u32,
    },
    /// The game-end frame disagrees with the replay of the moves received.
    EndMismatch {
        /// Game number in the capture.
        game: u32,
        /// Which field: `result`, `score`, `moves` or `hash`.
        field: &'static str,
        /// Host value (status code for `result`).
        expected: u64,
        /// Device value.
        actual: u64,
    },
}

impl Problem {
    /// The game number the problem is in.
    pub fn game(&self) -> u32 {
        match *self {
            Problem::InvalidRules { game, .. }
            | Problem::SequenceGap { game, .. }
            | Problem::NoMove { game, .. }
            | Problem::MoveAfterEnd { game, .. }
            | Problem::ScoreMismatch { game, .. }
            | Problem::HashMismatch { game, .. }
            | Problem::Truncated { game, .. }
            | Problem::StartMismatch { game, .. }
            | Problem::EndMismatch { game, .. } => game,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::InvalidRules { game, source } => {
                write!(f, "game {game}: the device's rules cannot be played: {source}")
            }
            Problem::SequenceGap {
                game,
                move_number,
                expected,
                actual,
            } => write!(
                f,
                "game {game}, move {move_number}: sequence gap, expected move frame {expected} but got {actual} (frames lost)"
            ),
            Problem::NoMove {
                game,
                move_number,
                dir,
            } => write!(
                f,
                "game {game}, move {move_number}: the device moved {dir} but on the host that move changes nothing"
            ),
            Problem::MoveAfterEnd {
                game,
                move_number,
                status,
            } => write!(
                f,
                "game {game}, move {move_number}: the device logged a move after the host's game ended ({status})"
            ),
            Problem::ScoreMismatch {
                game,
                move_number,
                expected,
                actual,
            } => write!(
                f,
                "game {game}, move {move_number}: score mismatch, host {expected}, device {actual}"
            ),
            Problem::HashMismatch {
                game,
                move_number,
                expected,
                actual,
            } => write!(
                f,
                "game {game}, move {move_number}: state hash mismatch, host {expected:016x}, device {actual:016x}"
            ),
            Problem::Truncated { game, moves } => write!(
                f,
                "game {game}: truncated after move {moves}, the capture has no game-end frame"
            ),
            Problem::StartMismatch {
                game,
                expected,
                actual,
            } => write!(
                f,
                "game {game}: the game-end frame names start {actual:08x}, the start frame received is {expected:08x} (another game's start)"
            ),
            Problem::EndMismatch {
                game,
                field,
                expected,
                actual,
            } => write!(
                f,
                "game {game}: the game-end frame's {field} is {actual}, the host replay gives {expected}"
            ),
        }
    }
}

/// The result of replaying one device game on the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameCheck {
    /// Game number in the capture.
    pub game: u32,
    /// How many moves, from the first, the host replayed and confirmed (score and hash).
    pub verified_moves: u32,
    /// The first problem, or `None` when the whole game, end frame included, is confirmed.
    pub problem: Option<Problem>,
    /// The host's score after the verified moves.
    pub score: u64,
    /// The host's state hash after the verified moves.
    pub hash: u64,
    /// The host's status after the verified moves.
    pub status: Status,
}

impl GameCheck {
    /// Whether every move and the end frame were confirmed.
    pub fn is_verified(&self) -> bool {
        self.problem.is_none()
    }
}

/// Replays a device game on the host engine, checking every move's sequence number, score
/// and state hash (a stored game's moves in protocol v3 carry none: its end frame has the
/// device's final ones), then the end frame; stops at the first problem.
pub fn check(game: &DeviceGame) -> GameCheck {
    let mut replay = Replay::new(game.number, game.rules, game.seed);
    for m in &game.moves {
        if !replay.push(m) {
            break;
        }
    }
    replay.finish(game.end.as_ref(), game.start_check)
}

/// A device game replayed on the host as its moves arrive: each move is checked when it
/// comes (its sequence number, that it moves the board, and the device's score and hash
/// when the frame has them), so that nothing but the host's game and the first problem need
/// be kept; the end frame is checked by [`Replay::finish`]. [`check`] is this over a whole
/// [`DeviceGame`].
#[derive(Clone)]
pub(crate) struct Replay {
    number: u32,
    /// The host's game after the verified moves (`None`: the rules cannot be played).
    host: Option<Game>,
    verified: u32,
    problem: Option<Problem>,
}

impl fmt::Debug for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Replay")
            .field("number", &self.number)
            .field("verified", &self.verified)
            .field("problem", &self.problem)
            .finish_non_exhaustive()
    }
}

impl Replay {
    /// The replay of game `number` (in the capture) under `rules` from `seed`, no move yet.
    pub(crate) fn new(number: u32, rules: Rules, seed: u64) -> Replay {
        let (host, problem) = match Game::new(rules, seed) {
            Ok(host) => (Some(host), None),
            Err(source) => (
                None,
                Some(Problem::InvalidRules {
                    game: number,
                    source,
                }),
            ),
        };
        Replay {
            number,
            host,
            verified: 0,
            problem,
        }
    }

    /// Checks the next move the device logged; whether the host confirmed it (`false` for
    /// it and every move after the first problem).
    pub(crate) fn push(&mut self, m: &DeviceMove) -> bool {
        let (Some(host), None) = (self.host.as_mut(), &self.problem) else {
            return false;
        };
        match step(self.number, self.verified + 1, host, m) {
            Ok(next) => {
                *host = next;
                self.verified += 1;
                true
            }
            Err(problem) => {
                self.problem = Some(problem);
                false
            }
        }
    }

    /// The result, with the game's end frame `end` (`None`: the capture has none) and the
    /// check of its start frame `start_check`.
    pub(crate) fn finish(&self, end: Option<&GameEnd>, start_check: Option<u32>) -> GameCheck {
        let number = self.number;
        let Some(host) = &self.host else {
            return GameCheck {
                game: number,
                verified_moves: 0,
                problem: self.problem.clone(),
                score: 0,
                hash: 0,
                status: Status::Playing,
            };
        };
        let problem = self.problem.clone().or_else(|| match end {
            None => Some(Problem::Truncated {
                game: number,
                moves: self.verified,
            }),
            Some(end) => match (end.start, start_check) {
                (Some(actual), Some(expected)) if actual != expected => {
                    Some(Problem::StartMismatch {
                        game: number,
                        expected,
                        actual,
                    })
                }
                (Some(_), None) | (None, Some(_)) => Some(Problem::StartMismatch {
                    game: number,
                    expected: start_check.unwrap_or(0),
                    actual: end.start.unwrap_or(0),
                }),
                _ => end_mismatch(number, host, end),
            },
        });
        GameCheck {
            game: number,
            verified_moves: self.verified,
            problem,
            score: host.score(),
            hash: host.state_hash(),
            status: host.status(),
        }
    }
}

/// Move `move_number` of game `game`, `m`, played on the host's game `host`: the game after
/// it, or the first thing about it the host does not confirm.
fn step(game: u32, move_number: u32, host: &Game, m: &DeviceMove) -> Result<Game, Problem> {
    if m.seq != move_number {
        return Err(Problem::SequenceGap {
            game,
            move_number,
            expected: move_number,
            actual: m.seq,
        });
    }
    let mut next = host.clone();
    match next.play(m.dir) {
        Err(_) => {
            return Err(Problem::MoveAfterEnd {
                game,
                move_number,
                status: host.status(),
            })
        }
        Ok(outcome) if !outcome.moved => {
            return Err(Problem::NoMove {
                game,
                move_number,
                dir: m.dir,
            })
        }
        Ok(_) => {}
    }
    if let Some(actual) = m.score.filter(|&a| a != next.score()) {
        return Err(Problem::ScoreMismatch {
            game,
            move_number,
            expected: next.score(),
            actual,
        });
    }
    if let Some(actual) = m.hash.filter(|&a| a != next.state_hash()) {
        return Err(Problem::HashMismatch {
            game,
            move_number,
            expected: next.state_hash(),
            actual,
        });
    }
    Ok(next)
}

fn end_mismatch(game: u32, host: &Game, end: &GameEnd) -> Option<Problem> {
    // A partial frame has no result: the game was cut, whatever the board showed.
    let result = if end.partial {
        (host.status() as u64, host.status() as u64)
    } else {
        (host.status() as u64, end.status as u64)
    };
    // A v3 partial frame has no score or hash: the moves alone (the host's replay of them
    // is the prefix written).
    let fields: [(&'static str, u64, u64); 4] = [
        ("moves", host.move_count() as u64, end.moves as u64),
        ("result", result.0, result.1),
        ("score", host.score(), end.score.unwrap_or(host.score())),
        (
            "hash",
            host.state_hash(),
            end.hash.unwrap_or(host.state_hash()),
        ),
    ];
    fields
        .into_iter()
        .find(|(_, expected, actual)| expected != actual)
        .map(|(field, expected, actual)| Problem::EndMismatch {
            game,
            field,
            expected,
            actual,
        })
}

#[cfg(test)]
mod tests {
    use twenty48_engine::{Direction, Game, Rules, Status};

    use super::*;
    use crate::{DeviceMove, GameEnd};

    /// A device game as a correct device would log it: the moves that move, in order.
    fn logged(seed: u64, presses: &str) -> DeviceGame {
        let mut game = Game::new(Rules::ARDUINO, seed).unwrap();
        let mut moves = Vec::new();
        for c in presses.chars() {
            let dir = Direction::from_letter(c).unwrap();
            if game.play(dir).unwrap().moved {
                moves.push(DeviceMove {
                    seq: game.move_count(),
                    dir,
                    score: Some(game.score()),
                    hash: Some(game.state_hash()),
                });
            }
        }
        DeviceGame {
            number: 1,
            rules: Rules::ARDUINO,
            seed,
            moves,
            end: Some(GameEnd {
                status: game.status(),
                score: Some(game.score()),
                moves: game.move_count(),
                hash: Some(game.state_hash()),
                partial: false,
                start: None,
                check: None,
            }),
            dev: None,
            start_check: None,
            offset: 0,
        }
    }

    #[test]
    fn a_faithful_log_verifies_and_converts_whole() {
        let game = logged(3, "LURDLURDLURDLURD");
        let result = check(&game);
        assert_eq!(result.problem, None);
        assert_eq!(result.verified_moves as usize, game.moves.len());
        assert_eq!(result.status, Status::Playing);
        let log = game.to_movelog(false).unwrap();
        assert!(log.complete);
        assert_eq!(log.moves.len(), game.moves.len());
    }

    #[test]
    fn a_changed_score_is_caught_at_its_move() {
        let mut game = logged(3, "LURDLURDLURD");
        game.moves[3].score = game.moves[3].score.map(|s| s + 4);
        let result = check(&game);
        assert!(matches!(
            result.problem,
            Some(Problem::ScoreMismatch {
                game: 1,
                move_number: 4,
                ..
            })
        ));
        assert_eq!(result.verified_moves, 3);
        assert!(game.to_movelog(false).is_none());
        let partial = game.to_movelog(true).unwrap();
        assert!(!partial.complete);
        assert_eq!(partial.moves.len(), 3);
    }

    #[test]
    fn a_lost_last_move_shows_in_the_end_frame() {
        let mut game = logged(9, "LURDLURDLURD");
        let n = game.moves.len() as u64;
        game.moves.pop();
        let result = check(&game);
        assert_eq!(
            result.problem,
            Some(Problem::EndMismatch {
                game: 1,
                field: "moves",
                expected: n - 1,
                actual: n
            })
        );
        assert!(game.to_movelog(false).is_none());
    }

    #[test]
    fn a_wrong_direction_is_caught() {
        let mut game = logged(5, "LURDLURD");
        // The same seed, but the device claims another direction for move 2.
        game.moves[1].dir = match game.moves[1].dir {
            Direction::Up => Direction::Down,
            _ => Direction::Up,
        };
        let result = check(&game);
        let problem = result.problem.unwrap();
        assert_eq!(result.verified_moves, 1, "{problem}");
    }

    #[test]
    fn a_partial_game_verifies_as_a_prefix_marked_incomplete() {
        let mut game = logged(3, "LURDLURDLURD");
        let end = game.end.as_mut().unwrap();
        end.partial = true;
        end.start = Some(7);
        game.start_check = Some(7);
        assert!(check(&game).is_verified());
        assert!(game.is_partial());
        let log = game.to_movelog(false).unwrap();
        assert!(!log.complete, "an interrupted game is never complete");
        assert_eq!(log.moves.len(), game.moves.len());
    }

    #[test]
    fn an_end_naming_another_start_is_caught() {
        let mut game = logged(3, "LURDLURD");
        game.start_check = Some(7);
        game.end.as_mut().unwrap().start = Some(8);
        assert_eq!(
            check(&game).problem,
            Some(Problem::StartMismatch {
                game: 1,
                expected: 7,
                actual: 8
            })
        );
        assert!(game.to_movelog(false).is_none());
    }

    /// A start check on one side only (its start frame or its end frame lost it) cannot
    /// tie the end to the start: a mismatch, with 0 for the missing side.
    #[test]
    fn a_start_check_on_one_side_only_is_caught() {
        for (start, end) in [(Some(7), None), (None, Some(8))] {
            let mut game = logged(3, "LURDLURD");
            game.start_check = start;
            game.end.as_mut().unwrap().start = end;
            assert_eq!(
                check(&game).problem,
                Some(Problem::StartMismatch {
                    game: 1,
                    expected: start.unwrap_or(0),
                    actual: end.unwrap_or(0)
                })
            );
            assert!(game.to_movelog(false).is_none());
        }
    }

    #[test]
    fn problems_read_like_sentences() {
        let p = Problem::SequenceGap {
            game: 2,
            move_number: 10,
            expected: 10,
            actual: 13,
        };
        assert_eq!(
            p.to_string(),
            "game 2, move 10: sequence gap, expected move frame 10 but got 13 (frames lost)"
        );
        assert_eq!(p.game(), 2);
    }
}
