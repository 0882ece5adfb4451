//! The cells of a board, as callers see them.

use core::fmt;

use crate::reference::MAX_CELLS;
use crate::tile::tile_value;

/// The cells of a board: `size * size` exponents, row-major from the top-left.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cells {
    pub(super) size: u8,
    pub(super) cells: [u8; MAX_CELLS],
}

impl Cells {
    /// The side of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The exponents (0 empty, `e` the tile `2^e`), row-major.
    pub fn exponents(&self) -> &[u8] {
        &self.cells[..self.size as usize * self.size as usize]
    }

    /// The exponent at `(row, column)`.
    pub fn get(&self, row: usize, column: usize) -> u8 {
        self.exponents()[row * self.size as usize + column]
    }

    /// The tile value at `(row, column)`: 0 for empty.
    pub fn value(&self, row: usize, column: usize) -> u64 {
        tile_value(self.get(row, column))
    }

    /// The rows, each a slice of exponents.
    pub fn rows(&self) -> impl Iterator<Item = &[u8]> {
        self.exponents().chunks(self.size as usize)
    }
}

impl fmt::Debug for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Cells {
    /// One line per row, tile values right-aligned, `.` for empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.rows().enumerate() {
            if r > 0 {
                writeln!(f)?;
            }
            for (c, &e) in row.iter().enumerate() {
                if c > 0 {
                    f.write_str(" ")?;
                }
                if e == 0 {
                    write!(f, "{:>6}", ".")?;
                } else {
                    write!(f, "{:>6}", tile_value(e))?;
                }
            }
        }
        Ok(())
    }
}
