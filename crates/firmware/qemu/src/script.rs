//! The input script read from UART0, one byte at a time.
//!
//! - `U` `R` `D` `L` (either case): a button released, as a move towards that direction
//!   (on the start screen, any of them starts a game: `arduino` rules, seeds 1, 2, 3, ...).
//! - `{new seed=N rules=NAME win=E}`: start a game now (an unfinished game is logged as
//!   abandoned). Every key is optional: `seed` defaults to the next start-screen seed,
//!   `rules` (`arduino`, `classic`, `console`) to `arduino`; `win=E` sets the winning tile
//!   to 2^E (`win=0`: no win), keeping whether the preset's win ends the game (a 2048-style
//!   win that ends, if the preset has none).
//! - `{end}`: end the game in progress as abandoned (its end frame says result 0) and go
//!   back to the start screen.
//! - `q`, `Q` or byte 0x04: the script ends; the firmware exits QEMU.
//! - `#` to the end of the line is a comment; anything else is ignored.

use twenty48_firmware_app::engine::{Direction, Preset, Rules, Win};
use twenty48_firmware_app::{GameSetup, Input};

const MAX_COMMAND: usize = 64;

/// The parser's state between bytes.
pub struct Script {
    command: [u8; MAX_COMMAND],
    len: usize,
    in_command: bool,
    in_comment: bool,
    default_seed: u64,
}

impl Script {
    /// A parser at the start of a script.
    pub const fn new() -> Script {
        Script {
            command: [0; MAX_COMMAND],
            len: 0,
            in_command: false,
            in_comment: false,
            default_seed: 1_000,
        }
    }

    /// Reads one byte; returns the input it completes, if any.
    pub fn feed(&mut self, byte: u8) -> Option<Input> {
        if self.in_comment {
            self.in_comment = byte != b'\n';
            return None;
        }
        if self.in_command {
            if byte == b'}' {
                self.in_command = false;
                let len = self.len;
                self.len = 0;
                let buf = self.command;
                let text = core::str::from_utf8(&buf[..len]).ok()?;
                return self.command(text);
            }
            if self.len < MAX_COMMAND {
                self.command[self.len] = byte;
                self.len += 1;
            }
            return None;
        }
        match byte {
            b'{' => {
                self.in_command = true;
                self.len = 0;
                None
            }
            b'#' => {
                self.in_comment = true;
                None
            }
            b'q' | b'Q' | 0x04 => Some(Input::End),
            _ => Direction::from_letter(byte as char).map(Input::Press),
        }
    }

    fn command(&mut self, text: &str) -> Option<Input> {
        let mut words = text.split_ascii_whitespace();
        match words.next()? {
            "new" => {}
            "end" => return Some(Input::Abandon),
            _ => {
                defmt::warn!("t48 unknown command");
                return None;
            }
        }
        self.default_seed += 1;
        let mut seed = self.default_seed;
        let mut rules = Rules::ARDUINO;
        let mut win: Option<u8> = None;
        for word in words {
            let (key, value) = word.split_once('=')?;
            match key {
                "seed" => seed = value.parse().ok()?,
                "rules" => rules = Preset::from_name(value)?.rules(),
                "win" => win = Some(value.parse().ok()?),
                _ => {
                    defmt::warn!("t48 unknown command key");
                    return None;
                }
            }
        }
        if let Some(exponent) = win {
            rules.win = match exponent {
                0 => None,
                e => Some(Win {
                    exponent: e,
                    ends_game: rules.win.is_none_or(|w| w.ends_game),
                }),
            };
        }
        Some(Input::NewGame(GameSetup { rules, seed }))
    }
}
