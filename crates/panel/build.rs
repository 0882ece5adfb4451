//! Writes the glyphs of the three fonts the screens use (embedded-graphics' FONT_4X6,
//! FONT_6X10 and FONT_9X15_BOLD, characters ' ' to DEL) as plain bit tables into OUT_DIR, for
//! the panel's own small text renderer (`raster.rs`). Each glyph is rendered here by
//! embedded-graphics itself, so the tables hold exactly its pixels; the tests compare every
//! screen drawn both ways.

use std::fmt::Write as _;
use std::{env, fs, path::PathBuf};

use embedded_graphics::mono_font::ascii::{FONT_4X6, FONT_6X10, FONT_9X15_BOLD};
use embedded_graphics::mono_font::{MonoFont, MonoTextStyle};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::text::{Baseline, Text};

/// The pixels of one glyph, drawn at the origin.
struct Glyph {
    width: usize,
    height: usize,
    on: Vec<bool>,
}

impl OriginDimensions for Glyph {
    fn size(&self) -> Size {
        Size::new(self.width as u32, self.height as u32)
    }
}

impl DrawTarget for Glyph {
    type Color = BinaryColor;
    type Error = std::convert::Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<BinaryColor>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        for Pixel(p, color) in pixels {
            let (x, y) = (p.x as usize, p.y as usize);
            assert!(
                x < self.width && y < self.height,
                "a glyph drew outside its cell"
            );
            self.on[y * self.width + x] = color.is_on();
        }
        Ok(())
    }
}

/// The characters of the large font: the screens draw it only in fixed texts ("2048",
/// "You Win!", "Game Over", "Store full", "Fault") and numbers, so its table holds these
/// (ascending) and no others: 1,980 bytes of the Uno's flash. The tests draw every screen
/// both ways; a character missing here would show there.
const BIG_CHARS: &str = " !0123456789FGOSWYaefilmnortuv";

/// The characters of the tiny font: tile values (digits, `^`) and the start screen's hint
/// ("up/down start, left/right rules"): 180 bytes instead of 576.
const TINY_CHARS: &str = " ,/0123456789^adefghilnoprstuw";

/// The characters of the small font: the fixed texts ("Score:", "Start", "Your score:",
/// "pull to free it", "see the USB log"), numbers, the rules' names ("classic", "arduino",
/// "console", "custom") with their arrows, the lower-case letters of a fault's name ("flash
/// store", "clocks") and `?`: 390 bytes instead of 960. With the tiny font's cut, the room
/// the Uno's flash needed for its buttons' interrupt and the screen's partial redraw. The
/// tests draw every screen both ways; a character missing here would show there.
const SMALL_CHARS: &str = " 0123456789:<>?BSUYacdefghiklmnoprstu";

/// The table of `font`: per character (' ' to DEL, or those of `only`, ascending), per
/// row, the row's pixels MSB first in `ceil(width / 8)` bytes.
fn table(name: &str, font: &MonoFont, only: Option<&str>) -> String {
    let (width, height) = (
        font.character_size.width as usize,
        font.character_size.height as usize,
    );
    assert_eq!(font.character_spacing, 0, "the renderer assumes no spacing");
    let row_bytes = width.div_ceil(8);
    let mut bytes = Vec::new();
    for c in (' '..='\u{7f}').filter(|c| only.is_none_or(|o| o.contains(*c))) {
        let mut glyph = Glyph {
            width,
            height,
            on: vec![false; width * height],
        };
        let style = MonoTextStyle::new(font, BinaryColor::On);
        Text::with_baseline(&c.to_string(), Point::zero(), style, Baseline::Top)
            .draw(&mut glyph)
            .expect("infallible");
        for y in 0..height {
            for b in 0..row_bytes {
                let mut byte = 0u8;
                for bit in 0..8 {
                    let x = b * 8 + bit;
                    if x < width && glyph.on[y * width + x] {
                        byte |= 0x80 >> bit;
                    }
                }
                bytes.push(byte);
            }
        }
    }
    let mut out = String::new();
    writeln!(
        out,
        "/// {name}: {width}x{height}, ' ' to DEL, {row_bytes} byte(s) a row."
    )
    .unwrap();
    writeln!(
        out,
        "#[cfg_attr(target_arch = \"avr\", link_section = \".progmem.data\")]"
    )
    .unwrap();
    writeln!(
        out,
        "pub(crate) static {name}: [u8; {}] = {bytes:?};",
        bytes.len()
    )
    .unwrap();
    let chars = only.unwrap_or("");
    assert!(
        chars.as_bytes().is_sorted(),
        "the characters of {name} ascending"
    );
    writeln!(
        out,
        "/// The characters {name} holds, ascending (empty: ' ' to DEL).\n\
         #[cfg_attr(target_arch = \"avr\", link_section = \".progmem.data\")]\n\
         pub(crate) static {name}_CHARS: [u8; {}] = *b{chars:?};",
        chars.len()
    )
    .unwrap();
    writeln!(out, "/// {name}'s cell.").unwrap();
    writeln!(
        out,
        "pub(crate) const {name}_SIZE: (u8, u8) = ({width}, {height});"
    )
    .unwrap();
    out
}

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut text = String::from("// Generated by build.rs from embedded-graphics' fonts.\n");
    text += &table("GLYPHS_4X6", &FONT_4X6, Some(TINY_CHARS));
    text += &table("GLYPHS_6X10", &FONT_6X10, Some(SMALL_CHARS));
    text += &table("GLYPHS_9X15_BOLD", &FONT_9X15_BOLD, Some(BIG_CHARS));
    fs::write(out.join("glyphs.rs"), text).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=build.rs");
}
