//! `analyse --svg`: the evaluation graph of a game as an SVG picture: the chance of the tile
//! aimed at before each move, over the moves, each tile's stretch named, the errors marked
//! (inaccuracies yellow, mistakes orange, blunders red), as a chess board's graph.

use std::fmt::Write as _;

use twenty48_analysis::{Class, Rating, ONE};

/// The most points the line draws: a longer game is drawn every `n`th move (its errors
/// all marked all the same).
const MOST_POINTS: usize = 2000;
const WIDTH: u32 = 800;
const HEIGHT: u32 = 260;
const LEFT: u32 = 44;
const RIGHT: u32 = 12;
const TOP: u32 = 22;
const BOTTOM: u32 = 28;

/// One move of the graph: its number, the tile aimed at (exponent), the chance before it,
/// its class.
#[derive(Clone, Copy, Debug)]
pub struct Point {
    move_number: u32,
    target: u8,
    chance: u32,
    class: Class,
}

impl Point {
    /// The graph's point of a rating; `None` when unrated.
    pub fn of(r: &Rating) -> Option<Point> {
        Some(Point {
            move_number: r.move_number,
            target: r.target,
            chance: r.before()?,
            class: r.class,
        })
    }
}

fn x(i: usize, n: usize) -> u32 {
    let span = u64::from(WIDTH - LEFT - RIGHT);
    LEFT + (span * i as u64 / (n.max(2) - 1) as u64) as u32
}

fn y(chance: u32) -> u32 {
    let span = u64::from(HEIGHT - TOP - BOTTOM);
    TOP + (span - span * u64::from(chance.min(ONE)) / u64::from(ONE)) as u32
}

/// The picture of `points` (in move order) for the game `title`.
pub fn svg(points: &[Point], title: &str) -> String {
    let n = points.len();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(
        s,
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#faf8ef\"/>"
    );
    let escaped = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"14\" fill=\"#776e65\">{escaped}: the chance to reach the next tile, before each move</text>"
    );
    for pct in [0u32, 25, 50, 75, 100] {
        let yy = y(pct * 10_000);
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{yy}\" x2=\"{}\" y2=\"{yy}\" stroke=\"#e0dad2\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#776e65\">{pct}%</text>",
            WIDTH - RIGHT,
            LEFT - 4,
            yy + 4
        );
    }
    if n == 0 {
        s.push_str("</svg>\n");
        return s;
    }
    // Each tile's stretch: a line of its own, its tile named where it starts.
    let step = n.div_ceil(MOST_POINTS).max(1);
    let mut start = 0;
    // A tile is named where there is room after the last name.
    let mut named_to = 0;
    while start < n {
        let target = points[start].target;
        let end = points[start..]
            .iter()
            .position(|p| p.target != target)
            .map_or(n, |k| start + k);
        let mut line = String::new();
        for i in (start..end).step_by(step).chain(std::iter::once(end - 1)) {
            let _ = write!(line, "{},{} ", x(i, n), y(points[i].chance));
        }
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#8f7a66\" stroke-width=\"1.5\"/>",
            line.trim_end()
        );
        let xx = x(start, n);
        let _ = writeln!(
            s,
            "<line x1=\"{xx}\" y1=\"{TOP}\" x2=\"{xx}\" y2=\"{}\" stroke=\"#cdc1b4\" stroke-dasharray=\"2,3\"/>",
            HEIGHT - BOTTOM
        );
        if xx >= named_to {
            let tile = 1u64.checked_shl(u32::from(target)).unwrap_or(0);
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" fill=\"#776e65\">{tile}</text>",
                xx + 2,
                TOP + 10
            );
            named_to = xx + 8 * tile.to_string().len() as u32;
        }
        start = end;
    }
    for (i, p) in points.iter().enumerate() {
        let colour = match p.class {
            Class::Inaccuracy => "#e6c200",
            Class::Mistake => "#f08a24",
            Class::Blunder => "#d62828",
            _ => continue,
        };
        let _ = writeln!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{colour}\"><title>move {}: {}</title></circle>",
            x(i, n),
            y(p.chance),
            p.move_number,
            p.class
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"{}\" fill=\"#776e65\">move {}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#776e65\">move {}</text>",
        HEIGHT - 10,
        points[0].move_number,
        WIDTH - RIGHT,
        HEIGHT - 10,
        points[n - 1].move_number
    );
    s.push_str("</svg>\n");
    s
}
