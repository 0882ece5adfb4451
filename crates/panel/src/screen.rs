//! The screens of the original sketch (and a few of ours), drawn on a 128x64 panel.

use core::fmt::Write;

use crate::line::Line;

use embedded_graphics::mono_font::ascii::{FONT_4X6, FONT_6X10, FONT_9X15_BOLD};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
use twenty48_engine::Cells;

/// The cells of a board as the panel draws them: side and exponents, row-major (0 empty,
/// `e` the tile 2^e). Built from the engine's `Cells`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    size: u8,
    exponents: [u8; 64],
}

impl Grid {
    /// A grid of side `size` (2 to 8) from row-major exponents; `None` when they do not fit.
    pub fn new(size: u8, exponents: &[u8]) -> Option<Grid> {
        let n = size as usize * size as usize;
        if !(2..=8).contains(&size) || exponents.len() != n {
            return None;
        }
        let mut grid = Grid {
            size,
            exponents: [0; 64],
        };
        grid.exponents[..n].copy_from_slice(exponents);
        Some(grid)
    }

    /// The side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The exponents, row-major (side times side of them).
    pub fn exponents(&self) -> &[u8] {
        &self.exponents[..usize::from(self.size) * usize::from(self.size)]
    }

    /// The exponent at (row, column).
    pub fn get(&self, row: usize, column: usize) -> u8 {
        self.exponents[row * self.size as usize + column]
    }
}

impl From<Cells> for Grid {
    fn from(cells: Cells) -> Grid {
        let mut grid = Grid {
            size: cells.size(),
            exponents: [0; 64],
        };
        let e = cells.exponents();
        grid.exponents[..e.len()].copy_from_slice(e);
        grid
    }
}

/// One screen of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// "2048", "Start" in a frame, and the rules the next game is played by.
    Start {
        /// The name of the rules a button press starts a game with (a preset's name, or
        /// "custom").
        rules: &'static str,
        /// Whether the left and right buttons change them (shown with arrows and a hint).
        choosable: bool,
    },
    /// The board on the left, the score on the right.
    Board {
        /// The cells.
        cells: Grid,
        /// The score.
        score: u64,
    },
    /// "You Win!" or "Game Over".
    Result {
        /// Whether the game was won.
        won: bool,
    },
    /// "Your score: N".
    FinalScore {
        /// The final score.
        score: u64,
    },
    /// "Store full": the game is not stored (from now on); it plays on, sent live only.
    StoreFull,
    /// A part of the board failed at start-up (`what` names it); the device stays here.
    Fault {
        /// The part, in a few words ("flash store", "clocks").
        what: &'static str,
    },
}

/// Side of a cell in pixels on a 4x4 board (smaller on bigger boards).
pub const CELL_PX: u32 = 15;

/// Draws a tile's value centred at `mid` in the 4x6 font (4 px a digit): up to three digits
/// on one line, four to six digits (1024 to 131072) on two lines (the first half above), so
/// that every value up to 2^17 fits 12 x 12 pixels inside a 15 px cell. Larger exponents
/// show as `^e`.
fn draw_tile<D: DrawTarget<Color = BinaryColor>>(
    target: &mut D,
    exponent: u8,
    mid: Point,
) -> Result<(), D::Error> {
    let tiny = MonoTextStyle::new(&FONT_4X6, BinaryColor::On);
    let centered = TextStyleBuilder::new()
        .alignment(Alignment::Center)
        .baseline(Baseline::Middle)
        .build();
    let mut text = Line::new();
    if exponent <= 17 {
        let _ = write!(text, "{}", 1u32 << exponent);
    } else {
        let _ = write!(text, "^{}", exponent);
    }
    let s = text.as_str();
    if s.len() <= 3 {
        Text::with_text_style(s, mid, tiny, centered).draw(target)?;
    } else {
        let split = s.len() / 2;
        Text::with_text_style(&s[..split], mid - Point::new(0, 3), tiny, centered).draw(target)?;
        Text::with_text_style(&s[split..], mid + Point::new(0, 3), tiny, centered).draw(target)?;
    }
    Ok(())
}

impl Screen {
    /// Draws the screen on a 128x64 monochrome target (cleared first).
    pub fn draw<D: DrawTarget<Color = BinaryColor>>(&self, target: &mut D) -> Result<(), D::Error> {
        target.clear(BinaryColor::Off)?;
        let small = MonoTextStyle::new(&FONT_6X10, BinaryColor::On);
        let big = MonoTextStyle::new(&FONT_9X15_BOLD, BinaryColor::On);
        let centered = TextStyleBuilder::new()
            .alignment(Alignment::Center)
            .baseline(Baseline::Middle)
            .build();
        match *self {
            Screen::Start { rules, choosable } => {
                Text::with_text_style("2048", Point::new(64, 9), big, centered).draw(target)?;
                Rectangle::new(Point::new(40, 20), Size::new(48, 17))
                    .into_styled(PrimitiveStyle::with_stroke(BinaryColor::On, 1))
                    .draw(target)?;
                Text::with_text_style("Start", Point::new(64, 28), small, centered).draw(target)?;
                let mut text = Line::new();
                if choosable {
                    let _ = write!(text, "< {} >", rules);
                } else {
                    let _ = write!(text, "{}", rules);
                }
                Text::with_text_style(text.as_str(), Point::new(64, 47), small, centered)
                    .draw(target)?;
                if choosable {
                    let tiny = MonoTextStyle::new(&FONT_4X6, BinaryColor::On);
                    let hint = "up/down start, left/right rules";
                    Text::with_text_style(hint, Point::new(64, 59), tiny, centered).draw(target)?;
                }
            }
            Screen::Board { cells, score } => {
                let size = cells.size() as u32;
                let cell = if size <= 4 { CELL_PX } else { 63 / size };
                let grid = PrimitiveStyle::with_stroke(BinaryColor::On, 1);
                for r in 0..size as usize {
                    for c in 0..size as usize {
                        let at = Point::new((c as u32 * cell) as i32, (r as u32 * cell) as i32);
                        Rectangle::new(at, Size::new(cell + 1, cell + 1))
                            .into_styled(grid)
                            .draw(target)?;
                        let e = cells.get(r, c);
                        if e != 0 {
                            let mid = at + Point::new(cell as i32 / 2 + 1, cell as i32 / 2 + 1);
                            draw_tile(target, e, mid)?;
                        }
                    }
                }
                let x = 4 * CELL_PX as i32 + 6;
                Text::with_baseline("Score:", Point::new(x, 14), small, Baseline::Middle)
                    .draw(target)?;
                let mut text = Line::new();
                let _ = write!(text, "{}", score);
                Text::with_baseline(text.as_str(), Point::new(x, 30), small, Baseline::Middle)
                    .draw(target)?;
            }
            Screen::Result { won } => {
                let text = if won { "You Win!" } else { "Game Over" };
                Text::with_text_style(text, Point::new(64, 32), big, centered).draw(target)?;
            }
            Screen::FinalScore { score } => {
                Text::with_text_style("Your score:", Point::new(64, 22), small, centered)
                    .draw(target)?;
                let mut text = Line::new();
                let _ = write!(text, "{}", score);
                Text::with_text_style(text.as_str(), Point::new(64, 40), big, centered)
                    .draw(target)?;
            }
            Screen::StoreFull => {
                Text::with_text_style("Store full", Point::new(64, 22), big, centered)
                    .draw(target)?;
                Text::with_text_style("pull to free it", Point::new(64, 42), small, centered)
                    .draw(target)?;
            }
            Screen::Fault { what } => {
                Text::with_text_style("Fault", Point::new(64, 14), big, centered).draw(target)?;
                Text::with_text_style(what, Point::new(64, 34), small, centered).draw(target)?;
                Text::with_text_style("see the USB log", Point::new(64, 50), small, centered)
                    .draw(target)?;
            }
        }
        Ok(())
    }
}
