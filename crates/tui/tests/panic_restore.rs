//! A panic inside the screen gives the terminal back before the panic message is printed.
//! The test runs its own `panic_child` test in a pseudo-terminal and reads the terminal's
//! state afterwards.
#![cfg(unix)]

use std::io::Read;
use std::os::fd::AsRawFd;
use std::process::Command;

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
    // Non-blocking: once the child is gone, what it wrote is read to the end.
    let pty = twenty48_testkit::pty::Pty::open(twenty48_testkit::pty::Options {
        nonblocking: true,
        ..Default::default()
    })
    .expect("a pseudo-terminal");
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--ignored",
        "--exact",
        "panic_child",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("TERM", "xterm-256color")
    .env("RUST_BACKTRACE", "0");
    let (mut child, mut master) = pty.spawn(&mut cmd).unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the child test panics");
    // The child is gone: read what it wrote (EIO, 0 or nothing more ends it).
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
