//! The verdict of a pull: whether it succeeded, and its exit status, decided from what the
//! [`Conversation`](super::Conversation) saw: the games' [`Summary`], the copies received,
//! the acknowledgements, the device's reply, the silence its caller stopped on, what the
//! bytes held. The caller prints it and exits with its status; it decides nothing.

use std::fmt;

use super::ack_window::AckWindow;
use super::ledger::summary::Summary;
use super::ledger::Copies;

/// The exit status of a pull that failed ([`Verdict::exit_status`]): something lost,
/// damaged, conflicting or unverified, an acknowledgement refused or unanswered, no reply,
/// a silent board, nothing but noise.
pub const EXIT_FAILED: u8 = 1;

/// How a board fell silent, as its caller saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Silence {
    /// The port stayed open and no frame came.
    Quiet,
    /// The port went away and did not come back.
    Gone,
}

/// Why a pull failed: one reason each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Failure {
    /// A game lost, damaged, conflicting or unverified: the [`Summary`]'s lists say which.
    Games,
    /// The device refused an acknowledgement ([`AckWindow::refusals`] says how).
    AckRefused,
    /// An acknowledgement was never answered ([`AckWindow::unanswered`]).
    AckUnanswered,
    /// A port's request got no reply (no pull begin and done): nothing stored on the
    /// board was pulled, whether it went silent or the caller stopped listening.
    NoReply,
    /// The board fell silent before the pull was done and acknowledged: no frame for
    /// `timeout` milliseconds.
    Silent {
        /// Its port open, or gone.
        how: Silence,
        /// The silence allowed, in milliseconds.
        timeout: u64,
    },
    /// A capture holding no frame of a device log (empty, or not this firmware's log).
    NoFrame,
    /// No game came, and bytes that make no frame did.
    OnlyNoise,
}

impl Failure {
    /// What to say of it, naming `source` (the port, the capture as the caller shows it);
    /// `None` for the failures whose own lines say it (the summary's, the
    /// acknowledgements').
    pub fn sentence(&self, source: &str) -> Option<String> {
        Some(match self {
            Failure::Games | Failure::AckRefused | Failure::AckUnanswered => return None,
            Failure::NoReply => format!(
                "no pull reply came from {source} (no pull begin and done): the games it stores were not pulled"
            ),
            Failure::Silent {
                how: Silence::Quiet,
                timeout,
            } => format!(
                "{source} stopped answering: no frame for {} s before the pull was done and acknowledged",
                Seconds(*timeout)
            ),
            Failure::Silent {
                how: Silence::Gone,
                timeout,
            } => format!(
                "{source} went away and did not come back: no port and no frame for {} s before the pull was done and acknowledged",
                Seconds(*timeout)
            ),
            Failure::NoFrame => format!(
                "{source} holds no frame of a device log (an empty capture, or not a capture of this firmware's log)"
            ),
            Failure::OnlyNoise => format!(
                "no game came from {source}, and bytes that make no frame did (line noise, or a log of other firmware)"
            ),
        })
    }
}

/// Milliseconds, said in seconds (`2`, `2.5`).
struct Seconds(u64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 % 1000 {
            0 => write!(f, "{}", self.0 / 1000),
            ms => write!(
                f,
                "{}.{}",
                self.0 / 1000,
                format!("{ms:03}").trim_end_matches('0')
            ),
        }
    }
}

/// The verdict of a pull ([`Conversation::verdict`](super::Conversation::verdict)): what
/// it found and why it failed, if it did. Only a conversation makes one, from what it saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    summary: Summary,
    copies: Copies,
    failures: Vec<Failure>,
}

impl Verdict {
    /// Whether the pull succeeded: every game arrived and verified, every acknowledgement
    /// was answered, and the device replied (on a port) or the capture held frames.
    pub fn is_ok(&self) -> bool {
        self.failures.is_empty()
    }

    /// The exit status: 0 when the pull succeeded, else [`EXIT_FAILED`].
    pub fn exit_status(&self) -> u8 {
        if self.is_ok() {
            0
        } else {
            EXIT_FAILED
        }
    }

    /// Why it failed, in the order: the games, the acknowledgements, the conversation.
    pub fn failures(&self) -> &[Failure] {
        &self.failures
    }

    /// The sentences of the failures that no other line of the report says (no reply,
    /// silence, no frame, only noise), naming `source`.
    pub fn sentences(&self, source: &str) -> Vec<String> {
        self.failures
            .iter()
            .filter_map(|f| f.sentence(source))
            .collect()
    }

    /// What the pull found of the games
    /// ([`Conversation::summary`](super::Conversation::summary)).
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// The copies received.
    pub fn copies(&self) -> Copies {
        self.copies
    }
}

/// What a conversation is and holds, for its verdict.
pub(super) struct Facts<'a> {
    /// A port pull (a request was made), not a capture.
    pub(super) port: bool,
    /// The device's reply to the request is over.
    pub(super) replied: bool,
    /// Whether any frame of the device (hello, pull, lost...) came.
    pub(super) device_frames: bool,
    /// The copies received.
    pub(super) copies: Copies,
    /// Whether any stretch of the bytes was damaged (the noise before the first frame too).
    pub(super) damaged: bool,
    /// The silence the caller stopped on: how, and the milliseconds allowed.
    pub(super) silence: Option<(Silence, u64)>,
    pub(super) acks: &'a AckWindow,
}

impl Verdict {
    /// The verdict on a pull that found `summary`.
    pub(super) fn of(summary: Summary, facts: Facts<'_>) -> Verdict {
        let mut failures = Vec::new();
        let mut fail = |on: bool, f: Failure| {
            if on {
                failures.push(f);
            }
        };
        fail(!summary.is_ok(), Failure::Games);
        fail(facts.acks.any_refused(), Failure::AckRefused);
        fail(facts.acks.waiting(), Failure::AckUnanswered);
        fail(facts.port && !facts.replied, Failure::NoReply);
        if let Some((how, timeout)) = facts.silence {
            failures.push(Failure::Silent { how, timeout });
        }
        let no_game = facts.copies.received == 0;
        if !facts.port && no_game && !facts.device_frames {
            // An empty capture, or one of nothing but noise: no pull of nothing.
            failures.push(Failure::NoFrame);
        } else if no_game && facts.damaged {
            failures.push(Failure::OnlyNoise);
        }
        Verdict {
            summary,
            copies: facts.copies,
            failures,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_said_without_trailing_zeros() {
        let said: Vec<String> = [2000, 2500, 15_000, 1, 1010]
            .into_iter()
            .map(|ms| Seconds(ms).to_string())
            .collect();
        assert_eq!(said, ["2", "2.5", "15", "0.001", "1.01"]);
    }
}
