//! The screens a game should show, drawn on the host by the panel crate
//! (`Screen::draw`, embedded-graphics), and their comparison with what the simulated LCD
//! showed.

use twenty48_engine::{Game, Status};
use twenty48_panel::{Frame, Grid, Screen};
use twenty48_sim_avr::Picture;

use super::player::Played;

/// The frame of a screen as the board shows it (mounted rotated 180 degrees).
pub fn frame(screen: &Screen) -> Frame {
    let mut frame = Frame::new(true);
    let Ok(()) = screen.draw(&mut frame);
    frame
}

fn board(game: &Game) -> Screen {
    Screen::Board {
        cells: Grid::from(game.cells()),
        score: game.score(),
    }
}

/// What a game played to its end shows, from the start screen before it to the start
/// screen after it: the board before each move and after the last, the result, the final
/// score.
pub fn of_game(played: &Played) -> Vec<Screen> {
    let start = Screen::Start {
        rules: "arduino",
        choosable: false,
    };
    let mut game = Game::new(played.rules, played.seed).expect("valid rules");
    let mut screens = vec![start, board(&game)];
    for &d in &played.moves {
        assert!(game.play(d).is_ok_and(|o| o.moved));
        screens.push(board(&game));
    }
    assert!(
        game.status().is_finished(),
        "the game was played to its end"
    );
    screens.push(Screen::Result {
        won: game.status() == Status::Won,
    });
    screens.push(Screen::FinalScore {
        score: game.score(),
    });
    screens.push(start);
    screens
}

/// Whether every pixel of `picture` is `from`'s or `to`'s: a screen drawn part of the way
/// (the driver sends the words that change, band by band).
fn between(picture: &Picture, from: &Frame, to: &Frame) -> bool {
    (0..64).all(|y| {
        (0..128).all(|x| {
            let p = picture.pixel(x, y);
            p == from.panel_pixel(x, y) || p == to.panel_pixel(x, y)
        })
    })
}

/// Checks that the panel showed `expected` in order, each screen exactly, from the first
/// picture that is `expected[0]` on, and nothing but screens drawn part of the way between
/// two of them. Returns how many expected screens were seen (all of them), or what
/// differed.
pub fn shown(pictures: &[Picture], expected: &[Screen]) -> Result<usize, String> {
    let mut frames: Vec<Frame> = expected.iter().map(frame).collect();
    frames.dedup();
    // From the last time the first screen was up before the second one came.
    let second = pictures
        .iter()
        .position(|p| p.shows(&frames[1]))
        .ok_or_else(|| format!("the panel never showed {:?}", expected[1]))?;
    let first = pictures[..second]
        .iter()
        .rposition(|p| p.shows(&frames[0]))
        .ok_or_else(|| {
            format!(
                "the panel never showed {:?} before {:?}",
                expected[0], expected[1]
            )
        })?;
    let mut at = 0;
    for picture in &pictures[first..] {
        if at + 1 == frames.len() {
            break;
        }
        if picture.shows(&frames[at + 1]) {
            at += 1;
        } else if !picture.shows(&frames[at]) && !between(picture, &frames[at], &frames[at + 1]) {
            return Err(format!(
                "after screen {at} of {} the panel showed something else: {picture:?}",
                frames.len()
            ));
        }
    }
    if at + 1 == frames.len() {
        Ok(frames.len())
    } else {
        Err(format!(
            "the panel showed {} of the {} screens; it never showed the next one",
            at + 1,
            frames.len()
        ))
    }
}
