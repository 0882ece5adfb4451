//! What `twenty48 diff` prints: where two games part and how, in words (with the boards side
//! by side) or as JSON.

use serde_json::{json, Value};
use twenty48_engine::Spawn;
use twenty48_verify::parting::{self, differing_cells, row_col, Parting};
use twenty48_verify::{Difference, Divergence, State, Trace};

use crate::style::Ui;
use crate::view;

/// Whether the two games are played on boards of different sizes: then no cell of one board
/// is a cell of the other, and each side's cells are named on its own.
fn sizes_differ(a: &Trace, b: &Trace) -> bool {
    a.rules.size != b.rules.size
}

/// One difference as JSON: `{kind, a, b}`, plus `cells` for a board.
fn difference_json(x: &Difference, a: &Trace, b: &Trace, d: &Divergence) -> Value {
    let size = a.rules.size;
    let spawns = |s: &[Spawn], size: u8| -> Vec<Value> {
        s.iter().map(|s| view::spawn_json(s, size)).collect()
    };
    match x {
        Difference::Rules => {
            json!({"kind": "rules", "a": view::rules_json(&a.rules), "b": view::rules_json(&b.rules)})
        }
        Difference::Seed => json!({"kind": "seed", "a": a.seed, "b": b.seed}),
        Difference::Direction { a, b } => {
            json!({"kind": "direction", "a": a.map(|d| d.name()), "b": b.map(|d| d.name())})
        }
        Difference::Spawn { a: sa, b: sb } => {
            json!({"kind": "spawn", "a": spawns(sa, a.rules.size), "b": spawns(sb, b.rules.size)})
        }
        Difference::Board if sizes_differ(a, b) => json!({
            "kind": "board",
            "cells": [],
            "sizes": {"a": a.rules.size, "b": b.rules.size},
        }),
        Difference::Merge { a, b } => json!({
            "kind": "merges",
            "a": {"merges": a.0, "gained": a.1},
            "b": {"merges": b.0, "gained": b.1},
        }),
        Difference::Score { a, b } => json!({"kind": "score", "a": a, "b": b}),
        Difference::Board => {
            let (ca, cb) = (
                d.a.as_ref().and_then(|s| s.cells.as_ref()),
                d.b.as_ref().and_then(|s| s.cells.as_ref()),
            );
            let cells: Vec<Value> = differing_cells(d.a.as_ref(), d.b.as_ref())
                .into_iter()
                .map(|i| {
                    let (r, c) = row_col(i, size);
                    let value = |cells: Option<&twenty48_engine::Cells>| {
                        cells.map_or(0, |x| {
                            twenty48_engine::tile_value(x.exponents()[i as usize])
                        })
                    };
                    json!({"row": r, "col": c, "a": value(ca), "b": value(cb)})
                })
                .collect();
            json!({"kind": "board", "cells": cells})
        }
        Difference::Hash { a, b } => {
            json!({"kind": "hash", "a": format!("{a:016x}"), "b": format!("{b:016x}")})
        }
        Difference::Ended { first, why } => json!({
            "kind": "ended",
            "game": if *first { "a" } else { "b" },
            "after_moves": d.move_number.saturating_sub(1),
            "why": why,
        }),
        other => json!({"kind": "other", "text": other.to_string()}),
    }
}

/// The JSON document of two games that part.
pub(super) fn json(a: &Trace, b: &Trace, d: &Divergence) -> Value {
    let size = a.rules.size;
    json!({
        "schema_version": view::SCHEMA_VERSION,
        "identical": false,
        "move": d.move_number,
        "parting": Parting::of(d).name(),
        "differences": d.differences.iter().map(|x| difference_json(x, a, b, d)).collect::<Vec<_>>(),
        "before": d.before.as_ref().map(|s| view::state_json(s, size)),
        "a": d.a.as_ref().map(|s| view::state_json(s, size)),
        "b": d.b.as_ref().map(|s| view::state_json(s, b.rules.size)),
    })
}

fn block(title: String, state: Option<&State>) -> (String, Vec<String>) {
    let lines = match state {
        None => vec!["(no move)".to_string()],
        Some(s) => {
            let mut l = match &s.cells {
                Some(c) => view::board_lines(c),
                None => vec!["(board not reported)".to_string()],
            };
            l.push(format!("score {}", s.score));
            l.push(format!("hash {:016x}", s.hash));
            l
        }
    };
    (title, lines)
}

/// Two games that part, in words.
pub(super) fn text(a: &Trace, b: &Trace, d: &Divergence, ui: &Ui) -> String {
    let words = parting::words(a, b, d);
    let mut out = format!("{}{}\n", ui.notice(&words.notice), words.rest);
    for line in &words.lines {
        out.push_str(&format!("  {line}\n"));
    }
    if Parting::of(d) == Parting::Rules {
        return out;
    }
    out.push('\n');
    let mut blocks = Vec::new();
    if let Some(before) = &d.before {
        blocks.push(block(
            format!("both, after move {}", before.move_number),
            Some(before),
        ));
    }
    let title = |label: &str, s: &Option<State>| match s.as_ref().and_then(|s| s.direction) {
        Some(dir) => format!("{label}: {dir}"),
        None => label.to_string(),
    };
    blocks.push(block(title(&a.label, &d.a), d.a.as_ref()));
    blocks.push(block(title(&b.label, &d.b), d.b.as_ref()));
    out.push_str(&view::side_by_side(&blocks, 26));
    out
}
