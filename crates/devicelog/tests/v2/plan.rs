//! Scripted games for the protocol v2 firmware (tests/firmware.rs under QEMU, tests/v2.rs
//! from the committed fixture): how each starts, its presses, and what the host expects.

use twenty48_deviceproto::{check as crc, StartFields, QEMU_DEVICE_ID};
use twenty48_engine::{Direction, Game, Rules, Status, Win};

/// One scripted game: how it starts, the presses, and what the host expects.
#[derive(Clone, Debug)]
pub struct Planned {
    /// The command or press that starts it.
    pub start: String,
    /// How it is closed after its presses (`{end}`, or nothing when it ends by itself or
    /// the next `{new}` abandons it).
    pub close: &'static str,
    /// Its rules.
    pub rules: Rules,
    /// Its seed.
    pub seed: u64,
    /// Every press, moving or not.
    pub presses: Vec<Direction>,
    /// The host game after the presses.
    pub game: Game,
    /// The presses that moved the board.
    pub moves: Vec<Direction>,
}

impl Planned {
    /// The result code the device stores and sends for it (0 abandoned).
    pub fn result(&self) -> u8 {
        match self.game.status() {
            Status::Won => 1,
            Status::Over => 2,
            _ => 0,
        }
    }

    /// How the device stores its end: the result, final score and state hash.
    #[allow(dead_code)]
    pub fn ending(&self) -> twenty48_devicestore::Ending {
        twenty48_devicestore::Ending {
            result: self.result(),
            claims: twenty48_devicestore::Claims {
                score: self.game.score(),
                hash: self.game.state_hash(),
            },
        }
    }

    /// The check of its end frame, as game `number` of the QEMU device: what `{ack}` names.
    #[allow(dead_code)]
    pub fn end_check(&self, number: u32) -> u32 {
        self.end_check_in(number, twenty48_deviceproto::PROTOCOL_VERSION)
    }

    /// [`Planned::end_check`] in protocol `version` (the start frame's `v=` is in its check,
    /// which the end frame carries).
    pub fn end_check_in(&self, number: u32, version: u8) -> u32 {
        let start = crc::start(&StartFields {
            version,
            ..StartFields::new(QEMU_DEVICE_ID, number, &self.rules, self.seed)
        });
        crc::end(
            number,
            self.result(),
            self.game.score(),
            self.game.move_count(),
            self.game.state_hash(),
            start,
        )
    }

    /// Its part of a script: the start, the presses, the close.
    pub fn script(&self) -> String {
        let presses: String = self.presses.iter().map(|d| d.letter()).collect();
        format!("{}\n{presses}\n{}", self.start, self.close)
    }
}

/// Plays `rules`/`seed` on the host: at each step presses the directions in `order` until one
/// moves (so the script has presses that do not move), for at most `limit` moves; closed by
/// `{end}` when still in play.
pub fn plan(start: &str, rules: Rules, seed: u64, order: [Direction; 4], limit: usize) -> Planned {
    let mut game = Game::new(rules, seed).unwrap();
    let mut presses = Vec::new();
    let mut moves = Vec::new();
    while game.status() == Status::Playing && moves.len() < limit {
        for dir in order {
            presses.push(dir);
            if game.play(dir).unwrap().moved {
                moves.push(dir);
                break;
            }
        }
    }
    Planned {
        start: start.to_string(),
        close: if game.status() == Status::Playing {
            "{end}\n"
        } else {
            ""
        },
        rules,
        seed,
        presses,
        game,
        moves,
    }
}

/// Arduino rules with a win at 2^`exponent` that ends the game.
pub fn quick_win(exponent: u8) -> Rules {
    let mut rules = Rules::ARDUINO;
    rules.win = Some(Win {
        exponent,
        ends_game: true,
    });
    rules
}

/// The games a stalled-link session plays: `count` classic games of seeds 40, 41, ..., each
/// started by a `{new ...}` command and played for `limit` moves (the fixture's `stall`
/// capture and the QEMU stall test, each with its own count and length).
pub fn stalled_link_games(count: u64, limit: usize) -> Vec<Planned> {
    use Direction::*;
    (40..40 + count)
        .map(|seed| {
            plan(
                &format!("{{new seed={seed} rules=classic}}"),
                Rules::CLASSIC,
                seed,
                [Up, Left, Right, Down],
                limit,
            )
        })
        .collect()
}
