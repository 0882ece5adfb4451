//! The protocol fixtures (tests/data/v2, tests/data/v3: `crate::VERSION` says which): the
//! QEMU firmware's ELF and the captures it made, with the scripts that drove it and the
//! games the host expects of them. The scripts are the same for both versions but for the
//! checks their acks name (the start frame's `v=` is in them).
//!
//! `make.sh` beside the data re-makes it: it builds the QEMU firmware, keeps its ELF (debug
//! info stripped, defmt table intact) and runs each script under QEMU:
//! - `session`: a fresh flash: five games live (won; a start-screen game abandoned by the
//!   next `{new}`; one ended by `{end}`; one played to game over; one acknowledged), an
//!   `{ack}` of game 1, a `{pull}` (the four others), then game 6 begun and left in play
//!   when the script ends.
//! - `restart`: the same flash, booted again: `{pull}` (games 2-5, and 6 as an interrupted
//!   game's partial frame), `{ack}`s of games 2-4, `{pull}` (5 and 6), `{pull all}`
//!   (1-6), bad requests (error frames), game 7 begun, `{hello}` and `{pull}` while it is
//!   played.
//! - `stall`: a fresh flash: `{stall}`, three games (the ring fills, frames are dropped and
//!   reported by lost frames), `{unstall}` and `{pull}`.
//!
//! - `ended` and `ended-early`: each a fresh flash: games 1-5 begun and ended with no move,
//!   then game 6 as in `session` but played on to 12 (10) moves and ended: two different
//!   whole copies of the game `restart` has as interrupted (the tests read them from game
//!   6's start frame on, as from a port opened then).
//!
//! The scripts are made from the plans here; the test checks that the committed ones are
//! the same, so the captures were made from the games the tests expect.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use twenty48_engine::{Direction, Preset, Rules};

use super::plan::{plan, quick_win, stalled_link_games, Planned};

/// The fixture's folder.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/v{}", crate::VERSION))
}

/// The QEMU firmware that made the captures.
pub fn firmware_elf() -> &'static [u8] {
    static ELF: OnceLock<Vec<u8>> = OnceLock::new();
    ELF.get_or_init(|| {
        std::fs::read(data_dir().join("twenty48-qemu.elf")).expect("the fixture's ELF")
    })
}

/// A game left in play: the script goes on without closing it.
fn open(mut planned: Planned) -> Planned {
    planned.close = "";
    planned
}

/// The games of the fixture's device (the QEMU board, one flash for `session` and
/// `restart`), by number from 1.
pub fn games() -> &'static [Planned] {
    static GAMES: OnceLock<Vec<Planned>> = OnceLock::new();
    GAMES.get_or_init(|| {
        use Direction::*;
        vec![
            plan(
                "{new seed=11 rules=arduino win=5}",
                quick_win(5),
                11,
                [Left, Down, Right, Up],
                usize::MAX,
            ),
            // A start-screen button: arduino rules, the board's first seed; the next `{new}`
            // abandons it.
            open(plan("R", Rules::ARDUINO, 1, [Down, Right, Left, Up], 15)),
            plan(
                "{new seed=2024 rules=classic}",
                Rules::CLASSIC,
                2024,
                [Up, Left, Right, Down],
                20,
            ),
            plan(
                "{new seed=77 rules=console}",
                Preset::Console.rules(),
                77,
                [Right, Down, Left, Up],
                usize::MAX,
            ),
            plan(
                "{new seed=5 rules=classic}",
                Rules::CLASSIC,
                5,
                [Left, Up, Right, Down],
                12,
            ),
            // In play when `session` ends: the restart's partial game.
            open(plan(
                "{new seed=6 rules=classic}",
                Rules::CLASSIC,
                6,
                [Down, Left, Up, Right],
                9,
            )),
            // In play when `restart` asks for hello and a pull.
            open(plan(
                "{new seed=7 rules=arduino}",
                Rules::ARDUINO,
                7,
                [Up, Right, Down, Left],
                6,
            )),
        ]
    })
}

/// The `stall` capture's games (a flash of their own: numbers 1-3 again, other games).
pub fn stall_games() -> &'static [Planned] {
    static GAMES: OnceLock<Vec<Planned>> = OnceLock::new();
    GAMES.get_or_init(|| stalled_link_games(3, 100))
}

/// Game 6 of the `ended` captures (a flash of their own, games 1-5 there abandoned with no
/// move): the same start as the interrupted game 6 of `restart`, played on with the same
/// presses for `moves` moves (12 in `ended`, 10 in `ended-early`) and ended by `{end}`. Its
/// first 9 moves are the interrupted game's.
pub fn ended_game(moves: usize) -> Planned {
    use Direction::*;
    plan(
        "{new seed=6 rules=classic}",
        Rules::CLASSIC,
        6,
        [Down, Left, Up, Right],
        moves,
    )
}

/// The bad requests `restart` sends: garbage, half a request, an ack of no game, an ack
/// with a wrong check, an unknown request, a too long one.
pub const BAD_REQUESTS: &str = "{ack 999 1}\n{ack 1 12345}\n{dance}\n{aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}\n";

/// The captures of the fixture.
pub const NAMES: [&str; 5] = ["session", "restart", "stall", "ended", "ended-early"];

/// The script of capture `name` (one of [`NAMES`]).
pub fn script(name: &str) -> String {
    let g = games();
    let ack = |n: usize| {
        let check = g[n - 1].end_check_in(n as u32, crate::VERSION);
        format!("{{ack {n} {check}}}\n")
    };
    let mut s = format!("# twenty48 protocol v{} fixture: {name}\n", crate::VERSION);
    match name {
        "session" => {
            for p in &g[..5] {
                s.push_str(&p.script());
            }
            s.push_str(&ack(1));
            s.push_str("{pull}\n");
            s.push_str(&g[5].script());
        }
        "restart" => {
            s.push_str("{pull}\n");
            for n in 2..=4 {
                s.push_str(&ack(n));
            }
            s.push_str("{pull}\n{pull all}\n");
            s.push_str(BAD_REQUESTS);
            s.push_str(&g[6].script());
            s.push_str("{hello}\n{pull}\n");
        }
        "stall" => {
            s.push_str("{stall}\n");
            for p in stall_games() {
                s.push_str(&p.script());
            }
            s.push_str("{unstall}\n{pull}\n");
        }
        "ended" | "ended-early" => {
            for k in 1..=5 {
                let _ = writeln!(s, "{{new seed={} rules=classic}}\n{{end}}", 900 + k);
            }
            let moves = if name == "ended" { 12 } else { 10 };
            s.push_str(&ended_game(moves).script());
        }
        _ => panic!("no capture {name}"),
    }
    s.push_str("q\n");
    s
}

/// The committed capture `name`, after checking that its committed script is the one the
/// plans make.
pub fn capture(name: &str) -> &'static [u8] {
    static CAPTURES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    let all = CAPTURES.get_or_init(|| {
        NAMES
            .iter()
            .map(|&name| {
                let recorded = std::fs::read_to_string(data_dir().join(format!("{name}.txt")))
                    .expect("a fixture script");
                assert_eq!(
                    recorded,
                    script(name),
                    "the fixture's {name}.txt was made from these plans (re-make it with make.sh)"
                );
                let bytes = std::fs::read(data_dir().join(format!("{name}.bin")))
                    .expect("a fixture capture");
                (name.to_string(), bytes)
            })
            .collect()
    });
    &all.iter().find(|c| c.0 == name).expect("a v2 capture").1
}
