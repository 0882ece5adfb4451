//! The statistics as text (with a histogram drawn in characters), JSON, CSV and SVG.

use std::fmt::Write;

use serde_json::{json, Value};
use twenty48_engine::{tile_value, TileName};

use super::totals::{Group, Totals};
use crate::style::count;

/// The tiles from the smallest to the largest any game reached: the histogram's rows.
fn tile_rows(g: &Group) -> Vec<(u8, u64)> {
    let (Some((&lo, _)), Some((&hi, _))) =
        (g.largest.first_key_value(), g.largest.last_key_value())
    else {
        return Vec::new();
    };
    (lo..=hi)
        .map(|e| (e, g.largest.get(&e).copied().unwrap_or(0)))
        .collect()
}

fn win_rate(g: &Group) -> Option<f64> {
    g.win.map(|(_, wins)| {
        if g.games == 0 {
            0.0
        } else {
            wins as f64 / g.games as f64
        }
    })
}

/// The text report: totals, the histogram of largest tiles drawn with bars, one line per
/// rule set, and every file not counted.
pub fn text(t: &Totals) -> String {
    let all = t.all();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} verified, {} failed, {} unreadable{}",
        count(t.files(), "file", "files"),
        all.games,
        t.failed.len(),
        t.unreadable.len(),
        match t.partial.len() {
            0 => String::new(),
            n => format!(", {n} partial (not counted)"),
        }
    );
    let _ = writeln!(out, "moves:   {} in all", all.moves);
    let best = all.best.as_ref().map_or("-".to_string(), |(s, p)| {
        format!("{s} ({})", crate::input::shown(p))
    });
    let _ = writeln!(
        out,
        "score:   mean {:.1}, median {}, max {best}",
        all.mean(),
        all.median()
    );
    if let Some((m, p)) = &all.longest {
        let _ = writeln!(out, "longest: {m} moves ({})", crate::input::shown(p));
    }
    let rows = tile_rows(&all);
    if !rows.is_empty() {
        let _ = writeln!(out, "max tile:");
        let top = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1);
        for (e, n) in rows {
            let bar = "#".repeat(((n * 40).div_ceil(top)) as usize);
            let share = n as f64 * 100.0 / all.games as f64;
            let _ = writeln!(out, "  {:>6} {n:>7} {share:>5.1}% {bar}", TileName(e));
        }
    }
    for (name, g) in &t.by_rules {
        let win = match (g.win, win_rate(g)) {
            (Some((e, wins)), Some(rate)) => {
                format!(", won (made {}) {wins} = {:.1}%", TileName(e), rate * 100.0)
            }
            _ => ", no winning tile".into(),
        };
        let _ = writeln!(
            out,
            "rules {name}: {}, median score {}{win}",
            count(g.games, "game", "games"),
            g.median()
        );
    }
    out.push_str(&problems(t));
    out
}

/// One line for each file not counted: `FAILED` (it does not verify) or `ERROR` (it could
/// not be read). The whole report under `-q`.
pub fn problems(t: &Totals) -> String {
    let mut out = String::new();
    for (p, why) in &t.failed {
        let _ = writeln!(out, "FAILED  {}: {why}", crate::input::shown(p));
    }
    for (p, why) in &t.unreadable {
        let _ = writeln!(out, "ERROR   {}: {why}", crate::input::shown(p));
    }
    for (p, why) in &t.partial {
        let _ = writeln!(out, "PARTIAL {}: {why}", crate::input::shown(p));
    }
    out
}

fn group_json(g: &Group) -> Value {
    let tiles: serde_json::Map<String, Value> = g
        .largest
        .iter()
        .map(|(e, n)| (TileName(*e).to_string(), json!(n)))
        .collect();
    json!({
        "games": g.games,
        "moves": g.moves,
        "score": {
            "mean": g.mean(),
            "median": g.median(),
            "max": g.best.as_ref().map(|b| b.0),
            "max_file": g.best.as_ref().map(|b| b.1.display().to_string()),
        },
        "max_tiles": tiles,
        "longest": g.longest.as_ref().map(|(m, p)| json!({"file": p.display().to_string(), "moves": m})),
        // A win of 2^64 or 2^65 (an 8x8 board's) has no u64 value: null, and the exponent.
        "win_tile": g.win.and_then(|(e, _)| (e < 64).then(|| tile_value(e))),
        "win_exponent": g.win.map(|(e, _)| e),
        "wins": g.win.map(|(_, w)| w),
        "win_rate": win_rate(g),
    })
}

/// The JSON document (shape in `stats --help` and docs/json.md).
pub fn json(t: &Totals) -> Value {
    let all = t.all();
    let named = |list: &[(std::path::PathBuf, String)]| -> Vec<Value> {
        list.iter()
            .map(|(p, why)| json!({"file": p.display().to_string(), "problem": why}))
            .collect()
    };
    let mut doc = group_json(&all);
    let rules: Vec<Value> = t
        .by_rules
        .iter()
        .map(|(name, g)| {
            let mut v = group_json(g);
            v["rules"] = json!(name);
            v
        })
        .collect();
    let obj = doc.as_object_mut().expect("a JSON object");
    for key in ["win_tile", "win_exponent", "wins", "win_rate"] {
        obj.remove(key);
    }
    obj.insert("schema_version".into(), json!(crate::view::SCHEMA_VERSION));
    obj.insert("files".into(), json!(t.files()));
    obj.insert("verified".into(), json!(all.games));
    obj.insert("failed".into(), json!(named(&t.failed)));
    obj.insert("unreadable".into(), json!(named(&t.unreadable)));
    obj.insert("partial".into(), json!(named(&t.partial)));
    obj.insert("rules".into(), json!(rules));
    doc
}

/// The CSV table: one row per rule set and a last row `all`; a column per tile.
pub fn csv(t: &Totals) -> String {
    let all = t.all();
    let hi = all.largest.last_key_value().map_or(1, |(e, _)| *e);
    let tiles: Vec<u8> = (1..=hi).collect();
    let mut out =
        String::from("rules,games,moves,score_mean,score_median,score_max,win_tile,wins,win_rate");
    for e in &tiles {
        let _ = write!(out, ",tile_{}", TileName(*e));
    }
    out.push('\n');
    let mut row = |name: &str, g: &Group| {
        // A name with a comma or quote is quoted, its quotes doubled.
        let name = if name.contains([',', '"']) {
            format!("\"{}\"", name.replace('"', "\"\""))
        } else {
            name.to_string()
        };
        let _ = write!(
            out,
            "{name},{},{},{:.1},{},{},{},{},{}",
            g.games,
            g.moves,
            g.mean(),
            g.median(),
            g.best.as_ref().map_or(0, |b| b.0),
            g.win
                .map_or(String::new(), |(e, _)| TileName(e).to_string()),
            g.win.map_or(String::new(), |(_, w)| w.to_string()),
            win_rate(g).map_or(String::new(), |r| format!("{r:.4}")),
        );
        for e in &tiles {
            let _ = write!(out, ",{}", g.largest.get(e).copied().unwrap_or(0));
        }
        out.push('\n');
    };
    for (name, g) in &t.by_rules {
        row(name, g);
    }
    row("all", &all);
    out
}

/// The largest-tile histogram as an SVG bar chart.
pub fn svg(all: &Group) -> String {
    let rows = tile_rows(all);
    let (bar_w, gap, height, left, bottom) = (48u64, 12u64, 240u64, 40u64, 40u64);
    let width = left + rows.len() as u64 * (bar_w + gap) + gap;
    let top = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        height + bottom + 30
    );
    let _ = writeln!(
        out,
        "<text x=\"{left}\" y=\"18\" font-size=\"14\">Max tile of {}</text>",
        count(all.games, "game", "games")
    );
    for (i, (e, n)) in rows.iter().enumerate() {
        let x = left + gap + i as u64 * (bar_w + gap);
        let h = n * height / top;
        let y = 30 + height - h;
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{bar_w}\" height=\"{h}\" fill=\"#edc22e\"><title>{}: {n}</title></rect>",
            TileName(*e)
        );
        let cx = x + bar_w / 2;
        let _ = writeln!(
            out,
            "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{n}</text>",
            y.saturating_sub(4).max(28)
        );
        let _ = writeln!(
            out,
            "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            30 + height + 18,
            TileName(*e)
        );
    }
    out.push_str("</svg>\n");
    out
}
