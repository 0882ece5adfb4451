//! The interactive terminal: raw mode, the alternate screen and a hidden cursor, always given
//! back on quit, on an error, on Ctrl-C (a key in raw mode, so the program sees it and leaves
//! through the same path), on a panic (a hook restores the terminal before the message), and
//! on SIGINT, SIGTERM or SIGHUP sent from outside (the terminal is restored and the process
//! exits with status 130; every move is already on disk in the journal).

use std::io::{self, Write};
use std::sync::Once;

use crate::palette::ColorMode;
use crate::screen::Screen;
use crossterm::cursor::{Hide, MoveTo, Show};
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
            let _ = ctrlc::set_handler(|| {
                restore();
                eprintln!("twenty48: interrupted; every move so far is in the journal");
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
