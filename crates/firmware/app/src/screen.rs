//! The screens of the original sketch, and how they are drawn on a 128x64 monochrome panel.

use core::fmt::Write;

use embedded_graphics::mono_font::ascii::{FONT_4X6, FONT_6X10, FONT_9X15_BOLD};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
use twenty48_engine::{tile_value, Cells};

/// One screen of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// "2048" and "Start" in a frame; any button starts a game.
    Start,
    /// The board on the left, the score on the right.
    Board {
        /// The cells.
        cells: Cells,
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
}

/// Side of a cell in pixels on a 4x4 board (smaller on bigger boards).
pub const CELL_PX: u32 = 15;

/// A short text built on the stack.
struct Line {
    buf: [u8; 24],
    len: usize,
}

impl Line {
    fn new() -> Line {
        Line {
            buf: [0; 24],
            len: 0,
        }
    }

    fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let b = s.as_bytes();
        let n = b.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&b[..n]);
        self.len += n;
        Ok(())
    }
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
            Screen::Start => {
                Text::with_text_style("2048", Point::new(64, 18), big, centered).draw(target)?;
                Rectangle::new(Point::new(40, 34), Size::new(48, 18))
                    .into_styled(PrimitiveStyle::with_stroke(BinaryColor::On, 1))
                    .draw(target)?;
                Text::with_text_style("Start", Point::new(64, 43), small, centered).draw(target)?;
            }
            Screen::Board { cells, score } => {
                let size = cells.size() as u32;
                let cell = if size <= 4 { CELL_PX } else { 63 / size };
                let grid = PrimitiveStyle::with_stroke(BinaryColor::On, 1);
                let tiny = MonoTextStyle::new(&FONT_4X6, BinaryColor::On);
                for r in 0..size as usize {
                    for c in 0..size as usize {
                        let at = Point::new((c as u32 * cell) as i32, (r as u32 * cell) as i32);
                        Rectangle::new(at, Size::new(cell + 1, cell + 1))
                            .into_styled(grid)
                            .draw(target)?;
                        let e = cells.get(r, c);
                        if e == 0 {
                            continue;
                        }
                        let mut text = Line::new();
                        if e <= 13 {
                            let _ = write!(text, "{}", tile_value(e));
                        } else {
                            let _ = write!(text, "^{}", e);
                        }
                        let mid = at + Point::new(cell as i32 / 2 + 1, cell as i32 / 2 + 1);
                        Text::with_text_style(text.as_str(), mid, tiny, centered).draw(target)?;
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
        }
        Ok(())
    }
}
