//! The page's analysis of an open game (twenty48-analysis): its moves rated in chunks, from
//! the first on, so that a worker can hand each chunk to the page as it is made. The ratings'
//! JSON is `twenty48 analyse --json`'s, field for field.

use twenty48_analysis::{Class, Positions, Rater, Rating, Summary};
use twenty48_engine::{Direction, Game};

use crate::json::Json;

/// Where the analysis of one game stands: the game after the moves rated so far, the rater
/// (its search's tables kept between chunks) and the summary.
#[derive(Debug)]
pub(crate) struct Analysing {
    /// The viewer analysed.
    pub id: u32,
    /// The largest depth searched.
    pub depth: u8,
    /// `None` only while a chunk is rated (the positions hold it).
    game: Option<Game>,
    rater: Rater,
    summary: Summary,
}

impl Analysing {
    /// The analysis of viewer `id`'s game (rules, seed) at largest depth `depth`, before its
    /// first move; `None` when its board is not 4x4 or its rules are not valid.
    pub fn new(id: u32, rules: twenty48_engine::Rules, seed: u64, depth: u8) -> Option<Analysing> {
        if rules.size != 4 {
            return None;
        }
        Some(Analysing {
            id,
            depth,
            game: Some(Game::new(rules, seed).ok()?),
            rater: Rater::new(&rules, depth),
            summary: Summary::new(),
        })
    }

    /// The moves rated so far.
    pub fn next(&self) -> u32 {
        self.game.as_ref().map_or(0, Game::move_count)
    }

    /// Rates `moves` (the game's next moves, all of which play) and writes `{ratings:
    /// [...], analysed, total, depth, summary}`.
    pub fn rate(&mut self, moves: &[Direction], total: u32) -> String {
        let game = self.game.take().expect("a game between chunks");
        let mut positions = Positions::from_game(game, moves.iter().copied());
        let mut j = Json::new();
        j.open().key("ratings").open_array();
        for position in positions.by_ref() {
            // The viewer shows only moves that play, so every position is one.
            let Ok(p) = position else { break };
            let rating = self.rater.rate(&p);
            self.summary.add(&rating);
            write_rating(&mut j, &rating);
        }
        let cells = positions.cells();
        self.game = Some(positions.into_game());
        if self.next() >= total {
            // The last chunk: the board after the last spawn closes the luck and the tiles,
            // as `twenty48 analyse` does.
            self.summary.finish(self.rater.standing(&cells));
        }
        j.close_array();
        j.field_number("analysed", self.next())
            .field_number("total", total)
            .field_number("depth", self.rater.depth());
        j.key("summary");
        write_summary(&mut j, &self.summary);
        j.close();
        j.finish()
    }
}

/// A rating as `twenty48 analyse --json` writes it: `{move, played, best, tile, values: {up,
/// right, down, left}, chances: {...}, legal, error, stake, class}`.
pub(crate) fn write_rating(j: &mut Json, r: &Rating) {
    j.open()
        .field_number("move", r.move_number)
        .field_string("played", r.played.name());
    j.key("best");
    match r.best {
        Some(b) => j.string(b.name()),
        None => j.null(),
    };
    j.key("tile");
    match r.class {
        Class::Unrated => j.null(),
        _ => j.number(1u64 << r.target),
    };
    j.key("values").open();
    for dir in Direction::ALL {
        j.key(dir.name());
        match r.value(dir) {
            Some(v) => j.integer(v),
            None => j.null(),
        };
    }
    j.close().key("chances").open();
    for dir in Direction::ALL {
        j.key(dir.name());
        match r.chance(dir) {
            Some(c) => j.number(c),
            None => j.null(),
        };
    }
    j.close();
    j.field_number("legal", r.legal)
        .field_number("error", r.error)
        .field_number("stake", r.stake)
        .field_string("class", r.class.name())
        .close();
}

/// A summary as `twenty48 analyse --json` writes it: `{accuracy, error_rate, chosen,
/// mean_error, counts, errors, luck, worst, luckiest, unluckiest, tiles}`.
pub(crate) fn write_summary(j: &mut Json, s: &Summary) {
    let optional = |j: &mut Json, key: &str, n: Option<u64>| {
        j.key(key);
        match n {
            Some(n) => j.number(n),
            None => j.null(),
        };
    };
    j.open();
    optional(j, "accuracy", s.accuracy().map(u64::from));
    optional(j, "error_rate", s.error_rate().map(u64::from));
    j.field_number("chosen", s.chosen());
    optional(j, "mean_error", s.mean_error());
    j.key("counts").open();
    for class in Class::ALL {
        j.field_number(class.name(), s.count(class));
    }
    j.close().field_number("errors", s.errors());
    j.key("luck").integer(s.luck());
    j.key("worst").open_array();
    for r in s.worst() {
        j.number(r.move_number);
    }
    j.close_array();
    for (key, list) in [("luckiest", s.luckiest()), ("unluckiest", s.unluckiest())] {
        j.key(key).open_array();
        for l in list {
            j.open()
                .field_number("move", l.move_number)
                .field_number("tile", 1u64 << l.target);
            j.key("luck").integer(l.luck);
            j.close();
        }
        j.close_array();
    }
    j.key("tiles").open_array();
    for g in s.segments() {
        j.open()
            .field_number("tile", 1u64 << g.target)
            .field_number("first_move", g.first_move)
            .field_number("last_move", g.last_move)
            .field_number("start", g.start)
            .field_number("errors", g.errors);
        j.key("luck").integer(g.luck);
        optional(j, "end", g.end.map(u64::from));
        j.close();
    }
    j.close_array().close();
}
