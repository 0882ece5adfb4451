//! One move rated: the bot's value of each move on the board before it, the move played,
//! each move's chance of the next tile, the best move, the error and the class.

use twenty48_bot::{Expectimax, Setting};
use twenty48_engine::bitboard::Packed;
use twenty48_engine::Direction;

use crate::class::Class;
use crate::value::{chance, target_of};

/// The least stake (best move's chance less the worst's, in millionths) of a decision the
/// error rate counts: a real choice. 0.1 percentage point: below it every move is as good
/// as another to the tenth of a point the analysis prints.
pub const REAL_STAKE: u32 = 1_000;

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
    /// The search's value of each move, in [`Direction::ALL`] order (up, right, down,
    /// left): `None` for a move that changes nothing (or for every move, when unrated).
    pub values: [Option<i64>; 4],
    /// How many moves changed the board.
    pub legal: u8,
    /// The exponent of the tile aimed at: twice the largest on the board before the move
    /// ([`crate::target_of`]).
    pub target: u8,
    /// Each move's chance, in millionths, that the bot reaches the tile aimed at playing on
    /// from the board after it ([`crate::chance`]), in [`Direction::ALL`] order.
    pub chances: [Option<u32>; 4],
    /// The chance the move played gives away against the highest chance of a move, in
    /// millionths.
    pub error: u32,
    /// The best move's chance less the worst move's: what the decision puts at stake.
    pub stake: u32,
    /// The move's class, from its error.
    pub class: Class,
}

impl Rating {
    /// The value of `dir`, if it changes the board.
    pub fn value(&self, dir: Direction) -> Option<i64> {
        self.values[dir.code() as usize]
    }

    /// The chance of `dir`, if it changes the board.
    pub fn chance(&self, dir: Direction) -> Option<u32> {
        self.chances[dir.code() as usize]
    }

    /// The highest chance of a move (the best move's, unless another makes the tile aimed
    /// at at once): what the board before the move is worth.
    pub fn before(&self) -> Option<u32> {
        self.chances.iter().flatten().max().copied()
    }

    /// The chance of the move played: what the board after it is worth, before its spawn.
    pub fn after(&self) -> Option<u32> {
        self.chance(self.played)
    }

    /// Whether the decision was a real choice: more than one move, and at least
    /// [`REAL_STAKE`] between the best move's chance and the worst's.
    pub fn is_real_choice(&self) -> bool {
        self.legal > 1 && self.stake >= REAL_STAKE && self.class != Class::Unrated
    }

    /// The rating of `played` among moves of the given values and chances (in
    /// [`Direction::ALL`] order) aiming at the tile of exponent `target`; `None` when
    /// `played` has no value (it changes nothing).
    pub fn from_values(
        move_number: u32,
        played: Direction,
        target: u8,
        values: [Option<i64>; 4],
        chances: [Option<u32>; 4],
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
        let best_chance = chances.iter().flatten().max().copied()?;
        let played_chance = chances[played.code() as usize]?;
        let worst = chances
            .iter()
            .flatten()
            .min()
            .copied()
            .unwrap_or(best_chance);
        let error = best_chance.saturating_sub(played_chance);
        Some(Rating {
            move_number,
            played,
            best: Some(best_dir),
            values,
            legal,
            target,
            chances,
            error,
            stake: best_chance.saturating_sub(worst),
            class: Class::of(error, legal, played_value == best_value),
        })
    }
}

/// What a board is worth before a move: the tile aimed at and the best move's chance of it
/// (0 when no move is left). The analysis's first and last numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The exponent of the tile aimed at ([`crate::target_of`] the largest).
    pub target: u8,
    /// The best move's chance of it, in millionths.
    pub chance: u32,
}

/// Each move's chance of the tile of exponent `target`, from the search's values of the
/// moves on `board` (in [`Direction::ALL`] order).
fn chances(board: Packed, target: u8, values: [Option<i64>; 4]) -> [Option<u32>; 4] {
    let sum: u64 = board
        .cells()
        .iter()
        .filter(|&&e| e > 0)
        .map(|&e| 1u64 << e)
        .sum();
    let afters = board.slide_each();
    core::array::from_fn(|i| {
        let value = values[i]?;
        let reached = afters[i].is_some_and(|a| a.max_exponent() >= target);
        Some(chance(target, value, sum, reached))
    })
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

    /// The search's value of each move on a board of 16 exponents (row by row), in
    /// [`Direction::ALL`] order; `None` for a move that changes nothing, and for every move
    /// on a board the search cannot hold (a tile of 65536 or more).
    pub fn values(&mut self, cells: &[u8; 16]) -> [Option<i64>; 4] {
        match Packed::from_cells(cells) {
            Some(board) => self.search.values(board),
            None => [None; 4],
        }
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
            target: 0,
            chances: [None; 4],
            error: 0,
            stake: 0,
            class: Class::Unrated,
        };
        let Some(board) = Packed::from_cells(&position.cells) else {
            return unrated;
        };
        let values = self.search.values(board);
        let target = target_of(board.max_exponent());
        let chances = chances(board, target, values);
        Rating::from_values(
            position.move_number,
            position.played,
            target,
            values,
            chances,
        )
        .unwrap_or(unrated)
    }

    /// What the board of `cells` is worth before a move ([`Standing`]): searched when a move
    /// is left; `None` on a board the search cannot hold (a tile of 65536 or more).
    pub fn standing(&mut self, cells: &[u8; 16]) -> Option<Standing> {
        let board = Packed::from_cells(cells)?;
        let target = target_of(board.max_exponent());
        if board.is_stuck() {
            return Some(Standing { target, chance: 0 });
        }
        let values = self.search.values(board);
        let chance = chances(board, target, values)
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(0);
        Some(Standing { target, chance })
    }
}

/// One ply of the bot's line from a board ([`Rater::line`]): the bot's move, its chance of
/// the tile aimed at, and the spawn the line takes after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The bot's move (the first of the highest values, as [`Rating::best`]).
    pub played: Direction,
    /// The tile aimed at (exponent) on the board before the move.
    pub target: u8,
    /// The move's chance of reaching it, in millionths.
    pub chance: u32,
    /// The spawn taken after the move: its cell (0-15, row by row) and exponent (1: a 2,
    /// 2: a 4).
    pub spawn: (u8, u8),
}

/// The exponent of the likelier spawn under `rules`: a 2 (1), unless the rules make a 4 more
/// likely than a 2 (2). Integers only.
pub fn likelier_spawn(rules: &twenty48_engine::Rules) -> u8 {
    let four = rules.four_chance;
    if u64::from(four.numerator) * 2 > u64::from(four.denominator) {
        2
    } else {
        1
    }
}

impl Rater {
    /// The bot's line from the board of `cells` (before a move): up to `plies` of its moves,
    /// each followed by the likeliest spawn, `spawn` (see [`likelier_spawn`]), in the first
    /// empty cell row by row (every empty cell is as likely as the others: the line takes
    /// the first). Shorter when the board ends (no move left) or holds a tile the search
    /// cannot (65536 or more). A pure function of the board, the rules and the setting.
    pub fn line(&mut self, cells: &[u8; 16], spawn: u8, plies: usize) -> Vec<Ply> {
        let mut line = Vec::new();
        let Some(mut board) = Packed::from_cells(cells) else {
            return line;
        };
        while line.len() < plies {
            let values = self.search.values(board);
            let target = target_of(board.max_exponent());
            let chances = chances(board, target, values);
            let mut best: Option<(Direction, i64)> = None;
            for (dir, value) in Direction::ALL.into_iter().zip(values) {
                if let Some(v) = value {
                    if best.is_none_or(|(_, b)| v > b) {
                        best = Some((dir, v));
                    }
                }
            }
            let Some((dir, _)) = best else { break };
            let Some(after) = board.slide_board(dir) else {
                break;
            };
            let mut next = after.cells();
            // A move that changes the board leaves an empty cell (a merge frees one; a slide
            // moves into one and leaves one behind).
            let Some(cell) = next.iter().position(|&e| e == 0) else {
                break;
            };
            next[cell] = spawn;
            line.push(Ply {
                played: dir,
                target,
                chance: chances[dir.code() as usize].unwrap_or(0),
                spawn: (cell as u8, spawn),
            });
            match Packed::from_cells(&next) {
                Some(b) => board = b,
                None => break,
            }
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_the_bots_moves_under_the_likeliest_spawns() {
        let rules = twenty48_engine::Rules::CLASSIC;
        assert_eq!(likelier_spawn(&rules), 1);
        let mut rater = Rater::new(&rules, 2);
        // A 2 and a 4 in the top row; the rest empty.
        let mut cells = [0u8; 16];
        cells[0] = 1;
        cells[1] = 2;
        let line = rater.line(&cells, 1, 4);
        assert_eq!(line.len(), 4);
        // Each ply: the rater's best move on the board the line reached, its chance, then a 2
        // in the first empty cell.
        let mut board = cells;
        for ply in &line {
            let r = rater.rate(&Position {
                move_number: 1,
                cells: board,
                played: ply.played,
            });
            assert_eq!(r.best, Some(ply.played));
            assert_eq!(r.after(), Some(ply.chance));
            assert_eq!(r.target, ply.target);
            let mut next = Packed::from_cells(&board)
                .unwrap()
                .slide_board(ply.played)
                .unwrap()
                .cells();
            let first = next.iter().position(|&e| e == 0).unwrap();
            assert_eq!(ply.spawn, (first as u8, 1));
            next[first] = 1;
            board = next;
        }
        // The same line every time (no floats, no state between calls).
        assert_eq!(Rater::new(&rules, 2).line(&cells, 1, 4), line);
        // A board with no move left has no line; a line is at most as long as asked.
        let stuck: [u8; 16] = [1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1];
        assert!(rater.line(&stuck, 1, 4).is_empty());
        assert_eq!(rater.line(&cells, 1, 2)[..], line[..2]);
    }

    #[test]
    fn the_best_move_is_the_first_highest_and_errors_are_chance_given_away() {
        let values = [Some(5), None, Some(7), Some(7)];
        let chances = [Some(400_000), None, Some(620_000), Some(620_000)];
        let r = Rating::from_values(3, Direction::Up, 11, values, chances).unwrap();
        assert_eq!(r.best, Some(Direction::Down));
        assert_eq!((r.legal, r.error, r.stake), (3, 220_000, 220_000));
        assert_eq!((r.before(), r.after()), (Some(620_000), Some(400_000)));
        assert_eq!(r.class, Class::Blunder);
        assert!(r.is_real_choice());
        let r = Rating::from_values(3, Direction::Left, 11, values, chances).unwrap();
        assert_eq!((r.error, r.class), (0, Class::Best));
        assert!(Rating::from_values(3, Direction::Right, 11, values, chances).is_none());
        // A lower value whose chance rounds to the same is no best move: good.
        let chances = [Some(620_000), None, Some(620_000), Some(620_000)];
        let r = Rating::from_values(3, Direction::Up, 11, values, chances).unwrap();
        assert_eq!((r.error, r.class), (0, Class::Good));
        assert!(!r.is_real_choice());
    }
}
