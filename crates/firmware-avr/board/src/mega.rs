//! What the Arduino Mega boards share (the ATmega1280 and the ATmega2560: the same pins,
//! 8 KB of RAM, 4 KB of EEPROM): the store's layout, the LCD switch, and how they start.

use crate::{Chip, MEGA_BUTTONS, MEGA_LCD};

/// Bytes of a store sector (the EEPROM is 16 of them; devicestore's power-cut and capacity
/// tests run at this size).
pub const SECTOR: usize = 256;
/// The store: the EEPROM's first 15 sectors (the 16th keeps the board's id).
pub const EEPROM: u16 = 4096 - SECTOR as u16;
/// The store under QEMU (no EEPROM there): 4 sectors of RAM, on the stack (the application
/// needs most of the other 7 KB for its own stack).
pub const RAM: usize = 1024;

/// The LCD is on: the screens drawn by the panel crate's own renderer from glyph tables in
/// program memory, a band of 4 rows at a time (RAM: the driver's 1 KB frame and the band).
pub const LCD: bool = true;

/// A Mega whose id under QEMU is `device_id` (its low 16 bits the chip's number).
pub const fn chip(device_id: u64) -> Chip {
    Chip {
        device_id,
        buttons: MEGA_BUTTONS,
        lcd: MEGA_LCD,
    }
}

/// Runs a Mega board ([`crate::start`] with the layout above).
pub fn start(chip: &Chip) -> ! {
    crate::start::<crate::St7920, SECTOR, EEPROM, RAM, LCD>(chip)
}
