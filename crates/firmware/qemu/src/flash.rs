//! The emulated NOR flash chip: a host file of `sectors` x 4096 bytes, read and written
//! through semihosting, with the NOR rules of `twenty48_devicestore::nor` (the host tests'
//! rules): erase whole 4096-byte sectors to 0xFF, program within one 256-byte page, bits only
//! cleared. Each sector erase and each page program is one operation; a power cut at
//! operation K tears it as `MemFlash` does and leaves QEMU at once with status 3.

use embedded_storage::nor_flash::{ErrorType, NorFlash, ReadNorFlash};
use twenty48_firmware_app::devicestore::nor::{self, NorError, Tear, PAGE_SIZE, SECTOR_SIZE};

use crate::host::{self, File};

/// Bytes moved through semihosting at a time (RAM is small).
const PIECE: usize = PAGE_SIZE as usize;

/// The chip in a host file.
pub struct FileFlash {
    file: File,
    capacity: usize,
    ops: u32,
    /// The operation to tear, and the tear seed.
    cut: Option<(u32, u64)>,
}

impl FileFlash {
    /// A flash over `file`, `capacity` bytes long.
    pub fn new(file: File, capacity: usize, cut: Option<(u32, u64)>) -> FileFlash {
        FileFlash {
            file,
            capacity,
            ops: 0,
            cut,
        }
    }

    /// Operations (sector erases and page programs) this session.
    pub fn ops(&self) -> u32 {
        self.ops
    }

    /// Counts an operation of `len` bytes; `Some(tear)` when it is the one cut (drawn as
    /// `MemFlash` draws it).
    fn operation(&mut self, len: usize) -> Option<Tear> {
        self.ops += 1;
        match self.cut {
            Some((at, seed)) if at == self.ops => Some(Tear::new(seed, self.ops, len)),
            _ => None,
        }
    }

    fn read_piece(&self, at: usize, buf: &mut [u8]) {
        if self.file.read_at(at, buf).is_err() {
            panic!("flash file read");
        }
    }

    fn write_piece(&self, at: usize, bytes: &[u8]) {
        if self.file.write_at(at, bytes).is_err() {
            panic!("flash file write");
        }
    }

    fn erase_sector(&mut self, at: usize) {
        let ones = [0xFFu8; PIECE];
        match self.operation(SECTOR_SIZE as usize) {
            None => {
                for piece in (at..at + SECTOR_SIZE as usize).step_by(PIECE) {
                    self.write_piece(piece, &ones);
                }
            }
            Some(tear) => {
                // As `nor::tear_erase` (a sector at a time): the first j bytes erased, some
                // bits of byte j set.
                let j = tear.at;
                let mut done = 0;
                while done < j {
                    let n = (j - done).min(PIECE);
                    self.write_piece(at + done, &ones[..n]);
                    done += n;
                }
                let mut b = [0u8];
                self.read_piece(at + j, &mut b);
                b[0] = tear.erase_byte(b[0]);
                self.write_piece(at + j, &b);
                host::exit(host::EXIT_POWER_CUT);
            }
        }
    }

    fn program_page(&mut self, offset: u32, data: &[u8]) -> Result<(), NorError> {
        let range = nor::check_program(offset, data.len(), self.capacity)?;
        let mut scratch = [0u8; PIECE];
        let page = &mut scratch[..data.len()];
        self.read_piece(range.start, page);
        let mut old = [0u8; PIECE];
        old[..data.len()].copy_from_slice(page);
        // The store never asks for a 0 bit to become 1: if it does, that is a bug to stop at.
        if nor::apply_program(offset, page, data).is_err() {
            panic!("NOR rule broken");
        }
        match self.operation(data.len()) {
            None => self.write_piece(range.start, page),
            Some(tear) => {
                // As MemFlash: the first j bytes programmed, some of byte j's bits cleared.
                let torn = &mut old[..data.len()];
                nor::tear_program(torn, data, tear);
                self.write_piece(range.start, torn);
                host::exit(host::EXIT_POWER_CUT);
            }
        }
        Ok(())
    }
}

impl ErrorType for FileFlash {
    type Error = NorError;
}

impl ReadNorFlash for FileFlash {
    const READ_SIZE: usize = 1;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), NorError> {
        let range = nor::check_range(offset, bytes.len(), self.capacity)?;
        for (i, piece) in bytes.chunks_mut(PIECE).enumerate() {
            self.read_piece(range.start + i * PIECE, piece);
        }
        Ok(())
    }

    fn capacity(&self) -> usize {
        self.capacity
    }
}

impl NorFlash for FileFlash {
    const WRITE_SIZE: usize = 1;
    const ERASE_SIZE: usize = SECTOR_SIZE as usize;

    /// Erases the sectors of `from..to`, one operation each.
    fn erase(&mut self, from: u32, to: u32) -> Result<(), NorError> {
        let range = nor::check_erase(from, to, self.capacity)?;
        for at in range.step_by(SECTOR_SIZE as usize) {
            self.erase_sector(at);
        }
        Ok(())
    }

    /// Programs `bytes` at `offset` as one page program (a write crossing a page boundary is
    /// refused, as by `MemFlash`).
    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), NorError> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.program_page(offset, bytes)
    }
}
