//! Intel HEX, read strictly: every record's checksum, its length, its type; the end record
//! required and last; no byte written twice.

use std::path::Path;

use crate::error::Error;

/// The bytes of a `.hex` file placed at their addresses: `bytes[a]` is flash byte `a`, gaps
/// (and the space past the image) erased (0xFF); `written[a]` says whether the file gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexImage {
    /// The flash from address 0 to the last byte written.
    pub bytes: Vec<u8>,
    /// Whether each byte came from the file.
    pub written: Vec<bool>,
}

/// Reads `text` (the contents of `path`, named in errors) as Intel HEX of at most `limit`
/// bytes of address space.
pub fn parse(path: &Path, text: &str, limit: usize) -> Result<HexImage, Error> {
    let mut image = HexImage {
        bytes: Vec::new(),
        written: Vec::new(),
    };
    let mut base: u32 = 0;
    let mut ended = false;
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let bad = |problem: String| Error::Hex {
            path: path.to_path_buf(),
            line,
            problem,
        };
        let record = raw.trim_end_matches('\r');
        if record.is_empty() {
            continue;
        }
        if ended {
            return Err(bad("a record after the end-of-file record".into()));
        }
        let digits = record
            .strip_prefix(':')
            .ok_or_else(|| bad("a record does not start with ':'".into()))?;
        if digits.len() % 2 != 0 || digits.len() < 10 {
            return Err(bad(format!("a record of {} hex digits", digits.len())));
        }
        let mut fields = Vec::with_capacity(digits.len() / 2);
        for i in (0..digits.len()).step_by(2) {
            let byte = u8::from_str_radix(&digits[i..i + 2], 16)
                .map_err(|_| bad(format!("{:?} is not a hex byte", &digits[i..i + 2])))?;
            fields.push(byte);
        }
        let len = fields[0] as usize;
        if fields.len() != len + 5 {
            return Err(bad(format!(
                "the record says {len} data bytes and holds {}",
                fields.len() - 5
            )));
        }
        let sum = fields.iter().fold(0u8, |s, b| s.wrapping_add(*b));
        if sum != 0 {
            return Err(bad("its checksum does not match".into()));
        }
        let offset = u32::from(u16::from_be_bytes([fields[1], fields[2]]));
        let data = &fields[4..4 + len];
        match fields[3] {
            0 => {
                let start = (base + offset) as usize;
                let end = start + len;
                if end > limit {
                    return Err(bad(format!(
                        "data at {start:#x}..{end:#x}, past the chip's {limit} bytes"
                    )));
                }
                if image.bytes.len() < end {
                    image.bytes.resize(end, 0xFF);
                    image.written.resize(end, false);
                }
                for (i, &b) in data.iter().enumerate() {
                    if image.written[start + i] {
                        return Err(bad(format!("address {:#x} written twice", start + i)));
                    }
                    image.bytes[start + i] = b;
                    image.written[start + i] = true;
                }
            }
            1 => ended = true,
            2 | 4 if len == 2 => {
                let value = u32::from(u16::from_be_bytes([data[0], data[1]]));
                base = if fields[3] == 2 {
                    value << 4
                } else {
                    value << 16
                };
            }
            3 | 5 if len == 4 => {} // start address: the chip starts at 0 whatever it says
            kind => {
                return Err(bad(format!(
                    "record type {kind:02x} with {len} data bytes is not Intel HEX"
                )))
            }
        }
    }
    if !ended {
        return Err(Error::Hex {
            path: path.to_path_buf(),
            line: text.lines().count(),
            problem: "no end-of-file record (the file is cut short)".into(),
        });
    }
    Ok(image)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<HexImage, Error> {
        parse(Path::new("t.hex"), text, 0x40000)
    }

    #[test]
    fn data_gaps_and_extended_addresses() {
        let text =
            ":020000000C945E\n:02000400ABCD82\n:020000040001F9\n:0100000011EE\n:00000001FF\n";
        let image = parsed(text).unwrap();
        assert_eq!(&image.bytes[..6], &[0x0C, 0x94, 0xFF, 0xFF, 0xAB, 0xCD]);
        assert_eq!(image.bytes.len(), 0x10001);
        assert_eq!(image.bytes[0x10000], 0x11);
        assert!(!image.written[2] && image.written[0x10000]);
    }

    #[test]
    fn damage_is_named_by_line() {
        let cases = [
            (":020000000C945F\n:00000001FF\n", 1, "checksum"),
            (":0200\n:00000001FF\n", 1, "hex digits"),
            (":030000000C945E\n:00000001FF\n", 1, "says 3"),
            ("020000000C945E\n", 1, "':'"),
            (":020000000C945E\n", 1, "end-of-file"),
            (
                ":020000000C945E\n:020000000C945E\n:00000001FF\n",
                2,
                "twice",
            ),
            (":00000001FF\n:020000000C945E\n", 2, "after"),
            (":020000000C9G5E\n:00000001FF\n", 1, "not a hex byte"),
        ];
        for (text, line, words) in cases {
            let e = parsed(text).unwrap_err();
            let shown = e.to_string();
            assert!(
                matches!(e, Error::Hex { line: l, .. } if l == line) && shown.contains(words),
                "{text:?}: {shown}"
            );
        }
        let e = parse(Path::new("t.hex"), ":020000000C945E\n:00000001FF\n", 1).unwrap_err();
        assert!(e.to_string().contains("past the chip"), "{e}");
    }
}
