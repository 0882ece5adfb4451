//! Boards as SVG pictures, for bug reports: plain text, the original game's colours.

use std::fmt::Write as _;

use crate::palette::{tile_colors, Rgb, BOARD};
use crate::screen::tile_label;

/// One board to draw, with a title above it and a caption below.
#[derive(Clone, Debug)]
pub struct SvgBoard<'a> {
    /// Text above the board.
    pub title: String,
    /// Side of the board.
    pub size: u8,
    /// `size * size` exponents, row-major.
    pub exponents: &'a [u8],
    /// Text below the board; each `\n` starts a new line.
    pub caption: String,
    /// Cells (row-major indices) outlined in red: where two boards differ.
    pub marked: &'a [u8],
}

const CELL: u32 = 100;
const GAP: u32 = 12;
const TITLE: u32 = 44;
const CAPTION_LINE: u32 = 26;
const MARGIN: u32 = 20;

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One board as a standalone SVG document.
///
/// ```
/// use twenty48_tui::{board_svg, SvgBoard};
///
/// let cells = [1u8, 11, 0, 14];
/// let svg = board_svg(&SvgBoard {
///     title: "move 3".into(),
///     size: 2,
///     exponents: &cells,
///     caption: "score 20".into(),
///     marked: &[1],
/// });
/// assert!(svg.starts_with("<svg "));
/// assert!(svg.contains(">2048</text>") && svg.contains(">2^14</text>"));
/// assert_eq!(svg.matches("class=\"differs\"").count(), 1);
/// ```
pub fn board_svg(board: &SvgBoard<'_>) -> String {
    boards_svg(std::slice::from_ref(board))
}

/// Several boards side by side in one SVG document.
pub fn boards_svg(boards: &[SvgBoard<'_>]) -> String {
    let side = |b: &SvgBoard<'_>| b.size as u32 * CELL + (b.size as u32 + 1) * GAP;
    let width = MARGIN + boards.iter().map(|b| side(b) + MARGIN).sum::<u32>();
    let caption_lines = boards
        .iter()
        .map(|b| b.caption.lines().count() as u32)
        .max()
        .unwrap_or(0);
    let height = MARGIN
        + TITLE
        + boards.iter().map(side).max().unwrap_or(0)
        + 10
        + caption_lines * CAPTION_LINE
        + MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="'Clear Sans', 'Helvetica Neue', Arial, sans-serif">"#
    );
    let _ = writeln!(
        out,
        r##"<rect width="{width}" height="{height}" fill="#faf8ef"/>"##
    );
    let mut x0 = MARGIN;
    for b in boards {
        let s = side(b);
        let y0 = MARGIN + TITLE;
        let _ = writeln!(
            out,
            r##"<text x="{x0}" y="{}" font-size="24" font-weight="bold" fill="#776e65">{}</text>"##,
            MARGIN + 28,
            escape(&b.title)
        );
        let _ = writeln!(
            out,
            r#"<rect x="{x0}" y="{y0}" width="{s}" height="{s}" rx="8" fill="{}"/>"#,
            hex(BOARD)
        );
        for (i, &e) in b
            .exponents
            .iter()
            .enumerate()
            .take(b.size as usize * b.size as usize)
        {
            let (r, c) = (i as u32 / b.size as u32, i as u32 % b.size as u32);
            let x = x0 + GAP + c * (CELL + GAP);
            let y = y0 + GAP + r * (CELL + GAP);
            let colours = tile_colors(e);
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="4" fill="{}"/>"#,
                hex(colours.background)
            );
            if b.marked.contains(&(i as u8)) {
                let _ = writeln!(
                    out,
                    r##"<rect class="differs" x="{}" y="{}" width="{}" height="{}" rx="6" fill="none" stroke="#d62728" stroke-width="6"/>"##,
                    x - 3,
                    y - 3,
                    CELL + 6,
                    CELL + 6
                );
            }
            let label = tile_label(e);
            if !label.is_empty() {
                let font = match label.len() {
                    1 | 2 => 52,
                    3 => 44,
                    _ => 34,
                };
                // Baseline placed by hand (0.35 em below the centre): renderers differ on
                // dominant-baseline.
                let _ = writeln!(
                    out,
                    r#"<text x="{}" y="{}" font-size="{font}" font-weight="bold" text-anchor="middle" fill="{}">{label}</text>"#,
                    x + CELL / 2,
                    y + CELL / 2 + font * 35 / 100,
                    hex(colours.foreground)
                );
            }
        }
        for (i, line) in b.caption.lines().enumerate() {
            let _ = writeln!(
                out,
                r##"<text x="{x0}" y="{}" font-size="20" fill="#776e65">{}</text>"##,
                y0 + s + 30 + i as u32 * CAPTION_LINE,
                escape(line)
            );
        }
        x0 += s + MARGIN;
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_boards_side_by_side_with_escaped_titles() {
        let a = [1u8, 2, 3, 0];
        let b = [0u8; 9];
        let svg = boards_svg(&[
            SvgBoard {
                title: "a.t48 <left>".into(),
                size: 2,
                exponents: &a,
                caption: "score 4 & more".into(),
                marked: &[],
            },
            SvgBoard {
                title: "b".into(),
                size: 3,
                exponents: &b,
                caption: String::new(),
                marked: &[],
            },
        ]);
        assert!(svg.contains("a.t48 &lt;left&gt;"));
        assert!(svg.contains("score 4 &amp; more"));
        // 2x2 board: 2*100 + 3*12 = 236 wide; 3x3: 348; a margin of 20 before, between, after.
        assert!(svg.contains(r#"width="644""#), "{svg}");
        // 4 + 9 cells, 2 boards, 1 background.
        assert_eq!(svg.matches("<rect").count(), 4 + 9 + 2 + 1);
        // Titles 2, tile labels 3, one caption line (the empty caption has none).
        assert_eq!(svg.matches("<text").count(), 2 + 3 + 1);
        assert!(svg.contains(r##"fill="#eee4da""##), "the 2 tile");
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
