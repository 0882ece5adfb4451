//! What a play session shows: screens cut to the terminal, the animation of a move, and
//! the questions asked before the game.

use anyhow::Result;
use crossterm::event::Event;
use twenty48_engine::{Direction, Game, Rules};
use twenty48_tui::{
    action, fit, frames, render_play, resume_answer, BestScores, BoardView, PlayView, Prompt,
    Resume, Screen, Span, Style, Terminal,
};

fn question_screen(lines: &[String]) -> Screen {
    Screen {
        lines: lines
            .iter()
            .map(|l| {
                vec![Span {
                    text: l.clone(),
                    style: Style::default(),
                }]
            })
            .collect(),
    }
}

/// An answer to the resume question.
pub(super) enum Answer {
    Yes,
    No,
    /// Ctrl-C.
    Leave,
    /// The terminal went away.
    Gone,
}

/// Waits for Y or N (Q counts as N).
pub(super) fn ask(term: &mut Terminal, lines: &[String]) -> Result<Answer> {
    loop {
        draw_fitted(term, &question_screen(lines))?;
        match term.read_event()? {
            None => return Ok(Answer::Gone),
            Some(Event::Key(key)) => match resume_answer(action(key)) {
                Some(Resume::Yes) => return Ok(Answer::Yes),
                Some(Resume::No) => return Ok(Answer::No),
                Some(Resume::Leave) => return Ok(Answer::Leave),
                None => {}
            },
            Some(_) => {}
        }
    }
}

/// Draws a screen cut to the terminal's size: a terminal too small for the board is told
/// the size it needs instead of a wrapped, scrolled board (`play` and `replay --watch`).
pub(crate) fn draw_fitted(term: &mut Terminal, screen: &Screen) -> Result<()> {
    let screen = match term.size() {
        Some((cols, rows)) => fit(screen, cols, rows),
        None => screen.clone(),
    };
    term.draw(&screen)?;
    Ok(())
}

/// The parts of the play screen that stay the same through a move's animation: those
/// after the move.
pub(super) struct Still {
    rules: Rules,
    seed: u64,
    score: u64,
    gained: u64,
    moves: u32,
    best: u64,
}

impl Still {
    pub(super) fn of(game: &Game, gained: u64, best: &BestScores) -> Still {
        Still {
            rules: *game.rules(),
            seed: game.seed(),
            score: game.score(),
            gained,
            moves: game.move_count(),
            best: best.best(game.rules()).max(game.score()),
        }
    }
}

/// How long each picture of a move's animation stays: a whole move takes at most about a
/// tenth of a second (five slide steps, the merges, the spawn).
const FRAME_TIME: std::time::Duration = std::time::Duration::from_millis(15);

/// Shows the move `dir` from `before`: the tiles slide a cell a picture, then the merges and
/// the spawn are marked. A key pressed meanwhile cuts it short and is returned, to be
/// handled next.
pub(super) fn animate(
    term: &mut Terminal,
    before: &Game,
    dir: Direction,
    frame: &Still,
) -> Result<Option<Event>> {
    let mut replay = before.clone();
    let mut events = Vec::new();
    replay.play_with_events(dir, &mut |e| events.push(e))?;
    for picture in frames(before.cells().exponents(), frame.rules.size, &events) {
        let view = PlayView {
            board: BoardView {
                size: frame.rules.size,
                exponents: &picture.exponents,
                marked: &picture.marked,
            },
            rules: &frame.rules,
            seed: frame.seed,
            score: frame.score,
            gained: frame.gained,
            best: frame.best,
            moves: frame.moves,
            prompt: Prompt::None,
            note: None,
        };
        draw_fitted(term, &render_play(&view))?;
        if let Some(event) = term.poll_event(FRAME_TIME)? {
            return Ok(Some(event));
        }
    }
    Ok(None)
}
