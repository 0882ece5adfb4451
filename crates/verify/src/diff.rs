//! Where two games part: the first move at which their states differ, and what differed.

use core::fmt;

use twenty48_engine::{Direction, Engine, Game, Rules, Spawn};
use twenty48_movelog::MoveLog;

use crate::state::State;

/// One game as a sequence of states: index 0 after the opening, index `n` after move `n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// What to call this game in reports (a file name, "device game 2", ...).
    pub label: String,
    /// The rules it was played under.
    pub rules: Rules,
    /// Its seed.
    pub seed: u64,
    /// Its states.
    pub states: Vec<State>,
    /// Why the trace stops early, if it does (e.g. a move that does not move the board
    /// under these rules).
    pub stopped: Option<String>,
}

impl Trace {
    /// Replays `moves` from `(rules, seed)`; a move that cannot be played ends the trace
    /// with a note naming it.
    pub fn replay(label: impl Into<String>, rules: Rules, seed: u64, moves: &[Direction]) -> Trace {
        let mut trace = Trace {
            label: label.into(),
            rules,
            seed,
            states: Vec::new(),
            stopped: None,
        };
        let mut game = match Game::with_engine(rules, seed, Engine::Fast) {
            Ok(g) => g,
            Err(e) => {
                trace.stopped = Some(format!("the rules cannot be played: {e}"));
                return trace;
            }
        };
        trace.states.push(State::opening(&game));
        for (i, &dir) in moves.iter().enumerate() {
            match game.play(dir) {
                Ok(o) if o.moved => trace.states.push(State::after(&game, dir, &o)),
                Ok(_) => {
                    trace.stopped =
                        Some(format!("move {} ({dir}) does not change the board", i + 1));
                    break;
                }
                Err(e) => {
                    trace.stopped = Some(format!("move {}: {e}", i + 1));
                    break;
                }
            }
        }
        trace
    }

    /// Replays a log under its own rules.
    pub fn from_log(label: impl Into<String>, log: &MoveLog) -> Trace {
        Trace::replay(label, log.rules, log.seed, &log.moves)
    }

    /// The moves of this trace.
    pub fn moves(&self) -> Vec<Direction> {
        self.states.iter().filter_map(|s| s.direction).collect()
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
    let n = a.states.len().max(b.states.len());
    for i in 0..n {
        let (sa, sb) = (a.states.get(i), b.states.get(i));
        let mut differences = match (sa, sb) {
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
                before: i.checked_sub(1).and_then(|j| a.states.get(j).cloned()),
                a: sa.cloned(),
                b: sb.cloned(),
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
                before: a.states.last().cloned(),
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
