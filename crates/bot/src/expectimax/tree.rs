//! The search below one root move: chance nodes (every spawn, weighted by its odds) and move
//! nodes (the best slide), scored by the heuristic at the leaves, with a transposition table
//! of its own.
//!
//! Each root move is searched by a tree started empty, so its value depends on the board
//! after that move and the depth alone: the root moves may be searched one after another by
//! one tree or side by side by several, and give the same values either way.

use twenty48_engine::bitboard::Packed;

use super::heuristic;
use super::transposition::TranspositionTable;

/// A path probability of 1, in fixed point.
pub(crate) const ONE: u64 = 1 << 32;
/// Spawn paths less likely than this (1/4,000) are scored by the heuristic, not searched.
/// Such a path needs two 4s, or many spawns on an open board; cutting there rather than at
/// 1/10,000 makes a deep search about 1.6 times as fast on the boards of a real game.
const CUTOFF: u64 = ONE / 4_000;

/// The search state of one root move at a time.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    /// The chance of a 2 and of a 4, reduced: (2 weight, 4 weight, their sum).
    odds: (u64, u64, u64),
    cache: TranspositionTable,
    /// The heuristic's line table.
    table: &'static [i32],
    /// The heuristic's table of slid lines' scores.
    slid: &'static [[i32; 2]],
    /// Positions scored by the heuristic, over every search of this tree.
    pub(crate) evaluated: u64,
    /// Spawn positions answered from the cache, over every search of this tree.
    pub(crate) cache_hits: u64,
}

impl Tree {
    /// A tree for spawns of these reduced odds.
    pub(crate) fn new(odds: (u64, u64, u64)) -> Tree {
        Tree {
            odds,
            cache: TranspositionTable::new(),
            table: heuristic::table(),
            slid: heuristic::slid_table(),
            evaluated: 0,
            cache_hits: 0,
        }
    }

    /// A tree of the same odds, its counters at 0.
    pub(crate) fn clone_empty(&self) -> Tree {
        Tree::new(self.odds)
    }

    /// The value of the board `after` a root move, searched `depth` spawns deep, the cache
    /// started empty.
    pub(crate) fn root(&mut self, after: Packed, depth: u8) -> i64 {
        self.cache.clear();
        self.chance(after, depth, ONE)
    }

    /// A spawn node: the mean over every empty cell and both tiles of the best reply.
    fn chance(&mut self, board: Packed, depth: u8, prob: u64) -> i64 {
        if depth == 0 || prob < CUTOFF {
            self.evaluated += 1;
            return heuristic::board_score(self.table, board.0);
        }
        if let Some(v) = self.cache.get(board.0, depth) {
            self.cache_hits += 1;
            return v;
        }
        let (two, four, all) = self.odds;
        let empty = board.empty_nibbles();
        let n = empty.count_ones() as u64;
        let scale = all * n;
        let (p_two, p_four) = (share(prob, two, scale), share(prob, four, scale));
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
        if depth == 0 || prob < CUTOFF {
            // Every reply is a leaf: scored here, as `chance` would, all four together.
            let (best, scored) = heuristic::best_reply(self.table, self.slid, board);
            self.evaluated += scored;
            return best;
        }
        let slides = board.slide_each();
        let mut best = 0i64;
        // Each reply's chance node looks its board up first: start those loads together.
        for after in slides.into_iter().flatten() {
            self.cache.prefetch(after.0);
        }
        for after in slides.into_iter().flatten() {
            if after != board {
                best = best.max(self.chance(after, depth, prob));
            }
        }
        best
    }
}

/// `prob * weight / scale`, rounded down: in 64 bits where the product fits (always, with the
/// rules' usual small odds), else in 128.
#[inline(always)]
fn share(prob: u64, weight: u64, scale: u64) -> u64 {
    match prob.checked_mul(weight) {
        Some(product) => product / scale,
        None => (prob as u128 * weight as u128 / scale as u128) as u64,
    }
}
