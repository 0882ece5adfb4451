//! The host through semihosting: the command line, one open file, exit with a status.
//!
//! QEMU passes `-semihosting-config ...,arg=A,arg=B` to the program as the command line
//! "A B" (SYS_GET_CMDLINE); files are the host's (SYS_OPEN, SYS_SEEK, SYS_READ, SYS_WRITE,
//! SYS_FLEN, SYS_CLOSE).

use cortex_m_semihosting::{nr, syscall, syscall1};

/// Exit status of a simulated power cut.
pub const EXIT_POWER_CUT: u32 = 3;

/// Leaves QEMU with `status`: SYS_EXIT_EXTENDED with reason ADP_Stopped_ApplicationExit, for
/// which QEMU exits with the subcode as its status.
pub fn exit(status: u32) -> ! {
    const SYS_EXIT_EXTENDED: usize = 0x20;
    const ADP_STOPPED_APPLICATION_EXIT: usize = 0x20026;
    // SAFETY: QEMU reads the two-word parameter block and stops.
    unsafe {
        syscall(
            SYS_EXIT_EXTENDED,
            &[ADP_STOPPED_APPLICATION_EXIT, status as usize],
        );
    }
    loop {
        cortex_m::asm::wfi();
    }
}

/// Copies the command line into `buf`; returns its length (0 when there is none).
pub fn command_line(buf: &mut [u8]) -> usize {
    // The last byte stays for the terminating zero the host writes.
    let mut block = [buf.as_mut_ptr() as usize, buf.len()];
    // SAFETY: the block names a buffer of its stated length, which the host fills.
    let r = unsafe { syscall1(nr::GET_CMDLINE, block.as_mut_ptr() as usize) };
    if r != 0 {
        return 0;
    }
    block[1].min(buf.len())
}

/// A host file, open for reading and writing.
pub struct File {
    handle: usize,
}

/// A failed file operation.
#[derive(Debug)]
pub struct IoError;

impl File {
    /// Opens `path` (`mode`: `nr::open::*`). The path must fit in 127 bytes.
    pub fn open(path: &[u8], mode: usize) -> Result<File, IoError> {
        let mut name = [0u8; 128];
        if path.len() >= name.len() {
            return Err(IoError);
        }
        name[..path.len()].copy_from_slice(path);
        // SAFETY: a zero-terminated name and its length.
        let handle = unsafe { syscall!(OPEN, name.as_ptr(), mode, path.len()) };
        if handle as isize == -1 {
            return Err(IoError);
        }
        Ok(File { handle })
    }

    /// The file's length in bytes.
    pub fn len(&self) -> Result<usize, IoError> {
        // SAFETY: an open handle.
        let n = unsafe { syscall!(FLEN, self.handle) };
        if n as isize == -1 {
            return Err(IoError);
        }
        Ok(n)
    }

    fn seek(&self, at: usize) -> Result<(), IoError> {
        // SAFETY: an open handle.
        match unsafe { syscall!(SEEK, self.handle, at) } {
            0 => Ok(()),
            _ => Err(IoError),
        }
    }

    /// Reads `buf.len()` bytes at `at`.
    pub fn read_at(&self, at: usize, buf: &mut [u8]) -> Result<(), IoError> {
        self.seek(at)?;
        // SAFETY: the host writes at most `buf.len()` bytes into `buf`; returns how many it
        // did not read.
        match unsafe { syscall!(READ, self.handle, buf.as_mut_ptr(), buf.len()) } {
            0 => Ok(()),
            _ => Err(IoError),
        }
    }

    /// Writes `bytes` at `at`.
    pub fn write_at(&self, at: usize, bytes: &[u8]) -> Result<(), IoError> {
        self.seek(at)?;
        // SAFETY: the host reads `bytes.len()` bytes; returns how many it did not write.
        match unsafe { syscall!(WRITE, self.handle, bytes.as_ptr(), bytes.len()) } {
            0 => Ok(()),
            _ => Err(IoError),
        }
    }
}
