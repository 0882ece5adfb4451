//! A device's pull replies, as the decoder follows them: the one account of where each
//! reply stands. A `pull begin` opens a reply of its device (the stored games that follow
//! are stored, not live), its `pull done` closes it; a hello of the device, another pull
//! begin, another device's pull done or the end of the bytes cut it off. What arrived of a
//! reply is counted as its games close (with an end or partial frame). The pull, its report
//! and its conversation read the [`Reply`] events and re-derive nothing.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

/// The most devices whose games closed outside a reply the decoder counts (for the reply
/// whose pull begin it never saw); past it, a reply of a device not counted that said it
/// sent games is said to be uncounted.
pub const MAX_REPLY_DEVICES: usize = 64;

/// What the decoder saw of a device's pull replies ([`Event::Reply`](crate::Event::Reply)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reply {
    /// A `pull begin` of `dev`: its reply of `games` stored games begins.
    Began {
        /// Device id.
        dev: u64,
        /// The games the device announced.
        games: u32,
    },
    /// A reply whose pull begin came is over: its `pull done` came (`sent`: the games the
    /// device says it sent), or (`sent` `None`) it was cut off by a hello of its device,
    /// another pull begin, another device's pull done, or the end of the bytes.
    Ended {
        /// Device id.
        dev: u64,
        /// The games its pull begin announced.
        announced: u32,
        /// The games its pull done says were sent; `None`: cut off.
        sent: Option<u32>,
        /// The games of it that closed with an end or partial frame.
        arrived: u32,
    },
    /// A `pull done` of `dev` whose pull begin never came: the bytes began inside the reply,
    /// or (on a port) it answered an earlier request.
    Headless {
        /// Device id.
        dev: u64,
        /// The games the device says it sent.
        sent: u32,
        /// The games of the device that closed with an end or partial frame since its last
        /// hello or reply; `None` when the decoder could not count them (games of more than
        /// [`MAX_REPLY_DEVICES`] devices closed outside a reply).
        arrived: Option<u32>,
    },
}

impl Reply {
    /// Whether the reply is over and held less than it should: cut off, or fewer games
    /// arrived than announced or sent. `None` for a beginning.
    pub fn is_short(&self) -> Option<bool> {
        match *self {
            Reply::Began { .. } => None,
            Reply::Ended {
                announced,
                sent,
                arrived,
                ..
            } => Some(sent != Some(announced) || arrived != announced),
            Reply::Headless { sent, arrived, .. } => {
                Some(sent > 0 && arrived.is_none_or(|a| a < sent))
            }
        }
    }

    /// Whether this ends a reply with the device's own `pull done` (not cut off).
    pub fn is_done(&self) -> bool {
        matches!(
            self,
            Reply::Ended { sent: Some(_), .. } | Reply::Headless { .. }
        )
    }
}

/// The replies under way, and what arrived outside them.
#[derive(Debug, Default)]
pub(crate) struct Replies {
    /// The reply under way: (device, games announced, games closed since).
    under_way: Option<(u64, u32, u32)>,
    /// Of each device (at most [`MAX_REPLY_DEVICES`]), the games closed while no reply of it
    /// was under way, since its last hello, pull begin or pull done.
    outside: BTreeMap<u64, u32>,
    /// Devices past [`MAX_REPLY_DEVICES`] closed games outside a reply: theirs are uncounted.
    uncounted: bool,
}

impl Replies {
    /// Whether a reply of `dev` is under way (its games are stored games).
    pub(crate) fn of(&self, dev: u64) -> bool {
        self.under_way.is_some_and(|(d, ..)| d == dev)
    }

    /// A hello of `dev`: the device restarted or was asked; a reply of its is over.
    pub(crate) fn hello(&mut self, dev: u64, out: &mut Vec<Reply>) {
        if self.of(dev) {
            self.cut(out);
        }
        self.outside.remove(&dev);
    }

    /// A pull begin of `dev` announcing `games`.
    pub(crate) fn begin(&mut self, dev: u64, games: u32, out: &mut Vec<Reply>) {
        self.cut(out);
        self.outside.remove(&dev);
        self.under_way = Some((dev, games, 0));
        out.push(Reply::Began { dev, games });
    }

    /// A pull done of `dev` saying it sent `sent`.
    pub(crate) fn done(&mut self, dev: u64, sent: u32, out: &mut Vec<Reply>) {
        match self.under_way {
            Some((d, announced, arrived)) if d == dev => {
                self.under_way = None;
                out.push(Reply::Ended {
                    dev,
                    announced,
                    sent: Some(sent),
                    arrived,
                });
            }
            _ => {
                // Another device's reply under way is over, and this one's began before
                // the bytes showed it.
                self.cut(out);
                let arrived = match self.outside.remove(&dev) {
                    Some(n) => Some(n),
                    None if self.uncounted => None,
                    None => Some(0),
                };
                out.push(Reply::Headless { dev, sent, arrived });
            }
        }
    }

    /// A game of `dev` closed with an end or partial frame.
    pub(crate) fn closed(&mut self, dev: u64) {
        match &mut self.under_way {
            Some((d, _, arrived)) if *d == dev => *arrived += 1,
            _ => {
                let devices = self.outside.len();
                match self.outside.entry(dev) {
                    Entry::Occupied(mut n) => *n.get_mut() += 1,
                    Entry::Vacant(e) if devices < MAX_REPLY_DEVICES => {
                        e.insert(1);
                    }
                    Entry::Vacant(_) => self.uncounted = true,
                }
            }
        }
    }

    /// The bytes ended: a reply under way is cut off.
    pub(crate) fn finish(&mut self, out: &mut Vec<Reply>) {
        self.cut(out);
    }

    /// The reply under way, if any, is cut off.
    fn cut(&mut self, out: &mut Vec<Reply>) {
        if let Some((dev, announced, arrived)) = self.under_way.take() {
            out.push(Reply::Ended {
                dev,
                announced,
                sent: None,
                arrived,
            });
        }
    }
}
