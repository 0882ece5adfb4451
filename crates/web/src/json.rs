//! The page's answers as JSON text, written by hand (no serde_json in the WebAssembly: it
//! would double its size for a few flat objects).

use core::fmt::{self, Write};

/// A JSON text being written: an object or array opened, fields added, closed.
#[derive(Debug, Default)]
pub struct Json {
    text: String,
    /// Whether the next value in the open object or array needs a comma first.
    comma: bool,
}

impl Json {
    /// An empty text.
    pub fn new() -> Json {
        Json::default()
    }

    /// The text written.
    pub fn finish(self) -> String {
        self.text
    }

    fn separate(&mut self) {
        if self.comma {
            self.text.push(',');
        }
        self.comma = true;
    }

    /// Opens an object (as a value, or as the value of the key just written).
    pub fn open(&mut self) -> &mut Json {
        self.separate();
        self.text.push('{');
        self.comma = false;
        self
    }

    /// Closes the innermost object.
    pub fn close(&mut self) -> &mut Json {
        self.text.push('}');
        self.comma = true;
        self
    }

    /// Opens an array.
    pub fn open_array(&mut self) -> &mut Json {
        self.separate();
        self.text.push('[');
        self.comma = false;
        self
    }

    /// Closes the innermost array.
    pub fn close_array(&mut self) -> &mut Json {
        self.text.push(']');
        self.comma = true;
        self
    }

    /// Writes `"key":`; the next call writes its value.
    pub fn key(&mut self, key: &str) -> &mut Json {
        self.separate();
        string(&mut self.text, key);
        self.text.push(':');
        self.comma = false;
        self
    }

    /// A number (integers only: nothing here is fractional; values above 2^53 are
    /// written as strings by the callers).
    pub fn number(&mut self, n: impl Into<u64>) -> &mut Json {
        self.separate();
        let _ = write!(self.text, "{}", n.into());
        self
    }

    /// A string.
    pub fn string(&mut self, s: impl fmt::Display) -> &mut Json {
        self.separate();
        // Formatted first, then escaped.
        let s = s.to_string();
        string(&mut self.text, &s);
        self
    }

    /// `true` or `false`.
    pub fn boolean(&mut self, b: bool) -> &mut Json {
        self.separate();
        self.text.push_str(if b { "true" } else { "false" });
        self
    }

    /// A signed integer.
    pub fn integer(&mut self, n: i64) -> &mut Json {
        self.separate();
        let _ = write!(self.text, "{n}");
        self
    }

    /// `null`.
    pub fn null(&mut self) -> &mut Json {
        self.separate();
        self.text.push_str("null");
        self
    }

    /// `"key": number`.
    pub fn field_number(&mut self, key: &str, n: impl Into<u64>) -> &mut Json {
        self.key(key).number(n)
    }

    /// `"key": "string"`.
    pub fn field_string(&mut self, key: &str, s: impl fmt::Display) -> &mut Json {
        self.key(key).string(s)
    }
}

/// `s` as a JSON string literal.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_values_are_separated_and_strings_escaped() {
        let mut j = Json::new();
        j.open().field_number("a", 1u32).key("b").open_array();
        j.number(2u8).string("x\"y\\\n\u{1}").null().boolean(true);
        j.close_array().key("c").open().close().close();
        assert_eq!(
            j.finish(),
            r#"{"a":1,"b":[2,"x\"y\\\n\u0001",null,true],"c":{}}"#
        );
    }
}
