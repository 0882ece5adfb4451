//! How boards, states and rules look on screen and in JSON.
//!
//! One word per idea, in text and in JSON alike: `moves` (a count), `move` (a move number,
//! 0 the opening), `score`, `max_tile` / "max tile" (a tile value, never an exponent),
//! `hash` (the state hash, 16 hex digits), `status`. Positions are `row` and `col`, counted
//! from 1 at the top left, in text and JSON.

use serde_json::{json, Value};
use twenty48_engine::{tile_value, Cells, Rules, Scoring, Spawn};
use twenty48_verify::State;

/// The version of every `--json` shape (docs/schema/*.json), in each document's
/// `schema_version`. A change that renames or removes a field, or changes its meaning,
/// raises it.
pub const SCHEMA_VERSION: u32 = 1;

/// The version of `replay --json`'s shape (docs/schema/replay.json): 2 since it became JSON
/// Lines (a head line, a line per state, a verdict line) instead of one document.
pub const REPLAY_SCHEMA_VERSION: u32 = 2;

/// Prints a JSON document, pretty, on standard output (or standard error when standard
/// output holds something else, as with `record -o -`), as it is serialized: a long list
/// is never held as text, nor as a [`Value`] if `doc` is not one.
pub fn print_json(doc: &impl serde::Serialize, to_stderr: bool) -> anyhow::Result<()> {
    fn write(mut out: impl std::io::Write, doc: &impl serde::Serialize) -> anyhow::Result<()> {
        serde_json::to_writer_pretty(&mut out, doc)?;
        writeln!(out)?;
        out.flush()?;
        Ok(())
    }
    if to_stderr {
        write(std::io::BufWriter::new(std::io::stderr().lock()), doc)
    } else {
        write(crate::output::stdout(), doc)
    }
}

/// The board as text lines: one per row, each cell right-aligned in 6 columns, `.` empty.
pub fn board_lines(cells: &Cells) -> Vec<String> {
    cells
        .rows()
        .map(|row| {
            row.iter()
                .map(|&e| {
                    if e == 0 {
                        format!("{:>6}", ".")
                    } else {
                        format!("{:>6}", tile_value(e))
                    }
                })
                .collect::<String>()
        })
        .collect()
}

/// Several blocks of lines side by side, each padded to `width`, with a title above each.
pub fn side_by_side(blocks: &[(String, Vec<String>)], width: usize) -> String {
    let height = blocks.iter().map(|(_, l)| l.len()).max().unwrap_or(0);
    let mut out = String::new();
    let titles: Vec<String> = blocks.iter().map(|(t, _)| format!("{t:<width$}")).collect();
    out.push_str(titles.join("  ").trim_end());
    out.push('\n');
    for i in 0..height {
        let row: Vec<String> = blocks
            .iter()
            .map(|(_, lines)| format!("{:<width$}", lines.get(i).map_or("", String::as_str)))
            .collect();
        out.push_str(row.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// One line about a saved game: `recorded 8 moves (classic rules, seed 42): score 20,
/// max tile 8, playing -> game.t48`, with `verb` first.
pub fn log_summary(verb: &str, log: &twenty48_movelog::MoveLog, path: &std::path::Path) -> String {
    format!(
        "{verb} {} ({} rules, seed {}): score {}, max tile {}, {} -> {}",
        crate::style::count(log.claims.move_count, "move", "moves"),
        crate::rules_args::rules_name(&log.rules),
        log.seed,
        log.claims.score,
        twenty48_engine::TileName(log.claims.max_exponent),
        log.claims.status,
        crate::input::output_name(path)
    )
}

pub use twenty48_verify::parting::{row_col, spawn_text};

/// Rules as JSON. `preset` is the preset whose fields all equal these rules (so a custom
/// set of flags equal to arduino's is `arduino`), else null.
pub fn rules_json(rules: &Rules) -> Value {
    json!({
        "preset": rules.preset().map(|p| p.name()),
        "size": rules.size,
        "four_chance": [rules.four_chance.numerator, rules.four_chance.denominator],
        "opening": rules.opening.to_string().split(',').collect::<Vec<_>>(),
        // A tile of exponent 64 or 65 (an 8x8 board's) has no u64 value: null, and the
        // exponent says which.
        "win": rules.win.map(|w| json!({
            "tile": (w.exponent < 64).then(|| tile_value(w.exponent)),
            "exponent": w.exponent,
            "ends_game": w.ends_game,
        })),
        "scoring": match rules.scoring { Scoring::MergedValues => "values", Scoring::MergeCount => "merges" },
    })
}

/// A board as JSON: rows of tile values (0 empty).
pub fn cells_json(cells: &Cells) -> Value {
    Value::Array(
        cells
            .rows()
            .map(|r| Value::Array(r.iter().map(|&e| json!(tile_value(e))).collect()))
            .collect(),
    )
}

/// A spawn as JSON: where (row and col from 1) and its value.
pub fn spawn_json(spawn: &Spawn, size: u8) -> Value {
    let (r, c) = row_col(spawn.cell, size);
    json!({"row": r, "col": c, "value": spawn.value()})
}

/// A state as JSON: move 0 is the opening (direction null). `board` is null where the
/// board is not known (a device's move, which reports only score and hash).
pub fn state_json(state: &State, size: u8) -> Value {
    let max_tile = state
        .cells
        .as_ref()
        .map(|c| tile_value(c.exponents().iter().copied().max().unwrap_or(0)));
    json!({
        "move": state.move_number,
        "direction": state.direction.map(|d| d.name()),
        "gained": state.gained,
        "merges": state.merges,
        "spawns": state.spawns.iter().map(|s| spawn_json(s, size)).collect::<Vec<_>>(),
        "score": state.score,
        "hash": format!("{:016x}", state.hash),
        "status": state.status.name(),
        "max_tile": max_tile,
        "board": state.cells.as_ref().map(cells_json),
    })
}
