//! [`MemEeprom`]: an EEPROM in RAM with its one-byte operations counted and simulated power
//! cuts. Runs anywhere (host tests).

use crate::eeprom::chip::Eeprom;
use crate::nor::Power;

/// An EEPROM held in a byte buffer `B` (an array, a `Vec<u8>`) of at most 64 KB.
///
/// Each erase and each program is one operation (reads are free). After
/// [`cut_power_at`](MemEeprom::cut_power_at) the chosen operation is torn (of the bits it
/// should change, those in a mask drawn from the seed change: [`Tear`](crate::nor::Tear)) and every later
/// erase or program does nothing: take the bytes out with
/// [`into_inner`](MemEeprom::into_inner) and build a new `MemEeprom` to power up again.
///
/// ```
/// use twenty48_devicestore::eeprom::{Eeprom, MemEeprom};
///
/// let mut eeprom = MemEeprom::new([0xFFu8; 8]);
/// eeprom.program(0, 0x0F);
/// eeprom.cut_power_at(1, 7);
/// eeprom.program(1, 0x00); // torn: some of its bits cleared
/// eeprom.program(2, 0x00); // after the cut: nothing
/// assert_eq!((eeprom.ops(), eeprom.is_cut()), (2, true));
/// let bytes = eeprom.into_inner();
/// assert_eq!((bytes[0], bytes[2]), (0x0F, 0xFF));
/// ```
#[derive(Debug)]
pub struct MemEeprom<B> {
    mem: B,
    power: Power,
}

impl<B: AsRef<[u8]> + AsMut<[u8]>> MemEeprom<B> {
    /// An EEPROM over `mem` as it is (a new chip's would be all 0xFF).
    ///
    /// # Panics
    ///
    /// When `mem` is longer than 65,535 bytes.
    pub fn new(mem: B) -> MemEeprom<B> {
        assert!(
            mem.as_ref().len() <= u16::MAX as usize,
            "MemEeprom: at most 65,535 bytes"
        );
        MemEeprom {
            mem,
            power: Power::default(),
        }
    }

    /// Erases and programs done so far (the torn one counts).
    pub fn ops(&self) -> u32 {
        self.power.ops
    }

    /// Cuts the power during the `k`-th operation from now (`k` >= 1): that operation is
    /// torn, and every later erase or program does nothing.
    pub fn cut_power_at(&mut self, k: u32, seed: u64) {
        self.power.cut_at(k, seed);
    }

    /// Whether the power has been cut.
    pub fn is_cut(&self) -> bool {
        self.power.dead
    }

    /// The EEPROM's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.mem.as_ref()
    }

    /// The EEPROM's bytes, to change them behind the rules' back (tests of damage).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        self.mem.as_mut()
    }

    /// The buffer.
    pub fn into_inner(self) -> B {
        self.mem
    }
}

impl<B: AsRef<[u8]> + AsMut<[u8]>> Eeprom for MemEeprom<B> {
    fn capacity(&self) -> u16 {
        self.mem.as_ref().len() as u16
    }

    fn read(&mut self, at: u16) -> u8 {
        self.mem.as_ref()[at as usize]
    }

    fn erase(&mut self, at: u16) {
        let Some(torn) = self.power.operation(1) else {
            return;
        };
        let b = &mut self.mem.as_mut()[at as usize];
        *b = match torn {
            None => 0xFF,
            Some(tear) => tear.erase_byte(*b),
        };
    }

    fn program(&mut self, at: u16, value: u8) {
        let Some(torn) = self.power.operation(1) else {
            return;
        };
        let b = &mut self.mem.as_mut()[at as usize];
        *b = match torn {
            None => *b & value,
            Some(tear) => tear.program_byte(*b, value),
        };
    }
}
