//! The 4x4 fast path: a `u64` of sixteen 4-bit exponents, slid with precomputed row tables.
//!
//! Cell `i` (row-major, `i = row * 4 + column`) is the nibble at bits `4i..4i + 4`; row `r`
//! is the 16 bits at `16r`. A nibble holds exponents up to 15 (32768). A slide that would
//! merge two 32768 tiles is flagged by the tables; [`Packed::slide`] then reports
//! [`FastSlide::Overflow`] and the caller continues on [`Wide`], an exact byte-per-cell
//! board that holds every tile a 4x4 game can make (up to 2^17).

use crate::direction::Direction;

/// Packed per-row slide result: score in bits 0..24, merges in bits 24..28, overflow
/// count in bits 28..31. Sums of four rows never carry across fields.
const SCORE_MASK: u32 = 0x00FF_FFFF;
const MERGE_SHIFT: u32 = 24;
const OVERFLOW_SHIFT: u32 = 28;

/// Slides one row of four nibbles towards nibble 0 (the same rule as the reference engine).
/// Returns the new row and the packed score/merges/overflow word.
const fn slide_row(row: u16) -> (u16, u32) {
    let mut out = [0u16; 4];
    let mut placed = 0;
    let mut last_merged = false;
    let mut packed = 0u32;
    let mut i = 0;
    while i < 4 {
        let tile = (row >> (4 * i)) & 0xF;
        if tile != 0 {
            if placed > 0 && !last_merged && out[placed - 1] == tile {
                if tile == 15 {
                    packed += 1 << OVERFLOW_SHIFT;
                    out[placed - 1] = 0; // meaningless: the caller takes the wide path
                } else {
                    out[placed - 1] = tile + 1;
                    packed += 1 << (tile + 1);
                }
                packed += 1 << MERGE_SHIFT;
                last_merged = true;
            } else {
                out[placed] = tile;
                placed += 1;
                last_merged = false;
            }
        }
        i += 1;
    }
    (out[0] | out[1] << 4 | out[2] << 8 | out[3] << 12, packed)
}

/// Reverses the order of the four nibbles of a row.
#[inline(always)]
const fn reverse_row(row: u16) -> u16 {
    (row >> 12) | ((row >> 4) & 0x00F0) | ((row << 4) & 0x0F00) | (row << 12)
}

/// Spreads a row's four nibbles into a column: nibble `j` goes to bits `16j..16j + 4`.
#[cfg(feature = "row-tables")]
const fn spread(row: u16) -> u64 {
    let r = row as u64;
    (r & 0xF) | ((r & 0xF0) << 12) | ((r & 0xF00) << 24) | ((r & 0xF000) << 36)
}

#[cfg(feature = "row-tables")]
mod tables {
    use super::{reverse_row, slide_row, spread};

    /// One entry per row value: bits 0..16 the row slid left, bits 16..32 the row slid
    /// right, bits 32..64 the packed score/merges/overflow word (the same both ways).
    pub(super) static ROWS: [u64; 65536] = {
        let mut t = [0u64; 65536];
        let mut row = 0usize;
        while row < 65536 {
            let (l, p) = slide_row(row as u16);
            let (r, _) = slide_row(reverse_row(row as u16));
            t[row] = l as u64 | (reverse_row(r) as u64) << 16 | (p as u64) << 32;
            row += 1;
        }
        t
    };

    /// Bit 63 (unused by a spread column) set when the slide merges two 32768 tiles.
    const fn overflow_flag(packed: u32) -> u64 {
        if packed >> super::OVERFLOW_SHIFT != 0 {
            1 << 63
        } else {
            0
        }
    }

    /// A column (a row of the transposed board) slid up, spread back into column 0 of a
    /// board: one transpose instead of two for vertical slides.
    pub(super) static UP: [u64; 65536] = {
        let mut t = [0u64; 65536];
        let mut row = 0usize;
        while row < 65536 {
            let (column, packed) = slide_row(row as u16);
            t[row] = spread(column) | overflow_flag(packed);
            row += 1;
        }
        t
    };

    /// A column slid down, spread back into column 0 of a board.
    pub(super) static DOWN: [u64; 65536] = {
        let mut t = [0u64; 65536];
        let mut row = 0usize;
        while row < 65536 {
            let (column, packed) = slide_row(reverse_row(row as u16));
            t[row] = spread(reverse_row(column)) | overflow_flag(packed);
            row += 1;
        }
        t
    };
}

/// Transposes the 4x4 nibble matrix (row `r`, column `c` goes to row `c`, column `r`).
#[inline(always)]
pub const fn transpose(x: u64) -> u64 {
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

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

    /// The 16 row-major exponents.
    pub fn cells(self) -> [u8; 16] {
        core::array::from_fn(|i| ((self.0 >> (4 * i)) & 0xF) as u8)
    }

    /// Slides towards `dir`.
    #[inline(always)]
    pub fn slide(self, dir: Direction) -> FastSlide {
        let (board, packed) = match dir {
            Direction::Left => rows(self.0, row_left),
            Direction::Right => rows(self.0, row_right),
            Direction::Up => columns(transpose(self.0), col_up),
            Direction::Down => columns(transpose(self.0), col_down),
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
        let (board, overflow) = match dir {
            Direction::Left => board_rows(self.0, 0),
            Direction::Right => board_rows(self.0, 16),
            Direction::Up => board_up(transpose(self.0)),
            Direction::Down => board_down(transpose(self.0)),
        };
        if overflow {
            None
        } else {
            Some(Packed(board))
        }
    }

    /// The board after a slide towards `dir`, ignoring score; nibble overflow is reported as
    /// "moved" (it is a merge, so the board does change). For legality checks.
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
    pub fn place_kth_empty(self, (empty, prefix): (u64, u64), k: u32, e: u8) -> (Packed, u32) {
        let wanted = 0x1111_1111_1111_1111u64.wrapping_mul((k as u64 + 1) & 0xF);
        let hit = zero_nibbles(prefix ^ wanted) & empty;
        let cell = hit.trailing_zeros() / 4;
        (Packed(self.0 | (e as u64) << (4 * cell)), cell)
    }

    /// Whether no slide changes the board: no empty cell and no equal neighbours.
    #[inline]
    pub const fn is_stuck(self) -> bool {
        let x = self.0;
        if zero_nibbles(x) != 0 {
            return false;
        }
        // Horizontal neighbours: nibble i vs i+1 within a row (columns 0..3).
        let horizontal = zero_nibbles(x ^ (x >> 4)) & 0x0111_0111_0111_0111;
        // Vertical neighbours: nibble i vs i+4 (rows 0..3).
        let vertical = zero_nibbles(x ^ (x >> 16)) & 0x0000_1111_1111_1111;
        horizontal == 0 && vertical == 0
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

/// Position of the `k`-th set bit of a 16-bit mask (`k < popcount`).
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

#[inline(always)]
fn rows(x: u64, f: impl Fn(u16) -> (u16, u32)) -> (u64, u32) {
    let (r0, p0) = f(x as u16);
    let (r1, p1) = f((x >> 16) as u16);
    let (r2, p2) = f((x >> 32) as u16);
    let (r3, p3) = f((x >> 48) as u16);
    (
        r0 as u64 | (r1 as u64) << 16 | (r2 as u64) << 32 | (r3 as u64) << 48,
        p0 + p1 + p2 + p3,
    )
}

#[cfg(feature = "row-tables")]
#[inline(always)]
fn row_left(r: u16) -> (u16, u32) {
    let e = tables::ROWS[r as usize];
    (e as u16, (e >> 32) as u32)
}
#[cfg(feature = "row-tables")]
#[inline(always)]
fn row_right(r: u16) -> (u16, u32) {
    let e = tables::ROWS[r as usize];
    ((e >> 16) as u16, (e >> 32) as u32)
}

/// Slides the four columns of a board given as its transpose `t` (row `c` of `t` is column
/// `c`), with `f` giving each column slid and spread back into column 0.
#[inline(always)]
fn columns(t: u64, f: impl Fn(u16) -> (u64, u32)) -> (u64, u32) {
    let (c0, p0) = f(t as u16);
    let (c1, p1) = f((t >> 16) as u16);
    let (c2, p2) = f((t >> 32) as u16);
    let (c3, p3) = f((t >> 48) as u16);
    const CELLS: u64 = 0x000F_000F_000F_000F;
    (
        (c0 & CELLS) | (c1 & CELLS) << 4 | (c2 & CELLS) << 8 | (c3 & CELLS) << 12,
        p0 + p1 + p2 + p3,
    )
}

/// Rows slid without score: `shift` 0 takes the left result of the row table, 16 the right.
#[cfg(feature = "row-tables")]
#[inline(always)]
fn board_rows(x: u64, shift: u32) -> (u64, bool) {
    let e0 = tables::ROWS[x as u16 as usize];
    let e1 = tables::ROWS[(x >> 16) as u16 as usize];
    let e2 = tables::ROWS[(x >> 32) as u16 as usize];
    let e3 = tables::ROWS[(x >> 48) as usize];
    let row = |e: u64| (e >> shift) & 0xFFFF;
    let board = row(e0) | row(e1) << 16 | row(e2) << 32 | row(e3) << 48;
    // The overflow count sits in bits 60..63 of each entry.
    (board, (e0 | e1 | e2 | e3) >> 60 != 0)
}

#[cfg(feature = "row-tables")]
#[inline(always)]
fn board_up(t: u64) -> (u64, bool) {
    board_columns(t, &tables::UP)
}
#[cfg(feature = "row-tables")]
#[inline(always)]
fn board_down(t: u64) -> (u64, bool) {
    board_columns(t, &tables::DOWN)
}

/// Columns slid without score, from the transposed board, through a column table whose
/// entries carry the overflow flag in bit 63.
#[cfg(feature = "row-tables")]
#[inline(always)]
fn board_columns(t: u64, table: &[u64; 65536]) -> (u64, bool) {
    let c0 = table[t as u16 as usize];
    let c1 = table[(t >> 16) as u16 as usize];
    let c2 = table[(t >> 32) as u16 as usize];
    let c3 = table[(t >> 48) as usize];
    const CELLS: u64 = 0x000F_000F_000F_000F;
    let board = (c0 & CELLS) | (c1 & CELLS) << 4 | (c2 & CELLS) << 8 | (c3 & CELLS) << 12;
    (board, (c0 | c1 | c2 | c3) >> 63 != 0)
}

#[cfg(not(feature = "row-tables"))]
fn board_rows(x: u64, shift: u32) -> (u64, bool) {
    let (board, packed) = if shift == 0 {
        rows(x, row_left)
    } else {
        rows(x, row_right)
    };
    (board, packed >> OVERFLOW_SHIFT != 0)
}
#[cfg(not(feature = "row-tables"))]
fn board_up(t: u64) -> (u64, bool) {
    let (board, packed) = columns(t, col_up);
    (board, packed >> OVERFLOW_SHIFT != 0)
}
#[cfg(not(feature = "row-tables"))]
fn board_down(t: u64) -> (u64, bool) {
    let (board, packed) = columns(t, col_down);
    (board, packed >> OVERFLOW_SHIFT != 0)
}

#[cfg(feature = "row-tables")]
#[inline(always)]
fn col_up(r: u16) -> (u64, u32) {
    (
        tables::UP[r as usize],
        (tables::ROWS[r as usize] >> 32) as u32,
    )
}
#[cfg(feature = "row-tables")]
#[inline(always)]
fn col_down(r: u16) -> (u64, u32) {
    (
        tables::DOWN[r as usize],
        (tables::ROWS[r as usize] >> 32) as u32,
    )
}

#[cfg(not(feature = "row-tables"))]
fn col_up(r: u16) -> (u64, u32) {
    let (x, p) = row_left(r);
    (spread_loop(x), p)
}
#[cfg(not(feature = "row-tables"))]
fn col_down(r: u16) -> (u64, u32) {
    let (x, p) = row_right(r);
    (spread_loop(x), p)
}
#[cfg(not(feature = "row-tables"))]
fn spread_loop(row: u16) -> u64 {
    let r = row as u64;
    (r & 0xF) | ((r & 0xF0) << 12) | ((r & 0xF00) << 24) | ((r & 0xF000) << 36)
}

#[cfg(not(feature = "row-tables"))]
fn row_left(r: u16) -> (u16, u32) {
    slide_row(r)
}
#[cfg(not(feature = "row-tables"))]
fn row_right(r: u16) -> (u16, u32) {
    let (x, p) = slide_row(reverse_row(r));
    (reverse_row(x), p)
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
                assert_eq!(placed.0, board | 2 << (4 * cell));
            }
        }
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
