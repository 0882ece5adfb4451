//! Where two games part: the first move at which their states differ, and what differed.

use core::fmt;

use twenty48_engine::{Direction, Engine, Game, Outcome, Refusal, Rules, Spawn};
use twenty48_movelog::MoveLog;

use crate::state::State;

/// One game as a sequence of states: index 0 after the opening, index `n` after move `n`.
///
/// A trace replayed from (rules, seed, moves) keeps only the moves that play; its states are
/// built when asked for ([`Trace::state`]), so [`diff`] does per move only what comparing
/// needs. A trace can also be given as states ([`Trace::from_states`], e.g. a device's
/// reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// What to call this game in reports (a file name, "device game 2", ...).
    pub label: String,
    /// The rules it was played under.
    pub rules: Rules,
    /// Its seed.
    pub seed: u64,
    /// Where its states come from.
    source: Source,
    /// Why the trace stops early, if it does (e.g. a move that does not move the board
    /// under these rules).
    pub stopped: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    /// Replayed from the rules and seed: the moves that play, in order (none when the
    /// rules cannot be played, and then there is no state at all).
    Replay {
        moves: Vec<Direction>,
        playable: bool,
    },
    /// Given state by state.
    States(Vec<State>),
}

impl Trace {
    /// Replays `moves` from `(rules, seed)`; a move that cannot be played ends the trace
    /// with a note naming it. The moves are played in one [`Game::play_all`] call; no state
    /// is built.
    pub fn replay(label: impl Into<String>, rules: Rules, seed: u64, moves: &[Direction]) -> Trace {
        let mut trace = Trace {
            label: label.into(),
            rules,
            seed,
            source: Source::Replay {
                moves: Vec::new(),
                playable: false,
            },
            stopped: None,
        };
        let mut game = match Game::with_engine(rules, seed, Engine::Fast) {
            Ok(g) => g,
            Err(e) => {
                trace.stopped = Some(format!("the rules cannot be played: {e}"));
                return trace;
            }
        };
        let played = match game.play_all(moves) {
            Ok(()) => moves.len(),
            Err(refusal) => {
                let i = match refusal {
                    Refusal::NoMove { index, .. } | Refusal::Finished { index, .. } => index,
                    _ => unreachable!("Refusal has two variants"),
                };
                // The game stands before the refused move: play it for the note.
                let dir = moves[i];
                trace.stopped = Some(match game.play(dir) {
                    Err(e) => format!("move {}: {e}", i + 1),
                    Ok(_) => format!("move {} ({dir}) does not change the board", i + 1),
                });
                i
            }
        };
        trace.source = Source::Replay {
            moves: moves[..played].to_vec(),
            playable: true,
        };
        trace
    }

    /// Replays a log under its own rules.
    pub fn from_log(label: impl Into<String>, log: &MoveLog) -> Trace {
        Trace::replay(label, log.rules, log.seed, &log.moves)
    }

    /// A trace given as its states (index 0 after the opening).
    pub fn from_states(
        label: impl Into<String>,
        rules: Rules,
        seed: u64,
        states: Vec<State>,
        stopped: Option<String>,
    ) -> Trace {
        Trace {
            label: label.into(),
            rules,
            seed,
            source: Source::States(states),
            stopped,
        }
    }

    /// The number of states (the moves played and the opening; 0 when the rules cannot
    /// be played).
    pub fn len(&self) -> usize {
        match &self.source {
            Source::Replay { moves, playable } => moves.len() + *playable as usize,
            Source::States(states) => states.len(),
        }
    }

    /// Whether the trace has no state at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The state after move `i` (0: the opening), if the trace has one. A replayed trace
    /// plays its first `i` moves again to build it.
    pub fn state(&self, i: usize) -> Option<State> {
        match &self.source {
            Source::States(states) => states.get(i).cloned(),
            Source::Replay { moves, .. } => {
                if i >= self.len() {
                    return None;
                }
                let mut game = Game::with_engine(self.rules, self.seed, Engine::Fast).ok()?;
                if i == 0 {
                    return Some(State::opening(&game));
                }
                game.play_all(&moves[..i - 1]).ok()?;
                let dir = moves[i - 1];
                let outcome = game.play(dir).ok()?;
                Some(State::after(&game, dir, &outcome))
            }
        }
    }

    /// The last state, if any.
    pub fn last(&self) -> Option<State> {
        self.len().checked_sub(1).and_then(|i| self.state(i))
    }

    /// The moves of this trace.
    pub fn moves(&self) -> Vec<Direction> {
        match &self.source {
            Source::Replay { moves, .. } => moves.clone(),
            Source::States(states) => states.iter().filter_map(|s| s.direction).collect(),
        }
    }
}

/// A trace walked state by state for [`diff`]: a replayed one plays its moves one at a time
/// and builds a [`State`] only when asked.
enum Cursor<'a> {
    Replay {
        game: Option<Box<Game>>,
        moves: &'a [Direction],
        /// The move that led to the current state, and its outcome.
        last: Option<(Direction, Outcome)>,
    },
    States(&'a [State]),
}

impl<'a> Cursor<'a> {
    fn new(trace: &'a Trace) -> Cursor<'a> {
        match &trace.source {
            Source::Replay { moves, .. } => Cursor::Replay {
                game: (!trace.is_empty())
                    .then(|| Game::with_engine(trace.rules, trace.seed, Engine::Fast).ok())
                    .flatten()
                    .map(Box::new),
                moves,
                last: None,
            },
            Source::States(states) => Cursor::States(states),
        }
    }

    /// Moves to state `i`, which the trace has (`i` counts up by one from 1).
    fn advance(&mut self, i: usize) {
        if let Cursor::Replay {
            game: Some(game),
            moves,
            last,
        } = self
        {
            let dir = moves[i - 1];
            *last = game.play(dir).ok().map(|o| (dir, o));
        }
    }

    /// The full state `i` (the current one).
    fn full(&self, i: usize) -> Option<State> {
        match self {
            Cursor::States(states) => states.get(i).cloned(),
            Cursor::Replay { game, last, .. } => {
                let game = game.as_ref()?;
                Some(match last {
                    _ if i == 0 => State::opening(game),
                    Some((dir, outcome)) => State::after(game, *dir, outcome),
                    None => State::current(game),
                })
            }
        }
    }
}

/// Whether state `i` of two cursors may differ, by cheap checks that see every difference
/// [`compare`] reports: two replays are compared on their move, spawn, merges, score and
/// board (the hash follows from the board, the score and the move number); against given
/// states, the full states are compared.
fn may_differ(a: &Cursor, b: &Cursor, i: usize) -> bool {
    match (a, b) {
        (
            Cursor::Replay {
                game: Some(ga),
                last: Some((da, oa)),
                ..
            },
            Cursor::Replay {
                game: Some(gb),
                last: Some((db, ob)),
                ..
            },
        ) if i > 0 => {
            (da, oa.spawn, oa.merges, oa.gained, ga.score())
                != (db, ob.spawn, ob.merges, ob.gained, gb.score())
                || ga.cells() != gb.cells()
        }
        _ => match (a.full(i), b.full(i)) {
            (Some(x), Some(y)) => !compare(&x, &y).is_empty(),
            _ => true,
        },
    }
}

/// One way two states differ.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Difference {
    /// The games were played under different rules.
    Rules,
    /// The games have different seeds.
    Seed,
    /// Different moves were played.
    Direction {
        /// First game's move.
        a: Option<Direction>,
        /// Second game's move.
        b: Option<Direction>,
    },
    /// The spawns differ.
    Spawn {
        /// First game's spawns.
        a: Vec<Spawn>,
        /// Second game's spawns.
        b: Vec<Spawn>,
    },
    /// The slides merged differently.
    Merge {
        /// First game's (merges, points).
        a: (u32, u64),
        /// Second game's (merges, points).
        b: (u32, u64),
    },
    /// The scores differ.
    Score {
        /// First game's score.
        a: u64,
        /// Second game's score.
        b: u64,
    },
    /// The boards differ.
    Board,
    /// The state hashes differ.
    Hash {
        /// First game's hash.
        a: u64,
        /// Second game's hash.
        b: u64,
    },
    /// One game has no state at this move.
    Ended {
        /// Whether the first game ended (else the second).
        first: bool,
        /// Why it ended, when known.
        why: Option<String>,
    },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn dir(d: &Option<Direction>) -> &'static str {
            d.map_or("none", |d| d.name())
        }
        fn spawns(s: &[Spawn]) -> String {
            let v: Vec<String> = s
                .iter()
                .map(|s| format!("{} at cell {}", s.value(), s.cell))
                .collect();
            v.join(", ")
        }
        match self {
            Difference::Rules => f.write_str("rules differ"),
            Difference::Seed => f.write_str("seeds differ"),
            Difference::Direction { a, b } => write!(f, "move: {} against {}", dir(a), dir(b)),
            Difference::Spawn { a, b } => {
                write!(f, "spawn: {} against {}", spawns(a), spawns(b))
            }
            Difference::Merge { a, b } => {
                write!(f, "merges: {} (+{}) against {} (+{})", a.0, a.1, b.0, b.1)
            }
            Difference::Score { a, b } => write!(f, "score: {a} against {b}"),
            Difference::Board => f.write_str("boards differ"),
            Difference::Hash { a, b } => write!(f, "state hash: {a:016x} against {b:016x}"),
            Difference::Ended { first, why } => {
                write!(
                    f,
                    "the {} game has no move here",
                    if *first { "first" } else { "second" }
                )?;
                if let Some(why) = why {
                    write!(f, " ({why})")?;
                }
                Ok(())
            }
        }
    }
}

/// Where two games part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The first move (0 = the opening) at which the states differ.
    pub move_number: u32,
    /// The state both games shared before it (`None` when they differ from the opening).
    pub before: Option<State>,
    /// The first game's state at that move, if it has one.
    pub a: Option<State>,
    /// The second game's state at that move, if it has one.
    pub b: Option<State>,
    /// What differed.
    pub differences: Vec<Difference>,
}

/// Compares two games move by move. `None` when they are identical; otherwise where they
/// part and how. Fields only one side knows (a device reports no boards or spawns) are not
/// compared.
pub fn diff(a: &Trace, b: &Trace) -> Option<Divergence> {
    let mut header = Vec::new();
    if a.rules != b.rules {
        header.push(Difference::Rules);
    }
    if a.seed != b.seed {
        header.push(Difference::Seed);
    }
    let (na, nb) = (a.len(), b.len());
    let n = na.max(nb);
    let (mut ca, mut cb) = (Cursor::new(a), Cursor::new(b));
    for i in 0..n {
        if i > 0 {
            if i < na {
                ca.advance(i);
            }
            if i < nb {
                cb.advance(i);
            }
        }
        if i < na && i < nb && !may_differ(&ca, &cb, i) {
            continue;
        }
        let (sa, sb) = (
            (i < na).then(|| ca.full(i)).flatten(),
            (i < nb).then(|| cb.full(i)).flatten(),
        );
        let mut differences = match (&sa, &sb) {
            (Some(x), Some(y)) => compare(x, y),
            (None, _) => vec![Difference::Ended {
                first: true,
                why: a.stopped.clone(),
            }],
            (_, None) => vec![Difference::Ended {
                first: false,
                why: b.stopped.clone(),
            }],
        };
        if !differences.is_empty() {
            if i == 0 {
                header.append(&mut differences);
                differences = header;
            } else {
                differences.splice(0..0, header);
            }
            return Some(Divergence {
                move_number: i as u32,
                before: i.checked_sub(1).and_then(|j| a.state(j)),
                a: sa,
                b: sb,
                differences,
            });
        }
    }
    if a.stopped.is_some() != b.stopped.is_some() || !header.is_empty() {
        // Same states all the way, but one side stopped for a reason, or the headers differ
        // while every state agrees (e.g. rules that differ only where no move reached).
        let first = a.stopped.is_some();
        let mut differences = header;
        if a.stopped.is_some() != b.stopped.is_some() {
            differences.push(Difference::Ended {
                first,
                why: if first {
                    a.stopped.clone()
                } else {
                    b.stopped.clone()
                },
            });
        }
        if !differences.is_empty() {
            return Some(Divergence {
                move_number: n as u32,
                before: a.last(),
                a: None,
                b: None,
                differences,
            });
        }
    }
    None
}

fn compare(a: &State, b: &State) -> Vec<Difference> {
    let mut d = Vec::new();
    if a.direction != b.direction {
        d.push(Difference::Direction {
            a: a.direction,
            b: b.direction,
        });
    }
    let both_full = a.cells.is_some() && b.cells.is_some();
    if both_full && a.spawns != b.spawns {
        d.push(Difference::Spawn {
            a: a.spawns.clone(),
            b: b.spawns.clone(),
        });
    }
    if both_full && (a.merges, a.gained) != (b.merges, b.gained) {
        d.push(Difference::Merge {
            a: (a.merges, a.gained),
            b: (b.merges, b.gained),
        });
    }
    if a.score != b.score {
        d.push(Difference::Score {
            a: a.score,
            b: b.score,
        });
    }
    if both_full && a.cells != b.cells {
        d.push(Difference::Board);
    }
    if a.hash != b.hash {
        d.push(Difference::Hash {
            a: a.hash,
            b: b.hash,
        });
    }
    d
}
