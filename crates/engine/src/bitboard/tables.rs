//! The line tables: [`line_entry`](super::line::line_entry) of every line value, and every
//! row and column slid both ways ([`row_pair`](super::line::row_pair),
//! [`column_pair`](super::line::column_pair)); and the whole-board row and column steps read
//! from them (or computed without them).

use super::line::{column_of, packed_sum, row_of};
#[cfg(not(feature = "row-tables"))]
use super::line::{column_pair, line_entry};
#[cfg(all(
    feature = "row-tables",
    target_arch = "x86_64",
    target_feature = "sse2"
))]
pub(crate) use built::Pairs;
#[cfg(feature = "row-tables")]
pub(crate) use built::{COLUMNS, LINES, ROWS};

#[cfg(all(feature = "row-tables", not(twenty48_runtime_tables)))]
mod built {
    use crate::bitboard::line::{column_pair, line_entry, row_pair};

    /// A table of two board-sized results per line value, each pair 16-byte aligned so
    /// that one vector load reads both.
    #[repr(C, align(16))]
    pub(crate) struct Pairs(pub(crate) [[u64; 2]; 65536]);

    /// [`line_entry`] of every line value.
    pub(crate) static LINES: [u64; 65536] = {
        let mut t = [0u64; 65536];
        let mut line = 0usize;
        while line < 65536 {
            t[line] = line_entry(line as u16);
            line += 1;
        }
        t
    };

    /// [`row_pair`] of every row value.
    pub(crate) static ROWS: Pairs = {
        let mut t = Pairs([[0; 2]; 65536]);
        let mut line = 0usize;
        while line < 65536 {
            t.0[line] = row_pair(line_entry(line as u16));
            line += 1;
        }
        t
    };

    /// [`column_pair`] of every column value.
    pub(crate) static COLUMNS: Pairs = {
        let mut t = Pairs([[0; 2]; 65536]);
        let mut line = 0usize;
        while line < 65536 {
            t.0[line] = column_pair(line_entry(line as u16));
            line += 1;
        }
        t
    };
}

/// The same tables from the same functions, built on the heap at first use: only under
/// `--cfg twenty48_runtime_tables`, which `just mutants` sets so that a mutant of the slide
/// code costs a run-time loop of a few milliseconds instead of minutes of compile-time
/// evaluation; and `just web`, whose WebAssembly would otherwise carry 2.5 MB of tables the
/// page can build in a few milliseconds. Needs the `std` feature. The other shipped builds
/// never set it and keep the static tables above.
#[cfg(all(feature = "row-tables", twenty48_runtime_tables))]
mod built {
    use crate::bitboard::line::{column_pair, line_entry, row_pair};
    use std::sync::LazyLock;
    use std::vec::Vec;

    /// Two board-sized results per line value (the run-time tables' form; loads need no
    /// alignment).
    pub(crate) struct Pairs(pub(crate) Vec<[u64; 2]>);

    /// [`line_entry`] of every line value.
    pub(crate) static LINES: LazyLock<Vec<u64>> =
        LazyLock::new(|| (0..=u16::MAX).map(line_entry).collect());

    /// [`row_pair`] of every row value, from [`LINES`]: each line is slid
    /// once for all three tables (the page's first call builds them, in code compiled for a
    /// first run: issue 46, the first board's time).
    pub(crate) static ROWS: LazyLock<Pairs> =
        LazyLock::new(|| Pairs(LINES.iter().map(|&e| row_pair(e)).collect()));

    /// [`column_pair`] of every column value, from [`LINES`].
    pub(crate) static COLUMNS: LazyLock<Pairs> =
        LazyLock::new(|| Pairs(LINES.iter().map(|&e| column_pair(e)).collect()));
}

/// [`line_entry`]: from the table, or computed without it.
#[inline(always)]
pub(super) fn line(line: usize) -> u64 {
    #[cfg(feature = "row-tables")]
    {
        LINES[line]
    }
    #[cfg(not(feature = "row-tables"))]
    {
        line_entry(line as u16)
    }
}

/// A column slid up or down, spread into column 0 ([`column_pair`]): from the tables, or
/// computed without them.
#[inline(always)]
pub(super) fn column_slid(line: usize, up: bool) -> u64 {
    #[cfg(feature = "row-tables")]
    {
        COLUMNS.0[line][!up as usize]
    }
    #[cfg(not(feature = "row-tables"))]
    {
        column_pair(line_entry(line as u16))[!up as usize]
    }
}

/// The four rows slid (`half`: [`TOWARDS_FIRST`] left, [`TOWARDS_LAST`] right) and the sum
/// of their packed words.
#[inline(always)]
pub(super) fn rows(x: u64, half: u32) -> (u64, u32) {
    let e = [0, 1, 2, 3].map(|r| line(row_of(x, r)));
    let slid = |r: usize| ((e[r] >> half) & 0xFFFF) << (16 * r);
    (slid(0) | slid(1) | slid(2) | slid(3), packed_sum(e))
}

/// The four columns slid up or down and the sum of their packed words.
#[inline(always)]
pub(super) fn columns(x: u64, up: bool) -> (u64, u32) {
    let c = [0, 1, 2, 3].map(|i| column_of(x, i));
    let slid = |i: usize| column_slid(c[i], up) << (4 * i);
    (
        slid(0) | slid(1) | slid(2) | slid(3),
        packed_sum(c.map(line)),
    )
}
