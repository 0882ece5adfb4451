//! The flow of a play session: which key does what, given the question on screen.
//!
//! `twenty48 play` is a loop of "draw, read a key, act". The acting part is here, as a small
//! state machine with no terminal and no files: [`Flow::key`] takes the action of a key and
//! says what the driver must do ([`Step`]); the driver plays the move, journals it, saves
//! the game, and reports what the move did back with [`Flow::moved`]. Tests drive every
//! transition directly.
//!
//! ```
//! use twenty48_engine::{Direction, Status};
//! use twenty48_tui::{Action, Flow, Prompt, Step};
//!
//! let mut flow = Flow::new();
//! assert_eq!(flow.key(Action::Move(Direction::Left)), Step::Move(Direction::Left));
//! flow.moved(Status::Over); // the driver played it: no move is left
//! assert_eq!(flow.prompt(), Prompt::OverPlayAgain);
//! assert_eq!(flow.key(Action::Yes), Step::NewGame);
//! assert_eq!(flow.prompt(), Prompt::None);
//! assert_eq!(flow.key(Action::Quit), Step::Nothing); // asks first
//! assert_eq!(flow.key(Action::Yes), Step::Leave);
//! ```

use twenty48_engine::{Direction, Status};

use crate::keys::Action;
use crate::screen::Prompt;

/// What the driver of a play session does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing: draw the screen again and read the next key.
    Nothing,
    /// Play this move (journal it if it moved), then report with [`Flow::moved`].
    Move(Direction),
    /// Start a new game (the finished one is already saved).
    NewGame,
    /// Save the game in progress and leave.
    Leave,
}

/// The state of a play session between keys: the question on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    prompt: Prompt,
}

impl Default for Flow {
    fn default() -> Flow {
        Flow::new()
    }
}

impl Flow {
    /// A session playing, nothing asked.
    pub fn new() -> Flow {
        Flow {
            prompt: Prompt::None,
        }
    }

    /// The question on screen.
    pub fn prompt(&self) -> Prompt {
        self.prompt
    }

    /// The step for a key's action.
    ///
    /// - Ctrl-C leaves at once, whatever is asked.
    /// - Playing: a direction is a move; Q asks "Really quit?"; R asks "New game?".
    /// - "Really quit?": Y leaves; N (or Q again) goes back to the game.
    /// - "New game?" (after R): Y saves this game and starts a new one; N, Q or R again goes
    ///   back to the game.
    /// - "Keep going?" after a win that plays on (the original's question): Y keeps
    ///   playing; N saves this game and starts a new one; a direction keeps going and moves.
    /// - "Play again?" after a game that ended: Y starts a new game; N or Q leaves.
    /// - Anything else does nothing (a direction while a question is asked is not a move).
    pub fn key(&mut self, action: Action) -> Step {
        match (self.prompt, action) {
            (_, Action::Interrupt) => Step::Leave,
            (Prompt::None, Action::Move(dir)) => Step::Move(dir),
            (Prompt::None, Action::Quit) => {
                self.prompt = Prompt::ReallyQuit;
                Step::Nothing
            }
            (Prompt::None, Action::Restart) => {
                self.prompt = Prompt::ReallyRestart;
                Step::Nothing
            }
            (Prompt::ReallyQuit, Action::Yes) => Step::Leave,
            (Prompt::ReallyQuit, Action::No | Action::Quit) => {
                self.prompt = Prompt::None;
                Step::Nothing
            }
            (Prompt::ReallyRestart, Action::Yes) => {
                self.prompt = Prompt::None;
                Step::NewGame
            }
            (Prompt::ReallyRestart, Action::No | Action::Quit | Action::Restart) => {
                self.prompt = Prompt::None;
                Step::Nothing
            }
            (Prompt::WonKeepGoing, Action::Yes) => {
                self.prompt = Prompt::None;
                Step::Nothing
            }
            (Prompt::WonKeepGoing, Action::Move(dir)) => {
                self.prompt = Prompt::None;
                Step::Move(dir)
            }
            (Prompt::WonKeepGoing, Action::No | Action::Restart) => {
                self.prompt = Prompt::None;
                Step::NewGame
            }
            (Prompt::WonKeepGoing, Action::Quit) => {
                self.prompt = Prompt::ReallyQuit;
                Step::Nothing
            }
            (Prompt::WonPlayAgain | Prompt::OverPlayAgain, Action::Yes) => {
                self.prompt = Prompt::None;
                Step::NewGame
            }
            (Prompt::WonPlayAgain | Prompt::OverPlayAgain, Action::No | Action::Quit) => {
                Step::Leave
            }
            _ => Step::Nothing,
        }
    }

    /// Reports the game's status after a move that changed the board: a game that ended
    /// asks whether to play again (a win that plays on asks with [`Flow::won`]).
    pub fn moved(&mut self, status: Status) {
        self.prompt = match status {
            Status::Won => Prompt::WonPlayAgain,
            Status::Over => Prompt::OverPlayAgain,
            _ => Prompt::None,
        };
    }

    /// Reports a move that reached the win under rules that play on: "Keep going or new
    /// game?", as the original asks.
    pub fn won(&mut self) {
        self.prompt = Prompt::WonKeepGoing;
    }
}

/// An answer to "Resume it? [Y/N]" when an unfinished game is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Y: play it on.
    Yes,
    /// N or Q: save it as it is and start a new game.
    No,
    /// Ctrl-C: leave at once, the journal as it is.
    Leave,
}

/// The answer a key gives to "Resume it? [Y/N]"; `None` for keys that answer nothing (ask
/// again).
pub fn resume_answer(action: Action) -> Option<Resume> {
    match action {
        Action::Yes => Some(Resume::Yes),
        Action::No | Action::Quit => Some(Resume::No),
        Action::Interrupt => Some(Resume::Leave),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEFT: Action = Action::Move(Direction::Left);

    #[test]
    fn playing_moves_and_asks_before_quitting() {
        let mut flow = Flow::new();
        assert_eq!(flow.key(LEFT), Step::Move(Direction::Left));
        flow.moved(Status::Playing);
        assert_eq!(flow.prompt(), Prompt::None);
        assert_eq!(flow.key(Action::Yes), Step::Nothing);
        assert_eq!(flow.key(Action::No), Step::Nothing);
        assert_eq!(flow.key(Action::Ignore), Step::Nothing);
        assert_eq!(flow.prompt(), Prompt::None);
    }

    #[test]
    fn the_quit_question() {
        let mut flow = Flow::new();
        assert_eq!(flow.key(Action::Quit), Step::Nothing);
        assert_eq!(flow.prompt(), Prompt::ReallyQuit);
        // A direction while asked is not a move.
        assert_eq!(flow.key(LEFT), Step::Nothing);
        assert_eq!(flow.key(Action::No), Step::Nothing);
        assert_eq!(flow.prompt(), Prompt::None);
        flow.key(Action::Quit);
        assert_eq!(
            flow.key(Action::Quit),
            Step::Nothing,
            "Q twice: back to the game"
        );
        assert_eq!(flow.prompt(), Prompt::None);
        flow.key(Action::Quit);
        assert_eq!(flow.key(Action::Yes), Step::Leave);
    }

    #[test]
    fn play_again_after_a_win_or_game_over() {
        for (status, prompt) in [
            (Status::Won, Prompt::WonPlayAgain),
            (Status::Over, Prompt::OverPlayAgain),
        ] {
            let mut flow = Flow::new();
            flow.moved(status);
            assert_eq!(flow.prompt(), prompt);
            assert_eq!(flow.key(LEFT), Step::Nothing, "no move after the end");
            assert_eq!(flow.key(Action::Yes), Step::NewGame);
            assert_eq!(flow.prompt(), Prompt::None);
            flow.moved(status);
            assert_eq!(flow.key(Action::No), Step::Leave);
            let mut flow = Flow::new();
            flow.moved(status);
            assert_eq!(flow.key(Action::Quit), Step::Leave);
        }
    }

    #[test]
    fn r_restarts_after_asking() {
        let mut flow = Flow::new();
        assert_eq!(flow.key(Action::Restart), Step::Nothing);
        assert_eq!(flow.prompt(), Prompt::ReallyRestart);
        assert_eq!(flow.key(LEFT), Step::Nothing, "no move while asked");
        assert_eq!(flow.key(Action::No), Step::Nothing);
        assert_eq!(flow.prompt(), Prompt::None);
        flow.key(Action::Restart);
        assert_eq!(flow.key(Action::Yes), Step::NewGame);
        assert_eq!(flow.prompt(), Prompt::None);
    }

    #[test]
    fn a_win_that_plays_on_asks_keep_going_or_new_game() {
        let mut flow = Flow::new();
        flow.won();
        assert_eq!(flow.prompt(), Prompt::WonKeepGoing);
        assert_eq!(flow.key(Action::Yes), Step::Nothing);
        assert_eq!(flow.prompt(), Prompt::None);
        flow.won();
        assert_eq!(
            flow.key(LEFT),
            Step::Move(Direction::Left),
            "a move keeps going"
        );
        flow.won();
        assert_eq!(flow.key(Action::No), Step::NewGame);
        flow.won();
        assert_eq!(flow.key(Action::Quit), Step::Nothing);
        assert_eq!(flow.prompt(), Prompt::ReallyQuit);
    }

    #[test]
    fn ctrl_c_leaves_from_every_state() {
        for setup in [
            |_: &mut Flow| {},
            |f: &mut Flow| {
                f.key(Action::Quit);
            },
            |f: &mut Flow| f.moved(Status::Won),
            |f: &mut Flow| f.moved(Status::Over),
            |f: &mut Flow| f.won(),
            |f: &mut Flow| {
                f.key(Action::Restart);
            },
        ] {
            let mut flow = Flow::new();
            setup(&mut flow);
            assert_eq!(flow.key(Action::Interrupt), Step::Leave);
        }
    }

    #[test]
    fn the_resume_question() {
        assert_eq!(resume_answer(Action::Yes), Some(Resume::Yes));
        assert_eq!(resume_answer(Action::No), Some(Resume::No));
        assert_eq!(resume_answer(Action::Quit), Some(Resume::No));
        assert_eq!(resume_answer(Action::Interrupt), Some(Resume::Leave));
        assert_eq!(resume_answer(LEFT), None);
        assert_eq!(resume_answer(Action::Ignore), None);
    }
}
