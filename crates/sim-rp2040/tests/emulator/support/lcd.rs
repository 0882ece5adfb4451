//! The LCD as a person sees it: the board's SPI0 bytes, with their emulated times, through
//! the ST7920 model (which refuses any byte or timing the datasheet does not allow), compared
//! with the panel crate's host rendering of a screen.

use twenty48_panel::{Frame, Screen, SPI_HZ};
use twenty48_sim_rp2040::{Nano, SpiByte};
use twenty48_st7920_model::Model;

/// The panel on the board's SPI0.
pub struct Lcd {
    model: Option<Model>,
    /// Bytes fed to the model.
    pub bytes: usize,
}

impl Lcd {
    /// A panel just powered on with the board.
    pub fn new() -> Lcd {
        Lcd {
            model: None,
            bytes: 0,
        }
    }

    /// Feeds the model what the board sent since the last call.
    pub fn update(&mut self, nano: &mut Nano) {
        for b in nano.take_spi() {
            self.byte(b);
        }
    }

    fn byte(&mut self, b: SpiByte) {
        assert!(
            b.selected,
            "an SPI byte {:#04x} at {} ns with the LCD's chip select low",
            b.byte, b.at_ns
        );
        assert_eq!(b.mode, 3, "the ST7920 wants SPI mode 3");
        assert!(
            b.hz <= SPI_HZ,
            "SPI at {} Hz, over the panel's {SPI_HZ}",
            b.hz
        );
        self.model
            .get_or_insert_with(|| Model::new(b.hz))
            .byte_at(b.at_ns, b.byte);
        self.bytes += 1;
    }

    /// Whether the panel shows `screen` exactly as the host draws it (mounted rotated, as
    /// the firmware draws it: `Frame::new(true)`).
    pub fn shows(&self, screen: &Screen) -> bool {
        let mut frame = Frame::new(true);
        screen.draw(&mut frame).expect("the host draws the screen");
        self.model.as_ref().is_some_and(|m| m.shows(&frame))
    }

    /// The panel as text art, for failure messages.
    pub fn art(&self) -> String {
        self.model
            .as_ref()
            .map_or_else(String::new, |m| twenty48_st7920_model::art(&m.as_mounted()))
    }
}
