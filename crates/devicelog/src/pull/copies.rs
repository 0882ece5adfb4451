//! Which copy of a game to keep, by content, never by arrival: of two verified copies of
//! one game the longer verified prefix wins, and a copy that is not a prefix of the other is
//! a conflict. The copies are compared as move logs, whatever frames brought their moves
//! (one frame a move in protocol v2, or any other encoding that rebuilds a `DeviceGame`).

use std::cmp::Ordering;
use std::fmt;

use twenty48_movelog::MoveLog;

use crate::event::StrayFrame;

/// How two verified copies of one game part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Parting {
    /// Other rules or another seed.
    Start,
    /// Other moves.
    Moves,
    /// A whole game shorter than the other copy.
    ShortWhole,
    /// Two whole games that differ otherwise.
    Other,
    /// A frame that came after the game was kept whole contradicts it.
    Frame,
}

impl fmt::Display for Parting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parting::Start => "the copies have different rules or seeds",
            Parting::Moves => "the copies have different moves",
            Parting::ShortWhole => "a complete copy is shorter than another copy",
            Parting::Other => "the copies differ",
            Parting::Frame => {
                "a frame that came after the game arrived whole contradicts the copy kept"
            }
        })
    }
}

/// How a frame of game that is not open (`frame`) contradicts the whole game `kept`, if
/// it does: a move past its end, another move at a place, another end. A frame that repeats
/// what the kept copy holds contradicts nothing. (A move frame's score and hash are not
/// compared: that would need a replay for every stray frame.)
pub(super) fn contradiction(kept: &MoveLog, frame: &StrayFrame) -> Option<String> {
    let len = kept.moves.len();
    let at = |seq: usize| seq.checked_sub(1).and_then(|i| kept.moves.get(i));
    match frame {
        StrayFrame::Move(mv) => {
            let seq = mv.seq as usize;
            match at(seq) {
                None => Some(format!(
                    "a frame of move {seq} came after the game ended at move {len}"
                )),
                Some(&dir) if dir != mv.dir => Some(format!(
                    "a frame of move {seq} says {:?} where the copy kept has {dir:?}",
                    mv.dir
                )),
                Some(_) => None,
            }
        }
        StrayFrame::Moves { first, dirs } => {
            let first = *first as usize;
            let last = first.saturating_add(dirs.len());
            if last > len {
                return Some(format!(
                    "a frame of moves {}..={last} came after the game ended at move {len}",
                    first + 1
                ));
            }
            let parts = (first..last)
                .zip(dirs)
                .find(|&(i, dir)| kept.moves[i] != *dir)?;
            Some(format!(
                "a frame of moves {}..={last} differs from the copy kept at move {}",
                first + 1,
                parts.0 + 1
            ))
        }
        StrayFrame::End(end) => {
            let moves = end.moves as usize;
            let differs = if end.partial {
                moves > len
            } else {
                moves != len
                    || end.score.is_some_and(|s| s != kept.claims.score)
                    || end.hash.is_some_and(|h| h != kept.claims.final_hash)
            };
            differs.then(|| {
                format!(
                    "another end frame came: {moves} moves{}, where the copy kept has {len} moves and score {}",
                    end.score.map_or(String::new(), |s| format!(", score {s}")),
                    kept.claims.score
                )
            })
        }
    }
}

/// How a copy stands to the copy kept so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Relation {
    /// The copies part, as said. Neither is the game.
    Conflict(Parting),
    /// The copy holds nothing the kept one does not: every move of it is in the kept copy.
    Contained,
    /// The copy holds more: the kept copy is a prefix of it. It is kept instead.
    Extends,
}

/// How the verified copy `copy` stands to the verified copy `kept` of the same game.
pub(super) fn relation(kept: &MoveLog, copy: &MoveLog) -> Relation {
    if let Some(reason) = differs(kept, copy) {
        return Relation::Conflict(reason);
    }
    match rank(copy).cmp(&rank(kept)) {
        Ordering::Greater => Relation::Extends,
        _ => Relation::Contained,
    }
}

/// A copy's length for choosing: its moves, then whole before interrupted.
fn rank(log: &MoveLog) -> (usize, bool) {
    (log.moves.len(), log.complete)
}

/// Of verified copies of one game, the one to keep (its index), or why they conflict.
pub(super) fn choose<'a>(
    copies: impl IntoIterator<Item = (usize, &'a MoveLog)>,
) -> Result<Option<usize>, Parting> {
    let mut best: Option<(usize, &MoveLog)> = None;
    for (i, copy) in copies {
        best = Some(match best {
            None => (i, copy),
            Some((j, kept)) => match relation(kept, copy) {
                Relation::Conflict(reason) => return Err(reason),
                Relation::Extends => (i, copy),
                Relation::Contained => (j, kept),
            },
        });
    }
    Ok(best.map(|(i, _)| i))
}

/// Why two verified copies of one game are not the same game, or `None` when they are
/// (a copy that is a prefix of another, and not itself complete, is the same game).
pub(super) fn differs(a: &MoveLog, b: &MoveLog) -> Option<Parting> {
    if a.rules != b.rules || a.seed != b.seed {
        return Some(Parting::Start);
    }
    let (short, long) = if a.moves.len() <= b.moves.len() {
        (a, b)
    } else {
        (b, a)
    };
    if long.moves[..short.moves.len()] != short.moves[..] {
        return Some(Parting::Moves);
    }
    if short.moves.len() != long.moves.len() && short.complete {
        return Some(Parting::ShortWhole);
    }
    if a.complete && b.complete && a.encode() != b.encode() {
        return Some(Parting::Other);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::{Direction, Rules};

    fn log(moves: usize, complete: bool) -> MoveLog {
        use Direction::*;
        let cycle: Vec<Direction> = [Left, Down, Right, Up]
            .into_iter()
            .cycle()
            .take(200)
            .collect();
        let mut game = twenty48_engine::Game::new(Rules::CLASSIC, 9).unwrap();
        let played: Vec<Direction> = cycle
            .into_iter()
            .filter(|&d| game.play(d).is_ok_and(|o| o.moved))
            .take(moves)
            .collect();
        assert_eq!(played.len(), moves);
        let mut log = MoveLog::from_moves(Rules::CLASSIC, 9, &played, 256).unwrap();
        log.complete = complete;
        log
    }

    #[test]
    fn the_longer_verified_prefix_wins_whatever_the_order() {
        let (short, long, whole) = (log(10, false), log(50, false), log(50, true));
        assert_eq!(relation(&short, &long), Relation::Extends);
        assert_eq!(relation(&long, &short), Relation::Contained);
        assert_eq!(relation(&long, &long), Relation::Contained);
        assert_eq!(relation(&long, &whole), Relation::Extends);
        assert_eq!(relation(&whole, &long), Relation::Contained);
        assert_eq!(choose([(0, &short), (1, &long), (2, &short)]), Ok(Some(1)));
        assert_eq!(choose([(0, &long), (1, &short)]), Ok(Some(0)));
        assert_eq!(choose([(4, &long), (7, &whole), (9, &short)]), Ok(Some(7)));
        assert_eq!(choose(std::iter::empty()), Ok(None));
        // A whole game shorter than another copy: they part.
        assert!(matches!(
            relation(&log(10, true), &long),
            Relation::Conflict(_)
        ));
        assert!(choose([(0, &log(10, true)), (1, &long)]).is_err());
    }
}
