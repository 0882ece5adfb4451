//! The 4x4 fast path: a `u64` of sixteen 4-bit exponents, slid with precomputed row tables.
//!
//! Cell `i` (row-major, `i = row * 4 + column`) is the nibble at bits `4i..4i + 4`; row `r`
//! is the 16 bits at `16r`. A nibble holds exponents up to 15 (32768). A slide that would
//! merge two 32768 tiles is flagged by the tables; [`Packed::slide`] then reports
//! [`FastSlide::Overflow`] and the caller continues on [`Wide`], an exact byte-per-cell
//! board that holds every tile a 4x4 game can make (up to 2^17).
//!
//! Three ways to slide: [`Packed::slide`] (board, score, merges, overflow: what a game
//! needs), [`Packed::slide_board`] (the board alone) and [`Packed::slide_each`] (the board
//! alone in all four directions at once, the fastest per move). Rows are read by shifts,
//! columns by one multiply each; tables give each line slid both ways.

use crate::direction::Direction;

pub(crate) mod cpu;
mod line;
mod tables;

pub use line::transpose;
use line::*;
use tables::*;

/// The result of a fast slide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastSlide {
    /// The slide fitted in nibbles.
    Done {
        /// The board after the slide (equal to the input when nothing moved).
        board: Packed,
        /// Sum of merged values.
        merged_value: u32,
        /// Number of merges.
        merges: u32,
    },
    /// The slide merges two 32768 tiles; redo it on [`Wide`].
    Overflow,
}

/// A 4x4 board packed in a `u64` of exponent nibbles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Packed(pub u64);

impl Packed {
    /// Packs 16 row-major exponents; `None` if any exceeds 15.
    pub fn from_cells(cells: &[u8; 16]) -> Option<Packed> {
        let mut x = 0u64;
        for (i, &c) in cells.iter().enumerate() {
            if c > 15 {
                return None;
            }
            x |= (c as u64) << (4 * i);
        }
        Some(Packed(x))
    }

    /// The 16 row-major exponents. Each half of the board's nibbles is spread to a byte per
    /// nibble in three shift-and-mask steps (groups of four nibbles, then pairs, then single
    /// nibbles move apart), so that comparing the engines move by move reads the board in a
    /// few instructions rather than sixteen extractions.
    #[inline]
    pub fn cells(self) -> [u8; 16] {
        let spread = |half: u64| {
            let x = half & 0xFFFF_FFFF;
            let x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
            let x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
            ((x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F).to_le_bytes()
        };
        let mut cells = [0; 16];
        cells[..8].copy_from_slice(&spread(self.0));
        cells[8..].copy_from_slice(&spread(self.0 >> 32));
        cells
    }

    /// Slides towards `dir`.
    #[inline(always)]
    pub fn slide(self, dir: Direction) -> FastSlide {
        let x = self.0;
        let (board, packed) = match dir {
            Direction::Left => rows(x, TOWARDS_FIRST),
            Direction::Right => rows(x, TOWARDS_LAST),
            Direction::Up => columns(x, true),
            Direction::Down => columns(x, false),
        };
        if packed >> OVERFLOW_SHIFT != 0 {
            return FastSlide::Overflow;
        }
        FastSlide::Done {
            board: Packed(board),
            merged_value: packed & SCORE_MASK,
            merges: (packed >> MERGE_SHIFT) & 0xF,
        }
    }

    /// The board after a slide towards `dir`, without score: the raw move of search and
    /// legality checks. `None` when the slide merges two 32768 tiles (a nibble cannot hold
    /// the result; [`Packed::slide`] reports it as [`FastSlide::Overflow`]).
    #[inline(always)]
    pub fn slide_board(self, dir: Direction) -> Option<Packed> {
        let x = self.0;
        if may_overflow(x) {
            // Rare: the only boards whose slide may not fit in nibbles (two 32768s).
            return match self.slide(dir) {
                FastSlide::Done { board, .. } => Some(board),
                FastSlide::Overflow => None,
            };
        }
        Some(Packed(match dir {
            Direction::Left => rows(x, TOWARDS_FIRST).0,
            Direction::Right => rows(x, TOWARDS_LAST).0,
            Direction::Up => columns(x, true).0,
            Direction::Down => columns(x, false).0,
        }))
    }

    /// The board after a slide in each direction, indexed by direction code (up, right,
    /// down, left), without score: the raw moves of search and of legality checks, all four
    /// at once. `None` where a slide merges two 32768 tiles, as [`Packed::slide_board`].
    ///
    /// Each row and column is looked up once for both of its directions; on x86-64 the two
    /// results travel together in one vector register.
    #[inline(always)]
    pub fn slide_each(self) -> [Option<Packed>; 4] {
        match self.slide_each_fitting() {
            Some(boards) => boards.map(Some),
            // Rare: the only boards whose slides may not fit in nibbles (two 32768s).
            None => Direction::ALL.map(|d| self.slide_board(d)),
        }
    }

    /// [`Packed::slide_each`] where every slide fits in nibbles: the four boards (up, right,
    /// down, left), or `None` on a board that [may overflow](Packed::may_overflow) (two or
    /// more 32768s), which [`Packed::slide_each`] slides one direction at a time.
    #[inline(always)]
    pub fn slide_each_fitting(self) -> Option<[Packed; 4]> {
        let x = self.0;
        if may_overflow(x) {
            return None;
        }
        let [left, right] = pairs::rows([0, 1, 2, 3].map(|r| row_of(x, r)));
        let [up, down] = pairs::columns([0, 1, 2, 3].map(|c| column_of(x, c)));
        Some([up, right, down, left].map(Packed))
    }

    /// Whether two or more cells hold 15 (32768): the only boards on which a slide may merge
    /// two of them, whose result a nibble cannot hold. On every other board, each row and
    /// column slides within its nibbles, as a line alone would.
    #[inline(always)]
    pub const fn may_overflow(self) -> bool {
        may_overflow(self.0)
    }

    /// Whether a slide towards `dir` changes the board; one that overflows a nibble does (it
    /// merges). For legality checks.
    #[inline]
    pub fn can_slide(self, dir: Direction) -> bool {
        self.slide_board(dir).is_none_or(|board| board != self)
    }

    /// A mask with bit `4i` set for each empty cell `i`.
    #[inline(always)]
    pub const fn empty_nibbles(self) -> u64 {
        zero_nibbles(self.0)
    }

    /// Number of empty cells.
    #[inline]
    pub const fn empty_count(self) -> u32 {
        self.empty_nibbles().count_ones()
    }

    /// Index of the `k`-th empty cell counted row-major (`k < empty_count()`), found without
    /// scanning: the empty mask is compressed to 16 bits and the `k`-th set bit selected.
    #[inline]
    pub fn nth_empty(self, k: u32) -> u32 {
        select16(compress_nibbles(self.empty_nibbles()), k)
    }

    /// The empty cells of a board that has at least one tile (so at most 15 are empty), as
    /// running counts: nibble `i` of the result is the number of empty cells among cells
    /// `0..=i` (one multiply: each empty cell adds 1 to its own nibble and every later one).
    /// The top nibble is the total.
    ///
    /// # Panics
    /// Debug builds panic on an empty board, whose 16 empty cells do not fit a nibble.
    #[inline(always)]
    pub fn empty_prefix_counts(self) -> (u64, u64) {
        debug_assert!(self.0 != 0, "a board with a tile");
        let empty = self.empty_nibbles();
        (empty, empty.wrapping_mul(0x1111_1111_1111_1111))
    }

    /// Places a tile of exponent `e` on the `k`-th (0-based) empty cell, given
    /// [`Packed::empty_prefix_counts`] of this board: the cell is the empty one whose running
    /// count is `k + 1`, found by comparing all sixteen nibbles at once.
    #[inline(always)]
    pub fn place_kth_empty(self, counts: (u64, u64), k: u32, e: u8) -> (Packed, u32) {
        let cell = kth_empty_mark(counts, k).trailing_zeros() / 4;
        (Packed(self.0 | (e as u64) << (4 * cell)), cell)
    }

    /// [`Packed::place_kth_empty`] without the cell index: the board only, with a tile of
    /// exponent 1 or 2 (a 2 or a 4). The replay loop's form: the tile is the selected empty
    /// cell's mark bit, doubled for a 4, so no bit scan stands between one move and the next.
    #[inline(always)]
    pub fn spawn_kth_empty(self, counts: (u64, u64), k: u32, four: bool) -> Packed {
        let hit = kth_empty_mark(counts, k);
        Packed(self.0 | if four { hit << 1 } else { hit })
    }

    /// Whether no slide changes the board: no empty cell and no equal neighbours.
    #[inline]
    pub const fn is_stuck(self) -> bool {
        let x = self.0;
        if zero_nibbles(x) != 0 {
            return false;
        }
        self.full_is_stuck()
    }

    /// [`Packed::is_stuck`] for a board known to be full: no equal neighbours. Without
    /// branches, so the replay loop can compute it on every move and branch only on the answer.
    #[inline(always)]
    pub const fn full_is_stuck(self) -> bool {
        let x = self.0;
        let horizontal = zero_nibbles(x ^ (x >> 4)) & 0x0111_0111_0111_0111;
        let vertical = zero_nibbles(x ^ (x >> 16)) & 0x0000_1111_1111_1111;
        (horizontal | vertical) == 0
    }

    /// Whether some cell holds exponent `e` (`e <= 15`).
    #[inline(always)]
    pub const fn contains_exponent(self, e: u8) -> bool {
        zero_nibbles(self.0 ^ (0x1111_1111_1111_1111 * (e as u64 & 0xF))) != 0
    }

    /// The largest exponent after a slide with merges from a board whose largest was `old`:
    /// a merge makes at most `old + 1`, and past 15 the slide overflowed instead.
    #[inline(always)]
    pub const fn max_after_merge(self, old: u8) -> u8 {
        let next = old + 1;
        if next <= 15 && self.contains_exponent(next) {
            next
        } else {
            old
        }
    }

    /// The largest exponent on the board.
    #[inline]
    pub const fn max_exponent(self) -> u8 {
        let mut m = 0;
        let mut i = 0;
        while i < 16 {
            let c = ((self.0 >> (4 * i)) & 0xF) as u8;
            if c > m {
                m = c;
            }
            i += 1;
        }
        m
    }
}

/// Bit `4i` of the `k`-th empty cell `i`, given a board's [`Packed::empty_prefix_counts`]:
/// the empty cell whose running count is `k + 1`, found by comparing all sixteen at once.
#[inline(always)]
const fn kth_empty_mark((empty, prefix): (u64, u64), k: u32) -> u64 {
    let wanted = 0x1111_1111_1111_1111u64.wrapping_mul((k as u64 + 1) & 0xF);
    zero_nibbles(prefix ^ wanted) & empty
}

/// Bit `4i` set where nibble `i` of `x` is zero.
#[inline(always)]
const fn zero_nibbles(x: u64) -> u64 {
    let mut t = x | (x >> 1);
    t |= t >> 2;
    !t & 0x1111_1111_1111_1111
}

/// Gathers bits `0, 4, 8, ..., 60` of `m` (all other bits clear) into bits `0..16`.
#[inline(always)]
const fn compress_nibbles(m: u64) -> u32 {
    let m = (m | (m >> 3)) & 0x0303_0303_0303_0303;
    let m = (m | (m >> 6)) & 0x000F_000F_000F_000F;
    let m = (m | (m >> 12)) & 0x0000_00FF_0000_00FF;
    ((m | (m >> 24)) & 0xFFFF) as u32
}

/// For each byte and each `k < 8`: the position of its `k`-th set bit (8 when absent).
#[cfg(not(target_arch = "avr"))]
const SELECT8: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// Position of the `k`-th set bit of a 16-bit mask (`k < popcount`): on AVR without the
/// 2 KB table, which would sit in its 2 or 8 KB of RAM (the same answer, tested below).
#[cfg(target_arch = "avr")]
#[inline(always)]
fn select16(mask: u32, k: u32) -> u32 {
    select16_loop(mask, k)
}

/// Position of the `k`-th set bit of a 16-bit mask (`k < popcount`), bit by bit.
#[cfg_attr(not(any(test, target_arch = "avr")), allow(dead_code))]
fn select16_loop(mask: u32, k: u32) -> u32 {
    let mut seen = 0;
    for bit in 0..16 {
        if mask & (1 << bit) != 0 {
            if seen == k {
                return bit;
            }
            seen += 1;
        }
    }
    16
}

/// Position of the `k`-th set bit of a 16-bit mask (`k < popcount`).
#[cfg(not(target_arch = "avr"))]
#[inline(always)]
fn select16(mask: u32, k: u32) -> u32 {
    let low = mask & 0xFF;
    let low_count = low.count_ones();
    if k < low_count {
        SELECT8[low as usize][k as usize] as u32
    } else {
        8 + SELECT8[(mask >> 8) as usize & 0xFF][(k - low_count) as usize & 7] as u32
    }
}

/// A 4x4 board with a byte per cell: the exact path for tiles past 2^15.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Wide(pub [u8; 16]);

impl Wide {
    /// Slides towards `dir`: `(moved, merged value, merges)`.
    pub fn slide(&mut self, dir: Direction) -> (bool, u64, u32) {
        let mut value = 0u64;
        let mut merges = 0u32;
        let before = self.0;
        for line in 0..4 {
            // Cell indices from the wall outwards.
            let idx: [usize; 4] = core::array::from_fn(|k| match dir {
                Direction::Left => line * 4 + k,
                Direction::Right => line * 4 + 3 - k,
                Direction::Up => k * 4 + line,
                Direction::Down => (3 - k) * 4 + line,
            });
            let tiles = idx.map(|i| self.0[i]);
            let mut out = [0u8; 4];
            let mut n = 0;
            let mut fresh = false;
            for t in tiles.into_iter().filter(|&t| t != 0) {
                if n > 0 && !fresh && out[n - 1] == t {
                    out[n - 1] = t + 1;
                    value += 1u64 << (t + 1);
                    merges += 1;
                    fresh = true;
                } else {
                    out[n] = t;
                    n += 1;
                    fresh = false;
                }
            }
            for (k, &i) in idx.iter().enumerate() {
                self.0[i] = out[k];
            }
        }
        (self.0 != before, value, merges)
    }

    /// Index of the `k`-th empty cell, row-major.
    pub fn nth_empty(&self, k: u32) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == 0)
            .nth(k as usize)
            .map(|(i, _)| i)
    }

    /// Number of empty cells.
    pub fn empty_count(&self) -> u32 {
        self.0.iter().filter(|&&c| c == 0).count() as u32
    }

    /// Whether no slide changes the board.
    pub fn is_stuck(&self) -> bool {
        Direction::ALL.iter().all(|&d| {
            let mut c = *self;
            !c.slide(d).0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    use cpu::Bmi2;
    use cpu::{Cpu, Portable};

    #[test]
    fn select16_loop_agrees_with_the_table_on_every_mask() {
        for mask in 0u32..=0xFFFF {
            for k in 0..mask.count_ones() {
                assert_eq!(select16_loop(mask, k), select16(mask, k), "{mask:#x} {k}");
            }
        }
    }

    fn naive_transpose(x: u64) -> u64 {
        let mut out = 0;
        for r in 0..4 {
            for c in 0..4 {
                let v = (x >> (4 * (r * 4 + c))) & 0xF;
                out |= v << (4 * (c * 4 + r));
            }
        }
        out
    }

    /// `cells` is nibble `i` at cell `i`, on boards of every nibble value at every cell, and
    /// `from_cells` gives the board back.
    #[test]
    fn cells_are_the_nibbles_in_order() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..1000 {
            let cells = Packed(x).cells();
            for (i, &c) in cells.iter().enumerate() {
                assert_eq!(c as u64, x >> (4 * i) & 0xF, "{x:016x} cell {i}");
            }
            assert_eq!(Packed::from_cells(&cells), Some(Packed(x)));
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
        }
    }

    #[test]
    fn transpose_matches_naive() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..1000 {
            assert_eq!(transpose(x), naive_transpose(x));
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
        }
    }

    #[test]
    fn select_and_compress() {
        for mask in 0u32..=0xFFFF {
            let mut nibbles = 0u64;
            for i in 0..16 {
                if mask & (1 << i) != 0 {
                    nibbles |= 1 << (4 * i);
                }
            }
            assert_eq!(compress_nibbles(nibbles), mask);
            let mut k = 0;
            for i in 0..16 {
                if mask & (1 << i) != 0 {
                    assert_eq!(select16(mask, k), i);
                    k += 1;
                }
            }
        }
    }

    #[test]
    fn prefix_select_matches_the_scan() {
        // Every board shape with 1..=15 empty cells (tiles of exponent 1 elsewhere).
        for full in 1u32..=0xFFFF {
            let mut board = 0u64;
            for i in 0..16 {
                if full & (1 << i) != 0 {
                    board |= 1 << (4 * i);
                }
            }
            let p = Packed(board);
            let counts = p.empty_prefix_counts();
            let n = (counts.1 >> 60) as u32;
            assert_eq!(n, p.empty_count());
            for k in 0..n {
                let (placed, cell) = p.place_kth_empty(counts, k, 2);
                assert_eq!(cell, p.nth_empty(k), "board {board:016x} k {k}");
                assert_eq!(p.spawn_kth_empty(counts, k, true), placed);
                assert_eq!(
                    p.spawn_kth_empty(counts, k, false),
                    p.place_kth_empty(counts, k, 1).0
                );
                assert_eq!(placed.0, board | 2 << (4 * cell));
            }
        }
    }

    #[test]
    fn every_placement_matches_the_scan() {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        let bmi2 = Bmi2::detect();
        for full in 1u32..=0xFFFF {
            let mut board = 0u64;
            for i in 0..16 {
                if full & (1 << i) != 0 {
                    board |= 3 << (4 * i);
                }
            }
            let p = Packed(board);
            for k in 0..p.empty_count() {
                for four in [false, true] {
                    let cell = p.nth_empty(k);
                    let expected = Packed(board | (1 + four as u64) << (4 * cell));
                    assert_eq!(Portable.spawn_kth_empty(p, k, four), expected);
                    #[cfg(all(feature = "std", target_arch = "x86_64"))]
                    if let Some(bmi2) = bmi2 {
                        assert_eq!(bmi2.spawn_kth_empty(p, k, four), expected);
                    }
                }
            }
        }
    }

    /// The BMI2 replay loop runs wherever the CPU has BMI2 (and the tests that compare it with
    /// the portable one run there, not skip).
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[test]
    fn bmi2_is_found_exactly_where_the_cpu_has_it() {
        assert_eq!(
            Bmi2::detect().is_some(),
            std::is_x86_feature_detected!("bmi2")
        );
    }

    /// Every CPU's slide equals [`Packed::slide`] on the test boards.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[test]
    fn every_cpu_slides_alike() {
        let Some(bmi2) = Bmi2::detect() else {
            return; // Nothing to compare with on this CPU; `Portable` is `Packed::slide`.
        };
        for_test_boards(|x| {
            for dir in Direction::ALL {
                assert_eq!(
                    bmi2.slide(Packed(x), dir),
                    Packed(x).slide(dir),
                    "{x:016x} {dir}"
                );
            }
        });
    }

    /// Every line value as each row and each column of an otherwise empty board, then
    /// 200,000 pseudo-random boards (many with 32768 tiles) and the same with every
    /// exponent below 8.
    fn for_test_boards(mut check: impl FnMut(u64)) {
        for line in 0..=0xFFFFu64 {
            for i in 0..4 {
                check(line << (16 * i));
                check(spread(line as u16) << (4 * i));
            }
        }
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check(x);
            check(x & 0x7777_7777_7777_7777);
        }
    }

    /// `slide_each` gives `slide_board` in every direction, on the test boards.
    #[test]
    fn slide_each_is_slide_board_four_times() {
        for_test_boards(|x| {
            let p = Packed(x);
            assert_eq!(
                p.slide_each(),
                Direction::ALL.map(|d| p.slide_board(d)),
                "{x:016x}"
            );
        });
    }

    /// `slide_each_fitting` is `slide_each` without `Option`s, and `None` exactly on the
    /// boards with two or more 32768s (the only ones that may overflow).
    #[test]
    fn slide_each_fitting_is_slide_each_below_two_32768s() {
        for_test_boards(|x| {
            let p = Packed(x);
            let fifteens = p.cells().iter().filter(|&&c| c == 15).count();
            assert_eq!(p.may_overflow(), fifteens >= 2, "{x:016x}");
            match p.slide_each_fitting() {
                Some(boards) => assert_eq!(boards.map(Some), p.slide_each(), "{x:016x}"),
                None => assert!(fifteens >= 2, "{x:016x}"),
            }
        });
    }

    #[test]
    fn stuck_detection() {
        // 1 2 1 2 / 2 1 2 1 / ... checkerboard: stuck.
        let mut cells = [0u8; 16];
        for (i, c) in cells.iter_mut().enumerate() {
            *c = if (i / 4 + i % 4) % 2 == 0 { 1 } else { 2 };
        }
        let p = Packed::from_cells(&cells).unwrap();
        assert!(p.is_stuck());
        cells[15] = cells[14];
        assert!(!Packed::from_cells(&cells).unwrap().is_stuck());
    }

    #[test]
    fn overflow_is_flagged() {
        let mut cells = [0u8; 16];
        cells[0] = 15;
        cells[1] = 15;
        let p = Packed::from_cells(&cells).unwrap();
        assert_eq!(p.slide(Direction::Left), FastSlide::Overflow);
        assert!(matches!(p.slide(Direction::Up), FastSlide::Done { .. }));
        let mut w = Wide(cells);
        assert_eq!(w.slide(Direction::Left), (true, 65536, 1));
        assert_eq!(w.0[0], 16);
    }
}
