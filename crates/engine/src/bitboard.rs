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
const fn spread(row: u16) -> u64 {
    let r = row as u64;
    (r & 0xF) | ((r & 0xF0) << 12) | ((r & 0xF00) << 24) | ((r & 0xF000) << 36)
}

/// Where a [`line_entry`] keeps the line slid towards nibble 0 (up, left).
const TOWARDS_FIRST: u32 = 32;
/// Where a [`line_entry`] keeps the line slid towards nibble 3 (down, right).
const TOWARDS_LAST: u32 = 48;

/// The slide of one line (a row, or a column read top to bottom) in every form the fast path
/// needs: bits 0..32 the packed score/merges/overflow word (the same both ways), bits 32..48
/// the line slid towards nibble 0, bits 48..64 slid towards nibble 3. With the packed word at
/// the bottom, adding four entries and keeping the low 32 bits sums four packed words.
const fn line_entry(line: u16) -> u64 {
    let (towards_first, packed) = slide_row(line);
    let (reversed, _) = slide_row(reverse_row(line));
    packed as u64
        | (towards_first as u64) << TOWARDS_FIRST
        | (reverse_row(reversed) as u64) << TOWARDS_LAST
}

/// The sum of the packed words of four [`line_entry`]s.
#[inline(always)]
const fn packed_sum(e: [u64; 4]) -> u32 {
    // No field of the packed words carries into the next in a sum of four.
    e[0].wrapping_add(e[1])
        .wrapping_add(e[2])
        .wrapping_add(e[3]) as u32
}

#[cfg(feature = "row-tables")]
mod tables {
    use super::{column_pair, line_entry, row_pair, Pairs};

    /// [`line_entry`] of every line value.
    pub(super) static LINES: [u64; 65536] = {
        let mut t = [0u64; 65536];
        let mut line = 0usize;
        while line < 65536 {
            t[line] = line_entry(line as u16);
            line += 1;
        }
        t
    };

    /// [`row_pair`] of every row value.
    pub(super) static ROWS: Pairs = {
        let mut t = Pairs([[0; 2]; 65536]);
        let mut line = 0usize;
        while line < 65536 {
            t.0[line] = row_pair(line as u16);
            line += 1;
        }
        t
    };

    /// [`column_pair`] of every column value.
    pub(super) static COLUMNS: Pairs = {
        let mut t = Pairs([[0; 2]; 65536]);
        let mut line = 0usize;
        while line < 65536 {
            t.0[line] = column_pair(line as u16);
            line += 1;
        }
        t
    };
}

/// A table of two board-sized results per line value, each pair 16-byte aligned so that
/// one vector load reads both.
#[cfg(feature = "row-tables")]
#[repr(C, align(16))]
struct Pairs([[u64; 2]; 65536]);

/// A row slid left and slid right, each in row 0 of an otherwise empty board.
const fn row_pair(line: u16) -> [u64; 2] {
    let entry = line_entry(line);
    [
        (entry >> TOWARDS_FIRST) & 0xFFFF,
        (entry >> TOWARDS_LAST) & 0xFFFF,
    ]
}

/// A column slid up and slid down, each spread back into column 0 of an otherwise empty
/// board.
const fn column_pair(line: u16) -> [u64; 2] {
    let entry = line_entry(line);
    [
        spread((entry >> TOWARDS_FIRST) as u16),
        spread((entry >> TOWARDS_LAST) as u16),
    ]
}

/// [`line_entry`]: from the table, or computed without it.
#[inline(always)]
fn line(line: usize) -> u64 {
    #[cfg(feature = "row-tables")]
    {
        tables::LINES[line]
    }
    #[cfg(not(feature = "row-tables"))]
    {
        line_entry(line as u16)
    }
}

/// A column slid up or down, spread into column 0 ([`column_pair`]): from the tables, or
/// computed without them.
#[inline(always)]
fn column_slid(line: usize, up: bool) -> u64 {
    #[cfg(feature = "row-tables")]
    {
        tables::COLUMNS.0[line][!up as usize]
    }
    #[cfg(not(feature = "row-tables"))]
    {
        column_pair(line as u16)[!up as usize]
    }
}

/// Row `r` of the board as a line value (nibble `j` is column `j`).
#[inline(always)]
const fn row_of(x: u64, r: u32) -> usize {
    (x >> (16 * r)) as u16 as usize
}

/// Column `c` of the board as a line value (nibble `j` is row `j`), gathered by one multiply:
/// the four nibbles at bits `0, 16, 32, 48` (after the shift) land side by side in the top 16
/// bits of the product, and no partial product carries into them.
#[inline(always)]
const fn column_of(x: u64, c: u32) -> usize {
    const COLUMN_0: u64 = 0x000F_000F_000F_000F;
    const GATHER: u64 = (1 << 48) | (1 << 36) | (1 << 24) | (1 << 12);
    (((x >> (4 * c)) & COLUMN_0).wrapping_mul(GATHER) >> 48) as usize
}

/// Whether some cell holds 15 (32768): only then can a slide overflow a nibble.
#[inline(always)]
const fn has_fifteen(x: u64) -> bool {
    let t = x & (x >> 1);
    t & (t >> 2) & 0x1111_1111_1111_1111 != 0
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
        if has_fifteen(x) {
            // Rare: the only boards whose slide may not fit in nibbles.
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
        let x = self.0;
        if has_fifteen(x) {
            // Rare: the only boards whose slides may not fit in nibbles.
            return Direction::ALL.map(|d| self.slide_board(d));
        }
        let [left, right] = pairs::rows([0, 1, 2, 3].map(|r| row_of(x, r)));
        let [up, down] = pairs::columns([0, 1, 2, 3].map(|c| column_of(x, c)));
        [up, right, down, left].map(|board| Some(Packed(board)))
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

/// The two steps of the replay loop that depend on the CPU's instructions: sliding the board
/// and putting a spawned tile on the `k`-th empty cell (row-major, `k` below the number of
/// empty cells). Every implementation gives the same results; tests compare them.
pub(crate) trait Cpu: Copy {
    /// [`Packed::slide`].
    fn slide(self, board: Packed, dir: Direction) -> FastSlide;
    /// The board with a 2 (or a 4 when `four`) on its `k`-th empty cell.
    fn spawn_kth_empty(self, board: Packed, k: u32, four: bool) -> Packed;
}

/// Any CPU: [`Packed::slide`] (one code path per direction), and placement by running counts
/// of the empty cells from one multiply, then the cell whose count is `k + 1`
/// ([`Packed::spawn_kth_empty`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Cpu for Portable {
    #[inline(always)]
    fn slide(self, board: Packed, dir: Direction) -> FastSlide {
        board.slide(dir)
    }

    #[inline(always)]
    fn spawn_kth_empty(self, board: Packed, k: u32, four: bool) -> Packed {
        board.spawn_kth_empty(board.empty_prefix_counts(), k, four)
    }
}

/// x86-64 with BMI2. `pext` reads any line (row or column) out of the board and `pdep` puts
/// it back, so one branch-free code path slides in all four directions through the line
/// table; `pdep` also deposits bit `k` onto the `k`-th empty cell in one instruction. Exists
/// only where the CPU has BMI2: the only way to get one is [`Bmi2::detect`], which asks the
/// CPU at run time.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2(());

#[cfg(all(feature = "std", target_arch = "x86_64"))]
impl Bmi2 {
    /// `Some` when this CPU has BMI2 (the answer is cached by std after the first call).
    #[inline]
    pub(crate) fn detect() -> Option<Bmi2> {
        std::is_x86_feature_detected!("bmi2").then_some(Bmi2(()))
    }
}

/// For each direction code, the board bits of its four lines, each read from the wall
/// outwards in increasing bit order: columns for up and down, rows for right and left.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
static LINE_BITS: [[u64; 4]; 4] = {
    const COLUMN: u64 = 0x000F_000F_000F_000F;
    const ROW: u64 = 0xFFFF;
    let columns = [COLUMN, COLUMN << 4, COLUMN << 8, COLUMN << 12];
    let rows = [ROW, ROW << 16, ROW << 32, ROW << 48];
    [columns, rows, columns, rows]
};

/// [`LINE_BITS`] again, for putting the slid lines back: a second table so that the
/// compiler reads each mask from memory where `pdep` needs it instead of keeping four
/// masks in registers through the slide (the replay loop runs short of registers).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
static PLACE_BITS: [[u64; 4]; 4] = LINE_BITS;

/// For each direction code, where a [`line_entry`] holds the slid line.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
const LINE_HALF: [u32; 4] = [TOWARDS_FIRST, TOWARDS_LAST, TOWARDS_LAST, TOWARDS_FIRST];

#[cfg(all(feature = "std", target_arch = "x86_64"))]
impl Cpu for Bmi2 {
    #[inline(always)]
    fn slide(self, board: Packed, dir: Direction) -> FastSlide {
        use core::arch::x86_64::{_pdep_u64, _pext_u64};
        let bits = &LINE_BITS[dir.code() as usize];
        let place = &PLACE_BITS[dir.code() as usize];
        let half = LINE_HALF[dir.code() as usize];
        let mut slid = 0;
        let mut entries = [0; 4];
        for ((&mask, &put), entry) in bits.iter().zip(place).zip(&mut entries) {
            // SAFETY: a `Bmi2` value exists only when `detect` found BMI2 on this CPU.
            let index = unsafe { _pext_u64(board.0, mask) } as usize;
            // SAFETY: `mask` has 16 bits set, so `pext` returns at most 16 bits. (Told to the
            // compiler, this spares a zero-extension on the replay's critical path.)
            unsafe { core::hint::assert_unchecked(index <= 0xFFFF) };
            *entry = line(index);
            // `pdep` takes as many low bits of its source as the mask has: the 16 of the line.
            slid |= unsafe { _pdep_u64(*entry >> half, put) };
        }
        let packed = packed_sum(entries);
        if packed >> OVERFLOW_SHIFT != 0 {
            return FastSlide::Overflow;
        }
        FastSlide::Done {
            board: Packed(slid),
            merged_value: packed & SCORE_MASK,
            merges: (packed >> MERGE_SHIFT) & 0xF,
        }
    }

    #[inline(always)]
    fn spawn_kth_empty(self, board: Packed, k: u32, four: bool) -> Packed {
        // SAFETY: a `Bmi2` value exists only when `detect` found BMI2 on this CPU.
        let hit = unsafe { core::arch::x86_64::_pdep_u64(1 << k, board.empty_nibbles()) };
        Packed(board.0 | if four { hit << 1 } else { hit })
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

/// The four rows slid (`half`: [`TOWARDS_FIRST`] left, [`TOWARDS_LAST`] right) and the sum
/// of their packed words.
#[inline(always)]
fn rows(x: u64, half: u32) -> (u64, u32) {
    let e = [0, 1, 2, 3].map(|r| line(row_of(x, r)));
    let slid = |r: usize| ((e[r] >> half) & 0xFFFF) << (16 * r);
    (slid(0) | slid(1) | slid(2) | slid(3), packed_sum(e))
}

/// The four columns slid up or down and the sum of their packed words.
#[inline(always)]
fn columns(x: u64, up: bool) -> (u64, u32) {
    let c = [0, 1, 2, 3].map(|i| column_of(x, i));
    let slid = |i: usize| column_slid(c[i], up) << (4 * i);
    (
        slid(0) | slid(1) | slid(2) | slid(3),
        packed_sum(c.map(line)),
    )
}

/// [`Packed::slide_each`]'s combining of the four rows (columns) of a board from their
/// [`row_pair`]s ([`column_pair`]s): both directions of a line side by side.
#[cfg(all(
    feature = "row-tables",
    target_arch = "x86_64",
    target_feature = "sse2"
))]
mod pairs {
    use super::tables::{COLUMNS, ROWS};
    use super::Pairs;
    use core::arch::x86_64::{
        __m128i, _mm_cvtsi128_si64, _mm_loadu_si128, _mm_or_si128, _mm_slli_epi64,
        _mm_unpackhi_epi64,
    };

    #[inline(always)]
    fn load(table: &Pairs, line: usize) -> __m128i {
        let pair: &[u64; 2] = &table.0[line];
        // SAFETY: `pair` is 16 readable bytes; the load needs no alignment.
        unsafe { _mm_loadu_si128(pair.as_ptr().cast()) }
    }

    // SAFETY (every `unsafe` below but the load's): SSE2 is enabled for this build (the
    // module exists only then; every x86-64 CPU has it).

    #[inline(always)]
    fn halves(v: __m128i) -> [u64; 2] {
        unsafe {
            [
                _mm_cvtsi128_si64(v) as u64,
                _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64,
            ]
        }
    }

    /// The board slid left and slid right, from its four row values.
    #[inline(always)]
    pub(super) fn rows(lines: [usize; 4]) -> [u64; 2] {
        let [a, b, c, d] = lines.map(|l| load(&ROWS, l));
        halves(unsafe {
            _mm_or_si128(
                _mm_or_si128(a, _mm_slli_epi64::<16>(b)),
                _mm_or_si128(_mm_slli_epi64::<32>(c), _mm_slli_epi64::<48>(d)),
            )
        })
    }

    /// The board slid up and slid down, from its four column values.
    #[inline(always)]
    pub(super) fn columns(lines: [usize; 4]) -> [u64; 2] {
        let [a, b, c, d] = lines.map(|l| load(&COLUMNS, l));
        halves(unsafe {
            _mm_or_si128(
                _mm_or_si128(a, _mm_slli_epi64::<4>(b)),
                _mm_or_si128(_mm_slli_epi64::<8>(c), _mm_slli_epi64::<12>(d)),
            )
        })
    }
}

/// [`Packed::slide_each`]'s combining, one `u64` at a time (from the tables where present).
#[cfg(not(all(
    feature = "row-tables",
    target_arch = "x86_64",
    target_feature = "sse2"
)))]
mod pairs {
    #[inline(always)]
    fn row(line: usize) -> [u64; 2] {
        #[cfg(feature = "row-tables")]
        {
            super::tables::ROWS.0[line]
        }
        #[cfg(not(feature = "row-tables"))]
        {
            super::row_pair(line as u16)
        }
    }

    #[inline(always)]
    fn column(line: usize) -> [u64; 2] {
        #[cfg(feature = "row-tables")]
        {
            super::tables::COLUMNS.0[line]
        }
        #[cfg(not(feature = "row-tables"))]
        {
            super::column_pair(line as u16)
        }
    }

    /// The board slid left and slid right, from its four row values.
    #[inline(always)]
    pub(super) fn rows(lines: [usize; 4]) -> [u64; 2] {
        let [a, b, c, d] = lines.map(row);
        [0, 1].map(|h| a[h] | b[h] << 16 | c[h] << 32 | d[h] << 48)
    }

    /// The board slid up and slid down, from its four column values.
    #[inline(always)]
    pub(super) fn columns(lines: [usize; 4]) -> [u64; 2] {
        let [a, b, c, d] = lines.map(column);
        [0, 1].map(|h| a[h] | b[h] << 4 | c[h] << 8 | d[h] << 12)
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
