//! What a new screen may change on the panel, from what the panel shows: for a move, the
//! cells whose tiles changed and the score; for anything else, everything. A driver with
//! no frame of what the panel shows ([`Paged`](crate::Paged)) sends only those parts, and
//! every driver skips rastering the bands they leave alone: a move is on the panel in tens
//! of milliseconds instead of a whole screen's 120 ms and more.

use crate::frame::{HEIGHT, WIDTH};
use crate::raster::BAND_ROWS;
use crate::screen::{Screen, CELL_PX};

/// The panel's 16-pixel words a row.
const WORDS: usize = WIDTH / 16;

/// Where the score's digits are drawn on a board screen (screen coordinates): `x` from
/// [`SCORE_X`] to the panel's edge, rows `SCORE_ROWS`.
const SCORE_X: u8 = 4 * CELL_PX as u8 + 6;
/// The score's rows: the small font (10 rows) centred on row 30.
const SCORE_ROWS: core::ops::Range<u8> = 26..36;

/// What the panel shows, as far as [`Changes`] needs it: a 4x4 board screen's cells and
/// score, or something else. 21 bytes (the Uno keeps it instead of a 1 KB frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The exponents of a 4x4 board screen, row-major.
    cells: [u8; 16],
    /// The score's low 32 bits: they are the whole score of any 4x4 game (no tile passes
    /// 2^17 there, and a score a few million at most), so they differ whenever two 4x4
    /// boards' scores do, of one game or of two.
    score: u32,
    /// Whether a 4x4 board screen is shown (else: another screen, or nothing known).
    board: bool,
}

/// The parts of the panel a screen may change against what it showed (a superset: every
/// pixel that differs is inside them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Changes {
    /// Everything may change.
    whole: bool,
    /// The cells whose tiles changed, bit `4 * row + column`.
    cells: u16,
    /// Those of them whose old or new value has four digits or more (two lines of text,
    /// rows 3 to 14 of the cell; one line is rows 6 to 11).
    tall: u16,
    /// The score changed.
    score: bool,
}

impl Default for Shown {
    fn default() -> Shown {
        Shown::UNKNOWN
    }
}

impl Shown {
    /// Nothing known of what the panel shows (a panel just cleared, or shown something
    /// else): the next screen changes everything.
    pub const UNKNOWN: Shown = Shown {
        cells: [0; 16],
        score: 0,
        board: false,
    };

    /// Takes `screen` as shown from now on; returns what it changes against what was.
    #[inline(never)]
    pub fn show(&mut self, screen: &Screen) -> Changes {
        let mut changes = Changes::WHOLE;
        match screen {
            Screen::Board { cells, score } if cells.size() == 4 => {
                let now = cells.exponents();
                if self.board {
                    let (mut changed, mut tall, mut bit) = (0u16, 0u16, 1u16);
                    for (&a, &b) in self.cells.iter().zip(now) {
                        if a != b {
                            changed |= bit;
                            // 1024 (2^10) and up: four digits or more.
                            if a.max(b) >= 10 {
                                tall |= bit;
                            }
                        }
                        bit <<= 1;
                    }
                    changes = Changes {
                        whole: false,
                        cells: changed,
                        tall,
                        score: self.score != *score as u32,
                    };
                }
                self.cells.copy_from_slice(now);
                self.score = *score as u32;
                self.board = true;
            }
            _ => self.board = false,
        }
        changes
    }
}

impl Changes {
    /// Everything may change.
    pub const WHOLE: Changes = Changes {
        whole: true,
        cells: 0,
        tall: 0,
        score: false,
    };

    /// The first and last 16-pixel words of panel row `y` that may change, or `None` when
    /// the row stays as it is. `rotated`: the panel is mounted rotated 180 degrees (as
    /// [`Frame::new`](crate::Frame::new)).
    #[inline(never)]
    pub fn words(&self, y: usize, rotated: bool) -> Option<(usize, usize)> {
        if self.whole {
            return Some((0, WORDS - 1));
        }
        // Byte arithmetic: small code on AVR.
        let sy = (if rotated { HEIGHT - 1 - y } else { y }) as u8;
        let cell = CELL_PX as u8;
        // The screen columns that may change on this row, from..=to.
        let (mut from, mut to) = (u8::MAX, 0u8);
        // A tile is drawn inside its cell's outline, columns 1 to 14 of it; one line of
        // text on rows 6 to 11, two on rows 3 to 14.
        let (r, o) = (sy / cell, sy % cell);
        if r < 4 {
            let short = if (6..12).contains(&o) { 0xFF } else { 0 };
            let tall = if (3..15).contains(&o) { 0xFF } else { 0 };
            let row = (self.cells >> (4 * r)) as u8;
            let tall_row = (self.tall >> (4 * r)) as u8;
            let row = row & ((tall_row & tall) | (!tall_row & short));
            for c in 0..4u8 {
                if row & (1 << c) != 0 {
                    from = from.min(c * cell + 1);
                    to = c * cell + cell - 1;
                }
            }
        }
        if self.score && SCORE_ROWS.contains(&sy) {
            from = from.min(SCORE_X);
            to = WIDTH as u8 - 1;
        }
        if from > to {
            return None;
        }
        let last = WIDTH as u8 - 1;
        let (from, to) = if rotated {
            (last - to, last - from)
        } else {
            (from, to)
        };
        Some((usize::from(from / 16), usize::from(to / 16)))
    }

    /// Whether any row of the band of panel rows from `first` ([`BAND_ROWS`] of them) may
    /// change.
    pub fn band(&self, first: usize, rotated: bool) -> bool {
        (first..first + BAND_ROWS).any(|y| self.words(y, rotated).is_some())
    }
}
