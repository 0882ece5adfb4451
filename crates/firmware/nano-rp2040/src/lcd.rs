//! The LCD12864 (ST7920) on SPI0, through the `st7920` driver.

use core::convert::Infallible;

use embedded_hal::delay::DelayNs;
use embedded_hal::spi::{ErrorType, Operation, SpiBus, SpiDevice};
use rp2040_hal::gpio::bank0::{Gpio4, Gpio5, Gpio6, Gpio7};
use rp2040_hal::gpio::{FunctionSioOutput, FunctionSpi, Pin, PullDown};
use rp2040_hal::pac::SPI0;
use rp2040_hal::spi::{Enabled, Spi};
use st7920::ST7920;
use twenty48_firmware_app::Screen;

type Bus = Spi<
    Enabled,
    SPI0,
    (
        Pin<Gpio7, FunctionSpi, PullDown>,
        Pin<Gpio6, FunctionSpi, PullDown>,
    ),
    8,
>;
type Reset = Pin<Gpio4, FunctionSioOutput, PullDown>;
type ChipSelect = Pin<Gpio5, FunctionSioOutput, PullDown>;

/// The SPI bus as a device of its own: the driver raises the ST7920's (active-high) chip
/// select itself.
pub struct LcdSpi(Bus);

impl ErrorType for LcdSpi {
    type Error = Infallible;
}

impl SpiDevice for LcdSpi {
    fn transaction(&mut self, operations: &mut [Operation<'_, u8>]) -> Result<(), Infallible> {
        for op in operations {
            match op {
                Operation::Write(w) => self.0.write(w)?,
                Operation::Read(r) => self.0.read(r)?,
                Operation::Transfer(r, w) => self.0.transfer(r, w)?,
                Operation::TransferInPlace(b) => self.0.transfer_in_place(b)?,
                Operation::DelayNs(_) => {}
            }
        }
        self.0.flush()
    }
}

/// Rows sent to the panel between two USB polls.
pub const BAND_ROWS: u32 = 8;

/// The display.
pub struct Lcd {
    display: ST7920<LcdSpi, Reset, ChipSelect>,
}

impl Lcd {
    /// Resets and initialises the panel (mounted rotated 180 degrees: drawn flipped).
    pub fn new(bus: Bus, reset: Reset, cs: ChipSelect, delay: &mut impl DelayNs) -> Lcd {
        let mut display = ST7920::new(LcdSpi(bus), reset, Some(cs), true);
        let _ = display.init(delay);
        Lcd { display }
    }

    /// Draws a screen and sends it to the panel in bands of [`BAND_ROWS`] rows, calling
    /// `between` after each band (a whole frame takes about 50 ms on the wire; USB wants
    /// servicing more often than that).
    pub fn show(&mut self, screen: &Screen, delay: &mut impl DelayNs, between: &mut dyn FnMut()) {
        self.display.clear_buffer();
        let _ = screen.draw(&mut self.display);
        for band in 0..(st7920::HEIGHT / BAND_ROWS) {
            let y = (band * BAND_ROWS) as u8;
            let _ = self
                .display
                .flush_region(0, y, st7920::WIDTH as u8, BAND_ROWS as u8, delay);
            between();
        }
    }
}
