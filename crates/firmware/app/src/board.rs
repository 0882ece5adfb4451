//! The board interface: everything the application needs from the hardware.

use twenty48_deviceproto::{ErrorCode, Request};
use twenty48_engine::{Direction, Rules};

use crate::screen::Screen;

/// The rules and seed of a game to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// The rules to play by.
    pub rules: Rules,
    /// The seed of the spawns.
    pub seed: u64,
}

/// What the player (or a test script) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A button was released: a move towards this direction (on the start screen: start a
    /// game with the rules shown and a seed from [`Board::entropy`]; with
    /// [`Board::PICKS_RULES`], left and right change the rules shown instead).
    Press(Direction),
    /// Start a game with these rules and seed now. A game in progress ends as abandoned.
    /// Only the QEMU board produces this (the real board has no way to ask for it).
    NewGame(GameSetup),
    /// End the game in progress as abandoned and go back to the start screen (ignored on
    /// the start screen). Only the QEMU board produces this.
    Abandon,
    /// A request from the host (`{hello}`, `{pull}`, `{pull all}`, `{ack N C}`): answered at
    /// once, wherever the application waits for input.
    Request(Request),
    /// Text in braces from the host that is no request the device knows, or is malformed or
    /// too long: answered with an error frame of this code.
    BadRequest(ErrorCode),
    /// No more input will come (QEMU: the script ended). The application returns.
    End,
}

/// A board: buttons in, screen out, log bytes out, entropy in.
pub trait Board {
    /// Whether the player picks the rules on the start screen: left and right step through
    /// the presets (classic, arduino, console, shown on the screen), up and down start the
    /// game. Boards a person plays set it (the Nano RP2040 Connect); by default every button
    /// starts a game with the rules shown, which the QEMU scripts rely on (a press on the
    /// start screen starts an arduino game).
    const PICKS_RULES: bool = false;

    /// Waits for the next input. Boards with a USB or serial link keep it serviced while
    /// waiting, and call back [`crate::log_ring::drain`] so the log keeps flowing.
    fn next_input(&mut self) -> Input;

    /// Shows a screen.
    fn show(&mut self, screen: &Screen);

    /// Sends encoded log bytes; returns how many were taken (the rest stay in the ring
    /// buffer and are offered again later).
    fn write_log(&mut self, bytes: &[u8]) -> usize;

    /// Services the log link for about a millisecond while the application waits for the
    /// host to take log bytes (a pull reply larger than the RAM ring). Returns `false` when
    /// the link takes no bytes at all (nobody reading): the application then stops waiting
    /// and lets frames drop, which it reports with a lost frame.
    fn wait_link(&mut self) -> bool;

    /// Waits about `ms` milliseconds (a result screen stays up that long); the QEMU board
    /// does not wait.
    fn pause(&mut self, ms: u32);

    /// A seed for a new game, drawn from the board's entropy.
    fn entropy(&mut self) -> u64;
}
