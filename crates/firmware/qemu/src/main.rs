//! The 2048 application on QEMU's `lm3s6965evb`, for tests. Runs on the (emulated) target.
//!
//! Bytes arriving on UART0 are a script of button presses, commands and host requests (see
//! [`script`] and docs/firmware.md); the defmt log goes out on UART0. The game store lives
//! on an emulated NOR flash chip kept in a host file ([`flash`]), named on the semihosting
//! command line:
//!
//! ```text
//! qemu-system-arm -M lm3s6965evb ... -semihosting-config enable=on,target=native,arg=twenty48-qemu,arg=flash=PATH[,arg=sectors=N][,arg=cut=K][,arg=tear=S]
//! ```
//!
//! When the script ends (`q`), the firmware logs `t48 qemu flash ops=N`, sends what is left
//! of the log and exits QEMU with status 0; a power cut (`cut=K`) exits with status 3, a
//! panic or a bad command line with status 1.
#![no_std]
#![no_main]

mod flash;
mod host;
mod uart;

use cortex_m_rt::entry;
use cortex_m_semihosting::nr;
// Linked for its interrupt vector table.
use lm3s6965 as _;
use twenty48_firmware_app::deviceproto::QEMU_DEVICE_ID;
use twenty48_firmware_app::devicestore::{Store, SECTOR_SIZE};
use twenty48_firmware_app::script::Script;
use twenty48_firmware_app::{log_ring, Board, Input, Screen};

use crate::flash::FileFlash;
use crate::host::File;
use crate::uart::Uart0;

/// Flash sectors when the command line names none (256 KB).
const DEFAULT_SECTORS: u32 = 64;

/// The emulated board: UART0 for everything, no screen, no clock to wait on.
struct QemuBoard {
    uart: Uart0,
    script: Script,
    /// Seeds for games started by a button on the start screen: 1, 2, 3, ...
    next_seed: u64,
}

impl Board for QemuBoard {
    fn next_input(&mut self) -> Input {
        loop {
            let byte = self.uart.read_byte();
            if let Some(input) = self.script.feed(byte) {
                return input;
            }
            if !self.script.stalled {
                // After `{unstall}`: send what waited.
                log_ring::drain(self);
            }
        }
    }

    fn show(&mut self, _screen: &Screen) {}

    fn write_log(&mut self, bytes: &[u8]) -> usize {
        if self.script.stalled {
            return 0;
        }
        for &b in bytes {
            self.uart.write_byte(b);
        }
        bytes.len()
    }

    fn wait_link(&mut self) -> bool {
        // Writes are blocking: a link that took nothing is stalled, and stays so until the
        // script (which is not read meanwhile) says otherwise.
        false
    }

    fn pause(&mut self, _ms: u32) {}

    fn entropy(&mut self) -> u64 {
        self.next_seed += 1;
        self.next_seed
    }
}

/// What the command line asks for.
struct Args {
    path: [u8; 128],
    path_len: usize,
    sectors: u32,
    cut: Option<u32>,
    tear: Option<u64>,
}

/// A decimal number.
fn number(text: &[u8]) -> Option<u64> {
    core::str::from_utf8(text).ok()?.parse().ok()
}

/// Reads the command line: `twenty48-qemu flash=PATH [sectors=N] [cut=K] [tear=S]`.
fn args() -> Result<Args, ()> {
    let mut line = [0u8; 256];
    let len = host::command_line(&mut line);
    let mut args = Args {
        path: [0; 128],
        path_len: 0,
        sectors: DEFAULT_SECTORS,
        cut: None,
        tear: None,
    };
    // The first word is the program's name.
    for word in line[..len]
        .split(|&b| b == b' ')
        .filter(|w| !w.is_empty())
        .skip(1)
    {
        let at = word.iter().position(|&b| b == b'=').ok_or(())?;
        let (key, value) = (&word[..at], &word[at + 1..]);
        match key {
            b"flash" if !value.is_empty() && value.len() < args.path.len() => {
                args.path[..value.len()].copy_from_slice(value);
                args.path_len = value.len();
            }
            b"sectors" => {
                args.sectors = number(value)
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|&n| n > 0 && n <= 4096)
                    .ok_or(())?
            }
            b"cut" => {
                args.cut = Some(
                    number(value)
                        .and_then(|n| u32::try_from(n).ok())
                        .filter(|&n| n > 0)
                        .ok_or(())?,
                )
            }
            b"tear" => args.tear = Some(number(value).ok_or(())?),
            _ => return Err(()),
        }
    }
    Ok(args)
}

/// Opens (or creates, all 0xFF) the flash file of `size` bytes.
fn flash_file(path: &[u8], size: usize) -> Result<File, ()> {
    let file = match File::open(path, nr::open::RW_BINARY) {
        Ok(file) => file,
        Err(_) => File::open(path, nr::open::RW_TRUNC_BINARY).map_err(|_| ())?,
    };
    match file.len().map_err(|_| ())? {
        0 => {
            let ones = [0xFFu8; 256];
            for at in (0..size).step_by(ones.len()) {
                file.write_at(at, &ones).map_err(|_| ())?;
            }
            Ok(file)
        }
        n if n == size => Ok(file),
        _ => Err(()),
    }
}

/// Sends the log, then leaves QEMU with `status`.
fn finish(board: &mut QemuBoard, status: u32) -> ! {
    log_ring::drain(board);
    host::exit(status)
}

#[entry]
fn main() -> ! {
    let mut board = QemuBoard {
        uart: Uart0::take(),
        script: Script::new(),
        next_seed: 0,
    };
    let Ok(args) = args() else {
        defmt::error!("t48 qemu bad command line");
        finish(&mut board, 1);
    };
    if args.path_len == 0 {
        defmt::error!("t48 qemu no flash file");
        finish(&mut board, 1);
    }
    let size = args.sectors as usize * SECTOR_SIZE as usize;
    let Ok(file) = flash_file(&args.path[..args.path_len], size) else {
        defmt::error!(
            "t48 qemu flash file refused (not {=u32} sectors)",
            args.sectors
        );
        finish(&mut board, 1);
    };
    let cut = args.cut.map(|k| (k, args.tear.unwrap_or(k as u64)));
    let Ok(mut store) = Store::open(FileFlash::new(file, size, cut)) else {
        defmt::error!("t48 qemu store refused the flash");
        finish(&mut board, 1);
    };
    twenty48_firmware_app::run(
        &mut board,
        twenty48_firmware_app::DEFAULT_RULES,
        &mut store,
        QEMU_DEVICE_ID,
    );
    defmt::info!("t48 qemu flash ops={=u32}", store.flash().ops());
    finish(&mut board, 0)
}

/// The critical section of a single-core Cortex-M: interrupts off, then back as they were.
struct SingleCore;
critical_section::set_impl!(SingleCore);

// SAFETY: one core; masking interrupts excludes every other context.
unsafe impl critical_section::Impl for SingleCore {
    unsafe fn acquire() -> u8 {
        let was_active = cortex_m::register::primask::read().is_active();
        cortex_m::interrupt::disable();
        was_active as u8
    }

    unsafe fn release(was_active: u8) {
        if was_active != 0 {
            // SAFETY: interrupts were enabled before the matching `acquire`.
            unsafe { cortex_m::interrupt::enable() };
        }
    }
}

#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    host::exit(1)
}
