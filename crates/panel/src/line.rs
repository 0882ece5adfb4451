//! A short line of text built on the stack, for the screens' numbers and names.

/// At most 24 bytes of text, built without allocating; anything past that is cut off. The
/// raster path writes it with [`Line::push`] and [`Line::number`] (no formatting machinery on
/// the smallest boards); the embedded-graphics path may use `write!`.
pub(crate) struct Line {
    buf: [u8; 24],
    len: usize,
}

impl Line {
    /// An empty line.
    pub(crate) fn new() -> Line {
        Line {
            buf: [0; 24],
            len: 0,
        }
    }

    /// Appends `s`, as much of it as fits.
    pub(crate) fn push(&mut self, s: &[u8]) -> &mut Line {
        let n = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&s[..n]);
        self.len += n;
        self
    }

    /// Appends `value` in decimal.
    pub(crate) fn number(&mut self, mut value: u64) -> &mut Line {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (value % 10) as u8;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        self.push(&digits[i..])
    }

    /// The text so far.
    pub(crate) fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl core::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.push(s.as_bytes());
        Ok(())
    }
}
