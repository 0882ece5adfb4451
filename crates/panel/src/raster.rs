//! The screens drawn by the panel's own small renderer, for boards where embedded-graphics
//! does not fit (the AVR Megas: its fonts would sit in RAM, and its text layout passes
//! arguments on the stack, which the ATmega2560's LLVM misreads).
//!
//! [`Screen::raster`] draws exactly the pixels [`Screen::draw`] draws (the tests compare every
//! screen both ways, byte for byte), from glyph tables that `build.rs` renders with
//! embedded-graphics' own fonts. On AVR the tables live in program memory (`.progmem.data`)
//! and are read with `lpm`, so they take no RAM. A screen can be rastered into a whole
//! [`Frame`] or into a [`Band`] of [`BAND_ROWS`] panel rows at a time, which the driver sends
//! with [`St7920::update_band`](crate::St7920::update_band): one frame of RAM (the driver's)
//! instead of two.

use crate::frame::{Frame, HEIGHT, ROW_BYTES, WIDTH};
use crate::line::Line;
use crate::screen::{Screen, CELL_PX};

mod glyphs {
    include!(concat!(env!("OUT_DIR"), "/glyphs.rs"));
}

/// Where rastered pixels go, in screen coordinates (as the viewer sees them).
pub trait Pixels {
    /// Turns on pixel (x, y); a pixel outside the 128x64 screen is dropped.
    fn set(&mut self, x: i16, y: i16);

    /// The screen rows that land here, `first..end` (a band's few; a frame's all): the
    /// renderer draws nothing outside them.
    fn span(&self) -> (i16, i16) {
        (0, HEIGHT as i16)
    }

    /// Whether any of screen rows `y..y + h` lands here (a band skips text outside it).
    fn rows(&self, y: i16, h: i16) -> bool {
        let (first, end) = self.span();
        y < end && y + h > first
    }
}

impl Pixels for Frame {
    fn set(&mut self, x: i16, y: i16) {
        if (0..WIDTH as i16).contains(&x) && (0..HEIGHT as i16).contains(&y) {
            self.set_on(x as usize, y as usize);
        }
    }
}

/// Panel rows in a [`Band`].
pub const BAND_ROWS: usize = 4;

/// [`BAND_ROWS`] rows of the panel (panel coordinates, as [`Frame::row`]): a screen is
/// rastered into each band in turn and sent, so only one band of RAM is needed besides the
/// driver's frame.
pub struct Band {
    rotated: bool,
    first: usize,
    bytes: [u8; BAND_ROWS * ROW_BYTES],
}

impl Band {
    /// An empty band starting at panel row `first` (a multiple of [`BAND_ROWS`] below 64).
    /// `rotated` as [`Frame::new`]: the panel is mounted rotated 180 degrees.
    pub const fn new(rotated: bool, first: usize) -> Band {
        Band {
            rotated,
            first,
            bytes: [0; BAND_ROWS * ROW_BYTES],
        }
    }

    /// The band's first panel row.
    pub fn first(&self) -> usize {
        self.first
    }

    /// Whether it is drawn for a panel mounted rotated 180 degrees.
    pub fn rotated(&self) -> bool {
        self.rotated
    }

    /// Panel row `y` (in `first..first + BAND_ROWS`), [`ROW_BYTES`] bytes.
    pub fn row(&self, y: usize) -> &[u8] {
        let at = (y - self.first) * ROW_BYTES;
        &self.bytes[at..at + ROW_BYTES]
    }

    /// The panel row of screen row `y`.
    fn panel_row(&self, y: i16) -> i16 {
        if self.rotated {
            HEIGHT as i16 - 1 - y
        } else {
            y
        }
    }
}

impl Pixels for Band {
    fn set(&mut self, x: i16, y: i16) {
        if !(0..WIDTH as i16).contains(&x) || !(0..HEIGHT as i16).contains(&y) {
            return;
        }
        let (mut px, py) = (x as usize, self.panel_row(y) as usize);
        if self.rotated {
            px = WIDTH - 1 - px;
        }
        if (self.first..self.first + BAND_ROWS).contains(&py) {
            self.bytes[(py - self.first) * ROW_BYTES + px / 8] |= 0x80 >> (px % 8);
        }
    }

    fn span(&self) -> (i16, i16) {
        let first = self.first as i16;
        let last = first + BAND_ROWS as i16 - 1;
        if self.rotated {
            (self.panel_row(last), self.panel_row(first) + 1)
        } else {
            (first, last + 1)
        }
    }
}

/// A font: its glyph table (characters ' ' to DEL) and its cell.
struct Font {
    glyphs: &'static [u8],
    /// The characters the table holds, ascending (empty: ' ' to DEL, all of them).
    chars: &'static [u8],
    width: u8,
    height: u8,
}

impl Font {
    /// The glyph of character byte `b` (' ' to DEL; anything else '?'): its place in the
    /// table. Every font holds only the characters the screens draw (`build.rs` picks them):
    /// any other character, `?` too where the font lacks it, draws as its first glyph, a
    /// blank, where embedded-graphics would draw it. The tests draw every screen both ways.
    fn glyph(&self, b: u8) -> usize {
        let c = if (b' '..=0x7F).contains(&b) { b } else { b'?' };
        if self.chars.is_empty() {
            return usize::from(c - b' ');
        }
        (0..self.chars.len())
            .find(|&k| table_byte(self.chars, k) == c)
            .unwrap_or(0)
    }
}

static TINY: Font = Font {
    glyphs: &glyphs::GLYPHS_4X6,
    chars: &glyphs::GLYPHS_4X6_CHARS,
    width: glyphs::GLYPHS_4X6_SIZE.0,
    height: glyphs::GLYPHS_4X6_SIZE.1,
};
static SMALL: Font = Font {
    glyphs: &glyphs::GLYPHS_6X10,
    chars: &glyphs::GLYPHS_6X10_CHARS,
    width: glyphs::GLYPHS_6X10_SIZE.0,
    height: glyphs::GLYPHS_6X10_SIZE.1,
};
static BIG: Font = Font {
    glyphs: &glyphs::GLYPHS_9X15_BOLD,
    chars: &glyphs::GLYPHS_9X15_BOLD_CHARS,
    width: glyphs::GLYPHS_9X15_BOLD_SIZE.0,
    height: glyphs::GLYPHS_9X15_BOLD_SIZE.1,
};

/// Byte `i` of a glyph table: on AVR from program memory.
#[inline(always)]
fn table_byte(table: &'static [u8], i: usize) -> u8 {
    #[cfg(target_arch = "avr")]
    {
        let p = table[..=i].as_ptr().wrapping_add(i);
        let byte: u8;
        // SAFETY: `p` is inside a table the linker put in program memory (.progmem.data,
        // placed before the code, so in its first 64 KB where `lpm` through Z reaches).
        unsafe {
            core::arch::asm!(
                "lpm {0}, Z",
                out(reg) byte,
                in("Z") p,
                options(pure, readonly, nostack, preserves_flags)
            );
        }
        byte
    }
    #[cfg(not(target_arch = "avr"))]
    {
        table[i]
    }
}

/// How a text is placed on its point: as embedded-graphics' `Alignment::Center` with
/// `Baseline::Middle`, or `Alignment::Left` with `Baseline::Middle`.
#[derive(Clone, Copy, PartialEq)]
enum Align {
    Center,
    Left,
}

/// Text to draw (UTF-8): bytes in RAM, or a literal in program memory ([`flash!`]: AVR
/// would otherwise copy every literal into its RAM, 2 KB on the Uno).
#[derive(Clone, Copy)]
enum Chars<'a> {
    Ram(&'a [u8]),
    Flash(&'static [u8]),
}

impl Chars<'_> {
    fn len(&self) -> usize {
        match self {
            Chars::Ram(b) | Chars::Flash(b) => b.len(),
        }
    }

    fn at(&self, i: usize) -> u8 {
        match self {
            Chars::Ram(b) => b[i],
            Chars::Flash(t) => table_byte(t, i),
        }
    }
}

/// A byte-string literal kept in program memory on AVR (read with `lpm`), as [`Chars`].
macro_rules! flash {
    ($s:literal) => {{
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static TEXT: [u8; $s.len()] = *$s;
        Chars::Flash(&TEXT)
    }};
}

/// Draws `text` (UTF-8) in `font` at (x, y), placed as `align` says. Each character is a
/// glyph of embedded-graphics' ASCII fonts (' ' to DEL; anything else '?'; a character the
/// font's table lacks is a blank, see [`Font::glyph`]), read byte by
/// byte (a character's continuation bytes skipped), with no UTF-8 decoding: its code and
/// tables cost the AVR boards 1 KB of flash and 256 bytes of RAM.
#[inline(never)]
fn text<P: Pixels>(target: &mut P, font: &Font, text: Chars<'_>, at: (i16, i16), align: Align) {
    let (w, h) = (i16::from(font.width), i16::from(font.height));
    let starts = |i: usize| text.at(i) & 0xC0 != 0x80;
    let n = (0..text.len()).filter(|&i| starts(i)).count() as i16;
    if n == 0 {
        return;
    }
    let x0 = match align {
        Align::Center => at.0 - (n * w - 1) / 2,
        Align::Left => at.0,
    };
    let y0 = at.1 - (h - 1) / 2;
    // The glyphs' rows that land on the target.
    let (first, end) = target.span();
    let rows = (first - y0).max(0)..(end - y0).min(h);
    if rows.is_empty() {
        return;
    }
    let row_bytes = (font.width as usize).div_ceil(8);
    let glyph_bytes = row_bytes * font.height as usize;
    let mut gx = x0;
    for i in 0..text.len() {
        let b = text.at(i);
        if b & 0xC0 == 0x80 {
            continue;
        }
        let index = font.glyph(b);
        for row in rows.clone() {
            for col in 0..w {
                let at = index * glyph_bytes + row as usize * row_bytes + col as usize / 8;
                if table_byte(font.glyphs, at) & (0x80 >> (col % 8)) != 0 {
                    target.set(gx + col, y0 + row);
                }
            }
        }
        gx += w;
    }
}

/// The outline of the rectangle at (x, y) of `w` x `h` pixels (a 1-pixel stroke inside it).
fn outline<P: Pixels>(target: &mut P, x: i16, y: i16, w: i16, h: i16) {
    let (x1, y1) = (x + w - 1, y + h - 1);
    // Only its rows that land on the target (a band's few).
    let (first, end) = target.span();
    for j in y.max(first)..=y1.min(end - 1) {
        if j == y || j == y1 {
            for i in x..=x1 {
                target.set(i, j);
            }
        } else {
            target.set(x, j);
            target.set(x1, j);
        }
    }
}

/// A tile's value centred at `mid` (as `screen.rs`'s `draw_tile`).
fn tile<P: Pixels>(target: &mut P, exponent: u8, mid: (i16, i16)) {
    // Its text's rows (one line: mid - 2 to mid + 3; two: mid - 5 to mid + 6): a band
    // away from them skips the decimal digits too (the AVR boards draw 16 bands a screen).
    if !target.rows(mid.1 - 5, 12) {
        return;
    }
    let mut line = Line::new();
    if exponent <= 17 {
        line.number(1u64 << exponent);
    } else {
        line.push(b"^").number(u64::from(exponent));
    }
    let s = line.as_bytes();
    if s.len() <= 3 {
        text(target, &TINY, Chars::Ram(s), mid, Align::Center);
    } else {
        let split = s.len() / 2;
        text(
            target,
            &TINY,
            Chars::Ram(&s[..split]),
            (mid.0, mid.1 - 3),
            Align::Center,
        );
        text(
            target,
            &TINY,
            Chars::Ram(&s[split..]),
            (mid.0, mid.1 + 3),
            Align::Center,
        );
    }
}

impl Screen {
    /// Draws the screen with the panel's own renderer into `target`, which must be clear:
    /// the same pixels as [`Screen::draw`].
    pub fn raster<P: Pixels>(&self, target: &mut P) {
        // By reference: a board's cells are not copied (RAM on the Uno).
        match self {
            &Screen::Start { rules, choosable } => {
                text(target, &BIG, flash!(b"2048"), (64, 9), Align::Center);
                outline(target, 40, 20, 48, 17);
                text(target, &SMALL, flash!(b"Start"), (64, 28), Align::Center);
                let mut line = Line::new();
                if choosable {
                    line.push(b"< ").push(rules.as_bytes()).push(b" >");
                } else {
                    line.push(rules.as_bytes());
                }
                text(
                    target,
                    &SMALL,
                    Chars::Ram(line.as_bytes()),
                    (64, 47),
                    Align::Center,
                );
                if choosable {
                    let hint = flash!(b"up/down start, left/right rules");
                    text(target, &TINY, hint, (64, 59), Align::Center);
                }
            }
            Screen::Board { cells, score } => {
                let (cells, score) = (cells, *score);
                let size = i16::from(cells.size());
                let cell = if size <= 4 { CELL_PX as i16 } else { 63 / size };
                for r in 0..size {
                    for c in 0..size {
                        let at = (c * cell, r * cell);
                        outline(target, at.0, at.1, cell + 1, cell + 1);
                        let e = cells.get(r as usize, c as usize);
                        if e != 0 {
                            tile(target, e, (at.0 + cell / 2 + 1, at.1 + cell / 2 + 1));
                        }
                    }
                }
                let x = 4 * CELL_PX as i16 + 6;
                text(target, &SMALL, flash!(b"Score:"), (x, 14), Align::Left);
                let mut line = Line::new();
                line.number(score);
                text(
                    target,
                    &SMALL,
                    Chars::Ram(line.as_bytes()),
                    (x, 30),
                    Align::Left,
                );
            }
            &Screen::Result { won } => {
                let s = if won {
                    flash!(b"You Win!")
                } else {
                    flash!(b"Game Over")
                };
                text(target, &BIG, s, (64, 32), Align::Center);
            }
            &Screen::FinalScore { score } => {
                text(
                    target,
                    &SMALL,
                    flash!(b"Your score:"),
                    (64, 22),
                    Align::Center,
                );
                let mut line = Line::new();
                line.number(score);
                text(
                    target,
                    &BIG,
                    Chars::Ram(line.as_bytes()),
                    (64, 40),
                    Align::Center,
                );
            }
            Screen::StoreFull => {
                text(target, &BIG, flash!(b"Store full"), (64, 22), Align::Center);
                text(
                    target,
                    &SMALL,
                    flash!(b"pull to free it"),
                    (64, 42),
                    Align::Center,
                );
            }
            // The AVR boards never show a fault screen (their faults go to the log alone):
            // its texts and code are left out of their flash (the Uno's has no room).
            #[cfg(target_arch = "avr")]
            Screen::Fault { .. } => {}
            #[cfg(not(target_arch = "avr"))]
            &Screen::Fault { what } => {
                text(target, &BIG, flash!(b"Fault"), (64, 14), Align::Center);
                text(
                    target,
                    &SMALL,
                    Chars::Ram(what.as_bytes()),
                    (64, 34),
                    Align::Center,
                );
                text(
                    target,
                    &SMALL,
                    flash!(b"see the USB log"),
                    (64, 50),
                    Align::Center,
                );
            }
        }
    }
}
