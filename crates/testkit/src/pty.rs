//! Pseudo-terminals: a serial port for a board on an emulator (or a fake one), or the
//! terminal a program under test runs in.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// How a pseudo-terminal is opened.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Raw mode on the terminal's end (no echo, no line discipline: bytes pass as they are),
    /// as a serial port; else a terminal's usual cooked mode, as a program's.
    pub raw: bool,
    /// The window size, rows and columns (`None`: the kernel's default, 0 by 0).
    pub size: Option<(u16, u16)>,
    /// Reads and writes on the host end return at once instead of waiting.
    pub nonblocking: bool,
}

/// A pseudo-terminal: the host end (the emulator's, the test's) and the terminal end a
/// program opens by its path or runs in. Both close when it is dropped.
#[derive(Debug)]
pub struct Pty {
    /// The host end: what the terminal end writes is read here, and the other way round.
    pub host: File,
    /// The terminal end, kept open so that the terminal stays up between a program's opens
    /// and closes of its path.
    pub terminal: OwnedFd,
    path: PathBuf,
}

impl Pty {
    /// Opens a pseudo-terminal.
    ///
    /// # Errors
    /// When the system has none to give, or refuses a setting.
    pub fn open(options: Options) -> io::Result<Pty> {
        let (mut host, mut terminal): (libc::c_int, libc::c_int) = (-1, -1);
        let mut size = options.size.map(|(rows, cols)| libc::winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        });
        // Mutable pointers: macOS declares them so (Linux takes const ones, which they
        // coerce to).
        let size_ptr = size
            .as_mut()
            .map_or(std::ptr::null_mut(), |s| s as *mut libc::winsize);
        // SAFETY: openpty writes two descriptors into the given ints; no name buffer is
        // passed (the name is asked for below, thread-safely), the size is read only.
        let rc = unsafe {
            libc::openpty(
                &mut host,
                &mut terminal,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                size_ptr,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just opened and are owned here only.
        let (host, terminal) = unsafe { (File::from_raw_fd(host), OwnedFd::from_raw_fd(terminal)) };
        // SAFETY: termios is plain data filled by tcgetattr before it is read; fcntl gets
        // open descriptors.
        unsafe {
            if options.raw {
                let mut t: libc::termios = std::mem::zeroed();
                if libc::tcgetattr(terminal.as_raw_fd(), &mut t) != 0 {
                    return Err(io::Error::last_os_error());
                }
                libc::cfmakeraw(&mut t);
                if libc::tcsetattr(terminal.as_raw_fd(), libc::TCSANOW, &t) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if options.nonblocking {
                let flags = libc::fcntl(host.as_raw_fd(), libc::F_GETFL);
                if libc::fcntl(host.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            // No child inherits the host end.
            libc::fcntl(host.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC);
        }
        // ttyname_r, not ttyname: tests run on threads, and ttyname's one static buffer once
        // gave two boards the same path.
        let mut name = [0 as libc::c_char; 128];
        // SAFETY: the descriptor is open; the buffer's length is passed with it.
        let rc = unsafe { libc::ttyname_r(terminal.as_raw_fd(), name.as_mut_ptr(), name.len()) };
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        // SAFETY: ttyname_r returned 0, so the buffer holds a NUL-terminated name.
        let path = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) };
        let path = PathBuf::from(path.to_string_lossy().into_owned());
        Ok(Pty {
            host,
            terminal,
            path,
        })
    }

    /// The terminal end's path (`/dev/pts/N`), for a program that opens it (`--port`).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes `command` run in this terminal, as in a terminal window: its standard input,
    /// output and error are the terminal, and the terminal is its controlling terminal (a
    /// session of its own).
    ///
    /// # Errors
    /// When the terminal's descriptor cannot be duplicated.
    pub fn run_in(&self, command: &mut Command) -> io::Result<()> {
        command
            .stdin(Stdio::from(self.terminal.try_clone()?))
            .stdout(Stdio::from(self.terminal.try_clone()?))
            .stderr(Stdio::from(self.terminal.try_clone()?));
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        Ok(())
    }

    /// Starts `command` in this terminal ([`Pty::run_in`]) and gives back the child and the
    /// host end. The terminal end is closed here, so that once the child and its own
    /// children are gone, reading the host end ends (an error, EIO, or 0).
    ///
    /// # Errors
    /// When the command cannot be started.
    pub fn spawn(self, command: &mut Command) -> io::Result<(Child, File)> {
        self.run_in(command)?;
        let child = command.spawn()?;
        // The command keeps copies of the terminal end for its standard streams: they go
        // with it (the child has its own).
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        Ok((child, self.host))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// Bytes written at one end come out at the other, unchanged in raw mode; the path
    /// names a terminal that can be opened; two terminals opened at once have two paths.
    #[test]
    fn bytes_pass_both_ways_and_each_terminal_has_its_path() {
        let raw = Options {
            raw: true,
            ..Options::default()
        };
        let mut a = Pty::open(raw).unwrap();
        let b = Pty::open(raw).unwrap();
        assert_ne!(a.path(), b.path());
        let mut port = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(a.path())
            .unwrap();
        let bytes: Vec<u8> = (0..=255).collect();
        a.host.write_all(&bytes).unwrap();
        let mut got = vec![0; 256];
        port.read_exact(&mut got).unwrap();
        assert_eq!(got, bytes, "raw: no byte changed");
        port.write_all(b"{pull}\n").unwrap();
        let mut back = [0; 7];
        a.host.read_exact(&mut back).unwrap();
        assert_eq!(&back, b"{pull}\n");
    }

    /// A program run in the terminal writes to it and finds it its terminal; reading the
    /// host end ends once the program is gone.
    #[test]
    fn a_program_runs_in_the_terminal_and_its_end_ends_the_reading() {
        let pty = Pty::open(Options {
            size: Some((24, 80)),
            ..Options::default()
        })
        .unwrap();
        let mut command = Command::new("sh");
        command.args(["-c", "test -t 0 && stty size"]);
        let (mut child, mut host) = pty.spawn(&mut command).unwrap();
        let mut out = Vec::new();
        let mut buf = [0; 256];
        // EIO (or 0) once the child is gone: the loop ends.
        while let Ok(n) = host.read(&mut buf) {
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        assert!(child.wait().unwrap().success());
        assert_eq!(String::from_utf8_lossy(&out).trim(), "24 80");
    }
}
