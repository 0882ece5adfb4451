//! The expectimax bot: a search over the bot's moves and the game's spawns on the 4x4 fast
//! path ([`Packed`] slides), scored by a per-line heuristic at its leaves.
//!
//! A search of depth `d` looks, after each move it may choose, at `d` spawns, each followed
//! by the best move. The depth it uses on a board is chosen from the board (see
//! [`Expectimax::depth_for`]): the largest on a full board, less on open ones. Spawn paths
//! less likely than 1/4,000 are scored at once rather than searched, and a transposition
//! table answers a position met again through another order of moves.
//!
//! Everything is integer arithmetic in a fixed order, so a search gives the same move on
//! every machine: values are `i64`, a spawn's probability is a fraction of 2^32, and the
//! transposition table of searched positions has a fixed size and hash, is only looked up
//! (never iterated) and starts empty on each move.

mod heuristic;
mod transposition;

use transposition::TranspositionTable;

use twenty48_engine::bitboard::Packed;
use twenty48_engine::{Direction, DirectionSet, Game, Rules};

/// A path probability of 1, in fixed point.
const ONE: u64 = 1 << 32;
/// Spawn paths less likely than this (1/4,000) are scored by the heuristic, not searched.
/// Such a path needs two 4s, or many spawns on an open board; cutting there rather than at
/// 1/10,000 makes a deep search about 1.6 times as fast on the boards of a real game.
const CUTOFF: u64 = ONE / 4_000;

/// Counters of one or more searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions scored by the heuristic.
    pub evaluated: u64,
    /// Spawn positions answered from the cache.
    pub cache_hits: u64,
    /// Moves chosen.
    pub moves: u64,
}

/// An expectimax search of a fixed largest depth.
///
/// How strong and how fast, from `just bot-eval` (classic rules, seeds 1-20, largest depth 6,
/// on a shared 2-core machine): 2048 and 4096 in every game, 8192 in 18, 16384 in 15, 32768
/// in 3; median score 290,486; about 300 moves per CPU second. Depth 7 searches about a third
/// as many moves per second.
#[derive(Clone, Debug)]
pub struct Expectimax {
    depth: u8,
    /// The chance of a 4, reduced: (2 weight, 4 weight, their sum).
    odds: (u64, u64, u64),
    cache: TranspositionTable,
    /// The heuristic's line table.
    table: &'static [i32],
    stats: SearchStats,
}

impl Expectimax {
    /// The smallest and largest search depths.
    pub const DEPTHS: core::ops::RangeInclusive<u8> = 1..=8;

    /// A search of largest depth `depth` (clamped to [`Expectimax::DEPTHS`]), with the spawn
    /// odds of `rules`. Boards with empty cells or few distinct tiles are searched less deep
    /// (see [`Expectimax::depth_for`]).
    pub fn new(rules: &Rules, depth: u8) -> Expectimax {
        let (num, den) = (
            rules.four_chance.numerator as u64,
            rules.four_chance.denominator.max(1) as u64,
        );
        let g = gcd(num, den).max(1);
        let (four, all) = (num / g, den / g);
        Expectimax {
            depth: depth.clamp(*Self::DEPTHS.start(), *Self::DEPTHS.end()),
            odds: (all - four.min(all), four.min(all), all),
            cache: TranspositionTable::new(),
            table: heuristic::table(),
            stats: SearchStats::default(),
        }
    }

    /// The largest depth.
    pub fn depth(&self) -> u8 {
        self.depth
    }

    /// What the searches so far have done.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The best move on a 4x4 board of exponents up to 15, with its value, or `None` when no
    /// move changes the board (or every one would merge two 32768s, which a nibble cannot
    /// hold).
    pub fn best(&mut self, board: Packed) -> Option<(Direction, i64)> {
        let mut best: Option<(Direction, i64)> = None;
        for (dir, value) in Direction::ALL.into_iter().zip(self.values(board)) {
            if let Some(value) = value {
                if best.is_none_or(|(_, v)| value > v) {
                    best = Some((dir, value));
                }
            }
        }
        best
    }

    /// The value of each move on a 4x4 board of exponents up to 15, in [`Direction::ALL`]
    /// order: `None` for a move that changes nothing (or that would merge two 32768s). The
    /// search [`Expectimax::best`] makes, every root move's value kept: one search of the
    /// board, its cache started empty, so the values depend on the board alone.
    ///
    /// ```
    /// use twenty48_bot::Expectimax;
    /// use twenty48_engine::{bitboard::Packed, Direction, Rules};
    ///
    /// let mut search = Expectimax::new(&Rules::CLASSIC, 2);
    /// // A 2 in the top-left corner: up and left change nothing.
    /// let board = Packed::from_cells(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    /// let values = search.values(board);
    /// assert!(values[Direction::Up.code() as usize].is_none());
    /// assert!(values[Direction::Right.code() as usize].is_some());
    /// assert_eq!(search.best(board).map(|(_, v)| v), values.iter().flatten().max().copied());
    /// ```
    pub fn values(&mut self, board: Packed) -> [Option<i64>; 4] {
        self.cache.clear();
        let depth = self.depth_for(board);
        let mut values = [None; 4];
        for (value, after) in values.iter_mut().zip(board.slide_each()) {
            if let Some(after) = after.filter(|&a| a != board) {
                *value = Some(self.chance(after, depth, ONE));
            }
        }
        self.stats.moves += 1;
        values
    }

    /// The move for `game` among `legal`: the search's on a 4x4 board that fits in nibbles,
    /// else (a 65536 on the board, or another size) the greedy bot's.
    pub(crate) fn choose(&mut self, game: &Game, legal: DirectionSet) -> Option<Direction> {
        let cells = game.cells();
        let packed = <&[u8; 16]>::try_from(cells.exponents())
            .ok()
            .and_then(Packed::from_cells);
        match packed.and_then(|p| self.best(p)) {
            Some((dir, _)) if legal.contains(dir) => Some(dir),
            _ => crate::greedy::choose(game, legal),
        }
    }

    /// How deep to search `board`: the largest depth on a full board, where a move can
    /// lose the game and each spawn has few places to go; one less with 1 empty cell, and
    /// one less again for every 2 more; at most `distinct tiles - 2`; never below 3 (or the
    /// largest depth, if that is less).
    ///
    /// So a search of largest depth 7 goes 7 deep on a full board, 6 with one empty cell, 5
    /// with 2-3, 4 with 4-5 and 3 on more open boards: it spends its time where a mistake
    /// costs the game, and full boards are also where a level of search is cheapest.
    ///
    /// ```
    /// use twenty48_bot::Expectimax;
    /// use twenty48_engine::{bitboard::Packed, Rules};
    ///
    /// let search = Expectimax::new(&Rules::CLASSIC, 7);
    /// // 1..=15 and one more 2: a full board, 15 distinct tiles.
    /// let full = Packed::from_cells(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1]);
    /// assert_eq!(search.depth_for(full.unwrap()), 7);
    /// // The same with three cells emptied: 5.
    /// let open = Packed::from_cells(&[0, 0, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1]);
    /// assert_eq!(search.depth_for(open.unwrap()), 5);
    /// ```
    pub fn depth_for(&self, board: Packed) -> u8 {
        let empty = board.empty_count() as u8;
        let relax = if empty == 0 { 0 } else { empty / 2 + 1 };
        let by_tiles = distinct_tiles(board).saturating_sub(2);
        self.depth
            .saturating_sub(relax)
            .min(by_tiles)
            .max(self.depth.min(3))
    }

    /// A spawn node: the mean over every empty cell and both tiles of the best reply.
    fn chance(&mut self, board: Packed, depth: u8, prob: u64) -> i64 {
        if depth == 0 || prob < CUTOFF {
            self.stats.evaluated += 1;
            return heuristic::board_score(self.table, board.0);
        }
        if let Some(v) = self.cache.get(board.0, depth) {
            self.stats.cache_hits += 1;
            return v;
        }
        let (two, four, all) = self.odds;
        let empty = board.empty_nibbles();
        let n = empty.count_ones() as u64;
        let scale = all * n;
        let p_two = (prob as u128 * two as u128 / scale as u128) as u64;
        let p_four = (prob as u128 * four as u128 / scale as u128) as u64;
        let mut sum = 0i64;
        let mut marks = empty;
        while marks != 0 {
            let bit = marks & marks.wrapping_neg();
            marks ^= bit;
            if two != 0 {
                sum += two as i64 * self.moves(Packed(board.0 | bit), depth - 1, p_two);
            }
            if four != 0 {
                sum += four as i64 * self.moves(Packed(board.0 | bit << 1), depth - 1, p_four);
            }
        }
        let value = sum / scale as i64;
        self.cache.put(board.0, depth, value);
        value
    }

    /// A move node: the best of the slides that change the board; 0 (a lost game) if none.
    fn moves(&mut self, board: Packed, depth: u8, prob: u64) -> i64 {
        let mut best = 0i64;
        for after in board.slide_each().into_iter().flatten() {
            if after != board {
                best = best.max(self.chance(after, depth, prob));
            }
        }
        best
    }
}

/// Number of distinct tile values on the board.
fn distinct_tiles(board: Packed) -> u8 {
    let mut seen = 0u16;
    for e in board.cells() {
        seen |= 1 << e;
    }
    (seen & !1).count_ones() as u8
}

const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
