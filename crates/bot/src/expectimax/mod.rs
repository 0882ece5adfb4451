//! The expectimax bot: a search over the bot's moves and the game's spawns on the 4x4 fast
//! path ([`Packed`] slides), scored by a per-line heuristic at its leaves.
//!
//! A search of depth `d` looks, after each move it may choose, at `d` spawns, each followed
//! by the best move. The depth it starts from is chosen from the board (see
//! [`Expectimax::depth_for`]): the largest on a full board, less on open ones. With a budget
//! ([`Expectimax::with_budget`]) it then searches again one level deeper at a time while the
//! next level is expected to fit in the budget: deep where levels are cheap (crowded boards,
//! where a mistake loses the game), shallow where they are dear. Spawn paths less likely
//! than 1/4,000 are scored at once rather than searched, and a transposition table answers a
//! position met again through another order of moves.
//!
//! Everything is integer arithmetic in a fixed order, so a search gives the same move on
//! every machine: values are `i64`, a spawn's probability is a fraction of 2^32, the budget
//! counts positions (not time), and each root move is searched by a tree of its own whose
//! transposition table has a fixed size and hash, is only looked up (never iterated) and
//! starts empty: so the root moves may be searched on several threads
//! ([`Expectimax::set_threads`]) and give the same values as on one.

mod heuristic;
mod parallel;
mod setting;
mod transposition;
mod tree;

pub use setting::Setting;
use tree::Tree;

use twenty48_engine::bitboard::Packed;
use twenty48_engine::{Direction, DirectionSet, Game, Rules};

/// What the first deepening expects a level to cost, in times the level before it.
const FIRST_RATIO: u64 = 4;

/// Counters of one or more searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions scored by the heuristic.
    pub evaluated: u64,
    /// Spawn positions answered from the cache.
    pub cache_hits: u64,
    /// Moves chosen.
    pub moves: u64,
    /// The depths the moves were searched to, added up (divide by `moves` for the mean).
    pub depth_sum: u64,
}

/// An expectimax search, of a fixed largest depth ([`Expectimax::new`]) or within a budget
/// of positions a move ([`Expectimax::with_budget`], the default setting).
///
/// How strong and how fast: docs/bot.md, from `just bot-eval` (classic rules, fixed seeds).
/// The default setting takes about 6 ms a move on one core of this project's 2-core machine
/// (median 4.95 ms, 99th percentile 20.35 ms), about 58 million positions scored a CPU
/// second; largest depth 6 (the default before the budget) under 3 ms.
#[derive(Clone, Debug)]
pub struct Expectimax {
    depth: u8,
    /// The deepest a search may go when its budget allows.
    deepest: u8,
    /// Positions a move may score, in all its searches, before it stops deepening.
    budget: u64,
    /// The search state of each thread: the first searches on the calling thread.
    trees: Vec<Tree>,
    stats: SearchStats,
}

impl Expectimax {
    /// The smallest and largest search depths.
    pub const DEPTHS: core::ops::RangeInclusive<u8> = 1..=8;
    /// The deepest a search with a budget goes.
    pub const DEEPEST: u8 = 12;
    /// The first depth of a [`Setting::Budget`]: its schedule (see
    /// [`Expectimax::depth_for`]) searches 3 deep on every board.
    pub const DEFAULT_DEPTH: u8 = 3;
    /// The default budget of positions scored a move ([`Setting::DEFAULT`]), which the
    /// setting owns.
    pub const DEFAULT_BUDGET: u64 = Setting::DEFAULT_BUDGET;

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
            deepest: 0,
            budget: 0,
            trees: vec![Tree::new((all - four.min(all), four.min(all), all))],
            stats: SearchStats::default(),
        }
    }

    /// A search that goes deeper where it is cheap: each move is searched as
    /// [`Expectimax::new`]`(rules, depth)` would, then one level deeper at a time, up to
    /// `deepest`, while the next level is expected to fit in `budget` positions scored (over
    /// all the move's searches). A count of positions, not a time: the same move on every
    /// machine.
    pub fn with_budget(rules: &Rules, depth: u8, deepest: u8, budget: u64) -> Expectimax {
        let mut search = Expectimax::new(rules, depth);
        search.deepest = deepest.min(Self::DEEPEST);
        search.budget = budget;
        search
    }

    /// The search of `setting`.
    pub fn with_setting(rules: &Rules, setting: Setting) -> Expectimax {
        match setting {
            Setting::Depth(depth) => Expectimax::new(rules, depth),
            Setting::Budget(budget) => {
                Expectimax::with_budget(rules, Self::DEFAULT_DEPTH, Self::DEEPEST, budget)
            }
        }
    }

    /// The setting of this search: [`Setting::Depth`] without a budget.
    pub fn setting(&self) -> Setting {
        match self.budget {
            0 => Setting::Depth(self.depth),
            budget => Setting::Budget(budget),
        }
    }

    /// The search of the default setting, [`Setting::DEFAULT`].
    pub fn default_for(rules: &Rules) -> Expectimax {
        Expectimax::with_setting(rules, Setting::DEFAULT)
    }

    /// Searches the root moves on up to `threads` threads (at least 1, at most 4: one a root
    /// move). The values, and so the moves, are the same on any number: each root move has a
    /// search state of its own. On WebAssembly, which has no threads here, it stays on one.
    pub fn set_threads(&mut self, threads: usize) {
        let n = if cfg!(target_family = "wasm") {
            1
        } else {
            threads.clamp(1, 4)
        };
        let first = self.trees[0].clone_empty();
        self.trees.resize_with(n, || first.clone_empty());
    }

    /// The threads the root moves are searched on.
    pub fn threads(&self) -> usize {
        self.trees.len()
    }

    /// The first depth; the largest, without a budget.
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
        let mut depth = self.depth_for(board);
        let (mut values, mut last) = self.values_at(board, depth);
        // Deepen while the next level is expected to fit in what is left of the budget: a
        // level costs about as many times the last as the last cost the one before.
        let (mut spent, mut before) = (last, 0u64);
        while depth < self.deepest && last > 0 {
            let ratio = match before {
                0 => FIRST_RATIO,
                _ => last.div_ceil(before).max(2),
            };
            if spent.saturating_add(last.saturating_mul(ratio)) > self.budget {
                break;
            }
            depth += 1;
            before = last;
            (values, last) = self.values_at(board, depth);
            spent += last;
        }
        self.stats.moves += 1;
        self.stats.depth_sum += depth as u64;
        values
    }

    /// One search of `board` at `depth`: each root move by a tree started empty, on as many
    /// threads as there are trees. The values, and the positions they cost.
    fn values_at(&mut self, board: Packed, depth: u8) -> ([Option<i64>; 4], u64) {
        let roots: Vec<(usize, Packed)> = board
            .slide_each()
            .into_iter()
            .enumerate()
            .filter_map(|(i, after)| after.filter(|&a| a != board).map(|a| (i, a)))
            .collect();
        let before = self.evaluated();
        let mut values = [None; 4];
        if self.trees.len() == 1 || roots.len() < 2 {
            for &(i, after) in &roots {
                values[i] = Some(self.trees[0].root(after, depth));
            }
        } else {
            parallel::search(&mut self.trees, &roots, depth, &mut values);
        }
        let after = self.evaluated();
        self.stats.evaluated = after;
        self.stats.cache_hits = self.trees.iter().map(|t| t.cache_hits).sum();
        (values, after - before)
    }

    /// Positions scored by every tree so far.
    fn evaluated(&self) -> u64 {
        self.trees.iter().map(|t| t.evaluated).sum()
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
