//! A person at a simulated board: presses its buttons, talks to its USART as a host, reads
//! its log as it comes (the firmware's ELF decodes it) and watches its LCD.

use crate::{Button, Image, Options, Panel, Sim, Stack, Stop, DEBOUNCE_MS};
use twenty48_devicelog::{CaptureDecoder, DeviceFact, Event};
use twenty48_engine::{Direction, Game, Rules};

use super::plan::{presses, Plan};

/// How long (emulated) the firmware may take to come back to its buttons: a move with its
/// store writes, frames and screen, or a game's end with its result screens (5 s).
pub const WITHIN_NS: u64 = 12_000_000_000;
/// How long a person holds a button (ms).
pub const HOLD_MS: u64 = 25;
/// A picture of the panel counts once the SPI has been quiet this long: after every band
/// of a screen (a band's bytes go out with at most the 80 us instruction time between
/// them, and the next band is rastered for longer than this).
pub const QUIET_NS: u64 = 300_000;

/// The button of a direction.
pub fn button(d: Direction) -> Button {
    match d {
        Direction::Up => Button::Up,
        Direction::Down => Button::Down,
        Direction::Left => Button::Left,
        Direction::Right => Button::Right,
    }
}

/// A game played by presses, as the host knows it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The device's number for it.
    pub number: u32,
    /// Its rules and seed, from its start frame.
    pub rules: Rules,
    /// The seed.
    pub seed: u64,
    /// The moves that changed the board, in order.
    pub moves: Vec<Direction>,
    /// Presses made in the game (the one that started it not counted).
    pub presses: usize,
    /// The host's game after those moves.
    pub game: Game,
}

/// A board powered on, and what it did so far.
pub struct Player {
    /// The simulated board.
    pub sim: Sim,
    decoder: CaptureDecoder,
    fed: usize,
    /// Everything its log said, in order.
    pub events: Vec<Event>,
    /// Its LCD.
    pub panel: Panel,
}

impl Player {
    /// The stack's figures, once checked: off the static data, with at least the board's
    /// [`stack_reserve`](twenty48_sim_avr::Board::stack_reserve) never touched (the Uno: 128
    /// bytes of its 2 KB, issue 25).
    pub fn stack_kept(&mut self) -> Stack {
        let board = self.sim.image().board;
        let stack = self.sim.stack().unwrap_or_else(|e| panic!("{e}"));
        assert!(
            self.sim.stack_breach.is_none() && stack.untouched >= i32::from(board.stack_reserve),
            "{}: the stack came within {} bytes of the static data: {:?} {stack:?}",
            board.name,
            board.stack_reserve,
            self.sim.stack_breach
        );
        stack
    }

    /// Powers the board on and runs it until it waits for input (booted); `None` when
    /// the power was cut first.
    pub fn boot(image: &Image, options: &Options) -> Player {
        let sim = Sim::start(image, options).unwrap_or_else(|e| panic!("{e}"));
        let decoder = CaptureDecoder::new(&image.elf_bytes).expect("the ELF has a defmt table");
        let mut player = Player {
            sim,
            decoder,
            fed: 0,
            events: Vec::new(),
            panel: Panel::new(QUIET_NS, image.board.spi_hz),
        };
        let stop = player
            .sim
            .settle(1, 3_000_000_000)
            .unwrap_or_else(|e| panic!("{e}"));
        player.follow(stop == Stop::Idle);
        assert!(matches!(stop, Stop::Idle | Stop::Cut));
        player
    }

    /// Reads what the board sent and drew since the last call (`idle`: the firmware waits
    /// for input, its screen is whole); returns the new events.
    pub fn follow(&mut self, idle: bool) -> Vec<Event> {
        let new = self.decoder.feed(&self.sim.uart[self.fed..]);
        self.fed = self.sim.uart.len();
        let drawn = if idle {
            self.panel.idle(&self.sim)
        } else {
            self.panel.update(&self.sim)
        };
        if let Err(e) = drawn {
            panic!(
                "{}: the LCD's wires at {} ns: {}",
                self.sim.image().board.name,
                e.at_ns,
                e.what
            );
        }
        self.events.extend(new.iter().cloned());
        new
    }

    /// A press of the button of `d`; returns whether the firmware came back to its buttons
    /// (`false`: the power was cut).
    pub fn press(&mut self, d: Direction) -> bool {
        let stop = self
            .sim
            .press(button(d), HOLD_MS, WITHIN_NS)
            .unwrap_or_else(|e| panic!("{}: {e}", self.sim.image().board.name));
        self.follow(stop == Stop::Idle);
        stop == Stop::Idle
    }

    /// A touch of the button of `d` held `ms` (shorter than the debounce: a glitch), then
    /// the firmware waiting for input again; returns the events meanwhile.
    pub fn touch(&mut self, d: Direction, ms: u64) -> Vec<Event> {
        let name = self.sim.image().board.name;
        let from = self.events.len();
        self.sim
            .button(button(d), true)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        self.sim
            .run_for(ms * 1_000_000)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        self.sim
            .button(button(d), false)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let stop = self
            .sim
            .settle(DEBOUNCE_MS + 5, WITHIN_NS)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        self.follow(stop == Stop::Idle);
        self.events[from..].to_vec()
    }

    /// From the start screen: a press of `starter` starts a game; returns its number, rules
    /// and seed from its start frame. `None` when the power was cut before the game started.
    pub fn start(&mut self, starter: Direction) -> Option<(u32, Rules, u64)> {
        let from = self.events.len();
        if !self.press(starter) {
            return None;
        }
        self.events[from..].iter().find_map(|e| match e {
            Event::GameStarted {
                number,
                rules,
                seed,
                ..
            } => Some((*number, *rules, *seed)),
            _ => None,
        })
    }

    /// From the start screen: a press of `starter` starts a game; the seed comes in its
    /// start frame; then the game is played by `plan`. `None` when the power was cut
    /// before the game started.
    pub fn game(&mut self, starter: Direction, plan: Plan) -> Option<Played> {
        let (number, rules, seed) = self.start(starter)?;
        let mut played = Played {
            number,
            rules,
            seed,
            moves: Vec::new(),
            presses: 0,
            game: Game::new(rules, seed).expect("valid rules"),
        };
        for (d, moves) in presses(plan, rules, seed) {
            if moves {
                played.moves.push(d);
                assert!(played.game.play(d).is_ok_and(|o| o.moved));
            }
            played.presses += 1;
            if !self.press(d) {
                break;
            }
        }
        Some(played)
    }

    /// Sends `text` to the board as the host, then runs until `done` says so of an event
    /// (at most `within_ns`); returns the events that came meanwhile.
    pub fn request(
        &mut self,
        text: &str,
        done: impl Fn(&Event) -> bool,
        within_ns: u64,
    ) -> Vec<Event> {
        let name = self.sim.image().board.name;
        self.sim
            .send(text.as_bytes())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let from = self.events.len();
        let until = self.sim.now_ns() + within_ns;
        while self.sim.now_ns() < until {
            let stop = self
                .sim
                .run(until.min(self.sim.now_ns() + 20_000_000), 0, 0)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            self.follow(false);
            // A stopped chip's time stands still: without this the loop never ends.
            assert!(
                !matches!(stop, Stop::Crashed | Stop::Done),
                "{name}: the chip stopped ({stop:?}) answering {text:?}; the log said {:?}",
                &self.events[from..]
            );
            if self.events[from..].iter().any(&done) {
                return self.events[from..].to_vec();
            }
        }
        panic!(
            "{name}: no answer to {text:?} within {} ms; the log said {:?}",
            within_ns / 1_000_000,
            &self.events[from..]
        );
    }

    /// `{pull all}`: runs until the reply's end; returns its events.
    pub fn pull_all(&mut self) -> Vec<Event> {
        self.request(
            "{pull all}",
            |e| {
                matches!(
                    e,
                    Event::Device(DeviceFact::PullDone { .. })
                        | Event::Device(DeviceFact::Error { .. })
                )
            },
            30_000_000_000,
        )
    }

    /// `{hello}`: the device's id and the number its next game gets.
    pub fn hello(&mut self) -> (u64, u32) {
        let events = self.request(
            "{hello}",
            |e| matches!(e, Event::Device(DeviceFact::Hello { .. })),
            2_000_000_000,
        );
        events
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::Device(DeviceFact::Hello { dev, next, .. }) => Some((*dev, *next)),
                _ => None,
            })
            .expect("a hello frame")
    }

    /// Power off: the EEPROM's bytes (all that survives).
    pub fn off(mut self) -> Vec<u8> {
        self.sim.eeprom().unwrap_or_else(|e| panic!("{e}"))
    }
}
