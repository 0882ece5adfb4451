//! A byte-writable EEPROM (an AVR's): the [`Eeprom`] interface, NOR flash over it ([`AsNor`],
//! for the [`Store`](crate::Store), the device id and the game counter), an emulation with
//! power cuts for tests ([`MemEeprom`]), and the game store of a 1 KB EEPROM
//! ([`EepromStore`], the Arduino Uno's).
//!
//! An EEPROM byte is changed by one operation of its own: an erase (the byte becomes 0xFF)
//! or a program (bits go from 1 to 0 where the data has 0: new = old AND data). An AVR does
//! either in 1.8 ms (its EEPM modes "erase only" and "write only"). A power cut during an
//! operation leaves that byte torn: some of the bits the operation was changing changed, the
//! others not, never a bit moved the other way. The stores here only ever ask for those two
//! operations, so a torn byte is always one of the in-between values the NOR rules allow.

mod as_nor;
mod block;
mod chip;
mod mem;
mod store;

pub use as_nor::AsNor;
pub use chip::Eeprom;
pub use mem::MemEeprom;
pub use store::EepromStore;
