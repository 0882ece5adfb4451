//! A 128x64 one-bit frame buffer in the ST7920's GDRAM byte order.

use core::convert::Infallible;

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;

/// Panel width in pixels.
pub const WIDTH: usize = 128;
/// Panel height in pixels.
pub const HEIGHT: usize = 64;
/// Bytes in one row.
pub const ROW_BYTES: usize = WIDTH / 8;

/// A frame: bit 7 of byte 0 is the panel's top-left pixel (as the panel is built, before any
/// mounting rotation), rows of [`ROW_BYTES`] bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    bytes: [u8; ROW_BYTES * HEIGHT],
    rotated: bool,
}

impl Frame {
    /// An empty (all off) frame. `rotated`: the panel is mounted rotated 180 degrees, so
    /// drawing at (x, y) sets the panel's pixel (127 - x, 63 - y), and the picture is upright
    /// for the viewer.
    pub const fn new(rotated: bool) -> Frame {
        Frame {
            bytes: [0; ROW_BYTES * HEIGHT],
            rotated,
        }
    }

    /// Row `y` of the panel (panel coordinates), [`ROW_BYTES`] bytes.
    pub fn row(&self, y: usize) -> &[u8] {
        &self.bytes[y * ROW_BYTES..(y + 1) * ROW_BYTES]
    }

    /// Whether the panel's pixel (x, y) is on (panel coordinates).
    pub fn panel_pixel(&self, x: usize, y: usize) -> bool {
        self.bytes[y * ROW_BYTES + x / 8] & (0x80 >> (x % 8)) != 0
    }

    /// Row `y` of the panel, to change it.
    pub(crate) fn row_mut(&mut self, y: usize) -> &mut [u8] {
        &mut self.bytes[y * ROW_BYTES..(y + 1) * ROW_BYTES]
    }

    /// The byte and bit of screen pixel (x, y) (inside the panel), rotation applied.
    fn bit(&self, mut x: usize, mut y: usize) -> (usize, u8) {
        if self.rotated {
            x = WIDTH - 1 - x;
            y = HEIGHT - 1 - y;
        }
        (y * ROW_BYTES + x / 8, 0x80 >> (x % 8))
    }

    /// Turns on screen pixel (x, y) (inside the panel).
    pub(crate) fn set_on(&mut self, x: usize, y: usize) {
        let (byte, bit) = self.bit(x, y);
        self.bytes[byte] |= bit;
    }

    /// Turns every pixel off.
    pub fn clear_all(&mut self) {
        self.bytes = [0; ROW_BYTES * HEIGHT];
    }
}

impl OriginDimensions for Frame {
    fn size(&self) -> Size {
        Size::new(WIDTH as u32, HEIGHT as u32)
    }
}

impl DrawTarget for Frame {
    type Color = BinaryColor;
    type Error = Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Infallible>
    where
        I: IntoIterator<Item = Pixel<BinaryColor>>,
    {
        for Pixel(p, color) in pixels {
            if p.x < 0 || p.y < 0 || p.x >= WIDTH as i32 || p.y >= HEIGHT as i32 {
                continue;
            }
            let (x, y) = (p.x as usize, p.y as usize);
            if color.is_on() {
                self.set_on(x, y);
            } else {
                let (byte, bit) = self.bit(x, y);
                self.bytes[byte] &= !bit;
            }
        }
        Ok(())
    }

    fn clear(&mut self, color: BinaryColor) -> Result<(), Infallible> {
        self.bytes = [if color.is_on() { 0xFF } else { 0 }; ROW_BYTES * HEIGHT];
        Ok(())
    }
}
