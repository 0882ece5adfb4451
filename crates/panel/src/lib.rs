//! The 2048 boards' 128x64 monochrome panel: the screens, and the ST7920 driver. `no_std`, no
//! heap, no logging; runs on the target (the firmware uses it through a path dependency) and
//! on the host (its tests decode the driver's bytes with an ST7920 model and render them).
//!
//! - [`Screen`] is every screen the game shows, drawn with embedded-graphics on any
//!   128x64 [`DrawTarget`](embedded_graphics::draw_target::DrawTarget).
//! - [`Frame`] is a 1 KB frame buffer in the panel's own byte layout (one bit a pixel, rows of
//!   sixteen bytes), optionally drawn rotated 180 degrees for a panel mounted upside down.
//! - [`St7920`] sends frames to an ST7920 (LCD12864) in serial mode through a [`Link`] (three
//!   SPI bytes per byte, each followed by the controller's execution time), and after the
//!   first frame only the rows and 16-pixel words that changed.
//! - [`Screen::raster`] draws the same pixels with the crate's own small renderer, from glyph
//!   tables (program memory on AVR), into a [`Frame`] or a [`Band`] of rows at a time, which
//!   [`St7920::update_band`] sends: the AVR boards' path, with one frame of RAM; or
//!   [`Paged::send_band`] sends, as U8g2's page mode does, with no frame at all (the
//!   Arduino Uno's 2 KB of RAM): a whole screen, or after a move only what [`Changes`]
//!   (from [`Shown`], what the panel shows) says may differ.
//!
//! ```
//! use twenty48_panel::{Frame, Link, Screen, St7920};
//!
//! /// Counts what would go out on the wire.
//! #[derive(Default)]
//! struct Count { spi_bytes: usize, waited_us: u32 }
//! impl Link for Count {
//!     fn send(&mut self, bytes: &[u8; 3]) { self.spi_bytes += bytes.len(); }
//!     fn delay_us(&mut self, us: u32) { self.waited_us += us; }
//! }
//!
//! let mut link = Count::default();
//! let mut lcd = St7920::init(&mut link);
//! let mut frame = Frame::new(true);
//! Screen::Start { rules: "arduino", choosable: true }.draw(&mut frame).unwrap();
//! let sent = lcd.update(&mut link, &frame);
//! assert!(sent > 0);
//! assert_eq!(lcd.update(&mut link, &frame), 0); // nothing changed: nothing sent
//! ```
#![no_std]
#![deny(missing_docs)]
// `lpm` (glyph tables in program memory) on AVR.
#![cfg_attr(target_arch = "avr", feature(asm_experimental_arch))]

mod changes;
mod frame;
mod line;
mod raster;
mod screen;
mod st7920;

pub use changes::{Changes, Shown};
pub use frame::{Frame, HEIGHT, ROW_BYTES, WIDTH};
pub use raster::{Band, Pixels, BAND_ROWS};
pub use screen::{Grid, Screen, CELL_PX};
pub use st7920::{Link, Paged, St7920, BYTE_US, CLEAR_US, EXEC_US, POWER_ON_US, SPI_HZ, SPI_HZ_5V};
