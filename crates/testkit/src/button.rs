//! The four buttons of every board, as the firmware names them: D4 up, D5 down, D6 left,
//! D7 right (`BUTTON_DIRECTIONS` in the firmware). Each emulator maps them to its chip's pins.

/// A board's button, by the direction the firmware gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// D4.
    Up,
    /// D5.
    Down,
    /// D6.
    Left,
    /// D7.
    Right,
}

impl Button {
    /// The four, in pin order D4, D5, D6, D7.
    pub const ALL: [Button; 4] = [Button::Up, Button::Down, Button::Left, Button::Right];

    /// Its place in pin order (D4 is 0).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The button of a move letter (`U`, `D`, `L`, `R`, either case).
    pub fn from_letter(c: char) -> Option<Button> {
        match c.to_ascii_uppercase() {
            'U' => Some(Button::Up),
            'D' => Some(Button::Down),
            'L' => Some(Button::Left),
            'R' => Some(Button::Right),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_are_in_pin_order_and_read_from_letters() {
        for (i, b) in Button::ALL.into_iter().enumerate() {
            assert_eq!(b.index(), i);
        }
        assert_eq!(Button::from_letter('l'), Some(Button::Left));
        assert_eq!(Button::from_letter('x'), None);
    }
}
