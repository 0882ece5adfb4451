//! The greedy bot: an integer expectimax of depth one move plus one spawn.

use twenty48_engine::reference::Board;
use twenty48_engine::{Direction, DirectionSet, Game};

/// Weight of each cell in a snake from the top-left corner: the largest tiles should sit
/// along it, in order.
fn snake_rank(size: usize, index: usize) -> i64 {
    let (row, col) = (index / size, index % size);
    let along = if row % 2 == 0 { col } else { size - 1 - col };
    (size * size - (row * size + along)) as i64
}

/// Board quality: tiles along the snake, plus a large bonus per empty cell.
fn evaluate(board: &Board) -> i64 {
    let size = board.size() as usize;
    let mut total = 0i64;
    let mut empty = 0i64;
    for (i, &e) in board.cells().iter().enumerate() {
        if e == 0 {
            empty += 1;
        } else {
            let value = 1i64 << e.min(40);
            total += value * snake_rank(size, i) * snake_rank(size, i);
        }
    }
    total + empty * (1 << 12) * (size * size) as i64
}

/// The best reply value after a spawn (the bot moves again, greedily).
fn best_reply(board: &Board) -> i64 {
    let mut best = i64::MIN;
    for dir in Direction::ALL {
        let mut b = *board;
        if b.slide(dir).moved {
            best = best.max(evaluate(&b));
        }
    }
    if best == i64::MIN {
        -(1 << 50) // stuck: avoid
    } else {
        best
    }
}

pub(crate) fn choose(game: &Game, legal: DirectionSet) -> Option<Direction> {
    let start = Board::from_cells(game.cells().exponents())?;
    let mut choice = None;
    let mut best = i64::MIN;
    for dir in legal.iter() {
        let mut after = start;
        after.slide(dir);
        // Average over the spawns of a 2 on every empty cell (a 4 is rarer; ignoring it
        // keeps the bot fast and still strong).
        let empties: Vec<usize> = (0..after.cells().len())
            .filter(|&i| after.get(i) == 0)
            .collect();
        let mut sum = 0i64;
        for &cell in &empties {
            let mut b = after;
            b.set(cell, 1);
            sum += best_reply(&b) / empties.len() as i64;
        }
        if choice.is_none() || sum > best {
            best = sum;
            choice = Some(dir);
        }
    }
    choice
}
