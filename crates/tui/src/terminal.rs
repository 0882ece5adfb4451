//! The interactive terminal: raw mode, the alternate screen and a hidden cursor, always given
//! back on quit, on an error, on Ctrl-C (a key in raw mode, so the program sees it and leaves
//! through the same path), on a panic (a hook restores the terminal before the message), and
//! on SIGINT, SIGTERM or SIGHUP sent from outside (the terminal is restored and the process
//! exits with status 130; every move is already on disk in the journal). A terminal that goes
//! away without a signal (end of file or a hang-up on stdin) is noticed by
//! [`Terminal::read_event`], which then returns `None` instead of waiting for ever.

use std::io::{self, Write};
use std::sync::Once;
use std::time::Duration;

use crate::palette::ColorMode;
use crate::screen::Screen;
use crossterm::cursor::{Hide, MoveTo, Show};
use crossterm::event::{self, Event};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::{execute, queue};

/// Owns the terminal while a screen is up; dropping it restores the terminal.
///
/// ```no_run
/// use twenty48_tui::{Screen, Terminal};
///
/// let mut term = Terminal::enter()?;
/// term.draw(&Screen::default())?;
/// drop(term); // cooked mode, the cursor and the main screen are back
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Terminal {
    colors: ColorMode,
}

fn restore() {
    let mut out = io::stdout();
    let _ = execute!(out, Show, LeaveAlternateScreen);
    let _ = disable_raw_mode();
}

impl Terminal {
    /// Enters raw mode and the alternate screen, and hides the cursor. A panic hook that
    /// restores the terminal before the panic message is installed once per process.
    pub fn enter() -> io::Result<Terminal> {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                restore();
                previous(info);
            }));
            // A signal from outside (kill, a closed terminal window): give the terminal back
            // and leave. If a handler is already installed, it stays in charge.
            // Nothing here may panic or wait: the terminal may be gone, so writes fail (a
            // panic would end this thread and leave the process running).
            let _ = ctrlc::set_handler(|| {
                restore();
                let _ = writeln!(
                    io::stderr(),
                    "twenty48: interrupted; every move so far is in the journal"
                );
                std::process::exit(130);
            });
        });
        enable_raw_mode()?;
        let mut out = io::stdout();
        if let Err(e) = execute!(out, EnterAlternateScreen, Hide) {
            restore();
            return Err(e);
        }
        Ok(Terminal {
            colors: ColorMode::from_env(),
        })
    }

    /// Draws in `colors` from now on (instead of what the environment gave: `--color`).
    pub fn set_colors(&mut self, colors: ColorMode) {
        self.colors = colors;
    }

    /// The terminal's size as (columns, rows); `None` when it cannot be told.
    pub fn size(&self) -> Option<(u16, u16)> {
        crossterm::terminal::size().ok()
    }

    /// Waits up to `timeout` for an event; `Ok(None)` when none came, or when the terminal
    /// is gone (the next [`Terminal::read_event`] then says so).
    pub fn poll_event(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        if event::poll(Duration::ZERO)? {
            return event::read().map(Some);
        }
        match wait_for_input(timeout)? {
            Input::Ready if event::poll(Duration::from_millis(100))? => event::read().map(Some),
            _ => Ok(None),
        }
    }

    /// Waits for the next event (a key, a resize). `None` when the terminal is gone: stdin
    /// hung up, failed or reached its end. The caller should then leave, keeping what is on
    /// disk; reading on would only see end of file again and again.
    pub fn read_event(&mut self) -> io::Result<Option<Event>> {
        loop {
            if event::poll(Duration::ZERO)? {
                return event::read().map(Some);
            }
            match wait_for_input(Duration::from_millis(250))? {
                Input::Gone => return Ok(None),
                Input::Ready => {
                    if event::poll(Duration::from_millis(100))? {
                        return event::read().map(Some);
                    }
                }
                // A resize is an event crossterm reports without input.
                Input::Nothing => {}
            }
        }
    }

    /// Draws a screen from the top-left corner, clearing what is below it.
    pub fn draw(&mut self, screen: &Screen) -> io::Result<()> {
        let mut out = io::stdout().lock();
        queue!(out, MoveTo(0, 0))?;
        out.write_all(screen.ansi(self.colors).as_bytes())?;
        queue!(out, Clear(ClearType::FromCursorDown))?;
        out.flush()
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        restore();
    }
}

/// What stdin has after a wait.
enum Input {
    /// Bytes to read.
    Ready,
    /// Nothing yet.
    Nothing,
    /// End of file, a hang-up or an error: the terminal is gone.
    Gone,
}

/// Waits up to `timeout` for stdin to have bytes or to be gone.
#[cfg(unix)]
fn wait_for_input(timeout: Duration) -> io::Result<Input> {
    let mut fd = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call.
    let rc = unsafe { libc::poll(&mut fd, 1, timeout.as_millis() as libc::c_int) };
    if rc < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted {
            Ok(Input::Nothing)
        } else {
            Err(e)
        };
    }
    if rc == 0 {
        return Ok(Input::Nothing);
    }
    if fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
        return Ok(Input::Gone);
    }
    // Readable with no bytes waiting is end of file.
    let mut waiting: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int.
    let rc = unsafe { libc::ioctl(libc::STDIN_FILENO, libc::FIONREAD, &mut waiting) };
    Ok(if rc < 0 || waiting <= 0 {
        Input::Gone
    } else {
        Input::Ready
    })
}

/// Elsewhere (Windows' console) crossterm's own wait is used: it sees no end of file, but a
/// console that is gone fails the wait, which is taken as the terminal gone (as on Unix).
#[cfg(not(unix))]
fn wait_for_input(timeout: Duration) -> io::Result<Input> {
    Ok(match event::poll(timeout) {
        Ok(true) => Input::Ready,
        Ok(false) => Input::Nothing,
        Err(_) => Input::Gone,
    })
}
