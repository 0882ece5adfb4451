//! Screens as values: the game state in, lines of styled text out. Nothing here touches a
//! terminal, so every screen is tested as plain text.

use std::fmt::Write as _;

use twenty48_engine::{tile_value, Direction, Rules};

use crate::palette::{self, ColorMode, Rgb};

/// How a span of text looks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Style {
    /// Text colour; `None` keeps the terminal's own.
    pub foreground: Option<Rgb>,
    /// Background colour; `None` keeps the terminal's own.
    pub background: Option<Rgb>,
    /// Bold text.
    pub bold: bool,
    /// Swapped colours: marks a tile that just merged or appeared even without colour.
    pub reverse: bool,
}

/// A run of text in one style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The text (no newlines).
    pub text: String,
    /// Its style.
    pub style: Style,
}

/// A screen: lines of spans, top to bottom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Screen {
    /// The lines; each is a list of spans.
    pub lines: Vec<Vec<Span>>,
}

impl Screen {
    fn line(&mut self) -> &mut Vec<Span> {
        self.lines.push(Vec::new());
        self.lines.last_mut().expect("just pushed")
    }

    fn text_line(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.line().push(Span {
            text,
            style: Style::default(),
        });
    }

    /// The screen as plain text, one `\n`-terminated line per row, trailing spaces trimmed.
    pub fn plain(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            let text: String = line.iter().map(|s| s.text.as_str()).collect();
            out.push_str(text.trim_end());
            out.push('\n');
        }
        out
    }

    /// The screen with ANSI styles for `mode`, each line followed by "erase to end of line"
    /// and `\r\n` (raw-mode terminals need the carriage return). [`ColorMode::None`] keeps
    /// bold and reverse, which every terminal has, and drops colour.
    pub fn ansi(&self, mode: ColorMode) -> String {
        let mut out = String::new();
        for line in &self.lines {
            for span in line {
                let codes = sgr(span.style, mode);
                if codes.is_empty() {
                    out.push_str(&span.text);
                } else {
                    let _ = write!(out, "\x1b[{codes}m{}\x1b[0m", span.text);
                }
            }
            out.push_str("\x1b[K\r\n");
        }
        out
    }
}

fn sgr(style: Style, mode: ColorMode) -> String {
    let mut codes: Vec<String> = Vec::new();
    if style.bold {
        codes.push("1".into());
    }
    if style.reverse {
        codes.push("7".into());
    }
    for (colour, base) in [(style.foreground, 38), (style.background, 48)] {
        let Some(c) = colour else { continue };
        match mode {
            ColorMode::None => {}
            ColorMode::TrueColor => codes.push(format!("{base};2;{};{};{}", c.0, c.1, c.2)),
            ColorMode::Ansi256 => codes.push(format!("{base};5;{}", palette::to_ansi256(c))),
            ColorMode::Ansi16 => {
                let i = palette::to_ansi16(c);
                let first = if base == 38 { 30 } else { 40 };
                codes.push(if i < 8 {
                    format!("{}", first + i)
                } else {
                    format!("{}", first + 60 + i - 8)
                });
            }
        }
    }
    codes.join(";")
}

/// The label of the tile `2^exponent`: its value up to 9999, then `2^14` and so on (the
/// terminal C game's way), so every label fits in 4 columns. Empty cells have no label.
///
/// ```
/// assert_eq!(twenty48_tui::tile_label(11), "2048");
/// assert_eq!(twenty48_tui::tile_label(14), "2^14");
/// assert_eq!(twenty48_tui::tile_label(0), "");
/// ```
pub fn tile_label(exponent: u8) -> String {
    match exponent {
        0 => String::new(),
        e if tile_value(e) <= 9999 => tile_value(e).to_string(),
        e => format!("2^{e}"),
    }
}

/// A board to draw: exponents row-major, and cells to mark (a merge or a spawn just there).
#[derive(Clone, Copy, Debug)]
pub struct BoardView<'a> {
    /// Side of the board.
    pub size: u8,
    /// `size * size` exponents, row-major, 0 empty.
    pub exponents: &'a [u8],
    /// Cells drawn marked (reverse video).
    pub marked: &'a [u8],
}

const CELL_WIDTH: usize = 6;

/// Draws a board with box characters: each tile in its colours, its label centred.
/// Boards up to 5x5 get three lines per row, larger ones one.
pub fn board_lines(board: BoardView<'_>) -> Vec<Vec<Span>> {
    let n = board.size as usize;
    let tall = n <= 5;
    let mut lines = Vec::new();
    let rule = |left: &str, mid: &str, right: &str| {
        let mut s = String::from(left);
        for c in 0..n {
            s.push_str(&"─".repeat(CELL_WIDTH));
            s.push_str(if c + 1 == n { right } else { mid });
        }
        vec![Span {
            text: s,
            style: Style::default(),
        }]
    };
    lines.push(rule("┌", "┬", "┐"));
    for r in 0..n {
        let rows_per_cell = if tall { 3 } else { 1 };
        for sub in 0..rows_per_cell {
            let label_row = !tall || sub == 1;
            let mut line = vec![plain_span("│")];
            for c in 0..n {
                let cell = r * n + c;
                let e = board.exponents.get(cell).copied().unwrap_or(0);
                let colours = palette::tile_colors(e);
                let text = if label_row {
                    let label = if e == 0 { "·".into() } else { tile_label(e) };
                    center(&label, CELL_WIDTH)
                } else {
                    " ".repeat(CELL_WIDTH)
                };
                line.push(Span {
                    text,
                    style: Style {
                        foreground: Some(colours.foreground),
                        background: Some(colours.background),
                        bold: e != 0,
                        reverse: board.marked.contains(&(cell as u8)),
                    },
                });
                line.push(plain_span("│"));
            }
            lines.push(line);
        }
        if r + 1 < n {
            lines.push(rule("├", "┼", "┤"));
        }
    }
    lines.push(rule("└", "┴", "┘"));
    lines
}

fn plain_span(text: &str) -> Span {
    Span {
        text: text.to_string(),
        style: Style::default(),
    }
}

fn center(text: &str, width: usize) -> String {
    let len = text.chars().count();
    if len >= width {
        return text.to_string();
    }
    let left = (width - len) / 2;
    format!(
        "{}{text}{}",
        " ".repeat(left),
        " ".repeat(width - len - left)
    )
}

/// A question the play screen is asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Prompt {
    /// Nothing asked: the key help is shown.
    None,
    /// Q was pressed: `Really quit? [Y/N]`.
    ReallyQuit,
    /// The game ended as a win (rules that stop there): play again?
    WonPlayAgain,
    /// No move is left: try again?
    OverPlayAgain,
    /// R was pressed: `New game? This one is saved. [Y/N]`.
    ReallyRestart,
    /// The win was reached under rules that play on: keep going or start a new game?
    WonKeepGoing,
}

/// Everything the play screen shows.
#[derive(Clone, Debug)]
pub struct PlayView<'a> {
    /// The board.
    pub board: BoardView<'a>,
    /// The rules being played.
    pub rules: &'a Rules,
    /// The seed.
    pub seed: u64,
    /// Score so far.
    pub score: u64,
    /// Points the last move scored (shown as `+N` beside the score; 0 shows nothing).
    pub gained: u64,
    /// Best score under these rules (including this game).
    pub best: u64,
    /// Moves played.
    pub moves: u32,
    /// The question being asked.
    pub prompt: Prompt,
    /// A one-line note above the prompt (a win that plays on, where the game is saved).
    pub note: Option<&'a str>,
}

fn rules_title(rules: &Rules) -> String {
    match rules.preset() {
        Some(p) => format!("{} rules", p.name()),
        None => format!("custom rules ({rules})"),
    }
}

/// The play screen.
///
/// ```
/// use twenty48_engine::{Game, Rules};
/// use twenty48_tui::{render_play, BoardView, PlayView, Prompt};
///
/// let game = Game::new(Rules::CLASSIC, 42).unwrap();
/// let cells = game.cells();
/// let screen = render_play(&PlayView {
///     board: BoardView { size: 4, exponents: cells.exponents(), marked: &[] },
///     rules: game.rules(),
///     seed: 42,
///     score: 0,
///     gained: 0,
///     best: 1200,
///     moves: 0,
///     prompt: Prompt::ReallyQuit,
///     note: None,
/// });
/// let text = screen.plain();
/// assert!(text.contains("best 1200"));
/// assert!(text.contains("Really quit? [Y/N]"));
/// ```
pub fn render_play(view: &PlayView<'_>) -> Screen {
    let mut screen = Screen::default();
    let title = screen.line();
    title.push(Span {
        text: "twenty48".into(),
        style: Style {
            bold: true,
            ..Style::default()
        },
    });
    title.push(plain_span(&format!(
        "  {}, seed {}",
        rules_title(view.rules),
        view.seed
    )));
    let gained = if view.gained > 0 {
        format!(" (+{})", view.gained)
    } else {
        String::new()
    };
    screen.text_line(format!(
        "score {}{gained}   best {}   moves {}",
        view.score, view.best, view.moves
    ));
    screen.lines.extend(board_lines(view.board));
    screen.text_line(view.note.unwrap_or(""));
    screen.text_line(match view.prompt {
        Prompt::None => "arrows, WASD or hjkl: move   R: new game   Q: quit",
        Prompt::ReallyQuit => "Really quit? [Y/N]",
        Prompt::ReallyRestart => "New game? This one is saved. [Y/N]",
        Prompt::WonKeepGoing => "You win! Keep going? [Y: keep going, N: new game]",
        Prompt::WonPlayAgain => "You win! Play again? [Y/N]",
        Prompt::OverPlayAgain => "Game over. Try again? [Y/N]",
    });
    screen
}

/// A screen cut to a terminal of `cols` x `rows`. The board (the lines drawn with box
/// characters) and the last line (the keys or the question) must fit as they are; any other
/// line (the title, long with custom rules or a 20-digit seed; a note naming a file) is
/// shortened with `…`. When the screen does not fit, it says so, with the size it needs.
///
/// ```
/// use twenty48_tui::{fit, Screen};
///
/// let screen = Screen::default();
/// assert_eq!(fit(&screen, 80, 24), screen);
/// ```
pub fn fit(screen: &Screen, cols: u16, rows: u16) -> Screen {
    let width = |line: &Vec<Span>| line.iter().map(|s| s.text.chars().count()).sum::<usize>();
    let last = screen.lines.len().saturating_sub(1);
    let must_fit = |i: usize, line: &Vec<Span>| {
        i == last
            || line
                .first()
                .is_some_and(|s| s.text.starts_with(['┌', '│', '├', '└']))
    };
    let need_cols = screen
        .lines
        .iter()
        .enumerate()
        .filter(|(i, l)| must_fit(*i, l))
        .map(|(_, l)| width(l))
        .max()
        .unwrap_or(0);
    let need_rows = screen.lines.len();
    let (cols, rows) = (cols as usize, rows as usize);
    if need_cols > cols || need_rows > rows {
        let mut small = Screen::default();
        for line in [
            format!("terminal too small: {cols}x{rows}"),
            format!("twenty48 needs {need_cols}x{need_rows}"),
            "enlarge it, or Q: quit".to_string(),
        ] {
            let cut: String = line.chars().take(cols.max(1)).collect();
            small.text_line(cut);
        }
        return small;
    }
    let mut out = screen.clone();
    for line in out.lines.iter_mut() {
        if width(line) <= cols {
            continue;
        }
        let mut left = cols.saturating_sub(1);
        let mut cut = Vec::new();
        for span in line.iter() {
            let text: String = span.text.chars().take(left).collect();
            left -= text.chars().count();
            cut.push(Span {
                text,
                style: span.style,
            });
        }
        cut.push(plain_span("…"));
        *line = cut;
    }
    out
}

/// Everything the replay viewer shows.
#[derive(Clone, Debug)]
pub struct WatchView<'a> {
    /// The board (possibly mid-animation).
    pub board: BoardView<'a>,
    /// The file being watched, as shown.
    pub file: &'a str,
    /// The game's rules.
    pub rules: &'a Rules,
    /// The game's seed.
    pub seed: u64,
    /// Moves shown so far (0: the opening).
    pub move_number: u32,
    /// Moves in the game.
    pub total_moves: u32,
    /// The move that led to this board.
    pub direction: Option<Direction>,
    /// Score after `move_number` moves.
    pub score: u64,
    /// Whether playback is paused.
    pub paused: bool,
    /// Moves per second.
    pub speed: f64,
    /// The move number being typed after `g`, if any.
    pub jump_input: Option<&'a str>,
}

/// The replay viewer's screen.
pub fn render_watch(view: &WatchView<'_>) -> Screen {
    let mut screen = Screen::default();
    let title = screen.line();
    title.push(Span {
        text: "twenty48 replay".into(),
        style: Style {
            bold: true,
            ..Style::default()
        },
    });
    title.push(plain_span(&format!(
        "  {}  {}, seed {}",
        view.file,
        rules_title(view.rules),
        view.seed
    )));
    let played = match view.direction {
        Some(d) => format!("   played {}", d.name()),
        None if view.move_number == 0 => "   opening".to_string(),
        None => String::new(),
    };
    screen.text_line(format!(
        "move {}/{}   score {}{played}",
        view.move_number, view.total_moves, view.score
    ));
    screen.lines.extend(board_lines(view.board));
    screen.text_line(format!(
        "{}   {:.1} moves/s",
        if view.paused { "paused" } else { "playing" },
        view.speed
    ));
    match view.jump_input {
        Some(text) => screen.text_line(format!("go to move: {text}_  (Enter: go, Esc: cancel)")),
        None => screen.text_line(format!(
            "space: {}   ←/→: step   +/-: speed   g: go to move   Home/End   Q: quit",
            if view.paused { "play" } else { "pause" }
        )),
    }
    screen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view<'a>(exponents: &'a [u8], rules: &'a Rules, prompt: Prompt) -> PlayView<'a> {
        PlayView {
            board: BoardView {
                size: rules.size,
                exponents,
                marked: &[],
            },
            rules,
            seed: 7,
            score: 20,
            gained: 0,
            best: 100,
            moves: 3,
            prompt,
            note: None,
        }
    }

    #[test]
    fn play_screen_as_text() {
        let mut cells = [0u8; 16];
        cells[0] = 1;
        cells[5] = 11;
        cells[10] = 14;
        cells[15] = 17;
        let screen = render_play(&view(&cells, &Rules::CLASSIC, Prompt::None));
        let expected = "\
twenty48  classic rules, seed 7
score 20   best 100   moves 3
┌──────┬──────┬──────┬──────┐
│      │      │      │      │
│  2   │  ·   │  ·   │  ·   │
│      │      │      │      │
├──────┼──────┼──────┼──────┤
│      │      │      │      │
│  ·   │ 2048 │  ·   │  ·   │
│      │      │      │      │
├──────┼──────┼──────┼──────┤
│      │      │      │      │
│  ·   │  ·   │ 2^14 │  ·   │
│      │      │      │      │
├──────┼──────┼──────┼──────┤
│      │      │      │      │
│  ·   │  ·   │  ·   │ 2^17 │
│      │      │      │      │
└──────┴──────┴──────┴──────┘

arrows, WASD or hjkl: move   R: new game   Q: quit
";
        assert_eq!(screen.plain(), expected);
    }

    #[test]
    fn a_screen_fits_its_terminal_or_says_what_it_needs() {
        let cells = [0u8; 16];
        let mut v = view(&cells, &Rules::CLASSIC, Prompt::None);
        v.gained = 8;
        let screen = render_play(&v);
        assert!(screen.plain().contains("score 20 (+8)   best 100"));
        let need_rows = screen.lines.len() as u16;
        assert_eq!(fit(&screen, 80, 24), screen, "80x24 holds a 4x4 game");
        let small = fit(&screen, 40, 10).plain();
        assert_eq!(
            small,
            format!("terminal too small: 40x10\ntwenty48 needs 50x{need_rows}\nenlarge it, or Q: quit\n")
        );
        // A long title is shortened to the width; the board is not.
        let mut rules = Rules::CLASSIC;
        rules.four_chance = twenty48_engine::FourChance::new(2, 20);
        let mut long = view(&cells, &rules, Prompt::None);
        long.seed = u64::MAX;
        let screen = render_play(&long);
        let fitted = fit(&screen, 60, 24).plain();
        let title = fitted.lines().next().unwrap();
        assert_eq!(title.chars().count(), 60, "{title}");
        assert!(title.ends_with('…'));
        assert_eq!(fitted.lines().nth(5), screen.plain().lines().nth(5));
    }

    #[test]
    fn prompts_and_custom_rules() {
        let mut rules = Rules::CONSOLE;
        rules.size = 6;
        let cells = [0u8; 36];
        for (prompt, text) in [
            (Prompt::ReallyQuit, "Really quit? [Y/N]"),
            (Prompt::ReallyRestart, "New game? This one is saved. [Y/N]"),
            (
                Prompt::WonKeepGoing,
                "You win! Keep going? [Y: keep going, N: new game]",
            ),
            (Prompt::OverPlayAgain, "Game over. Try again? [Y/N]"),
            (Prompt::WonPlayAgain, "You win! Play again? [Y/N]"),
        ] {
            let plain = render_play(&view(&cells, &rules, prompt)).plain();
            assert!(plain.ends_with(&format!("{text}\n")), "{plain}");
            assert!(plain.contains("custom rules (6x6"), "{plain}");
            // 6x6: one line per row, 6 rows, 5 separators, top and bottom.
            assert_eq!(
                plain
                    .lines()
                    .filter(|l| l.starts_with(['│', '├', '┌', '└']))
                    .count(),
                13
            );
        }
    }

    #[test]
    fn ansi_follows_the_colour_mode() {
        let cells = [1u8, 0, 0, 0];
        let mut rules = Rules::CLASSIC;
        rules.size = 2;
        let screen = render_play(&view(&cells, &rules, Prompt::None));
        let none = screen.ansi(ColorMode::None);
        assert!(!none.contains("38;"), "no colour codes without colour");
        assert!(none.contains("\x1b[1m  2   \x1b[0m"), "{none:?}");
        let true_colour = screen.ansi(ColorMode::TrueColor);
        assert!(
            true_colour.contains("48;2;238;228;218"),
            "the 2 tile's face"
        );
        let c256 = screen.ansi(ColorMode::Ansi256);
        assert!(c256.contains("48;5;"));
        let c16 = screen.ansi(ColorMode::Ansi16);
        assert!(!c16.contains("48;5;") && !c16.contains("48;2;"));
        assert!(true_colour.ends_with("\x1b[K\r\n"));
    }

    #[test]
    fn marked_cells_are_reversed() {
        let cells = [1u8, 2, 0, 0];
        let lines = board_lines(BoardView {
            size: 2,
            exponents: &cells,
            marked: &[1],
        });
        let tiles: Vec<&Span> = lines[2].iter().filter(|s| s.text != "│").collect();
        assert!(!tiles[0].style.reverse);
        assert!(tiles[1].style.reverse);
    }

    #[test]
    fn watch_screen_names_the_move() {
        let cells = [0u8; 16];
        let screen = render_watch(&WatchView {
            board: BoardView {
                size: 4,
                exponents: &cells,
                marked: &[],
            },
            file: "game.t48",
            rules: &Rules::ARDUINO,
            seed: 9,
            move_number: 12,
            total_moves: 80,
            direction: Some(Direction::Left),
            score: 64,
            paused: true,
            speed: 4.0,
            jump_input: Some("3"),
        })
        .plain();
        assert!(
            screen.contains("move 12/80   score 64   played left"),
            "{screen}"
        );
        assert!(screen.contains("paused   4.0 moves/s"));
        let footer = |paused| {
            render_watch(&WatchView {
                board: BoardView {
                    size: 4,
                    exponents: &cells,
                    marked: &[],
                },
                file: "game.t48",
                rules: &Rules::ARDUINO,
                seed: 9,
                move_number: 12,
                total_moves: 80,
                direction: None,
                score: 64,
                paused,
                speed: 4.0,
                jump_input: None,
            })
            .plain()
        };
        assert!(
            footer(true).contains("space: play   "),
            "paused: space plays"
        );
        assert!(footer(false).contains("space: pause   "));
        assert!(screen.contains("go to move: 3_"));
        assert!(screen.contains("arduino rules, seed 9"));
    }
}
