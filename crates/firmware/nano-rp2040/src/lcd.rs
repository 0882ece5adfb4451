//! The LCD12864 (ST7920) on SPI0, through the `twenty48-panel` driver (paced to the
//! datasheet, redrawing only the 16-pixel words that changed; its tests check the bytes
//! against a model of the controller).

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::OutputPin;
use embedded_hal::spi::SpiBus;
use rp2040_hal::gpio::bank0::{Gpio4, Gpio5, Gpio6, Gpio7};
use rp2040_hal::gpio::{FunctionSioOutput, FunctionSpi, Pin, PullDown};
use rp2040_hal::pac::SPI0;
use rp2040_hal::spi::{Enabled, Spi};
use rp2040_hal::Timer;
use twenty48_firmware_app::Screen;
use twenty48_panel::{Frame, Link, St7920};

/// SPI0 with its data (GPIO7) and clock (GPIO6) pins.
pub type Bus = Spi<
    Enabled,
    SPI0,
    (
        Pin<Gpio7, FunctionSpi, PullDown>,
        Pin<Gpio6, FunctionSpi, PullDown>,
    ),
    8,
>;
/// The panel's reset (D12).
pub type Reset = Pin<Gpio4, FunctionSioOutput, PullDown>;
/// The panel's chip select (its RS pin, active high; D10).
pub type ChipSelect = Pin<Gpio5, FunctionSioOutput, PullDown>;

/// The wire to the panel: chip select raised around each three-byte unit, and the timer.
struct Wire {
    bus: Bus,
    cs: ChipSelect,
    timer: Timer,
}

impl Link for Wire {
    fn send(&mut self, bytes: &[u8; 3]) {
        let _ = self.cs.set_high();
        let _ = self.bus.write(bytes);
        let _ = self.bus.flush();
        let _ = self.cs.set_low();
    }

    fn delay_us(&mut self, us: u32) {
        self.timer.delay_us(us);
    }
}

/// The display: the driver, what it shows, and a frame to draw the next screen in.
pub struct Lcd {
    wire: Wire,
    driver: St7920,
    frame: Frame,
}

impl Lcd {
    /// Resets and initialises the panel (about 0.2 s; USB is serviced by its interrupt
    /// meanwhile). `bus` must run at `twenty48_panel::SPI_HZ` or slower, mode 3.
    pub fn new(bus: Bus, mut reset: Reset, mut cs: ChipSelect, mut timer: Timer) -> Lcd {
        let _ = cs.set_low();
        let _ = reset.set_low();
        timer.delay_us(100);
        let _ = reset.set_high();
        let mut wire = Wire { bus, cs, timer };
        let driver = St7920::init(&mut wire);
        Lcd {
            wire,
            driver,
            // The panel is mounted rotated 180 degrees: drawn flipped.
            frame: Frame::new(true),
        }
    }

    /// Draws a screen and sends what changed; returns the controller bytes sent.
    pub fn show(&mut self, screen: &Screen) -> usize {
        let _ = screen.draw(&mut self.frame);
        self.driver.update(&mut self.wire, &self.frame)
    }
}
