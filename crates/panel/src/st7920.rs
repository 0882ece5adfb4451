//! The ST7920 (LCD12864) in serial mode, write only, paced to its datasheet (Sitronix ST7920
//! V4.0: serial interface, instruction tables, "Initial setting (8-bit)" flow).
//!
//! Every byte to the controller goes out as three SPI bytes: a sync byte (`0xF8` for an
//! instruction, `0xFA` for data: five ones, R/W = 0, RS, 0), then the high nibble and the low
//! nibble, each in the upper four bits of a byte. After each, the driver waits the
//! controller's execution time before the next sync byte starts: [`EXEC_US`] (72 µs in the
//! datasheet at 540 kHz, with margin), longer for the steps of the initialisation flow. The
//! 128x64 panel is GDRAM in the extended instruction set: 32 vertical addresses, each 16
//! words of 16 pixels; horizontal words 0-7 are the upper 32 rows, 8-15 the lower 32.

use crate::changes::Changes;
use crate::frame::{Frame, HEIGHT, ROW_BYTES};
use crate::raster::{Band, BAND_ROWS};

/// The SPI clock the board is expected to run (the datasheet's serial clock period is at
/// least 400 ns at 5 V; 1 MHz leaves margin at 3.3 V as well): the Nano's, at 3.3 V.
pub const SPI_HZ: u32 = 1_000_000;
/// The SPI clock of a board whose panel runs at 5 V (the AVR boards): a 500 ns period, inside
/// the datasheet's 400 ns minimum there. A controller byte's three SPI bytes take 12 us
/// instead of [`BYTE_US`]; the controller's own [`EXEC_US`] after each stays the limit.
pub const SPI_HZ_5V: u32 = 2_000_000;
/// Time on the wire of one controller byte (three SPI bytes) at [`SPI_HZ`], in µs.
pub const BYTE_US: u32 = 24 * 1_000_000 / SPI_HZ;
/// The wait after an ordinary instruction or data byte (datasheet: 72 µs).
pub const EXEC_US: u32 = 80;
/// The wait after the display clear instruction (datasheet: 1.6 ms; the initialisation
/// flow asks for more than 10 ms).
pub const CLEAR_US: u32 = 10_000;
/// The wait after power-on or reset before the first instruction (datasheet: more than
/// 40 ms).
pub const POWER_ON_US: u32 = 40_000;

/// The wire to the controller: SPI (mode 3, MSB first, clock at most [`SPI_HZ`], or
/// [`SPI_HZ_5V`] where the panel runs at 5 V) with chip
/// select held, and a clock to wait on.
pub trait Link {
    /// Sends three bytes and returns when the last bit is out.
    fn send(&mut self, bytes: &[u8; 3]);
    /// Waits at least `us` microseconds.
    fn delay_us(&mut self, us: u32);
}

/// Sync byte of an instruction (RS = 0).
const SYNC_INSTRUCTION: u8 = 0xF8;
/// Sync byte of data (RS = 1).
const SYNC_DATA: u8 = 0xFA;

/// The driver: remembers what the panel shows, so that [`St7920::update`] sends only what
/// changed.
pub struct St7920 {
    shown: Frame,
}

fn byte(link: &mut impl Link, sync: u8, value: u8, wait_us: u32) {
    link.send(&[sync, value & 0xF0, value << 4]);
    link.delay_us(wait_us);
}

fn instruction(link: &mut impl Link, value: u8, wait_us: u32) {
    byte(link, SYNC_INSTRUCTION, value, wait_us);
}

/// The datasheet's 8-bit initialisation flow for a controller that was just reset (or
/// powered on), then the extended instruction set with graphics on. The GDRAM is left as it
/// is (random after power-on): the callers clear it.
fn start(link: &mut impl Link) {
    link.delay_us(POWER_ON_US);
    // Function set: 8-bit, basic instructions; twice, as the flow says.
    instruction(link, 0x30, 100);
    instruction(link, 0x30, EXEC_US);
    // Display on, cursor and blink off.
    instruction(link, 0x0C, 100);
    // Display clear (DDRAM to spaces: no text over the graphics).
    instruction(link, 0x01, CLEAR_US);
    // Entry mode: address counter increments, no shift.
    instruction(link, 0x06, EXEC_US);
    // Extended instruction set (RE = 1, DL kept), then graphics display on (G = 1).
    instruction(link, 0x34, EXEC_US);
    instruction(link, 0x36, EXEC_US);
}

/// Sends the 16-pixel words `first..=last` of panel row `y` from `row` (its
/// [`ROW_BYTES`] bytes): the row's GDRAM address, then the words. Returns the controller
/// bytes sent.
fn send_words(link: &mut impl Link, y: usize, row: &[u8], first: usize, last: usize) -> usize {
    let vertical = (y % 32) as u8;
    let horizontal = ((y / 32) * 8 + first) as u8;
    instruction(link, 0x80 | vertical, EXEC_US);
    instruction(link, 0x80 | horizontal, EXEC_US);
    for &b in &row[2 * first..2 * last + 2] {
        byte(link, SYNC_DATA, b, EXEC_US);
    }
    2 + 2 * (last - first + 1)
}

impl St7920 {
    /// Initialises a controller that was just reset (or powered on), as the datasheet's
    /// 8-bit initialisation flow, then enters the extended instruction set with graphics on
    /// and clears the whole GDRAM. About 0.3 s.
    pub fn init(link: &mut impl Link) -> St7920 {
        start(link);
        let mut lcd = St7920 {
            shown: Frame::new(false),
        };
        lcd.send_rows(link, &Frame::new(false), true);
        lcd
    }

    /// What the panel shows now (panel coordinates).
    pub fn shown(&self) -> &Frame {
        &self.shown
    }

    /// Sends what differs between `frame` and what the panel shows: for each pixel row with
    /// a change, its GDRAM address and the 16-pixel words from the first changed one to the
    /// last. Returns the number of controller bytes sent (each takes [`BYTE_US`] +
    /// [`EXEC_US`]).
    pub fn update(&mut self, link: &mut impl Link, frame: &Frame) -> usize {
        self.send_rows(link, frame, false)
    }

    /// Sends what differs between the rows of `band` and what the panel shows, exactly as
    /// [`St7920::update`] sends those rows of a whole frame (the AVR boards raster a screen
    /// band by band, bands in order, so the stream is the same as for the whole frame).
    pub fn update_band(&mut self, link: &mut impl Link, band: &Band) -> usize {
        let first = band.first();
        (first..first + BAND_ROWS)
            .map(|y| self.send_row(link, y, band.row(y), false))
            .sum()
    }

    fn send_rows(&mut self, link: &mut impl Link, frame: &Frame, all: bool) -> usize {
        (0..HEIGHT)
            .map(|y| self.send_row(link, y, frame.row(y), all))
            .sum()
    }

    /// Sends panel row `y` as `new` holds it (every word if `all`, else the words from the
    /// first changed one to the last); the panel then shows it.
    fn send_row(&mut self, link: &mut impl Link, y: usize, new: &[u8], all: bool) -> usize {
        let old = self.shown.row(y);
        let differs = |w: &usize| all || new[2 * w..2 * w + 2] != old[2 * w..2 * w + 2];
        let words = ROW_BYTES / 2;
        let Some(first) = (0..words).find(differs) else {
            return 0;
        };
        let last = (0..words).rev().find(differs).unwrap_or(first);
        let sent = send_words(link, y, new, first, last);
        self.shown.row_mut(y).copy_from_slice(new);
        sent
    }
}

/// The ST7920 driven as U8g2's page mode drives it: no frame of what the panel shows (no
/// 1 KB of RAM), every screen rastered and sent whole, a [`Band`] at a time: each row's
/// address and all its words. For boards without the RAM for [`St7920`]'s frame (the
/// Arduino Uno). A whole screen takes 64 rows of 18 controller bytes, 1,152 bytes: 120 ms
/// at [`SPI_HZ`] with the controller's waits; a move sends only what [`Changes`] says may
/// differ (the cells whose tiles changed, the score).
#[derive(Debug)]
pub struct Paged(());

impl Paged {
    /// Initialises a controller that was just reset (or powered on), as [`St7920::init`]
    /// does, and clears the GDRAM row by row.
    pub fn init(link: &mut impl Link) -> Paged {
        start(link);
        for y in 0..HEIGHT {
            send_words(link, y, &[0; ROW_BYTES], 0, ROW_BYTES / 2 - 1);
        }
        Paged(())
    }

    /// Sends the words of `band`'s rows that `changes` says may differ from what the
    /// panel shows (every word of every row for [`Changes::WHOLE`]); returns the controller
    /// bytes sent. Sent in order, the bands of a screen replace what the panel showed.
    pub fn send_band(&mut self, link: &mut impl Link, band: &Band, changes: &Changes) -> usize {
        let first = band.first();
        (first..first + BAND_ROWS)
            .filter_map(|y| {
                let (from, to) = changes.words(y, band.rotated())?;
                Some(send_words(link, y, band.row(y), from, to))
            })
            .sum()
    }
}
