//! The game store's partition of the board's 16 MB QSPI flash, as a `NorFlash`, and the
//! flash chip's unique id (the device id).
//!
//! The partition is the flash from 1 MB to 16 MB (15 MB, 3,840 sectors of 4096 bytes); the
//! firmware stays in the first 1 MB (`memory.x`). Reads come straight from the memory-mapped
//! flash (XIP). Erase and program go through the RP2040 boot ROM's flash functions, called
//! from a function placed in RAM with interrupts off, because the flash cannot be read (so
//! no code can run from it) while it is being written: connect the flash, leave XIP, erase or
//! program, flush the XIP cache, enter XIP again. The ROM function pointers are looked up
//! before, while the flash is still readable.
//!
//! A sector erase keeps the chip busy for tens of milliseconds (up to 400 ms on a slow chip)
//! with interrupts off, so the buttons' timer interrupt cannot sample them meanwhile: a press
//! made and released during an erase was lost. The erase is therefore sent by the firmware's
//! own RAM code (write enable, 0x20 and the address, then the status register polled, as the
//! ROM's `flash_range_erase` does) which reads the button pins once a millisecond while the
//! chip is busy; the samples go to the debounce afterwards ([`crate::buttons::replay`]).
//! Programs (under 3 ms) go through the ROM.
//!
//! The chip programs 256-byte pages; the store writes single bytes (`WRITE_SIZE` 1). A write
//! is done as a program of its whole page with 0xFF everywhere but the bytes written (0xFF
//! leaves a NOR bit as it is), so it never crosses a page; a write that would is refused.
//!
//! Why not the `rp2040-flash` crate: its 0.6 depends on rp2040-hal 0.11, which would put a
//! second HAL (with its own `#[no_mangle]` intrinsics) next to this firmware's 0.12. The ROM
//! call sequence here is the one it (and the Pico SDK's `flash_range_program`) uses.

use core::ptr::{read_volatile, write_volatile};

use embedded_storage::nor_flash::{
    ErrorType, NorFlash, NorFlashError, NorFlashErrorKind, ReadNorFlash,
};
use rp2040_hal::rom_data;

/// Where the store's partition starts, from the start of the flash.
pub const PARTITION_START: u32 = 1024 * 1024;
/// Where it ends: the end of the Nano RP2040 Connect's 16 MB chip.
pub const PARTITION_END: u32 = 16 * 1024 * 1024;
/// The flash as mapped for reading (XIP).
const XIP_BASE: usize = 0x1000_0000;
/// Bytes in a program page.
const PAGE: usize = 256;
/// Bytes in an erase sector.
const SECTOR: u32 = 4096;

/// A write or erase the partition refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlashError {
    /// Outside the partition.
    OutOfBounds,
    /// An erase not on sector boundaries, or a write crossing a page boundary.
    NotAligned,
}

impl NorFlashError for FlashError {
    fn kind(&self) -> NorFlashErrorKind {
        match self {
            FlashError::OutOfBounds => NorFlashErrorKind::OutOfBounds,
            FlashError::NotAligned => NorFlashErrorKind::NotAligned,
        }
    }
}

/// The boot ROM's flash functions (looked up in the ROM's table while XIP works).
struct Rom {
    connect_internal_flash: unsafe extern "C" fn(),
    flash_exit_xip: unsafe extern "C" fn(),
    flash_range_program: unsafe extern "C" fn(u32, *const u8, usize),
    flash_flush_cache: unsafe extern "C" fn(),
    flash_enter_cmd_xip: unsafe extern "C" fn(),
}

impl Rom {
    fn lookup() -> Rom {
        Rom {
            connect_internal_flash: rom_data::connect_internal_flash::ptr(),
            flash_exit_xip: rom_data::flash_exit_xip::ptr(),
            flash_range_program: rom_data::flash_range_program::ptr(),
            flash_flush_cache: rom_data::flash_flush_cache::ptr(),
            flash_enter_cmd_xip: rom_data::flash_enter_cmd_xip::ptr(),
        }
    }
}

/// What a RAM-resident flash operation does.
enum Op {
    /// Program `len` bytes (whole pages) from `data`.
    Program,
}

/// IO_QSPI GPIO_QSPI_SS_CTRL: OUTOVER in bits 8..10 (2 drive low, 3 drive high).
const SS_CTRL: *mut u32 = 0x4001_800c as *mut u32;
/// SSI status (bit 1 TX FIFO not full, bit 3 RX FIFO not empty) and data registers.
const SSI_SR: *const u32 = 0x1800_0028 as *const u32;
const SSI_DR0: *mut u32 = 0x1800_0060 as *mut u32;
/// The timer's raw low word (microseconds) and the GPIO input levels.
const TIMERAWL: *const u32 = 0x4005_4028 as *const u32;
const GPIO_IN: *const u32 = 0xd000_0004 as *const u32;

/// Button pin levels read once a millisecond while a sector erase keeps interrupts off.
pub struct Samples {
    /// GPIO_IN as read, oldest first.
    pub levels: [u32; 512],
    /// How many were read (more than fit: the last one is overwritten).
    pub len: usize,
}

/// One frame to the flash chip with chip select forced low: sends `tx`, returns the last
/// byte received. RAM code, inlined into its callers; `tx` by value, so that no constant of
/// it sits in flash (unreadable during the erase).
///
/// # Safety
///
/// The flash out of XIP with the SSI set up for serial transfers (after `flash_exit_xip`).
#[inline(always)]
unsafe fn frame<const N: usize>(tx: [u8; N]) -> u8 {
    // SAFETY: the caller's contract; fixed RP2040 register addresses.
    unsafe {
        let ctrl = read_volatile(SS_CTRL) & !(3 << 8);
        write_volatile(SS_CTRL, ctrl | (2 << 8));
        let mut last = 0;
        let (mut sent, mut got) = (0, 0);
        while got < N {
            let sr = read_volatile(SSI_SR);
            if sr & 2 != 0 && sent < N && sent - got < 14 {
                // No indexing: a bounds check would call panic code in flash.
                if let Some(&b) = tx.get(sent) {
                    write_volatile(SSI_DR0, b as u32);
                }
                sent += 1;
            }
            if sr & 8 != 0 {
                last = read_volatile(SSI_DR0) as u8;
                got += 1;
            }
        }
        write_volatile(SS_CTRL, ctrl | (3 << 8));
        last
    }
}

/// Erases the 4 KB sector at flash address `addr` (write enable, 0x20, then the status polled
/// until the chip is done), reading the GPIO levels into `samples` once a millisecond
/// meanwhile. Lives in RAM like [`flash_op_in_ram`].
///
/// # Safety
///
/// As [`flash_op_in_ram`].
#[inline(never)]
#[link_section = ".data.ram_func"]
unsafe fn erase_in_ram(rom: &Rom, addr: u32, samples: &mut Samples) {
    // SAFETY: the caller's contract; the ROM functions in the datasheet's order around a
    // frame sequence the ROM's own flash_range_erase sends.
    unsafe {
        (rom.connect_internal_flash)();
        (rom.flash_exit_xip)();
        frame([0x06]);
        frame([0x20, (addr >> 16) as u8, (addr >> 8) as u8, addr as u8]);
        let mut last = read_volatile(TIMERAWL);
        while frame([0x05, 0]) & 1 != 0 {
            let now = read_volatile(TIMERAWL);
            if now.wrapping_sub(last) >= 1000 {
                last = last.wrapping_add(1000);
                let at = samples.len.min(samples.levels.len() - 1);
                if let Some(slot) = samples.levels.get_mut(at) {
                    *slot = read_volatile(GPIO_IN);
                }
                samples.len = at + 1;
            }
        }
        (rom.flash_flush_cache)();
        (rom.flash_enter_cmd_xip)();
    }
}

/// Runs one erase or program with XIP off. Lives in RAM (`.data` is copied there at boot)
/// and calls only the ROM, through pointers on the stack.
///
/// # Safety
///
/// Interrupts off, the other core not running from flash, `addr`/`len` aligned and inside
/// the flash, `data` valid for `len` bytes when programming.
#[inline(never)]
#[link_section = ".data.ram_func"]
unsafe fn flash_op_in_ram(rom: &Rom, op: &Op, addr: u32, data: *const u8, len: usize) {
    // SAFETY: the caller's contract; the ROM functions are called in the datasheet's order.
    unsafe {
        (rom.connect_internal_flash)();
        (rom.flash_exit_xip)();
        match op {
            Op::Program => (rom.flash_range_program)(addr, data, len),
        }
        (rom.flash_flush_cache)();
        (rom.flash_enter_cmd_xip)();
    }
}

/// Reads the flash chip's 64-bit unique id (command 0x4B, four dummy bytes, eight id bytes)
/// by driving the SSI by hand with chip select forced low. Lives in RAM like
/// [`flash_op_in_ram`].
///
/// # Safety
///
/// As [`flash_op_in_ram`].
#[inline(never)]
#[link_section = ".data.ram_func"]
unsafe fn unique_id_in_ram(rom: &Rom, out: &mut [u8; 8]) {
    const LEN: usize = 13;
    // SAFETY: the caller's contract; fixed RP2040 register addresses.
    unsafe {
        (rom.connect_internal_flash)();
        (rom.flash_exit_xip)();
        let ctrl = read_volatile(SS_CTRL) & !(3 << 8);
        write_volatile(SS_CTRL, ctrl | (2 << 8));
        let (mut tx, mut rx) = (0, 0);
        while rx < LEN {
            let sr = read_volatile(SSI_SR);
            // At most a FIFO's worth (16) in flight.
            if sr & 2 != 0 && tx < LEN && tx - rx < 14 {
                write_volatile(SSI_DR0, if tx == 0 { 0x4B } else { 0 });
                tx += 1;
            }
            if sr & 8 != 0 {
                let b = read_volatile(SSI_DR0) as u8;
                // No indexing: a bounds check would call panic code in flash.
                if let Some(slot) = out.get_mut(rx.wrapping_sub(5)) {
                    *slot = b;
                }
                rx += 1;
            }
        }
        write_volatile(SS_CTRL, ctrl | (3 << 8));
        // Also gives chip select back to the SSI.
        (rom.flash_flush_cache)();
        (rom.flash_enter_cmd_xip)();
    }
}

/// The flash chip's unique id, as a little-endian u64 of its eight bytes.
pub fn unique_id() -> u64 {
    let rom = Rom::lookup();
    let mut id = [0u8; 8];
    cortex_m::interrupt::free(|_| {
        // SAFETY: interrupts are off and only core 0 runs.
        unsafe { unique_id_in_ram(&rom, &mut id) }
    });
    u64::from_le_bytes(id)
}

/// The store's partition: flash offsets 0.. here are chip addresses `PARTITION_START`...
pub struct Partition {
    rom: Rom,
}

impl Partition {
    /// The partition.
    ///
    /// # Safety
    ///
    /// Only one exists, nothing else writes the flash, and core 1 does not run.
    pub unsafe fn new() -> Partition {
        Partition { rom: Rom::lookup() }
    }

    fn run(&mut self, op: Op, addr: u32, data: *const u8, len: usize) {
        cortex_m::interrupt::free(|_| {
            // SAFETY: interrupts are off, core 1 does not run (`new`), the callers check
            // alignment and bounds.
            unsafe { flash_op_in_ram(&self.rom, &op, addr, data, len) }
        });
    }
}

fn check(offset: u32, len: usize) -> Result<u32, FlashError> {
    let capacity = PARTITION_END - PARTITION_START;
    match offset.checked_add(len as u32) {
        Some(end) if len <= capacity as usize && end <= capacity => Ok(PARTITION_START + offset),
        _ => Err(FlashError::OutOfBounds),
    }
}

impl ErrorType for Partition {
    type Error = FlashError;
}

impl ReadNorFlash for Partition {
    const READ_SIZE: usize = 1;

    fn read(&mut self, offset: u32, bytes: &mut [u8]) -> Result<(), FlashError> {
        let addr = check(offset, bytes.len())?;
        let from = (XIP_BASE + addr as usize) as *const u8;
        for (i, b) in bytes.iter_mut().enumerate() {
            // SAFETY: inside the mapped flash (checked); volatile, as the flash changes
            // under the compiler's feet.
            *b = unsafe { read_volatile(from.add(i)) };
        }
        Ok(())
    }

    fn capacity(&self) -> usize {
        (PARTITION_END - PARTITION_START) as usize
    }
}

impl NorFlash for Partition {
    const WRITE_SIZE: usize = 1;
    const ERASE_SIZE: usize = SECTOR as usize;

    fn erase(&mut self, from: u32, to: u32) -> Result<(), FlashError> {
        if from > to || !from.is_multiple_of(SECTOR) || !to.is_multiple_of(SECTOR) {
            return Err(FlashError::NotAligned);
        }
        let addr = check(from, (to - from) as usize)?;
        for sector in (addr..addr + (to - from)).step_by(SECTOR as usize) {
            let mut samples = Samples {
                levels: [0; 512],
                len: 0,
            };
            cortex_m::interrupt::free(|_| {
                // SAFETY: interrupts are off, core 1 does not run (`new`), the sector is
                // aligned and inside the flash (checked above).
                unsafe { erase_in_ram(&self.rom, sector, &mut samples) }
            });
            crate::buttons::replay(&samples.levels[..samples.len]);
        }
        Ok(())
    }

    fn write(&mut self, offset: u32, bytes: &[u8]) -> Result<(), FlashError> {
        if bytes.is_empty() {
            return Ok(());
        }
        let addr = check(offset, bytes.len())?;
        let in_page = addr as usize % PAGE;
        if in_page + bytes.len() > PAGE {
            return Err(FlashError::NotAligned);
        }
        let mut page = [0xFFu8; PAGE];
        page[in_page..in_page + bytes.len()].copy_from_slice(bytes);
        self.run(Op::Program, addr - in_page as u32, page.as_ptr(), PAGE);
        Ok(())
    }
}
