//! A panic inside the screen gives the terminal back before the panic message is printed.
//! The test runs its own `panic_child` test in a pseudo-terminal and reads the terminal's
//! state afterwards.
#![cfg(unix)]

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use twenty48_tui::{Screen, Terminal};

#[test]
#[ignore = "run by terminal_is_restored_after_a_panic, inside a pseudo-terminal"]
fn panic_child() {
    let mut term = Terminal::enter().expect("a terminal");
    term.draw(&Screen::default()).unwrap();
    panic!("boom inside the screen");
}

#[test]
fn terminal_is_restored_after_a_panic() {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty fills two descriptors; no name or settings are passed.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned here only.
    let (mut master, slave) = unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--ignored",
        "--exact",
        "panic_child",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("TERM", "xterm-256color")
    .env("RUST_BACKTRACE", "0")
    .stdin(Stdio::from(slave.try_clone().unwrap()))
    .stdout(Stdio::from(slave.try_clone().unwrap()))
    .stderr(Stdio::from(slave));
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    drop(cmd);
    let status = child.wait().unwrap();
    assert!(!status.success(), "the child test panics");
    // The child is gone: read what it wrote (EIO or 0 ends it).
    // SAFETY: O_NONBLOCK on an open descriptor we own.
    unsafe {
        let flags = libc::fcntl(master.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(master.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = master.read(&mut buf) {
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..n]);
    }
    let out = String::from_utf8_lossy(&bytes);
    let entered = out
        .find("\x1b[?1049h")
        .expect("entered the alternate screen");
    // The hook leaves first; unwinding drops the Terminal, which leaves again (harmless).
    let left = entered
        + out[entered..]
            .find("\x1b[?1049l")
            .expect("left the alternate screen");
    let message = out
        .find("boom inside the screen")
        .expect("the panic message");
    assert!(
        entered < left && left < message,
        "restored before the message: {out:?}"
    );
    assert!(
        out[..message].contains("\x1b[?25h"),
        "cursor shown again: {out:?}"
    );
    // SAFETY: tcgetattr fills a plain struct for an open descriptor.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::tcgetattr(master.as_raw_fd(), &mut t) }, 0);
    assert!(
        t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0,
        "cooked mode again"
    );
}
