//! How two games part, in the words `twenty48 diff` prints them (the web page shows the same
//! words): the kind of parting, its first line, a line per difference, and when a log that
//! does not verify makes the comparison invalid instead.
//!
//! ```
//! use twenty48_engine::{Direction::*, Rules};
//! use twenty48_verify::{diff, parting, Trace};
//!
//! let moves = [Left, Up, Right, Down, Left, Left, Up, Right];
//! let a = Trace::replay("a.t48", Rules::CLASSIC, 42, &moves);
//! let b = Trace::replay("b.t48", Rules::ARDUINO, 42, &moves);
//! let d = diff(&a, &b).unwrap();
//! let words = parting::words(&a, &b, &d);
//! assert_eq!(words.notice, "a.t48 and b.t48 part at move 6");
//! assert!(words.lines[0].starts_with("rules differ\n    a.t48: 4x4"));
//! ```

use twenty48_engine::{Direction, Spawn};

use crate::diff::{Difference, Divergence, Trace};
use crate::state::State;

/// How two games part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Parting {
    /// A move's state differs (its move, spawn, merges, score, board or hash).
    State,
    /// Every state both games have agrees, and one game goes on after the other ends.
    Prefix,
    /// Every move agrees; only the rules (or the seeds) differ.
    Rules,
}

impl Parting {
    /// How the games of `d` part.
    pub fn of(d: &Divergence) -> Parting {
        let ended = d
            .differences
            .iter()
            .any(|x| matches!(x, Difference::Ended { .. }));
        if d.a.is_none() && d.b.is_none() && !ended {
            Parting::Rules
        } else if ended {
            Parting::Prefix
        } else {
            Parting::State
        }
    }

    /// Its name in `diff --json`: `state`, `prefix` or `rules`.
    pub const fn name(self) -> &'static str {
        match self {
            Parting::State => "state",
            Parting::Prefix => "prefix",
            Parting::Rules => "rules",
        }
    }
}

/// Row and column of a cell index on a board of side `size`, both counted from 1 (the top
/// left is row 1, col 1).
pub fn row_col(cell: u8, size: u8) -> (u8, u8) {
    (cell / size + 1, cell % size + 1)
}

/// A spawn in words: `2 at row 1, col 3`.
pub fn spawn_text(spawn: &Spawn, size: u8) -> String {
    let (r, c) = row_col(spawn.cell, size);
    format!("{} at row {r}, col {c}", spawn.value())
}

/// The cells (indices) where two states' boards differ; none when either board is unknown
/// or the boards differ in size.
pub fn differing_cells(a: Option<&State>, b: Option<&State>) -> Vec<u8> {
    let (Some(x), Some(y)) = (
        a.and_then(|s| s.cells.as_ref()),
        b.and_then(|s| s.cells.as_ref()),
    ) else {
        return Vec::new();
    };
    let (x, y) = (x.exponents(), y.exponents());
    if x.len() != y.len() {
        return Vec::new();
    }
    (0..x.len())
        .filter(|&i| x[i] != y[i])
        .map(|i| i as u8)
        .collect()
}

/// `n` moves, in words: `1 move`, `2 moves`.
fn moves(n: u32) -> String {
    format!("{n} {}", if n == 1 { "move" } else { "moves" })
}

fn spawns_text(spawns: &[Spawn], size: u8) -> String {
    if spawns.is_empty() {
        return "none".into();
    }
    let v: Vec<String> = spawns.iter().map(|s| spawn_text(s, size)).collect();
    v.join(", ")
}

fn dir_name(d: &Option<Direction>) -> &'static str {
    d.map_or("none", |d| d.name())
}

/// One difference in words, cells by row and col (each side's on its own board).
fn difference_text(x: &Difference, a: &Trace, b: &Trace, d: &Divergence) -> String {
    let size = a.rules.size;
    match x {
        Difference::Rules => format!(
            "rules differ\n    {}: {}\n    {}: {}",
            a.label, a.rules, b.label, b.rules
        ),
        Difference::Seed => format!("seeds differ: {} against {}", a.seed, b.seed),
        Difference::Direction { a, b } => format!("move: {} against {}", dir_name(a), dir_name(b)),
        Difference::Spawn { a: sa, b: sb } => format!(
            "spawn: {} against {}",
            spawns_text(sa, a.rules.size),
            spawns_text(sb, b.rules.size)
        ),
        Difference::Merge { a, b } => {
            format!("merges: {} (+{}) against {} (+{})", a.0, a.1, b.0, b.1)
        }
        Difference::Score { a, b } => format!("score: {a} against {b}"),
        Difference::Board if a.rules.size != b.rules.size => {
            let (na, nb) = (a.rules.size, b.rules.size);
            format!("boards differ in size: {na}x{na} against {nb}x{nb}")
        }
        Difference::Board => {
            let at: Vec<String> = differing_cells(d.a.as_ref(), d.b.as_ref())
                .iter()
                .map(|&c| {
                    let (r, c) = row_col(c, size);
                    format!("row {r}, col {c}")
                })
                .collect();
            if at.is_empty() {
                "boards differ".into()
            } else {
                format!("boards differ at {}", at.join("; "))
            }
        }
        Difference::Hash { a, b } => format!("state hash: {a:016x} against {b:016x}"),
        other => other.to_string(),
    }
}

/// What `twenty48 diff` says of two games that part, before it draws their boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// The first line's news (the CLI highlights it): `a and b part at move 6`, `a ends
    /// after 12 moves`, `a and b differ`.
    pub notice: String,
    /// The rest of the first line, up to and including its colon.
    pub rest: String,
    /// The differences, one line each (a line may hold indented lines of its own).
    pub lines: Vec<String>,
}

/// The words of `twenty48 diff` for traces `a` and `b` that part as `d` says.
pub fn words(a: &Trace, b: &Trace, d: &Divergence) -> Words {
    let agreed = d.move_number.saturating_sub(1);
    let parting = Parting::of(d);
    let (notice, rest) = match parting {
        Parting::Rules => (
            format!("{} and {} differ", a.label, b.label),
            format!(
                ": all {} agree; {}",
                moves(agreed),
                if d.differences.contains(&Difference::Rules) {
                    "the rules differ"
                } else {
                    "the seeds differ"
                }
            ),
        ),
        Parting::Prefix => {
            let first_ends = d
                .differences
                .iter()
                .any(|x| matches!(x, Difference::Ended { first: true, .. }));
            let (short, long) = if first_ends { (a, b) } else { (b, a) };
            (
                format!("{} ends after {}", short.label, moves(agreed)),
                format!(", {} goes on (every earlier move agrees):", long.label),
            )
        }
        Parting::State => (
            format!("{} and {} part at move {}", a.label, b.label, d.move_number),
            if d.move_number == 0 {
                " (the opening):".to_string()
            } else {
                ":".to_string()
            },
        ),
    };
    let mut lines = Vec::new();
    for x in &d.differences {
        match x {
            // Said in the first line, with the reason if there is one.
            Difference::Ended { why, .. } if parting == Parting::Prefix => {
                lines.extend(why.as_ref().map(|why| format!("({why})")));
            }
            x => lines.push(difference_text(x, a, b, d)),
        }
    }
    Words {
        notice,
        rest,
        lines,
    }
}

/// What `twenty48 diff` says of two games that agree on every move, after the word
/// `identical`: `a and b agree on all 8 moves`.
pub fn agreement(a: &Trace, b: &Trace) -> String {
    let n = a.len().saturating_sub(1);
    format!(
        "{} and {} agree on all {}",
        a.label,
        b.label,
        moves(u32::try_from(n).unwrap_or(u32::MAX))
    )
}

/// What `twenty48 diff` says, after the word `invalid`, of a log that does not verify.
pub fn invalid_text(label: &str, problem: &str) -> String {
    format!("{label} does not verify, so it cannot be identical to anything: {problem}")
}

/// Which side (0 or 1), if either, `twenty48 diff` reports as invalid rather than as a
/// parting, and its problem: a log that does not verify can never be identical to
/// anything. When the traces agree on every move (`d` is `None`, or only their rules or
/// seeds differ), the first side with a problem; when they part where a log stops at a move
/// it cannot play (`stopped[i]`: trace `i` stopped early), that side if it has a problem.
/// Any other parting stands. `problem(i)` is side `i`'s first problem when it is a log that
/// does not verify (asked only when needed: verifying a long log takes time).
pub fn invalid_side(
    d: Option<&Divergence>,
    stopped: [bool; 2],
    mut problem: impl FnMut(usize) -> Option<String>,
) -> Option<(usize, String)> {
    match d {
        Some(d) if Parting::of(d) != Parting::Rules => {
            let first = d.differences.iter().find_map(|x| match x {
                Difference::Ended { first, .. } => Some(*first),
                _ => None,
            })?;
            let side = if first { 0 } else { 1 };
            if !stopped[side] {
                return None;
            }
            problem(side).map(|p| (side, p))
        }
        _ => (0..2).find_map(|i| problem(i).map(|p| (i, p))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::{Direction::*, Rules};

    #[test]
    fn a_prefix_names_the_game_that_ends_and_why() {
        let moves = [Left, Up, Right, Down, Left];
        let a = Trace::replay("a", Rules::CLASSIC, 7, &moves[..3]);
        let b = Trace::replay("b", Rules::CLASSIC, 7, &moves);
        let d = crate::diff(&a, &b).unwrap();
        assert_eq!(Parting::of(&d), Parting::Prefix);
        let w = words(&a, &b, &d);
        assert_eq!(
            (w.notice.as_str(), w.rest.as_str()),
            (
                "a ends after 3 moves",
                ", b goes on (every earlier move agrees):"
            )
        );
        assert_eq!(agreement(&a, &a), "a and a agree on all 3 moves");
        // A prefix where the shorter log stopped: invalid when it does not verify.
        let stopped = invalid_side(Some(&d), [true, false], |i| Some(format!("p{i}")));
        assert_eq!(stopped, Some((0, "p0".to_string())));
        assert_eq!(invalid_side(Some(&d), [false, false], |_| None), None);
        assert_eq!(
            invalid_side(None, [false, false], |i| (i == 1).then(|| "p".into())),
            Some((1, "p".into()))
        );
    }
}
