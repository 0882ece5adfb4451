//! What a key press means: arrows, WASD and hjkl move, R restarts, Q quits, Y and N answer.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use twenty48_engine::Direction;

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Action {
    /// Slide the tiles.
    Move(Direction),
    /// Q or Esc: ask before quitting.
    Quit,
    /// R: ask before starting a new game.
    Restart,
    /// Ctrl-C: save and leave at once.
    Interrupt,
    /// Y: yes.
    Yes,
    /// N: no.
    No,
    /// Anything else (and key releases and repeats of other keys).
    Ignore,
}

/// Maps a key event: arrows, W/A/S/D (either case) and vi's h/j/k/l move; R restarts; Q or
/// Esc quit; Y/N answer; Ctrl-C interrupts. Key releases are ignored (terminals that report them would otherwise
/// move twice).
///
/// ```
/// use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
/// use twenty48_engine::Direction;
/// use twenty48_tui::{action, Action};
///
/// let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
/// assert_eq!(action(key(KeyCode::Char('a'))), Action::Move(Direction::Left));
/// assert_eq!(action(key(KeyCode::Up)), Action::Move(Direction::Up));
/// assert_eq!(action(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Action::Interrupt);
/// ```
pub fn action(key: KeyEvent) -> Action {
    if key.kind == KeyEventKind::Release {
        return Action::Ignore;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return match key.code {
            KeyCode::Char('c') | KeyCode::Char('C') => Action::Interrupt,
            _ => Action::Ignore,
        };
    }
    match key.code {
        KeyCode::Up => Action::Move(Direction::Up),
        KeyCode::Down => Action::Move(Direction::Down),
        KeyCode::Left => Action::Move(Direction::Left),
        KeyCode::Right => Action::Move(Direction::Right),
        KeyCode::Esc => Action::Quit,
        KeyCode::Char(c) => match c.to_ascii_lowercase() {
            'w' | 'k' => Action::Move(Direction::Up),
            'a' | 'h' => Action::Move(Direction::Left),
            's' | 'j' => Action::Move(Direction::Down),
            'd' | 'l' => Action::Move(Direction::Right),
            'q' => Action::Quit,
            'r' => Action::Restart,
            'y' => Action::Yes,
            'n' => Action::No,
            _ => Action::Ignore,
        },
        _ => Action::Ignore,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn wasd_in_both_cases_and_arrows() {
        for (c, d) in [
            ('w', Direction::Up),
            ('a', Direction::Left),
            ('s', Direction::Down),
            ('d', Direction::Right),
        ] {
            assert_eq!(action(key(KeyCode::Char(c))), Action::Move(d));
            let upper = KeyEvent::new(KeyCode::Char(c.to_ascii_uppercase()), KeyModifiers::SHIFT);
            assert_eq!(action(upper), Action::Move(d));
        }
        for (c, d) in [
            ('h', Direction::Left),
            ('j', Direction::Down),
            ('k', Direction::Up),
            ('l', Direction::Right),
        ] {
            assert_eq!(action(key(KeyCode::Char(c))), Action::Move(d), "vi key {c}");
        }
        assert_eq!(action(key(KeyCode::Char('r'))), Action::Restart);
        assert_eq!(action(key(KeyCode::Down)), Action::Move(Direction::Down));
        assert_eq!(action(key(KeyCode::Right)), Action::Move(Direction::Right));
        assert_eq!(action(key(KeyCode::Char('Q'))), Action::Quit);
        assert_eq!(action(key(KeyCode::Esc)), Action::Quit);
        assert_eq!(action(key(KeyCode::Char('y'))), Action::Yes);
        assert_eq!(action(key(KeyCode::Char('N'))), Action::No);
        assert_eq!(action(key(KeyCode::Char('x'))), Action::Ignore);
    }

    #[test]
    fn releases_and_other_control_keys_do_nothing() {
        let release = KeyEvent {
            code: KeyCode::Left,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
        };
        assert_eq!(action(release), Action::Ignore);
        let ctrl_w = KeyEvent::new(KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(action(ctrl_w), Action::Ignore);
    }
}
