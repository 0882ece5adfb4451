//! The test script and host requests read from a board's serial link, one byte at a time
//! (the QEMU board's UART0, the AVR boards' USART0).
//!
//! - `U` `R` `D` `L` (either case): a button released, as a move towards that direction
//!   (on the start screen, any of them starts a game: `arduino` rules, seeds 1, 2, 3, ...).
//! - `{new seed=N rules=NAME win=E}`: start a game now (an unfinished game is logged as
//!   abandoned). Every key is optional: `seed` defaults to 1001, 1002, ..., `rules`
//!   (`arduino`, `classic`, `console`) to `arduino`; `win=E` sets the winning tile to 2^E
//!   (`win=0`: no win), keeping whether the preset's win ends the game (a 2048-style win that
//!   ends, if the preset has none). A bad key or value: error frame, code 2.
//! - `{end}`: end the game in progress as abandoned (its end frame says result 0) and go
//!   back to the start screen.
//! - `{stall}` / `{unstall}`: the link stops / starts taking log bytes (the host is not
//!   reading): the RAM ring fills and drops frames, reported later by a lost frame.
//! - Host requests: `{hello}`, `{pull}`, `{pull all}`, `{ack N C}`; any other text in braces
//!   is answered with an error frame (code 1 unknown, 2 malformed or longer than 48 bytes).
//! - `q`, `Q` or byte 0x04: the script ends ([`Input::End`]; the QEMU board exits QEMU).
//! - `#` to the end of the line is a comment (outside braces); anything else is ignored.

use twenty48_deviceproto::MAX_REQUEST;
use twenty48_engine::{Direction, Preset, Rules, Win};

use crate::board::{GameSetup, Input};
use crate::framer::{request_input, Framed, Framer, BROKEN_REQUEST};

/// The longest text in braces (a `{new ...}` with a 20-digit seed fits).
const MAX_COMMAND: usize = 64;

/// The parser's state between bytes.
#[derive(Debug)]
pub struct Script {
    framer: Framer<MAX_COMMAND>,
    in_comment: bool,
    default_seed: u64,
    /// `{stall}` was read (and no `{unstall}` since).
    pub stalled: bool,
}

impl Default for Script {
    fn default() -> Self {
        Self::new()
    }
}

impl Script {
    /// A parser at the start of a script.
    pub const fn new() -> Script {
        Script {
            framer: Framer::new(),
            in_comment: false,
            default_seed: 1_000,
            stalled: false,
        }
    }

    /// Reads one byte; returns the input it completes, if any.
    pub fn feed(&mut self, byte: u8) -> Option<Input> {
        if self.in_comment {
            self.in_comment = byte != b'\n';
            return None;
        }
        if !self.framer.inside() && byte == b'#' {
            self.in_comment = true;
            return None;
        }
        let text = match self.framer.feed(byte) {
            Framed::Pending => return None,
            Framed::Broken => return Some(BROKEN_REQUEST),
            Framed::Outside(b'q' | b'Q' | 0x04) => return Some(Input::End),
            Framed::Outside(b) => return Direction::from_letter(b as char).map(Input::Press),
            Framed::Text(text) => text,
        };
        let mut copy = [0u8; MAX_COMMAND];
        copy[..text.len()].copy_from_slice(text);
        let text = &copy[..text.len()];
        self.command(text)
    }

    #[inline(never)]
    fn command(&mut self, text: &[u8]) -> Option<Input> {
        let mut words = text.split(|&b| b == b' ').filter(|w| !w.is_empty());
        match words.next() {
            Some(b"new") => Some(self.new_game(words).unwrap_or(BROKEN_REQUEST)),
            Some(b"end") if words.next().is_none() => Some(Input::Abandon),
            Some(b"stall") if words.next().is_none() => {
                self.stalled = true;
                None
            }
            Some(b"unstall") if words.next().is_none() => {
                self.stalled = false;
                None
            }
            _ if text.len() > MAX_REQUEST => Some(BROKEN_REQUEST),
            _ => Some(request_input(text)),
        }
    }

    /// `{new ...}`'s keys; `None` when one is bad. Read as bytes (no UTF-8 check, no
    /// `str::parse`: small code for the Arduino boards), with `str::parse`'s rules for the
    /// numbers.
    #[inline(never)]
    fn new_game<'a>(&mut self, words: impl Iterator<Item = &'a [u8]>) -> Option<Input> {
        self.default_seed += 1;
        let mut seed = self.default_seed;
        let mut rules = Rules::ARDUINO;
        let mut win: Option<u8> = None;
        for word in words {
            let eq = word.iter().position(|&b| b == b'=')?;
            let (key, value) = (&word[..eq], &word[eq + 1..]);
            match key {
                b"seed" => seed = decimal(value)?,
                b"rules" => {
                    rules = Preset::ALL
                        .into_iter()
                        .find(|p| p.name().as_bytes() == value)?
                        .rules()
                }
                b"win" => win = Some(u8::try_from(decimal(value)?).ok()?),
                _ => return None,
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

/// A decimal number as `str::parse::<u64>` reads it (an optional `+`, then at least one digit;
/// `None` past `u64::MAX`).
fn decimal(text: &[u8]) -> Option<u64> {
    let digits = text.strip_prefix(b"+").unwrap_or(text);
    if digits.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() || value > u64::MAX / 10 {
            return None;
        }
        value = (value * 10).checked_add(u64::from(b - b'0'))?;
    }
    Some(value)
}
