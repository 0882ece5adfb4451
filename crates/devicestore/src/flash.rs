//! [`MemFlash`]: NOR flash in RAM, with the [`nor`](crate::nor) rules, operation counting and
//! simulated power cuts. Runs anywhere (host tests, or a board over a static buffer).

use embedded_storage::nor_flash::{ErrorType, NorFlash, ReadNorFlash};

use crate::nor::{self, Geometry, NorError, Power, Tear, PAGE_SIZE, SECTOR_SIZE};

/// NOR flash held in a byte buffer `B` (an array, a `Vec<u8>`, a `&mut [u8]`), whose length
/// is a whole number of `SECTOR`-byte sectors (by default 4096, as on the RP2040; 128 or 256
/// for an AVR's EEPROM). Pages are 256 bytes, or a sector when that is smaller.
///
/// Each sector erase and each page program counts as one operation. After
/// [`cut_power_at`](MemFlash::cut_power_at) the chosen operation is torn and every later
/// operation (reads too) fails with [`NorError::PowerCut`]: take the bytes out with
/// [`into_inner`](MemFlash::into_inner) and build a new `MemFlash` to "power up" again.
#[derive(Debug)]
pub struct MemFlash<B, const SECTOR: usize = { SECTOR_SIZE as usize }> {
    mem: B,
    power: Power,
    strict: bool,
}

impl<B: AsRef<[u8]> + AsMut<[u8]>> MemFlash<B> {
    /// Flash of 4096-byte sectors over `mem` as it is (a new chip would be all 0xFF).
    ///
    /// # Panics
    ///
    /// When the length of `mem` is not a multiple of 4096.
    pub fn new(mem: B) -> MemFlash<B> {
        MemFlash::new_sized(mem)
    }
}

impl<B: AsRef<[u8]> + AsMut<[u8]>, const SECTOR: usize> MemFlash<B, SECTOR> {
    const GEOMETRY: Geometry = Geometry::new(SECTOR as u32);

    /// Flash of `SECTOR`-byte sectors over `mem` as it is: `MemFlash::<_, 128>::new_sized(mem)`.
    ///
    /// # Panics
    ///
    /// When `SECTOR` is not a power of two, or the length of `mem` is not a multiple of it.
    pub fn new_sized(mem: B) -> MemFlash<B, SECTOR> {
        assert!(
            SECTOR.is_power_of_two(),
            "MemFlash: the sector size is not a power of two"
        );
        assert!(
            mem.as_ref().len() % SECTOR == 0,
            "MemFlash: the buffer is not a whole number of sectors"
        );
        MemFlash {
            mem,
            power: Power::default(),
            strict: false,
        }
    }

    /// Panic (instead of returning [`NorError::SetsBit`] or another rule error) when asked to
    /// break a NOR rule: for tests, where such a request is a bug in the caller.
    pub fn strict(mut self) -> MemFlash<B, SECTOR> {
        self.strict = true;
        self
    }

    /// Operations (sector erases and page programs) done so far.
    pub fn ops(&self) -> u32 {
        self.power.ops
    }

    /// Cuts the power during the `k`-th operation from now (`k` >= 1): that operation is
    /// torn, and it and every later operation fail with [`NorError::PowerCut`].
    ///
    /// A torn program does its first `j` bytes, clears a subset of the bits byte `j` should
    /// clear, and leaves the rest; a torn erase sets the first `j` bytes of the sector to 0xFF
    /// and a subset of the bits of byte `j`. `j` and the subset come from `seed` and the
    /// operation's number ([`nor::Tear::new`]).
    pub fn cut_power_at(&mut self, k: u32, seed: u64) {
        self.power.cut_at(k, seed);
    }

    /// Whether the power has been cut.
    pub fn is_cut(&self) -> bool {
        self.power.dead
    }

    /// The flash's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.mem.as_ref()
    }

    /// The flash's bytes, to change them behind the rules' back (tests of damaged flash).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        self.mem.as_mut()
    }

    /// The buffer.
    pub fn into_inner(self) -> B {
        self.mem
    }

    fn fail(&self, e: NorError) -> NorError {
        if self.strict {
            panic!("MemFlash: {e}");
        }
        e
    }

    /// Counts an operation of `len` bytes; `Some(tear)` when this one is the torn one.
    fn operation(&mut self, len: usize) -> Result<Option<Tear>, NorError> {
        self.power.operation(len).ok_or(NorError::PowerCut)
    }

    fn erase_sector(&mut self, at: usize) -> Result<(), NorError> {
        let torn = self.operation(SECTOR)?;
        let sector = &mut self.mem.as_mut()[at..at + SECTOR];
        match torn {
            None => {
                nor::apply_erase(sector);
                Ok(())
            }
            Some(tear) => {
                nor::tear_erase(sector, tear);
                Err(NorError::PowerCut)
            }
        }
    }

    fn program_page(&mut self, offset: u32, data: &[u8]) -> Result<(), NorError> {
        let cap = self.mem.as_ref().len();
        let range = Self::GEOMETRY
            .check_program(offset, data.len(), cap)
            .map_err(|e| self.fail(e))?;
        // Check the rule before counting: a rejected program changes nothing.
        let mut scratch = [0u8; PAGE_SIZE as usize];
        let new = &mut scratch[..data.len()];
        new.copy_from_slice(&self.mem.as_ref()[range.clone()]);
        nor::apply_program(offset, new, data).map_err(|e| self.fail(e))?;
        let torn = self.operation(data.len())?;
        let flash = &mut self.mem.as_mut()[range];
        match torn {
            None => {
                flash.copy_from_slice(new);
                Ok(())
            }
            Some(tear) => {
                nor::tear_program(flash, data, tear);
                Err(NorError::PowerCut)
            }
        }
    }
}

impl<B, const SECTOR: usize> ErrorType for MemFlash<B, SECTOR> {
    type Error = NorError;
}

impl<B: AsRef<[u8]> + AsMut<[u8]>, const SECTOR: usize> ReadNorFlash for MemFlash<B, SECTOR> {
    const READ_SIZE: usize = 1;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), NorError> {
        if self.power.dead {
            return Err(NorError::PowerCut);
        }
        let range = nor::check_range(offset, bytes.len(), self.mem.as_ref().len())
            .map_err(|e| self.fail(e))?;
        bytes.copy_from_slice(&self.mem.as_ref()[range]);
        Ok(())
    }

    fn capacity(&self) -> usize {
        self.mem.as_ref().len()
    }
}

impl<B: AsRef<[u8]> + AsMut<[u8]>, const SECTOR: usize> NorFlash for MemFlash<B, SECTOR> {
    const WRITE_SIZE: usize = 1;
    const ERASE_SIZE: usize = SECTOR;

    /// Erases the sectors of `from..to`, one operation each.
    fn erase(&mut self, from: u32, to: u32) -> Result<(), NorError> {
        let range = Self::GEOMETRY
            .check_erase(from, to, self.mem.as_ref().len())
            .map_err(|e| self.fail(e))?;
        for at in range.step_by(SECTOR) {
            self.erase_sector(at)?;
        }
        Ok(())
    }

    /// Programs `bytes` at `offset` as one page program. Writes crossing a page boundary are
    /// rejected, as the chip would: split them with [`Geometry::page_pieces`].
    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), NorError> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.program_page(offset, bytes)
    }
}
