//! The reference engine: a plain slide on an array of cells, for any board from 2x2 to 8x8.
//!
//! This is the definition of the rules, written to be read: arrays of exponents and plain
//! loops, no tables and nothing shared with the 4x4 bitboard in [`crate::bitboard`], which
//! is tested against it. It slides in one pass per line that can report each tile's travel
//! ([`Board::slide_with_events`]); on hosts, [`Board::slide`] on the 4x4 board is that code
//! compiled for a side of 4, checked against the general one on every line of four small
//! exponents.

use crate::direction::Direction;
use crate::rules::MAX_SIZE;

/// Cells on the largest board.
pub const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// A board of exponents: 0 is empty, `e` is the tile `2^e`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    cells: [u8; MAX_CELLS],
}

/// What one slide did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    /// Whether any tile moved or merged.
    pub moved: bool,
    /// Sum of the values of the tiles made by merges.
    pub merged_value: u64,
    /// Number of merges.
    pub merges: u32,
    /// The largest exponent a merge made (0 when nothing merged).
    pub largest_merge: u8,
}

/// A change one slide makes, for animation. A slide reports all moves, then all merges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// A tile slid from one cell to another.
    Moved {
        /// Cell it left.
        from: u8,
        /// Cell it reached.
        to: u8,
    },
    /// Two tiles that reached the same cell became one.
    Merged {
        /// The cell of the new tile.
        into: u8,
        /// The new tile's exponent.
        exponent: u8,
    },
    /// A tile appeared after the slide.
    Spawned {
        /// The cell.
        cell: u8,
        /// The tile's exponent.
        exponent: u8,
    },
}

impl Board {
    /// An empty board of side `size`.
    ///
    /// # Panics
    /// When `size` is outside 2..=8.
    pub fn empty(size: u8) -> Board {
        assert!((2..=MAX_SIZE).contains(&size), "board size {size}");
        Board {
            size,
            cells: [0; MAX_CELLS],
        }
    }

    /// A board from row-major exponents; `None` unless `cells.len()` is a square of 2..=8.
    pub fn from_cells(cells: &[u8]) -> Option<Board> {
        let size = (2..=MAX_SIZE).find(|s| (*s as usize) * (*s as usize) == cells.len())?;
        let mut b = Board::empty(size);
        b.cells[..cells.len()].copy_from_slice(cells);
        Some(b)
    }

    /// The side of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The cells, row-major exponents.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.size as usize * self.size as usize]
    }

    /// The exponent at a cell index.
    pub fn get(&self, index: usize) -> u8 {
        self.cells()[index]
    }

    /// Sets the exponent at a cell index.
    ///
    /// # Panics
    /// When `index` is not a cell of the board.
    pub fn set(&mut self, index: usize, exponent: u8) {
        let n = self.size as usize * self.size as usize;
        self.cells[..n][index] = exponent;
    }

    /// Number of empty cells.
    pub fn empty_count(&self) -> u32 {
        #[cfg(feature = "std")]
        if self.size == 4 {
            return self.cells[..16].iter().filter(|&&c| c == 0).count() as u32;
        }
        self.cells().iter().filter(|&&c| c == 0).count() as u32
    }

    /// The index of the `k`-th empty cell (0-based), counted row-major from the top-left.
    pub fn nth_empty(&self, k: u32) -> Option<usize> {
        #[cfg(feature = "std")]
        if self.size == 4 {
            // The empty cells' bits with the `k` lowest cleared: the lowest left is the cell.
            let mut empty = self.empty_cells16();
            for _ in 0..k {
                empty &= empty.wrapping_sub(1);
            }
            return (empty != 0).then_some(empty.trailing_zeros() as usize);
        }
        // The cell that is empty with `k` empty cells before it; every cell is looked at
        // (counting instead of branching on the cells, which come at random).
        let cells = self.cells();
        let mut found = cells.len();
        let mut seen = 0;
        for (i, &c) in cells.iter().enumerate() {
            if c == 0 && seen == k {
                found = i;
            }
            seen += u32::from(c == 0);
        }
        (found < cells.len()).then_some(found)
    }

    /// The empty cells of the 4x4 board as bits: cell `i` (row-major) is bit `i`. On hosts
    /// the 4x4 board counts and finds its empty cells in these sixteen bits, a few
    /// instructions where a loop over the cells takes a few per cell (firmware keeps the
    /// loops, for size), as [`Board::slide`] has its own 4x4 steps.
    #[cfg(feature = "std")]
    #[inline(always)]
    fn empty_cells16(&self) -> u32 {
        // Written as the sixteen tests first, then the bits from the last cell down, which
        // the compiler turns into one vector comparison.
        let empty: [bool; 16] = core::array::from_fn(|i| self.cells[i] == 0);
        let mut bits = 0;
        for &e in empty.iter().rev() {
            bits = bits << 1 | u32::from(e);
        }
        bits
    }

    /// The largest exponent on the board (0 when empty).
    pub fn max_exponent(&self) -> u8 {
        self.cells().iter().copied().max().unwrap_or(0)
    }

    /// Slides every line towards `dir`, reporting each tile's travel to `on_event`.
    ///
    /// In each line, tiles are taken from the wall outwards. A tile equal to the last tile
    /// placed merges into it, unless that tile was itself made by a merge in this slide.
    pub fn slide_with_events(&mut self, dir: Direction, on_event: &mut dyn FnMut(Event)) -> Slide {
        self.slide_reporting(dir, on_event)
    }

    /// [`Board::slide_with_events`] for any event sink: a slide that reports nothing
    /// compiles to the plain slide.
    #[inline]
    fn slide_reporting(&mut self, dir: Direction, on_event: impl FnMut(Event)) -> Slide {
        self.slide_sized(dir, self.size as usize, on_event)
    }

    /// [`Board::slide_reporting`] on the board's side `n`, given apart so that a caller
    /// that knows the side can have this compiled for it (see [`Board::slide`]).
    ///
    /// Each line is slid in place, in one pass from the wall outwards: a tile either merges
    /// into the last tile placed (when that tile is equal and was not itself made by a
    /// merge) or goes to the next free cell. A cell is written only when a tile leaves or
    /// reaches it.
    #[inline(always)]
    fn slide_sized(&mut self, dir: Direction, n: usize, on_event: impl FnMut(Event)) -> Slide {
        // On hosts the direction is looked at once: each of the four has its own copy of the
        // loops, in which the cell of a line is a fixed formula. Firmware keeps one copy, for
        // size, and looks at the direction at each cell.
        #[cfg(feature = "std")]
        return match dir {
            Direction::Left => self.slide_lines(n, on_event, |line, i| {
                Board::cell(Direction::Left, n, line, i)
            }),
            Direction::Right => self.slide_lines(n, on_event, |line, i| {
                Board::cell(Direction::Right, n, line, i)
            }),
            Direction::Up => self.slide_lines(n, on_event, |line, i| {
                Board::cell(Direction::Up, n, line, i)
            }),
            Direction::Down => self.slide_lines(n, on_event, |line, i| {
                Board::cell(Direction::Down, n, line, i)
            }),
        };
        #[cfg(not(feature = "std"))]
        self.slide_lines(n, on_event, |line, i| Board::cell(dir, n, line, i))
    }

    /// The index of the `i`-th cell from the wall of line `line` of a slide towards `dir`,
    /// on a board of side `n`.
    #[inline(always)]
    fn cell(dir: Direction, n: usize, line: usize, i: usize) -> usize {
        match dir {
            Direction::Left => line * n + i,
            Direction::Right => line * n + n - 1 - i,
            Direction::Up => i * n + line,
            Direction::Down => (n - 1 - i) * n + line,
        }
    }

    /// [`Board::slide_sized`] on the `n` lines of `n` cells where `cell(line, i)` is the
    /// index of the `i`-th cell of `line` from the wall.
    #[inline(always)]
    fn slide_lines(
        &mut self,
        n: usize,
        mut on_event: impl FnMut(Event),
        cell: impl Fn(usize, usize) -> usize,
    ) -> Slide {
        let mut result = Slide {
            moved: false,
            merged_value: 0,
            merges: 0,
            largest_merge: 0,
        };
        let mut merges = [(0u8, 0u8); MAX_CELLS];
        let mut merge_count = 0;
        for line in 0..n {
            // Where the next tile placed goes, and where the last tile placed is (counted
            // from the wall).
            let mut free = 0;
            let mut last = 0;
            // The exponent of the last tile placed while it may still merge: 0 before the
            // first tile and after a merge.
            let mut mergeable = 0;
            for i in 0..n {
                let from = cell(line, i);
                let tile = self.cells[from];
                if tile == 0 {
                } else if tile == mergeable {
                    let to = cell(line, last);
                    self.cells[from] = 0;
                    self.cells[to] = tile + 1;
                    mergeable = 0;
                    result.moved = true;
                    result.merges += 1;
                    result.merged_value += 1u64 << (tile + 1).min(63);
                    result.largest_merge = result.largest_merge.max(tile + 1);
                    on_event(Event::Moved {
                        from: from as u8,
                        to: to as u8,
                    });
                    merges[merge_count] = (to as u8, tile + 1);
                    merge_count += 1;
                } else {
                    if free != i {
                        let to = cell(line, free);
                        self.cells[from] = 0;
                        self.cells[to] = tile;
                        result.moved = true;
                        on_event(Event::Moved {
                            from: from as u8,
                            to: to as u8,
                        });
                    }
                    mergeable = tile;
                    last = free;
                    free += 1;
                }
            }
        }
        for &(into, exponent) in &merges[..merge_count] {
            on_event(Event::Merged { into, exponent });
        }
        result
    }

    /// Slides every line towards `dir`, as [`Board::slide_with_events`] does. On hosts the
    /// 4x4 board's slide is the same code compiled for a side of 4, so that comparing the
    /// engines move by move is not slow: its loops unrolled and its cells at fixed places
    /// (firmware keeps the one copy, for size).
    pub fn slide(&mut self, dir: Direction) -> Slide {
        #[cfg(feature = "std")]
        if self.size == 4 {
            return self.slide_sized(dir, 4, |_| {});
        }
        self.slide_reporting(dir, |_| {})
    }

    /// Whether a slide towards `dir` would change the board.
    pub fn can_slide(&self, dir: Direction) -> bool {
        let mut copy = *self;
        copy.slide(dir).moved
    }

    /// Whether no slide changes the board: no empty cell and no two equal neighbours (or
    /// no tile at all).
    ///
    /// A board with a tile and an empty cell always has a slide that moves: a row holding
    /// both slides left or right; otherwise every row is full or empty, and a column then
    /// holds both and slides up or down. A full board changes exactly when two neighbours
    /// in a row or a column are equal and merge.
    pub fn is_stuck(&self) -> bool {
        let n = self.size as usize;
        // One pass, each cell against its right and lower neighbours, with no index
        // arithmetic that can fail: a quarter of the code on AVR.
        let (mut empty, mut tile, mut pair) = (false, false, false);
        let mut column = 0;
        let cells = self.cells();
        for (i, &c) in cells.iter().enumerate() {
            if c == 0 {
                empty = true;
            } else {
                tile = true;
            }
            column += 1;
            if (column < n && cells.get(i + 1) == Some(&c)) || cells.get(i + n) == Some(&c) {
                pair = true;
            }
            if column == n {
                column = 0;
            }
        }
        if empty {
            !tile
        } else {
            !pair
        }
    }
}

impl core::fmt::Debug for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let n = self.size as usize;
        writeln!(f, "Board {n}x{n} (exponents):")?;
        for row in self.cells().chunks(n) {
            for c in row {
                write!(f, "{c:3}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(values: [u8; 4], dir: Direction) -> ([u8; 4], Slide) {
        let mut cells = [0u8; 16];
        cells[..4].copy_from_slice(&values);
        let mut b = Board::from_cells(&cells).unwrap();
        let s = b.slide(dir);
        (b.cells()[..4].try_into().unwrap(), s)
    }

    /// A board of side `size` with exponents below `below`, drawn by xorshift from `x`.
    fn random_board(size: u8, below: u64, x: &mut u64) -> Board {
        let mut b = Board::empty(size);
        for i in 0..size as usize * size as usize {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            b.set(i, (*x % below) as u8);
        }
        b
    }

    #[test]
    fn merged_tiles_do_not_merge_again() {
        // [2,2,2,2] left gives [4,4,0,0]
        assert_eq!(row([1, 1, 1, 1], Direction::Left).0, [2, 2, 0, 0]);
        // [4,0,2,2] left gives [4,4,0,0], not [8,0,0,0]
        assert_eq!(row([2, 0, 1, 1], Direction::Left).0, [2, 2, 0, 0]);
    }

    #[test]
    fn pair_nearest_the_wall_merges_first() {
        // [2,2,2,0] left gives [4,2,0,0]; right gives [0,0,2,4]
        assert_eq!(row([1, 1, 1, 0], Direction::Left).0, [2, 1, 0, 0]);
        assert_eq!(row([1, 1, 1, 0], Direction::Right).0, [0, 0, 1, 2]);
    }

    #[test]
    fn score_and_merges() {
        let (_, s) = row([1, 1, 2, 2], Direction::Left);
        assert_eq!((s.merged_value, s.merges, s.moved), (4 + 8, 2, true));
        let (_, s) = row([1, 2, 3, 4], Direction::Left);
        assert_eq!((s.merged_value, s.merges, s.moved), (0, 0, false));
    }

    #[test]
    fn events_report_moves_then_merges() {
        let mut b = Board::from_cells(&[1, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        let mut events = [None; 8];
        let mut n = 0;
        b.slide_with_events(Direction::Left, &mut |e| {
            events[n] = Some(e);
            n += 1;
        });
        assert_eq!(
            &events[..n],
            &[
                Some(Event::Moved { from: 2, to: 0 }),
                Some(Event::Moved { from: 3, to: 1 }),
                Some(Event::Merged {
                    into: 0,
                    exponent: 2
                }),
            ]
        );
    }

    /// `is_stuck` (empty cells, then equal neighbours) says what its definition says: no
    /// slide changes the board. Boards of every size with few distinct exponents, many of
    /// them full, plus the empty board.
    #[test]
    fn stuck_means_no_slide_moves() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for size in 2..=MAX_SIZE {
            let n = size as usize * size as usize;
            assert!(Board::empty(size).is_stuck());
            for i in 0..4000 {
                let mut cells = [0u8; MAX_CELLS];
                for c in cells.iter_mut().take(n) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Every other board full; exponents 1..=4 (or 0..=4) collide often.
                    *c = (x % 4) as u8 + 1 - (i % 2 == 0 && x % 97 == 0) as u8;
                    if size > 3 && i % 3 == 0 {
                        *c = (x % 16) as u8 + 1;
                    }
                }
                let b = Board::from_cells(&cells[..n]).unwrap();
                let moves = Direction::ALL.iter().any(|d| b.can_slide(*d));
                assert_eq!(b.is_stuck(), !moves, "{b:?}");
            }
        }
    }

    /// `slide` (on hosts, the 4x4 board's own copy) and the slide with events agree on every
    /// line of four cells with exponents 0..=5 (most merges and gaps), each laid in every row
    /// and column of a 4x4 board, and on random boards of every size.
    #[test]
    fn both_slides_agree() {
        let check = |b: Board| {
            for dir in Direction::ALL {
                let (mut with_events, mut plain) = (b, b);
                let e = with_events.slide_with_events(dir, &mut |_| {});
                assert_eq!(
                    (plain.slide(dir), plain),
                    (e, with_events),
                    "{dir} on {b:?}"
                );
            }
        };
        for code in 0..6u32.pow(4) {
            let line: [u8; 4] = core::array::from_fn(|i| (code / 6u32.pow(i as u32) % 6) as u8);
            for at in 0..4 {
                let mut row = Board::empty(4);
                let mut column = Board::empty(4);
                for (i, &e) in line.iter().enumerate() {
                    row.set(at * 4 + i, e);
                    column.set(i * 4 + at, e);
                }
                check(row);
                check(column);
            }
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for size in 2..=MAX_SIZE {
            for _ in 0..3000 {
                check(random_board(size, 5, &mut x));
            }
        }
    }

    /// The empty cells are counted and found row-major on every board size (the 4x4 board
    /// on hosts by its own bits): for every subset of a 4x4 board's cells left empty (all
    /// 65,536), and random boards of the other sizes, the count is the number of zero
    /// cells and the `k`-th empty cell is the `k`-th zero in row-major order, for every `k`
    /// up to one past the last.
    #[test]
    fn empty_cells_are_counted_and_found_in_row_major_order() {
        let check = |b: &Board| {
            let mut zeros = [0; MAX_CELLS];
            let mut count = 0;
            for i in (0..b.cells().len()).filter(|&i| b.get(i) == 0) {
                zeros[count] = i;
                count += 1;
            }
            let zeros = &zeros[..count];
            assert_eq!(b.empty_count() as usize, count, "{b:?}");
            for k in 0..=count as u32 + 1 {
                assert_eq!(
                    b.nth_empty(k),
                    zeros.get(k as usize).copied(),
                    "{b:?} k {k}"
                );
            }
        };
        for filled in 0..=u16::MAX {
            let mut b = Board::empty(4);
            for i in 0..16 {
                // Tiles of several sizes, so a test of "not this exponent" is not enough.
                b.set(
                    i,
                    if filled >> i & 1 == 1 {
                        1 + (i % 11) as u8
                    } else {
                        0
                    },
                );
            }
            check(&b);
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for size in 2..=MAX_SIZE {
            for _ in 0..500 {
                check(&random_board(size, 3, &mut x));
            }
        }
    }

    #[test]
    fn stuck_board() {
        let b = Board::from_cells(&[1, 2, 2, 1]).unwrap();
        assert!(b.is_stuck());
        let b = Board::from_cells(&[1, 2, 1, 2]).unwrap(); // equal in each column
        assert!(!b.is_stuck());
        let b = Board::from_cells(&[1, 2, 1, 1]).unwrap();
        assert!(!b.is_stuck());
        let b = Board::from_cells(&[1, 2, 0, 3]).unwrap();
        assert!(!b.is_stuck());
    }
}
