//! Host requests out of a byte stream: the text between `{` and `}`, at most `N` bytes.
//!
//! Every board that reads requests from a serial link feeds its bytes through a [`Framer`]
//! (the Nano's USB serial RX; the QEMU board's UART0 script, which also carries presses).
//! Bytes outside braces are handed back for the board to use or ignore. A text longer than
//! `N` bytes is consumed up to its `}` and reported as [`Framed::Broken`]; so is a request
//! cut short by a new `{` (half a request, then a whole one: the half is reported, the whole
//! one is read).

use twenty48_deviceproto::{ErrorCode, Request};

use crate::board::Input;

/// What one byte completed.
#[derive(Debug, PartialEq, Eq)]
pub enum Framed<'a> {
    /// Nothing yet (a byte inside braces).
    Pending,
    /// A byte outside braces.
    Outside(u8),
    /// The text between a `{` and its `}`.
    Text(&'a [u8]),
    /// A text longer than `N` bytes (now consumed to its `}`), or one cut short by a new `{`:
    /// answer with error code 2.
    Broken,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Outside,
    Inside,
    /// Too long: skipping to the `}`.
    Skipping,
}

/// The framer's state between bytes.
#[derive(Debug)]
pub struct Framer<const N: usize> {
    buf: [u8; N],
    len: usize,
    state: State,
}

impl<const N: usize> Default for Framer<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Framer<N> {
    /// A framer outside braces.
    pub const fn new() -> Framer<N> {
        Framer {
            buf: [0; N],
            len: 0,
            state: State::Outside,
        }
    }

    /// Whether the framer is inside braces (a `#` there is text, not a comment).
    pub fn inside(&self) -> bool {
        self.state != State::Outside
    }

    /// Reads one byte.
    pub fn feed(&mut self, byte: u8) -> Framed<'_> {
        match (self.state, byte) {
            (State::Outside, b'{') => {
                self.state = State::Inside;
                self.len = 0;
                Framed::Pending
            }
            (State::Outside, b) => Framed::Outside(b),
            (State::Inside, b'}') => {
                self.state = State::Outside;
                Framed::Text(&self.buf[..self.len])
            }
            (State::Inside, b'{') => {
                self.len = 0;
                Framed::Broken
            }
            (State::Inside, b) => {
                if self.len < N {
                    self.buf[self.len] = b;
                    self.len += 1;
                } else {
                    self.state = State::Skipping;
                }
                Framed::Pending
            }
            (State::Skipping, b'}') => {
                self.state = State::Outside;
                Framed::Broken
            }
            (State::Skipping, _) => Framed::Pending,
        }
    }
}

impl<const N: usize> Framer<N> {
    /// Reads one byte of a link that carries only requests (the Nano's USB serial, the
    /// Uno's USART): the input of the request it completes, a broken one's, or `None`
    /// (bytes outside braces mean nothing there).
    pub fn request(&mut self, byte: u8) -> Option<Input> {
        match self.feed(byte) {
            Framed::Text(text) => Some(request_input(text)),
            Framed::Broken => Some(BROKEN_REQUEST),
            Framed::Outside(_) | Framed::Pending => None,
        }
    }
}

/// The input a request text stands for: [`Input::Request`], or [`Input::BadRequest`] with
/// the error code to answer.
pub fn request_input(text: &[u8]) -> Input {
    match Request::parse(text) {
        Ok(request) => Input::Request(request),
        Err(e) => Input::BadRequest(e.code()),
    }
}

/// The input of a [`Framed::Broken`] text.
pub const BROKEN_REQUEST: Input = Input::BadRequest(ErrorCode::Malformed);
