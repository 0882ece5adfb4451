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

    /// Appends `value` in decimal. By double dabble (shift and add 3), with no 64-bit
    /// division: on AVR that division is 2.8 KB of code.
    pub(crate) fn number(&mut self, mut value: u64) -> &mut Line {
        // One decimal digit a byte, the most significant first, by double dabble: the bits
        // shifted in from the top, each digit of 5 or more raised by 3 before a shift. Only
        // the digits a number of the bits shifted in so far can reach are worked on (k bits
        // are below 8^(k/3 + 1), so below 10^(k/3 + 1)): a tile's value takes a
        // few hundred AVR cycles, not the 20,000 of all 20 digits for every one of 64 bits.
        let mut digits = [0u8; 20];
        let mut bits = 0usize;
        for _ in 0..64 {
            let top = (value >> 63) as u8;
            value <<= 1;
            if bits == 0 && top == 0 {
                continue;
            }
            let live = digits.len().min(bits / 3 + 2);
            bits += 1;
            let tail = &mut digits[20 - live..];
            for d in tail.iter_mut() {
                if *d >= 5 {
                    *d += 3;
                }
            }
            let mut carry = top;
            for d in tail.iter_mut().rev() {
                let shifted = (*d << 1) | carry;
                carry = shifted >> 4;
                *d = shifted & 0x0F;
            }
        }
        let first = digits
            .iter()
            .position(|&d| d != 0)
            .unwrap_or(digits.len() - 1);
        for d in &mut digits {
            *d += b'0';
        }
        self.push(&digits[first..])
    }

    /// The text so far, as bytes (what the raster path draws: no UTF-8 decoding).
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_their_decimal_text() {
        for v in [
            0,
            1,
            9,
            10,
            99,
            100,
            2048,
            1_234_567_890,
            u64::MAX / 3,
            u64::MAX,
        ] {
            let mut line = Line::new();
            line.number(v);
            let mut want = [0u8; 24];
            let mut w = Line {
                buf: [0; 24],
                len: 0,
            };
            let _ = core::fmt::Write::write_fmt(&mut w, format_args!("{v}"));
            want[..w.len].copy_from_slice(&w.buf[..w.len]);
            assert_eq!(line.as_bytes(), &want[..w.len], "{v}");
        }
        let mut v = 1u64;
        while let Some(next) = v.checked_mul(3) {
            let mut line = Line::new();
            line.number(next - 1);
            let mut w = Line::new();
            let _ = core::fmt::Write::write_fmt(&mut w, format_args!("{}", next - 1));
            assert_eq!(line.as_bytes(), w.as_bytes());
            v = next;
        }
    }
}
