//! The game in a link: the `.t48` file's bytes in base64url (RFC 4648 section 5, no
//! padding) after `#g=` in the page's address. Nothing leaves the browser: a fragment is never
//! sent to a server.

use core::fmt;

/// The 64 digits of base64url, in order.
const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The parameter of the fragment that holds the game.
pub const GAME_KEY: &str = "g=";

/// The longest fragment text [`game_from_fragment`] decodes: the base64url of the largest
/// file the page opens ([`crate::MAX_FILE_BYTES`]).
pub const MAX_TEXT: usize = crate::limits::MAX_FILE_BYTES.div_ceil(3) * 4;

/// Why a link's text is not a game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkError {
    /// The fragment has no `g=` parameter.
    NoGame,
    /// A character that is not a base64url digit.
    Character {
        /// Its offset in the encoded text (after `g=`).
        offset: usize,
        /// The character.
        found: char,
    },
    /// A length no base64 text has (one digit past a whole group).
    Length {
        /// The number of digits.
        digits: usize,
    },
    /// Longer than [`MAX_TEXT`].
    TooLong {
        /// The number of digits.
        digits: usize,
    },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::NoGame => f.write_str("the link holds no game (no #g= in its address)"),
            LinkError::Character { offset, found } => write!(
                f,
                "the link's game is damaged: {found:?} at character {offset} after g= is not base64url"
            ),
            LinkError::Length { digits } => write!(
                f,
                "the link's game is cut short: {digits} characters after g= cannot be whole bytes"
            ),
            LinkError::TooLong { digits } => write!(
                f,
                "the link's game is too long: {digits} characters after g=, at most {MAX_TEXT}"
            ),
        }
    }
}

impl std::error::Error for LinkError {}

/// `bytes` in base64url without padding.
///
/// ```
/// assert_eq!(twenty48_web::link::encode(b"T48\x1a"), "VDQ4Gg");
/// ```
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let word = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(DIGITS[(word >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// The value of one base64url digit.
fn digit(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    } as u32)
}

/// `text` without the padding some tools add at its end: `=`, or `%3D` (an `=` that a tool
/// passing the link on percent-encoded).
fn without_padding(text: &str) -> &str {
    let mut text = text;
    while let Some(rest) = text
        .strip_suffix('=')
        .or_else(|| text.strip_suffix("%3D"))
        .or_else(|| text.strip_suffix("%3d"))
    {
        text = rest;
    }
    text
}

/// The bytes of a base64url text (padding at the end is allowed, as some tools add it: `=`,
/// or `%3D`).
pub fn decode(text: &str) -> Result<Vec<u8>, LinkError> {
    let digits = without_padding(text);
    if digits.len() > MAX_TEXT {
        return Err(LinkError::TooLong {
            digits: digits.len(),
        });
    }
    if digits.len() % 4 == 1 {
        return Err(LinkError::Length {
            digits: digits.len(),
        });
    }
    let mut out = Vec::with_capacity(digits.len() / 4 * 3 + 2);
    for (group, chunk) in digits.as_bytes().chunks(4).enumerate() {
        let mut word = 0;
        for (i, &c) in chunk.iter().enumerate() {
            let Some(v) = digit(c) else {
                let offset = group * 4 + i;
                let found = digits[offset..].chars().next().unwrap_or('?');
                return Err(LinkError::Character { offset, found });
            };
            word |= v << (18 - 6 * i);
        }
        let bytes = word.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Ok(out)
}

/// The fragment (after `#`) that carries `bytes`: `g=` and their base64url.
pub fn fragment(bytes: &[u8]) -> String {
    format!("{GAME_KEY}{}", encode(bytes))
}

/// The game's bytes in a fragment (with or without its `#`): the `g=` parameter among
/// `&`-separated ones.
///
/// ```
/// use twenty48_web::link;
///
/// let text = link::fragment(b"a game");
/// assert_eq!(link::game_from_fragment(&format!("#x=1&{text}")).unwrap(), b"a game");
/// ```
pub fn game_from_fragment(fragment: &str) -> Result<Vec<u8>, LinkError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let value = fragment
        .split('&')
        .find_map(|part| part.strip_prefix(GAME_KEY))
        .ok_or(LinkError::NoGame)?;
    decode(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4648's test vectors, in the URL alphabet without padding.
    #[test]
    fn rfc_4648_vectors() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes()), coded);
            assert_eq!(decode(coded).unwrap(), plain.as_bytes());
        }
        assert_eq!(decode("Zm9vYg==").unwrap(), b"foob");
        // Issue 27's review: padding percent-encoded on its way (a link passed through a
        // tool that encodes `=`) was "not base64url".
        assert_eq!(decode("Zm9vYg%3D%3d").unwrap(), b"foob");
        assert_eq!(decode("Zm9vYg%3D=").unwrap(), b"foob");
    }

    #[test]
    fn every_byte_value_round_trips_and_uses_the_url_digits() {
        let bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for len in 0..bytes.len() {
            let text = encode(&bytes[..len]);
            assert!(!text.contains(['+', '/', '=']));
            assert_eq!(decode(&text).unwrap(), &bytes[..len], "{len}");
        }
        assert!(encode(&[0xfb, 0xff]).contains(['-', '_']));
    }

    #[test]
    fn damaged_text_is_named() {
        assert_eq!(
            decode("Zm9v*mFy"),
            Err(LinkError::Character {
                offset: 4,
                found: '*'
            })
        );
        assert_eq!(
            decode("Zm9vé").unwrap_err().to_string(),
            "the link's game is damaged: 'é' at character 4 after g= is not base64url"
        );
        assert_eq!(decode("Zm9vY"), Err(LinkError::Length { digits: 5 }));
        assert_eq!(game_from_fragment("#x=1"), Err(LinkError::NoGame));
        let long = "A".repeat(MAX_TEXT + 4);
        assert!(matches!(decode(&long), Err(LinkError::TooLong { .. })));
    }
}
