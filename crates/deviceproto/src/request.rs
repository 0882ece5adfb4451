//! Requests from the host: the text between `{` and `}` on the link into the device.

use core::fmt;

/// The longest request text (between the braces) a device accepts; a longer one is
/// [`RequestError::Malformed`].
pub const MAX_REQUEST: usize = 48;

/// A request from the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Request {
    /// `{hello}`: answer with a hello frame.
    Hello,
    /// `{pull}` (every stored game not yet acknowledged) or `{pull all}` (every stored game).
    Pull {
        /// Whether acknowledged games are sent too.
        all: bool,
    },
    /// `{ack N C}`: the host has game `N`, whose end or partial frame had check `C`.
    Ack {
        /// The game number.
        game: u32,
        /// The `crc=` of the game's end or partial frame as the device sent it.
        check: u32,
    },
}

/// An acknowledgement: the host has game `game` safely on disk, the copy whose end or
/// partial frame had check `check` (sent as `{ack N C}`, [`Request::Ack`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ack {
    /// The game number.
    pub game: u32,
    /// The `crc=` of the game's end or partial frame as the device sent it.
    pub check: u32,
}

impl From<Ack> for Request {
    fn from(ack: Ack) -> Request {
        Request::Ack {
            game: ack.game,
            check: ack.check,
        }
    }
}

/// A request as the host sends it, braces included (`{pull all}`, `{ack 7 1234}`): what
/// [`Request::parse`] reads back from the text between the braces.
impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Hello => f.write_str("{hello}"),
            Request::Pull { all: false } => f.write_str("{pull}"),
            Request::Pull { all: true } => f.write_str("{pull all}"),
            Request::Ack { game, check } => write!(f, "{{ack {game} {check}}}"),
        }
    }
}

/// Why a request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// Not a request the device knows.
    Unknown,
    /// A known request with bad or missing values, or a text longer than [`MAX_REQUEST`].
    Malformed,
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RequestError::Unknown => "unknown request",
            RequestError::Malformed => "malformed request",
        })
    }
}

impl RequestError {
    /// The error frame's code for it.
    pub fn code(self) -> ErrorCode {
        match self {
            RequestError::Unknown => ErrorCode::Unknown,
            RequestError::Malformed => ErrorCode::Malformed,
        }
    }
}

/// The `code` of an error frame: what was wrong with a host request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The request is not one the device knows.
    Unknown = 1,
    /// The request is malformed (bad number, missing field) or longer than [`MAX_REQUEST`].
    Malformed = 2,
    /// The request names a game the store does not hold.
    NoGame = 3,
    /// An acknowledgement whose check does not match the stored game.
    CheckMismatch = 4,
    /// The store could not be read or written.
    Store = 5,
    /// The device keeps no game store (a board built without one; the Arduino Uno's firmware
    /// before issue 25): `{pull}` and `{ack}` have nothing to answer; its games are pulled
    /// live from a capture of its log.
    NoStore = 6,
}

impl ErrorCode {
    /// The code for its number, if it is one.
    pub fn from_code(code: u8) -> Option<ErrorCode> {
        Some(match code {
            1 => ErrorCode::Unknown,
            2 => ErrorCode::Malformed,
            3 => ErrorCode::NoGame,
            4 => ErrorCode::CheckMismatch,
            5 => ErrorCode::Store,
            6 => ErrorCode::NoStore,
            _ => return None,
        })
    }

    /// What the code means, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            ErrorCode::Unknown => "unknown request",
            ErrorCode::Malformed => "malformed or too long request",
            ErrorCode::NoGame => "no such game in the store",
            ErrorCode::CheckMismatch => {
                "the acknowledgement's check does not match the stored game"
            }
            ErrorCode::Store => "the store could not be read or written",
            ErrorCode::NoStore => {
                "the device keeps no game store (pull its games live from a capture)"
            }
        }
    }
}

/// A decimal `u32` with no sign, no leading `+`, at most 10 digits, that fits.
fn number(word: &[u8]) -> Result<u32, RequestError> {
    if word.is_empty() || word.len() > 10 {
        return Err(RequestError::Malformed);
    }
    let mut n: u64 = 0;
    for &b in word {
        if !b.is_ascii_digit() {
            return Err(RequestError::Malformed);
        }
        n = n * 10 + (b - b'0') as u64;
    }
    u32::try_from(n).map_err(|_| RequestError::Malformed)
}

impl Request {
    /// Parses the text between the braces (`pull all`, `ack 7 1234`). Words are separated by
    /// spaces; extra spaces are allowed.
    pub fn parse(text: &[u8]) -> Result<Request, RequestError> {
        if text.len() > MAX_REQUEST {
            return Err(RequestError::Malformed);
        }
        let mut words = text.split(|&b| b == b' ').filter(|w| !w.is_empty());
        let first = words.next().ok_or(RequestError::Unknown)?;
        let mut rest = [&b""[..]; 3];
        let mut count = 0;
        for w in words {
            if count == rest.len() {
                return Err(RequestError::Malformed);
            }
            rest[count] = w;
            count += 1;
        }
        let rest = &rest[..count];
        match (first, rest) {
            (b"hello", []) => Ok(Request::Hello),
            (b"pull", []) => Ok(Request::Pull { all: false }),
            (b"pull", [b"all"]) => Ok(Request::Pull { all: true }),
            (b"ack", [game, check]) => Ok(Request::Ack {
                game: number(game)?,
                check: number(check)?,
            }),
            (b"hello" | b"pull" | b"ack", _) => Err(RequestError::Malformed),
            _ => Err(RequestError::Unknown),
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use proptest::prelude::*;
    use std::string::ToString;

    #[test]
    fn the_requests() {
        assert_eq!(Request::parse(b"hello"), Ok(Request::Hello));
        assert_eq!(Request::parse(b" pull "), Ok(Request::Pull { all: false }));
        assert_eq!(
            Request::parse(b"pull  all"),
            Ok(Request::Pull { all: true })
        );
        assert_eq!(
            Request::parse(b"ack 4294967295 0"),
            Ok(Request::Ack {
                game: u32::MAX,
                check: 0
            })
        );
    }

    #[test]
    fn bad_requests() {
        use RequestError::*;
        for (text, err) in [
            (&b""[..], Unknown),
            (b"   ", Unknown),
            (b"dance", Unknown),
            (b"pull some", Malformed),
            (b"hello there", Malformed),
            (b"ack", Malformed),
            (b"ack 1", Malformed),
            (b"ack 1 2 3", Malformed),
            (b"ack -1 2", Malformed),
            (b"ack 4294967296 2", Malformed),
            (b"ack 1 99999999999", Malformed),
            (b"ack x 2", Malformed),
            (&[b'a'; MAX_REQUEST + 1], Malformed),
        ] {
            assert_eq!(Request::parse(text), Err(err), "{:?}", text);
        }
    }

    /// What the host sends is what the device reads: every request, written with its
    /// braces, parses back from the text between them.
    #[test]
    fn requests_are_written_as_they_are_read() {
        assert_eq!(Request::Pull { all: true }.to_string(), "{pull all}");
        assert_eq!(
            Request::from(Ack {
                game: 7,
                check: 1234
            })
            .to_string(),
            "{ack 7 1234}"
        );
        for request in [
            Request::Hello,
            Request::Pull { all: false },
            Request::Pull { all: true },
            Request::Ack {
                game: u32::MAX,
                check: u32::MAX,
            },
        ] {
            let text = request.to_string();
            assert!(text.len() <= MAX_REQUEST + 2, "{text}");
            let inner = &text.as_bytes()[1..text.len() - 1];
            assert_eq!(Request::parse(inner), Ok(request));
        }
    }

    proptest! {
        #[test]
        fn acks_are_written_as_they_are_read(game in any::<u32>(), check in any::<u32>()) {
            let request = Request::from(Ack { game, check });
            let text = request.to_string();
            prop_assert_eq!(Request::parse(&text.as_bytes()[1..text.len() - 1]), Ok(request));
        }

        #[test]
        fn never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = Request::parse(&bytes);
        }
    }
}
