//! A player at the emulated board: picks the rules on the start screen, starts a game, reads
//! the seed the board chose from its live log, and presses the buttons for the moves the
//! host plans.

use std::time::Duration;

use twenty48_engine::{Direction, Game, Preset, Rules, Status};
use twenty48_sim_rp2040::{Button, Nano};

use super::decoded;

/// How long a press is held, and the rest after it (the debounce wants 10 ms steady).
pub const HOLD: Duration = Duration::from_millis(16);
/// The rest after a release.
pub const GAP: Duration = Duration::from_millis(22);
/// "You Win!"/"Game Over" (2 s) and the final score (3 s), with a margin.
pub const RESULT_SCREENS: Duration = Duration::from_millis(5300);

/// The button for a direction (the firmware's `BUTTON_DIRECTIONS`).
pub fn button(dir: Direction) -> Button {
    match dir {
        Direction::Up => Button::Up,
        Direction::Down => Button::Down,
        Direction::Left => Button::Left,
        Direction::Right => Button::Right,
    }
}

/// Presses `dir` once.
pub fn press(nano: &mut Nano, dir: Direction) {
    nano.press(button(dir), HOLD, GAP)
        .unwrap_or_else(|e| panic!("{e}"));
}

/// A game as the player played it: its rules and seed (from the board's start frame), every
/// press, the host's game after them, the presses that moved.
#[derive(Clone, Debug)]
pub struct Played {
    /// The board's number for it.
    pub number: u32,
    /// Its rules.
    pub rules: Rules,
    /// Its seed.
    pub seed: u64,
    /// Every press made in it.
    pub presses: Vec<Direction>,
    /// The host's game after those presses.
    pub game: Game,
    /// The presses that moved the board.
    pub moves: Vec<Direction>,
}

impl Played {
    /// Game `number` of the board, with these rules and seed, before any press.
    pub fn new(number: u32, rules: Rules, seed: u64) -> Played {
        Played {
            number,
            rules,
            seed,
            presses: Vec::new(),
            game: Game::new(rules, seed).unwrap(),
            moves: Vec::new(),
        }
    }

    /// Plays `dir` on the host only (the caller presses it on the board).
    pub fn record(&mut self, dir: Direction) {
        self.presses.push(dir);
        if self.game.status() == Status::Playing && self.game.play(dir).unwrap().moved {
            self.moves.push(dir);
        }
    }

    /// Plays `dir` on the host and on the board.
    pub fn press(&mut self, nano: &mut Nano, dir: Direction) {
        self.record(dir);
        press(nano, dir);
    }

    /// Plays until the game ends or `limit` moves, each step pressing the first direction of
    /// `order` that moves (the ones before it are presses that change nothing), or the
    /// direction `choose` picks when given.
    pub fn play(
        &mut self,
        nano: &mut Nano,
        order: [Direction; 4],
        limit: usize,
        mut choose: impl FnMut(&Game) -> Option<Direction>,
    ) {
        while self.game.status() == Status::Playing && self.moves.len() < limit {
            if let Some(dir) = choose(&self.game) {
                self.press(nano, dir);
                continue;
            }
            for dir in order {
                let moved = self.game.clone().play(dir).unwrap().moved;
                self.press(nano, dir);
                if moved {
                    break;
                }
            }
        }
    }
}

/// The rules the start screen shows after boot: arduino (the firmware's `DEFAULT_RULES`).
pub const BOOT_RULES: Preset = Preset::Arduino;

/// Steps the start screen from `shown` to `want` with left and right, then starts the game
/// with up; returns the game as the board's start frame announced it.
pub fn start(nano: &mut Nano, shown: &mut Preset, want: Preset) -> Played {
    let all = Preset::ALL;
    let at = |p: Preset| all.iter().position(|&q| q == p).unwrap();
    while *shown != want {
        press(nano, Direction::Right);
        *shown = all[(at(*shown) + 1) % all.len()];
    }
    let before = decoded(&nano.seen().usb).games.len();
    press(nano, Direction::Up);
    let game = started(nano, before);
    assert_eq!(game.rules, want.rules(), "the board plays the rules picked");
    game
}

/// Waits for the start frame of the game after the first `before` games of the live log,
/// and returns that game, with no presses yet.
pub fn started(nano: &mut Nano, before: usize) -> Played {
    // The start frame goes out once the board's screen is drawn (up to 120 ms).
    let mut capture = decoded(&nano.seen().usb);
    for _ in 0..100 {
        if capture.games.len() > before {
            break;
        }
        nano.run(Duration::from_millis(10)).unwrap();
        capture = decoded(&nano.seen().usb);
    }
    assert_eq!(capture.games.len(), before + 1, "a start frame after up");
    let g = capture.games.last().unwrap();
    Played::new(g.number, g.rules, g.seed)
}
