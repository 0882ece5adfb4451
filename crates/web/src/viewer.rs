//! A recorded game opened in the page: decoded, verified by the verifier `twenty48 verify`
//! runs, and ready to show any move at once.
//!
//! The game after every [`SPAN`]-th move is kept (a clone of the engine's [`Game`], a few
//! hundred bytes), so showing move `n` plays at most `SPAN - 1` moves from the nearest one
//! before it: a jump anywhere in a 20,000-move game costs what a 128-move replay costs.

use core::fmt;

use twenty48_engine::{Direction, Event, Game, PlayError, Refusal};
use twenty48_movelog::MoveLog;
use twenty48_verify::{verify, EngineChoice, Report};

use crate::frame::Frame;

/// Moves between two kept games.
pub const SPAN: u32 = 128;

/// What the verifier says of a file, in the words of `twenty48 verify`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Which of the three verdicts.
    pub kind: VerdictKind,
    /// What `twenty48 verify` prints after the file's name: the moves, score and hash of a
    /// log that verifies, else the problem (with its move number) or why the file is not a
    /// log (with its byte offset).
    pub message: String,
}

/// The three verdicts of `twenty48 verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerdictKind {
    /// Every move, checkpoint and claim holds.
    Ok,
    /// A log that replays to something other than it claims, or has a move that cannot be
    /// played (exit status 1).
    Failed,
    /// Not a log this build can read (exit status 2).
    Error,
}

impl VerdictKind {
    /// The word `twenty48 verify` starts the file's line with: `ok`, `FAILED`, `ERROR`.
    pub const fn word(self) -> &'static str {
        match self {
            VerdictKind::Ok => "ok",
            VerdictKind::Failed => "FAILED",
            VerdictKind::Error => "ERROR",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.word(), self.message)
    }
}

/// A recorded game, verified, with kept games for jumping to any move.
#[derive(Clone, Debug)]
pub struct Viewer {
    log: MoveLog,
    report: Report,
    /// The game after move `i * SPAN`, for every `i` up to the last playable move.
    kept: Vec<Game>,
    /// The moves that play (all of them, unless one does not move or comes after the end).
    playable: u32,
    /// The game last shown, reused when the next move asked for lies ahead of it.
    cursor: Game,
}

/// A file opened: the verdict always, and a viewer when there is a game to show.
#[derive(Clone, Debug)]
pub struct Opened {
    /// What `twenty48 verify` would say of the file.
    pub verdict: Verdict,
    /// The game, unless the file is not a log or its rules cannot be played.
    pub viewer: Option<Viewer>,
}

impl Viewer {
    /// Opens a `.t48` file's bytes: decodes, verifies on the fast engine (as `twenty48
    /// verify` does by default), and keeps a game every [`SPAN`] moves.
    ///
    /// ```
    /// use twenty48_engine::{Direction, Rules};
    /// use twenty48_movelog::MoveLog;
    /// use twenty48_web::{VerdictKind, Viewer};
    ///
    /// let moves = [Direction::Left, Direction::Up, Direction::Right];
    /// let bytes = MoveLog::from_moves(Rules::CLASSIC, 1, &moves, 2).unwrap().encode();
    /// let opened = Viewer::open(&bytes);
    /// assert_eq!(opened.verdict.kind, VerdictKind::Ok);
    /// let mut viewer = opened.viewer.unwrap();
    /// assert_eq!(viewer.moves(), 3);
    /// assert_eq!(viewer.frame(3).score, viewer.report().last.as_ref().unwrap().score);
    /// ```
    pub fn open(bytes: &[u8]) -> Opened {
        // `twenty48 verify` reads no more than its limit of bytes after the log, and says
        // so in these words (issue 46: the page counted them all).
        if let Err(e) = twenty48_verify::batch::check_log_bytes(bytes) {
            return Opened {
                verdict: Verdict {
                    kind: VerdictKind::Error,
                    message: format!("cannot read: {e}"),
                },
                viewer: None,
            };
        }
        let log = match MoveLog::decode(bytes) {
            Ok(log) => log,
            Err(e) => {
                return Opened {
                    verdict: Verdict {
                        kind: VerdictKind::Error,
                        message: e.to_string(),
                    },
                    viewer: None,
                }
            }
        };
        let report = verify(&log, EngineChoice::Fast);
        let verdict = Verdict {
            kind: match report.is_ok() {
                true => VerdictKind::Ok,
                false => VerdictKind::Failed,
            },
            message: report.summary().to_string(),
        };
        let viewer = Viewer::with_report(log, report);
        Opened { verdict, viewer }
    }

    /// The viewer of a decoded, verified log; `None` when its rules cannot be played.
    fn with_report(log: MoveLog, report: Report) -> Option<Viewer> {
        let mut game = Game::new(log.rules, log.seed).ok()?;
        let mut kept = vec![game.clone()];
        let mut playable = 0;
        for chunk in log.moves.chunks(SPAN as usize) {
            match game.play_all(chunk) {
                Ok(()) => {
                    playable += chunk.len() as u32;
                    if chunk.len() == SPAN as usize {
                        kept.push(game.clone());
                    }
                }
                Err(Refusal::NoMove { index, .. } | Refusal::Finished { index, .. }) => {
                    playable += index as u32;
                    break;
                }
                Err(_) => break,
            }
        }
        Some(Viewer {
            cursor: kept[0].clone(),
            log,
            report,
            kept,
            playable,
        })
    }

    /// The decoded log.
    pub fn log(&self) -> &MoveLog {
        &self.log
    }

    /// The verifier's report.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The number of moves that can be shown: the log's, or those before the first move that
    /// cannot be played.
    pub fn moves(&self) -> u32 {
        self.playable
    }

    /// The game after move `n` (clamped to [`Viewer::moves`]), from the nearest kept game
    /// or the last one shown, whichever is closer before it.
    fn game_at(&mut self, n: u32) -> &Game {
        let n = n.min(self.playable);
        let cursor = self.cursor.move_count();
        let from_kept = n / SPAN * SPAN;
        if cursor > n || cursor < from_kept {
            self.cursor = self.kept[(n / SPAN) as usize].clone();
        }
        let at = self.cursor.move_count() as usize;
        let played = self.cursor.play_all(&self.log.moves[at..n as usize]);
        debug_assert!(played.is_ok(), "moves below `playable` play");
        &self.cursor
    }

    /// The frame after move `n` (0: the opening; clamped to [`Viewer::moves`]), with the
    /// move's direction and points.
    pub fn frame(&mut self, n: u32) -> Frame {
        self.step(n).0
    }

    /// Move `n` (1-based, clamped to 1..=[`Viewer::moves`]) played from the game before it:
    /// the frame after it and the move's animation events (tiles moved, merges, the spawn).
    /// Move 0 is the opening: its frame and no events.
    pub fn step(&mut self, n: u32) -> (Frame, Vec<Event>) {
        let n = n.min(self.playable);
        if n == 0 {
            let game = self.game_at(0);
            return (Frame::of(game, None, 0), Vec::new());
        }
        let dir = self.log.moves[n as usize - 1];
        let mut game = self.game_at(n - 1).clone();
        let mut events = Vec::new();
        let gained = match game.play_with_events(dir, &mut |e| events.push(e)) {
            Ok(outcome) => outcome.gained,
            Err(PlayError::Finished { .. }) | Err(_) => 0,
        };
        let frame = Frame::of(&game, Some(dir), gained);
        self.cursor = game;
        (frame, events)
    }

    /// The move that leads to move `n` (1-based), if the log has it.
    pub fn direction(&self, n: u32) -> Option<Direction> {
        n.checked_sub(1)
            .and_then(|i| self.log.moves.get(i as usize).copied())
    }

    /// Replays every playable move `times` times from the opening with
    /// [`Game::play_all`] and returns the moves played: the measure of the replay speed
    /// where this runs (`just web-bench` times it in the browser and natively).
    pub fn replay_all(&self, times: u32) -> u64 {
        let moves = &self.log.moves[..self.playable as usize];
        let mut played = 0;
        for _ in 0..times {
            let mut game = self.kept[0].clone();
            let _ = game.play_all(moves);
            played += u64::from(game.move_count());
        }
        played
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn fixtures(dir: &str) -> Vec<(String, Vec<u8>)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures")
            .join(dir);
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "t48"))
            .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
            .collect();
        files.sort();
        files
    }

    /// The game after `n` moves, played from the opening move by move.
    fn played(log: &MoveLog, n: u32) -> Game {
        let mut game = Game::new(log.rules, log.seed).unwrap();
        for &d in &log.moves[..n as usize] {
            game.play(d).unwrap();
        }
        game
    }

    /// Jumps anywhere (forwards, backwards, across kept games, past the end) show what a
    /// replay from the opening gives, and a step's events lead from one frame to the next.
    #[test]
    fn every_fixture_shows_every_move_as_a_replay_from_the_opening() {
        for (name, bytes) in fixtures("games") {
            let opened = Viewer::open(&bytes);
            assert_eq!(opened.verdict.kind, VerdictKind::Ok, "{name}");
            let mut v = opened.viewer.unwrap();
            let n = v.moves();
            assert_eq!(n as usize, v.log().moves.len(), "{name}");
            let last = v.report().last.clone().unwrap();
            let end = v.frame(n + 5);
            assert_eq!((end.hash, end.score), (last.hash, last.score), "{name}");
            let mut at = [
                0,
                n,
                n / 2,
                1,
                n.saturating_sub(1),
                SPAN,
                SPAN - 1,
                SPAN + 1,
            ];
            at.iter_mut().for_each(|m| *m = (*m).min(n));
            for m in at.into_iter().chain((0..n).step_by(97)) {
                let frame = v.frame(m);
                let game = played(v.log(), m);
                assert_eq!(
                    frame,
                    Frame::of(&game, v.direction(m), frame.gained),
                    "{name} {m}"
                );
            }
            for m in (1..=n).step_by(53) {
                let (frame, events) = v.step(m);
                let mut game = played(v.log(), m - 1);
                let outcome = game.play_events(v.direction(m).unwrap()).unwrap();
                assert_eq!(events, outcome.1, "{name} {m}");
                assert_eq!(frame.gained, outcome.0.gained, "{name} {m}");
                assert_eq!(frame.hash, game.state_hash(), "{name} {m}");
            }
        }
    }

    /// The verdicts are the verifier's: `twenty48 verify`'s words for each broken fixture
    /// (fixtures/broken/expected-errors.csv has a phrase of each), and a game shown up to
    /// the move before an illegal one.
    #[test]
    fn broken_fixtures_get_the_verifiers_verdicts() {
        let csv = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/broken/expected-errors.csv"),
        )
        .unwrap();
        for (name, bytes) in fixtures("broken") {
            let file = Path::new(&name).file_name().unwrap().to_str().unwrap();
            let row = csv.lines().find(|l| l.starts_with(file)).unwrap();
            let exit = row.split(',').nth(1).unwrap();
            let opened = Viewer::open(&bytes);
            let kind = match exit {
                "1" => VerdictKind::Failed,
                _ => VerdictKind::Error,
            };
            assert_eq!(opened.verdict.kind, kind, "{name}");
            let phrase = row.splitn(3, ',').nth(2).unwrap().trim_matches('"');
            assert!(
                opened.verdict.message.contains(phrase),
                "{name}: {}",
                opened.verdict
            );
            assert_eq!(
                opened.viewer.is_some(),
                kind == VerdictKind::Failed,
                "{name}"
            );
        }
        let illegal = fixtures("broken")
            .into_iter()
            .find(|(n, _)| n.ends_with("illegal-move.t48"))
            .unwrap();
        let v = Viewer::open(&illegal.1).viewer.unwrap();
        assert_eq!(v.moves(), 24);
    }

    #[test]
    fn replay_all_plays_every_move_each_time() {
        let (_, bytes) = fixtures("games").into_iter().next().unwrap();
        let v = Viewer::open(&bytes).viewer.unwrap();
        assert_eq!(v.replay_all(3), 3 * u64::from(v.moves()));
    }
}
