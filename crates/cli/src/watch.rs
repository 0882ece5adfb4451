//! `replay --watch`: the replay viewer. Tiles slide and merge as the engine's events say;
//! keys pause, step, change speed and jump to a move.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use twenty48_engine::{Direction, Event, Game};
use twenty48_movelog::MoveLog;
use twenty48_tui::{frames, render_watch, BoardView, Frame, Terminal, WatchView};

/// Speeds offered, in moves per second.
const SPEEDS: [f64; 8] = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// The board after each move, with what made it.
struct Step {
    cells: Vec<u8>,
    score: u64,
    direction: Option<Direction>,
    events: Vec<Event>,
}

fn steps(log: &MoveLog, file: &Path) -> Result<Vec<Step>> {
    let mut game = Game::new(log.rules, log.seed)
        .with_context(|| format!("{} cannot be replayed", crate::input::shown(file)))?;
    let mut out = vec![Step {
        cells: game.cells().exponents().to_vec(),
        score: 0,
        direction: None,
        events: Vec::new(),
    }];
    for (i, &dir) in log.moves.iter().enumerate() {
        let mut events = Vec::new();
        let outcome = game
            .play_with_events(dir, &mut |e| events.push(e))
            .with_context(|| {
                format!(
                    "{}: move {} cannot be played",
                    crate::input::shown(file),
                    i + 1
                )
            })?;
        if !outcome.moved {
            bail!(
                "{}: move {} ({}) does not change the board; the log is invalid (see twenty48 verify)",
                crate::input::shown(file),
                i + 1,
                dir.name()
            );
        }
        out.push(Step {
            cells: game.cells().exponents().to_vec(),
            score: game.score(),
            direction: Some(dir),
            events,
        });
    }
    Ok(out)
}

/// What the viewer is doing.
struct Viewer<'a> {
    log: &'a MoveLog,
    file: String,
    steps: Vec<Step>,
    at: usize,
    paused: bool,
    speed: usize,
    jump: Option<String>,
}

enum Key {
    Quit,
    Redraw,
    /// Show the move `at` with its animation.
    Animate,
}

impl Viewer<'_> {
    fn draw(&self, term: &mut Terminal, frame: Option<&Frame>) -> Result<()> {
        let step = &self.steps[self.at];
        let (exponents, marked) = match frame {
            Some(f) => (&f.exponents[..], &f.marked[..]),
            None => (&step.cells[..], &[][..]),
        };
        let screen = render_watch(&WatchView {
            board: BoardView {
                size: self.log.rules.size,
                exponents,
                marked,
            },
            file: &self.file,
            rules: &self.log.rules,
            seed: self.log.seed,
            move_number: self.at as u32,
            total_moves: self.log.moves.len() as u32,
            direction: step.direction,
            score: step.score,
            paused: self.paused,
            speed: SPEEDS[self.speed],
            jump_input: self.jump.as_deref(),
        });
        // Cut to the terminal, as `play` does: too small, it says the size it needs.
        crate::play::draw_fitted(term, &screen)
    }

    fn last(&self) -> usize {
        self.steps.len() - 1
    }

    fn key(&mut self, key: KeyEvent) -> Key {
        if key.kind == KeyEventKind::Release {
            return Key::Redraw;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Key::Quit;
        }
        if let Some(text) = &mut self.jump {
            match key.code {
                KeyCode::Char(c) if c.is_ascii_digit() && text.len() < 9 => text.push(c),
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Enter => {
                    if let Ok(n) = text.parse::<usize>() {
                        self.at = n.min(self.last());
                        self.paused = true;
                    }
                    self.jump = None;
                }
                KeyCode::Esc => self.jump = None,
                _ => {}
            }
            return Key::Redraw;
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc => Key::Quit,
            KeyCode::Char(' ') | KeyCode::Char('p') => {
                self.paused = !self.paused;
                if !self.paused && self.at == self.last() {
                    self.at = 0;
                }
                Key::Redraw
            }
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('n') => {
                self.paused = true;
                if self.at < self.last() {
                    self.at += 1;
                    Key::Animate
                } else {
                    Key::Redraw
                }
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('b') => {
                self.paused = true;
                self.at = self.at.saturating_sub(1);
                Key::Redraw
            }
            KeyCode::Char('+') | KeyCode::Char('=') | KeyCode::Up => {
                self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
                Key::Redraw
            }
            KeyCode::Char('-') | KeyCode::Down => {
                self.speed = self.speed.saturating_sub(1);
                Key::Redraw
            }
            KeyCode::Char('g') => {
                self.jump = Some(String::new());
                Key::Redraw
            }
            KeyCode::Home | KeyCode::Char('0') => {
                self.at = 0;
                Key::Redraw
            }
            KeyCode::End | KeyCode::Char('$') => {
                self.at = self.last();
                self.paused = true;
                Key::Redraw
            }
            _ => Key::Redraw,
        }
    }

    /// Animates move `self.at`; a key press cuts it short (and is returned).
    fn animate(&self, term: &mut Terminal) -> Result<Option<KeyEvent>> {
        if self.at == 0 {
            return Ok(None);
        }
        let step = &self.steps[self.at];
        let before = &self.steps[self.at - 1].cells;
        let frames = frames(before, self.log.rules.size, &step.events);
        let period = Duration::from_secs_f64(1.0 / SPEEDS[self.speed]);
        let per_frame =
            (period.mul_f64(0.6) / frames.len().max(1) as u32).min(Duration::from_millis(60));
        for f in &frames {
            self.draw(term, Some(f))?;
            if event::poll(per_frame)? {
                if let TermEvent::Key(k) = event::read()? {
                    return Ok(Some(k));
                }
            }
        }
        Ok(None)
    }
}

/// Runs the viewer on a terminal until the user quits.
pub fn run(log: &MoveLog, file: &Path, ui: &crate::style::Ui) -> Result<()> {
    if !crate::play::on_terminal() {
        bail!("--watch needs a terminal on stdin and stdout (without one, twenty48 replay prints every board)");
    }
    let steps = steps(log, file)?;
    let mut viewer = Viewer {
        log,
        file: crate::input::shown(file),
        steps,
        at: 0,
        paused: false,
        speed: 3,
        jump: None,
    };
    let mut term = Terminal::enter().context("cannot set up the terminal")?;
    term.set_colors(ui.screen_colors());
    let mut next = Instant::now() + Duration::from_secs_f64(1.0 / SPEEDS[viewer.speed]);
    let mut pending: Option<KeyEvent> = None;
    loop {
        viewer.draw(&mut term, None)?;
        let key = match pending.take() {
            Some(k) => Some(k),
            None => {
                let timeout = if viewer.paused || viewer.jump.is_some() {
                    Duration::from_secs(1)
                } else {
                    next.saturating_duration_since(Instant::now())
                };
                if event::poll(timeout)? {
                    match event::read()? {
                        TermEvent::Key(k) => Some(k),
                        _ => continue,
                    }
                } else {
                    None
                }
            }
        };
        match key {
            Some(k) => match viewer.key(k) {
                Key::Quit => break,
                Key::Redraw => {}
                Key::Animate => pending = viewer.animate(&mut term)?,
            },
            None => {
                if !viewer.paused && viewer.jump.is_none() {
                    if viewer.at < viewer.last() {
                        viewer.at += 1;
                        pending = viewer.animate(&mut term)?;
                    } else {
                        viewer.paused = true;
                    }
                    next = Instant::now() + Duration::from_secs_f64(1.0 / SPEEDS[viewer.speed]);
                }
            }
        }
    }
    Ok(())
}
