//! A player's pace: presses made on a clock, whatever the board is doing (drawing, writing
//! its store, sending its log), and the time from a release to the screen drawn.
//!
//! The host knows what each press must do: the same presses on the host's game from the
//! game's seed make the moves the board must log, in order; a press that moves nothing makes
//! no move on either side, and the board says so (`t48 press moved nothing dir=D`), so that
//! every press shows in its log.

use twenty48_devicelog::Event;
use twenty48_engine::{Direction, Game};

use super::plan::{presses as planned, Plan};
use super::player::{button, Player, WITHIN_NS};

/// Presses on a clock: one every `every_ms`, each held `hold_ms` (bounce included).
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// Milliseconds from one press to the next.
    pub every_ms: u64,
    /// Milliseconds each is held closed.
    pub hold_ms: u64,
}

/// A game played at a pace.
#[derive(Clone, Debug)]
pub struct Paced {
    /// The device's number for the game.
    pub number: u32,
    /// The presses, in order (the one that started the game not counted).
    pub presses: Vec<Direction>,
    /// The moves the host's game makes of them.
    pub expected: Vec<Direction>,
    /// The moves the board logged for the game.
    pub logged: Vec<Direction>,
    /// Every press as the host's game takes it, in order: its direction and whether it moves.
    pub expected_presses: Vec<(Direction, bool)>,
    /// Every press as the board's log tells it, in order: a move frame (moved) or a `t48 press
    /// moved nothing` frame.
    pub logged_presses: Vec<(Direction, bool)>,
}

/// The presses of game `number` in `events`: its move frames and the `t48 press moved
/// nothing dir=D` frames among them, in order.
pub fn presses_logged(events: &[Event], number: u32) -> Vec<(Direction, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { game, mv } if *game == number => Some((mv.dir, true)),
            Event::Message(m) => m
                .text
                .strip_prefix("t48 press moved nothing dir=")
                .and_then(|code| code.trim().parse().ok())
                .and_then(Direction::from_code)
                .map(|d| (d, false)),
            _ => None,
        })
        .collect()
}

/// The time from a release to the end of the screen's SPI traffic that followed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// The release, ns of emulated time.
    pub release_ns: u64,
    /// From the release to the end of the last SPI byte of the screen it brought.
    pub drawn_ns: u64,
}

impl Player {
    /// From the start screen: a press of `starter` starts a game (waited for), then the
    /// first `n` presses of `plan` for its seed are made at `pace` without waiting for the
    /// board, then the board is let finish. Returns the presses as the host's game takes them
    /// and as the board logged them.
    pub fn paced(&mut self, starter: Direction, plan: Plan, n: usize, pace: Pace) -> Paced {
        let name = self.sim.image().board.name;
        let from = self.events.len();
        let (number, rules, seed) = self
            .start(starter)
            .unwrap_or_else(|| panic!("{name}: the press started no game"));
        let presses: Vec<Direction> = planned(plan, rules, seed)
            .into_iter()
            .map(|(d, _)| d)
            .take(n)
            .collect();
        let presses = &presses[..];
        let mut game = Game::new(rules, seed).expect("the device's rules are valid");
        let mut expected_presses = Vec::new();
        for &d in presses {
            if game.status().is_finished() {
                break;
            }
            expected_presses.push((d, game.play(d).is_ok_and(|o| o.moved)));
        }
        let start = self.sim.now_ns();
        for (i, &d) in presses.iter().enumerate() {
            let at = start + i as u64 * pace.every_ms * 1_000_000;
            if self.sim.now_ns() < at {
                self.sim
                    .run(at, 0, 0)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            self.sim
                .tap(button(d), pace.hold_ms)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            self.follow(false);
        }
        self.sim
            .settle(crate::DEBOUNCE_MS + 1, WITHIN_NS)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        self.follow(true);
        let logged_presses = presses_logged(&self.events[from..], number);
        let moves = |all: &[(Direction, bool)]| -> Vec<Direction> {
            all.iter().filter(|p| p.1).map(|p| p.0).collect()
        };
        Paced {
            number,
            presses: presses.to_vec(),
            expected: moves(&expected_presses),
            logged: moves(&logged_presses),
            expected_presses,
            logged_presses,
        }
    }

    /// A press of `d` from the board waiting for input, and the time from its release to
    /// the end of the screen traffic it brought within `window_ns` of the release (a
    /// move's board; at a game's end, the result screen, which comes before the final
    /// score's 2 s later). `None` when nothing was drawn.
    pub fn timed_press(&mut self, d: Direction, window_ns: u64) -> Option<Drawn> {
        let name = self.sim.image().board.name;
        let seen = self.sim.spi.len();
        let release_ns = self
            .sim
            .tap(button(d), super::player::HOLD_MS)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        self.sim
            .settle(crate::DEBOUNCE_MS + 1, WITHIN_NS)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        self.follow(true);
        let last = self.sim.spi[seen..]
            .iter()
            .map(|b| b.at_ns)
            .filter(|&t| t >= release_ns && t < release_ns + window_ns)
            .max()?;
        // The last byte ends 8 clocks after it starts.
        let byte_ns = 8 * 1_000_000_000 / u64::from(self.sim.image().board.spi_hz);
        Some(Drawn {
            release_ns,
            drawn_ns: last + byte_ns - release_ns,
        })
    }
}

/// Presses that go round the board, a corner kept: left, down, right, down, in turn, `n` of
/// them (a game of the arduino rules is not over in 24).
pub fn round(n: usize) -> Vec<Direction> {
    [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Down,
    ]
    .into_iter()
    .cycle()
    .take(n)
    .collect()
}

/// The median and the largest of `ns` (sorted in place), in ms with a tenth.
pub fn median_and_worst_ms(ns: &mut [u64]) -> (f64, f64) {
    ns.sort_unstable();
    let ms = |t: u64| t as f64 / 1e6;
    match ns.last() {
        None => (0.0, 0.0),
        Some(&last) => (ms(ns[ns.len() / 2]), ms(last)),
    }
}
