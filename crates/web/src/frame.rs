//! One board as the page draws it, and its JSON.

use twenty48_engine::{Cells, Direction, Event, Game, Status};

use crate::json::Json;

/// The state of a game after a move, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Moves played (0: the opening).
    pub move_number: u32,
    /// The board.
    pub cells: Cells,
    /// The score.
    pub score: u64,
    /// Points the last move scored.
    pub gained: u64,
    /// Where the game stands.
    pub status: Status,
    /// The state hash (docs/rules.md), as `replay` and `verify` print it.
    pub hash: u64,
    /// The move that led here.
    pub direction: Option<Direction>,
    /// The largest tile's value.
    pub max_tile: u64,
    /// Whether the rules' winning tile has been reached (the page's "You win!").
    pub reached_win: bool,
}

impl Frame {
    /// `game` as it stands, reached by `direction` scoring `gained`.
    pub fn of(game: &Game, direction: Option<Direction>, gained: u64) -> Frame {
        Frame {
            move_number: game.move_count(),
            cells: game.cells(),
            score: game.score(),
            gained,
            status: game.status(),
            hash: game.state_hash(),
            direction,
            max_tile: game.max_tile(),
            reached_win: game.reached_win(),
        }
    }

    /// Writes the frame as a JSON object: `move`, `size`, `board` (exponents, row-major),
    /// `score`, `gained`, `status`, `hash` (16 hex digits), `direction` (or null), `max_tile`,
    /// `reached_win`.
    pub fn write(&self, j: &mut Json) {
        j.open()
            .field_number("move", self.move_number)
            .field_number("size", self.cells.size());
        j.key("board").open_array();
        for &e in self.cells.exponents() {
            j.number(e);
        }
        j.close_array()
            .field_number("score", self.score)
            .field_number("gained", self.gained)
            .field_string("status", self.status)
            .field_string("hash", format_args!("{:016x}", self.hash));
        j.key("direction");
        match self.direction {
            Some(d) => j.string(d.name()),
            None => j.null(),
        };
        j.field_number("max_tile", self.max_tile)
            .key("reached_win")
            .boolean(self.reached_win)
            .close();
    }
}

/// Writes a move's events as a JSON array of `[kind, a, b]`: `[0, from, to]` a tile slid,
/// `[1, cell, exponent]` a merge made a tile, `[2, cell, exponent]` a tile spawned.
pub fn write_events(j: &mut Json, events: &[Event]) {
    j.open_array();
    for e in events {
        let (kind, a, b) = match *e {
            Event::Moved { from, to } => (0u8, from, to),
            Event::Merged { into, exponent } => (1, into, exponent),
            Event::Spawned { cell, exponent } => (2, cell, exponent),
        };
        j.open_array()
            .number(kind)
            .number(a)
            .number(b)
            .close_array();
    }
    j.close_array();
}
