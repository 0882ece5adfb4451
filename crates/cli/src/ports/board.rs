//! The boards `twenty48` knows by their USB identity (vendor and product id, and for a
//! shared id the product string): what a serial port is attached to. Pure: no port is
//! opened here.
//!
//! The ids are the boards' own (Arduino's `boards.txt`: vendor 2341 for Arduino LLC, 2A03
//! for the boards arduino.org sold), the USB serial chips of clones (WCH's CH340, FTDI's
//! FT232R of the first Megas) and the id the project's Nano firmware enumerates with
//! (`crates/firmware/nano-rp2040/src/usb.rs`: 16C0:27DD, product "twenty48 device log").

/// A board (or a clone's USB serial chip) recognised by its USB identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// The Arduino Nano RP2040 Connect: running twenty48's firmware (16C0:27DD, product
    /// "twenty48 device log"), or Arduino's own (2341:005E, 2341:015E).
    NanoRp2040Connect,
    /// The Arduino Mega 2560 (its ATmega16U2 or 8U2 USB serial).
    Mega2560,
    /// The Arduino Uno (its ATmega16U2 or 8U2 USB serial).
    Uno,
    /// A WCH CH340 USB serial chip: the clones of the Uno, Nano and Mega 2560 use it.
    Ch340Clone,
    /// An FTDI FT232R USB serial chip: the first Arduino Mega (ATmega1280) and clones.
    Ftdi,
}

/// The product string twenty48's Nano firmware gives its USB serial (16C0:27DD is a shared
/// id: other devices use it too).
pub const TWENTY48_PRODUCT: &str = "twenty48 device log";

/// What USB says of a port's device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Usb {
    /// Vendor id.
    pub vid: u16,
    /// Product id.
    pub pid: u16,
    /// Serial number, as the device gives it.
    pub serial: Option<String>,
    /// Manufacturer string.
    pub manufacturer: Option<String>,
    /// Product string.
    pub product: Option<String>,
}

/// Arduino LLC's vendor id.
const ARDUINO: u16 = 0x2341;
/// The vendor id of the boards arduino.org sold.
const ARDUINO_ORG: u16 = 0x2a03;

impl Board {
    /// The board a USB identity names, if any.
    pub fn recognise(usb: &Usb) -> Option<Board> {
        let board = match (usb.vid, usb.pid) {
            (0x16c0, 0x27dd) => {
                // A shared id (V-USB's CDC-ACM): only with the firmware's own product string,
                // or none at all (a system that does not read it).
                return match usb.product.as_deref() {
                    None | Some(TWENTY48_PRODUCT) => Some(Board::NanoRp2040Connect),
                    Some(_) => None,
                };
            }
            (ARDUINO, 0x005e | 0x015e) => Board::NanoRp2040Connect,
            (ARDUINO, 0x0010 | 0x0042 | 0x0210 | 0x0242) | (ARDUINO_ORG, 0x0010 | 0x0042) => {
                Board::Mega2560
            }
            (ARDUINO, 0x0001 | 0x0043 | 0x0243) | (ARDUINO_ORG, 0x0043) => Board::Uno,
            (0x1a86, 0x7523) => Board::Ch340Clone,
            (0x0403, 0x6001) => Board::Ftdi,
            _ => return None,
        };
        Some(board)
    }

    /// The board's name, as messages and `ports` say it.
    pub fn name(self) -> &'static str {
        match self {
            Board::NanoRp2040Connect => "Arduino Nano RP2040 Connect",
            Board::Mega2560 => "Arduino Mega 2560",
            Board::Uno => "Arduino Uno",
            Board::Ch340Clone => "a clone with a CH340 (Uno, Nano or Mega 2560)",
            Board::Ftdi => "an FTDI serial chip (the first Arduino Mega 1280, or a clone)",
        }
    }

    /// A short name for JSON: `nano-rp2040`, `mega2560`, `uno`, `ch340`, `ftdi`.
    pub fn key(self) -> &'static str {
        match self {
            Board::NanoRp2040Connect => "nano-rp2040",
            Board::Mega2560 => "mega2560",
            Board::Uno => "uno",
            Board::Ch340Clone => "ch340",
            Board::Ftdi => "ftdi",
        }
    }

    /// The firmware images (as `just firmware` names their ELFs, without `.elf`) this board
    /// can run: a clone's chip says nothing of the board behind it.
    pub fn firmware(self) -> &'static [&'static str] {
        match self {
            Board::NanoRp2040Connect => &["twenty48-nano-rp2040"],
            Board::Mega2560 => &["twenty48-mega2560"],
            Board::Uno => &["twenty48-uno"],
            Board::Ch340Clone => &["twenty48-mega2560", "twenty48-uno"],
            Board::Ftdi => &["twenty48-mega1280", "twenty48-mega2560", "twenty48-uno"],
        }
    }
}

/// The firmware images of the boards (as `just firmware` names their ELFs, without
/// `.elf`): an ELF named so is for that board alone.
pub const BOARD_FIRMWARE: [&str; 4] = [
    "twenty48-nano-rp2040",
    "twenty48-mega2560",
    "twenty48-mega1280",
    "twenty48-uno",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn usb(vid: u16, pid: u16, product: Option<&str>) -> Usb {
        Usb {
            vid,
            pid,
            product: product.map(str::to_string),
            ..Usb::default()
        }
    }

    #[test]
    fn arduino_boards_by_their_ids() {
        for (vid, pid, board) in [
            (0x2341, 0x0042, Board::Mega2560),
            (0x2341, 0x0010, Board::Mega2560),
            (0x2a03, 0x0042, Board::Mega2560),
            (0x2341, 0x0043, Board::Uno),
            (0x2341, 0x0001, Board::Uno),
            (0x2a03, 0x0043, Board::Uno),
            (0x2341, 0x005e, Board::NanoRp2040Connect),
            (0x1a86, 0x7523, Board::Ch340Clone),
            (0x0403, 0x6001, Board::Ftdi),
        ] {
            assert_eq!(
                Board::recognise(&usb(vid, pid, None)),
                Some(board),
                "{vid:04x}:{pid:04x}"
            );
        }
    }

    #[test]
    fn the_shared_id_of_the_nano_firmware_only_with_its_product() {
        let id = |p| Board::recognise(&usb(0x16c0, 0x27dd, p));
        assert_eq!(
            id(Some("twenty48 device log")),
            Some(Board::NanoRp2040Connect)
        );
        assert_eq!(id(None), Some(Board::NanoRp2040Connect));
        assert_eq!(id(Some("some modem")), None);
    }

    #[test]
    fn other_devices_are_no_board() {
        assert_eq!(Board::recognise(&usb(0x046d, 0xc52b, None)), None);
        assert_eq!(Board::recognise(&usb(0x2341, 0xffff, None)), None);
        assert_eq!(Board::recognise(&usb(0, 0, None)), None);
    }
}
