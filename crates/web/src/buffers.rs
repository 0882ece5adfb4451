//! The two buffers the page's calls pass bytes through (src/exports.rs): the page asks for
//! an input buffer of a length, writes into it, makes the call, and reads the answer from the
//! output buffer. Nothing the page passes can make the module abort: a length past
//! [`MAX_INPUT`], or one the memory cannot hold, gets no buffer (a null address) and the call
//! that follows answers with an error.

use crate::link::MAX_TEXT;

/// The longest input a call takes: a link's text of the largest file the page opens (longer
/// than the file itself).
pub const MAX_INPUT: usize = if MAX_TEXT > crate::limits::MAX_FILE_BYTES {
    MAX_TEXT
} else {
    crate::limits::MAX_FILE_BYTES
};

/// The input and output of the page's calls.
#[derive(Debug, Default)]
pub struct Buffers {
    input: Vec<u8>,
    output: Vec<u8>,
    /// The length of an input that got no buffer, until the next call is told.
    refused: Option<u64>,
}

impl Buffers {
    /// No input, no answer.
    pub fn new() -> Buffers {
        Buffers::default()
    }

    /// A buffer of `len` zero bytes for the next call's input: its address, or null when
    /// `len` is more than [`MAX_INPUT`] or the memory cannot hold it (the next call then
    /// answers with an error saying so).
    pub fn input(&mut self, len: u64) -> *mut u8 {
        self.input = Vec::new();
        self.refused = None;
        let Ok(n) = usize::try_from(len) else {
            self.refused = Some(len);
            return core::ptr::null_mut();
        };
        if n > MAX_INPUT || self.input.try_reserve_exact(n).is_err() {
            self.refused = Some(len);
            return core::ptr::null_mut();
        }
        self.input.resize(n, 0);
        self.input.as_mut_ptr()
    }

    /// The input written for this call (taken: the next call has none unless given one),
    /// or why there is none to take.
    pub fn take_input(&mut self) -> Result<Vec<u8>, String> {
        match self.refused.take() {
            Some(len) => Err(format!(
                "the page passed {len} bytes to the engine, which takes at most {MAX_INPUT} at a time"
            )),
            None => Ok(core::mem::take(&mut self.input)),
        }
    }

    /// Keeps `answer` as the output; its length.
    pub fn reply(&mut self, answer: Vec<u8>) -> u32 {
        self.output = answer;
        u32::try_from(self.output.len()).unwrap_or(u32::MAX)
    }

    /// The address of the last answer.
    pub fn output(&self) -> *const u8 {
        self.output.as_ptr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 27's review: `t48_input(len)` resized its buffer to any length the page gave,
    /// so a length past memory aborted the module (a dead page).
    #[test]
    fn a_length_past_the_limit_or_the_memory_gets_no_buffer_and_an_error() {
        let mut b = Buffers::new();
        for len in [MAX_INPUT as u64 + 1, u64::from(u32::MAX), u64::MAX] {
            assert!(b.input(len).is_null(), "{len}");
            let e = b.take_input().unwrap_err();
            assert!(e.contains(&format!("passed {len} bytes")), "{e}");
            // Told once: the call after it has an empty input.
            assert_eq!(b.take_input(), Ok(Vec::new()));
        }
        let at = b.input(3);
        assert!(!at.is_null());
        // SAFETY: `at` is the address of 3 bytes the buffer holds.
        unsafe { at.copy_from_nonoverlapping(b"abc".as_ptr(), 3) };
        assert_eq!(b.take_input(), Ok(b"abc".to_vec()));
        assert_eq!(b.reply(b"{}".to_vec()), 2);
        // SAFETY: the output holds the 2 bytes of the answer.
        assert_eq!(unsafe { core::slice::from_raw_parts(b.output(), 2) }, b"{}");
    }
}
