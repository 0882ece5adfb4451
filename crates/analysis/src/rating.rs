//! One move rated: the bot's value of each move on the board before it, the move played,
//! the best move, the loss and the class.

use twenty48_bot::{Expectimax, Setting};
use twenty48_engine::bitboard::Packed;
use twenty48_engine::Direction;

use crate::class::Class;

/// A board before a move, and the move played on it: what a [`Rater`] rates. Positions are
/// independent of each other, so a game's can be rated in any order, on any thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The move's number (1 for the first move).
    pub move_number: u32,
    /// The board before the move: 16 exponents, row by row (0 for an empty cell).
    pub cells: [u8; 16],
    /// The move played.
    pub played: Direction,
}

/// A move rated by the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The move's number (1 for the first move).
    pub move_number: u32,
    /// The move played.
    pub played: Direction,
    /// The bot's best move (the first of [`Direction::ALL`] with the highest value); `None`
    /// when the move is [`Class::Unrated`].
    pub best: Option<Direction>,
    /// The bot's value of each move, in [`Direction::ALL`] order (up, right, down, left):
    /// `None` for a move that changes nothing (or for every move, when unrated).
    pub values: [Option<i64>; 4],
    /// How many moves changed the board.
    pub legal: u8,
    /// What the move played gives away against the best, in thousandths of the best
    /// move's value (0 to 1000; docs/analysis.md).
    pub loss: u16,
    /// The move's class, from its loss.
    pub class: Class,
}

impl Rating {
    /// The value of `dir`, if it changes the board.
    pub fn value(&self, dir: Direction) -> Option<i64> {
        self.values[dir.code() as usize]
    }

    /// The rating of `played` among moves of the given values (in [`Direction::ALL`]
    /// order); `None` when `played` has no value (it changes nothing).
    pub fn from_values(
        move_number: u32,
        played: Direction,
        values: [Option<i64>; 4],
    ) -> Option<Rating> {
        let played_value = values[played.code() as usize]?;
        let mut best: Option<(Direction, i64)> = None;
        for (dir, value) in Direction::ALL.into_iter().zip(values) {
            if let Some(v) = value {
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((dir, v));
                }
            }
        }
        let (best_dir, best_value) = best?;
        let legal = values.iter().flatten().count() as u8;
        let loss = loss(best_value, played_value);
        Some(Rating {
            move_number,
            played,
            best: Some(best_dir),
            values,
            legal,
            loss,
            class: Class::of(loss, legal),
        })
    }
}

/// The loss of a move worth `played` where the best is worth `best`: `(best - played) /
/// best` in thousandths, rounded to the nearest (half up), 0 when the best is worth nothing
/// (every move loses the game).
pub fn loss(best: i64, played: i64) -> u16 {
    if best <= 0 || played >= best {
        return 0;
    }
    let (best, drop) = (best as i128, (best - played.max(0)) as i128);
    ((drop * 1000 * 2 + best) / (best * 2)).min(1000) as u16
}

/// Rates positions with the expectimax bot in one setting. Each rating is a pure function of
/// the position, the rules' spawn odds and the setting: the same on every machine,
/// thread and order.
#[derive(Clone, Debug)]
pub struct Rater {
    search: Expectimax,
}

impl Rater {
    /// A rater for games under `rules`, searching at most `depth` spawns ahead (as the bot
    /// does: see [`Expectimax::depth_for`]).
    pub fn new(rules: &twenty48_engine::Rules, depth: u8) -> Rater {
        Rater::with_setting(rules, Setting::Depth(depth))
    }

    /// A rater for games under `rules` searching as the bot of `setting` does (the bot's
    /// default, [`Setting::DEFAULT`], is [`crate::DEFAULT_SETTING`]).
    pub fn with_setting(rules: &twenty48_engine::Rules, setting: Setting) -> Rater {
        Rater {
            search: Expectimax::with_setting(rules, setting),
        }
    }

    /// The largest depth searched without a budget; with one, the depth it starts from.
    pub fn depth(&self) -> u8 {
        self.search.depth()
    }

    /// The setting searched.
    pub fn setting(&self) -> Setting {
        self.search.setting()
    }

    /// Positions scored by the search so far.
    pub fn evaluated(&self) -> u64 {
        self.search.stats().evaluated
    }

    /// Rates `position`. A board with a tile the search cannot hold (65536 or more) is
    /// [`Class::Unrated`]; so is a move that changes nothing, which a replayed game never
    /// holds.
    pub fn rate(&mut self, position: &Position) -> Rating {
        let unrated = Rating {
            move_number: position.move_number,
            played: position.played,
            best: None,
            values: [None; 4],
            legal: 0,
            loss: 0,
            class: Class::Unrated,
        };
        let Some(board) = Packed::from_cells(&position.cells) else {
            return unrated;
        };
        let values = self.search.values(board);
        Rating::from_values(position.move_number, position.played, values).unwrap_or(unrated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loss_is_the_share_of_the_best_value_given_away() {
        assert_eq!(loss(1000, 1000), 0);
        assert_eq!(loss(1000, 1200), 0);
        assert_eq!(loss(1000, 999), 1);
        assert_eq!(loss(2000, 1999), 1); // 0.5 rounds up
        assert_eq!(loss(2001, 2000), 0);
        assert_eq!(loss(1000, 0), 1000);
        assert_eq!(loss(1000, -5), 1000);
        assert_eq!(loss(0, 0), 0);
        assert_eq!(loss(i64::MAX, 0), 1000);
        assert_eq!(loss(i64::MAX, i64::MAX / 2), 500);
    }

    #[test]
    fn the_best_move_is_the_first_highest() {
        let values = [Some(5), None, Some(7), Some(7)];
        let r = Rating::from_values(3, Direction::Up, values).unwrap();
        assert_eq!(r.best, Some(Direction::Down));
        assert_eq!(r.legal, 3);
        assert_eq!(r.loss, 286);
        assert_eq!(r.class, Class::Blunder);
        let r = Rating::from_values(3, Direction::Left, values).unwrap();
        assert_eq!((r.loss, r.class), (0, Class::Best));
        assert!(Rating::from_values(3, Direction::Right, values).is_none());
    }
}
