//! The LCD12864 (ST7920) on the chip's hardware SPI, through the `twenty48-panel` driver
//! (paced to the datasheet, redrawing only the 16-pixel words that changed; the panel
//! crate's tests check its bytes against a model of the controller).
//!
//! SPI master, mode 3, MSB first, clk/16 = 1 MHz (the driver's `SPI_HZ`). The panel's chip
//! select is its RS pin, active high, raised around each three-byte unit; its reset is held
//! low for 100 µs before the initialisation.

use twenty48_firmware_app::Screen;
use twenty48_panel::{Frame, Link, St7920};

use crate::clock;
use crate::regs::{Pin, Reg};

const SPCR: Reg = Reg(0x4C);
const SPSR: Reg = Reg(0x4D);
const SPDR: Reg = Reg(0x4E);

/// SPCR: SPI on (SPE), master (MSTR), CPOL = CPHA = 1 (mode 3), SPR = 01 (clk/16).
const SPCR_MODE3_1MHZ: u8 = (1 << 6) | (1 << 4) | (1 << 3) | (1 << 2) | 0b01;
/// SPSR: the transfer is complete.
const SPIF: u8 = 1 << 7;

/// The pins of the panel and of the chip's SPI.
#[derive(Clone, Copy, Debug)]
pub struct LcdPins {
    /// The panel's chip select (its RS pin; D10 as the sketch).
    pub cs: Pin,
    /// The panel's reset (D12 as the sketch).
    pub reset: Pin,
    /// The SPI's SS pin: an output, or the chip would leave master mode when it reads low
    /// (the Mega's D53; the Uno's is D10, the chip select itself).
    pub ss: Pin,
    /// The SPI's data out (MOSI: Mega D51, Uno D11), to the panel's R/W (SID).
    pub mosi: Pin,
    /// The SPI's clock (SCK: Mega D52, Uno D13), to the panel's E (SCLK).
    pub sck: Pin,
}

/// The wire to the panel: the SPI with the chip select, and Timer1 to wait on.
struct Wire {
    cs: Pin,
}

impl Link for Wire {
    fn send(&mut self, bytes: &[u8; 3]) {
        self.cs.set(true);
        for &b in bytes {
            SPDR.write(b);
            while SPSR.read() & SPIF == 0 {}
        }
        self.cs.set(false);
    }

    fn delay_us(&mut self, us: u32) {
        clock::wait_us(us);
    }
}

/// The display: the driver, what it shows, and a frame to draw the next screen in (2 KB of
/// RAM in all: more than an Uno can spare).
pub struct Lcd {
    wire: Wire,
    driver: St7920,
    frame: Frame,
}

impl Lcd {
    /// Sets the pins up, resets and initialises the panel (about 0.3 s; needs
    /// [`clock::init`] first).
    pub fn new(pins: &LcdPins) -> Lcd {
        pins.ss.output(true);
        pins.cs.output(false);
        pins.mosi.output(false);
        pins.sck.output(true);
        pins.reset.output(false);
        SPCR.write(SPCR_MODE3_1MHZ);
        SPSR.write(0); // no double speed
        clock::wait_us(100);
        pins.reset.set(true);
        let mut wire = Wire { cs: pins.cs };
        let driver = St7920::init(&mut wire);
        Lcd {
            wire,
            driver,
            // The panel is mounted rotated 180 degrees: drawn flipped.
            frame: Frame::new(true),
        }
    }

    /// Draws a screen and sends what changed.
    pub fn show(&mut self, screen: &Screen) {
        let _ = screen.draw(&mut self.frame);
        self.driver.update(&mut self.wire, &self.frame);
    }
}
