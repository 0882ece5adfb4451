//! Animation frames of one move, from the engine's events: the tiles slide a cell per frame,
//! then the merges show, then the spawn.

use twenty48_engine::Event;

/// One picture of an animation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Exponents, row-major.
    pub exponents: Vec<u8>,
    /// Cells to mark: merges in the merge frame, the new tile in the spawn frame.
    pub marked: Vec<u8>,
}

/// The frames of a move that started from `before` (a `size * size` board) and produced
/// `events` (as [`Game::play_with_events`](twenty48_engine::Game::play_with_events) reports
/// them). The last frame is the board after the move; a move with no events has no frames.
///
/// ```
/// use twenty48_engine::{Direction, Event, Game, Rules};
///
/// let mut game = Game::new(Rules::CLASSIC, 11).unwrap();
/// let before = game.cells();
/// let mut events = Vec::new();
/// let dir = Direction::ALL.into_iter().find(|d| game.can_play(*d)).unwrap();
/// game.play_with_events(dir, &mut |e| events.push(e)).unwrap();
/// let frames = twenty48_tui::frames(before.exponents(), 4, &events);
/// assert_eq!(frames.last().unwrap().exponents, game.cells().exponents());
/// ```
pub fn frames(before: &[u8], size: u8, events: &[Event]) -> Vec<Frame> {
    let n = size as usize;
    let moves: Vec<(usize, usize)> = events
        .iter()
        .filter_map(|e| match *e {
            Event::Moved { from, to } => Some((from as usize, to as usize)),
            _ => None,
        })
        .collect();
    let distance = |(from, to): (usize, usize)| {
        if from / n == to / n {
            from.abs_diff(to)
        } else {
            from.abs_diff(to) / n
        }
    };
    let steps = moves.iter().map(|&m| distance(m)).max().unwrap_or(0);
    let mut out = Vec::new();
    let mut board = before.to_vec();
    for step in 1..=steps {
        let mut frame = before.to_vec();
        for &(from, _) in &moves {
            frame[from] = 0;
        }
        for &(from, to) in &moves {
            let d = distance((from, to));
            let unit = if d == 0 {
                0
            } else {
                (to as isize - from as isize) / d as isize
            };
            let at = from as isize + unit * step.min(d) as isize;
            frame[at as usize] = before[from];
        }
        board = frame.clone();
        out.push(Frame {
            exponents: frame,
            marked: Vec::new(),
        });
    }
    let merges: Vec<(u8, u8)> = events
        .iter()
        .filter_map(|e| match *e {
            Event::Merged { into, exponent } => Some((into, exponent)),
            _ => None,
        })
        .collect();
    if !merges.is_empty() {
        for &(into, exponent) in &merges {
            board[into as usize] = exponent;
        }
        out.push(Frame {
            exponents: board.clone(),
            marked: merges.iter().map(|m| m.0).collect(),
        });
    }
    for e in events {
        if let Event::Spawned { cell, exponent } = *e {
            board[cell as usize] = exponent;
            out.push(Frame {
                exponents: board.clone(),
                marked: vec![cell],
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_engine::{Direction, Game, Rules};

    #[test]
    fn frames_end_on_the_engine_board_for_whole_games() {
        for size in [3u8, 4, 5] {
            let mut rules = Rules::CONSOLE;
            rules.size = size;
            let mut game = Game::new(rules, size as u64).unwrap();
            let mut i = 0;
            while !game.status().is_finished() && i < 400 {
                let before = game.cells();
                let dir = Direction::ALL[i % 4];
                i += 1;
                let mut events = Vec::new();
                let o = game.play_with_events(dir, &mut |e| events.push(e)).unwrap();
                let fr = frames(before.exponents(), size, &events);
                if !o.moved {
                    assert!(fr.is_empty());
                    continue;
                }
                assert_eq!(fr.last().unwrap().exponents, game.cells().exponents());
                assert!(fr.len() <= size as usize + 1);
                // Spawn frame marks the new tile.
                assert_eq!(fr.last().unwrap().marked, vec![o.spawn.unwrap().cell]);
            }
        }
    }

    #[test]
    fn a_tile_slides_one_cell_per_frame() {
        // Row [2, 0, 0, 2] slid left: the right tile passes through cells 2 and 1.
        let before = [1u8, 0, 0, 1];
        let events = [
            Event::Moved { from: 3, to: 0 },
            Event::Merged {
                into: 0,
                exponent: 2,
            },
            Event::Spawned {
                cell: 3,
                exponent: 1,
            },
        ];
        let fr = frames(&before, 2, &[]);
        assert!(fr.is_empty());
        let mut rules_board = [0u8; 16];
        rules_board[..4].copy_from_slice(&before);
        let fr = frames(&rules_board, 4, &events);
        let rows: Vec<&[u8]> = fr.iter().map(|f| &f.exponents[..4]).collect();
        assert_eq!(
            rows,
            vec![
                &[1, 0, 1, 0][..],
                &[1, 1, 0, 0],
                &[1, 0, 0, 0],
                &[2, 0, 0, 0],
                &[2, 0, 0, 1]
            ]
        );
        assert_eq!(fr[3].marked, vec![0]);
    }
}
