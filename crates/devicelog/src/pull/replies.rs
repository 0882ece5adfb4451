//! The device's pull replies: each must hold the games it announced, and the games the
//! device says it sent must have arrived, also of a reply whose `pull begin` came before
//! the pull (or the capture) began.

use std::collections::btree_map::Entry;

use super::ledger::MAX_DEVICES;
use super::Puller;
use crate::fact::DeviceFact;
use crate::received::ReceivedGame;

impl Puller {
    /// A frame of the device that begins or ends its replies: a hello (the device
    /// restarted: a reply of its under way is over, as the decoder's own is, and its games
    /// after it are live), a pull begin, a pull done.
    pub(super) fn reply_fact(&mut self, fact: DeviceFact) {
        match fact {
            DeviceFact::Hello { dev, .. } => {
                if self.reply.is_some_and(|(d, ..)| d == dev) {
                    self.end_reply(None);
                }
                self.outside.remove(&dev);
            }
            DeviceFact::PullBegin { dev, games } => {
                self.end_reply(None);
                self.outside.remove(&dev);
                self.reply = Some((dev, games, 0));
            }
            DeviceFact::PullDone { dev, sent } => {
                if self.reply.is_some_and(|(d, ..)| d == dev) {
                    self.end_reply(Some(sent));
                } else {
                    // Another device's reply under way is over (the decoder's is), and this
                    // one's began before the pull saw it.
                    self.end_reply(None);
                    self.headless_reply(dev, sent);
                }
            }
            _ => {}
        }
    }

    /// A copy of a game closed: counted in its device's reply under way, or as arrived
    /// outside one.
    pub(super) fn count_closed(&mut self, game: &ReceivedGame) {
        let (Some(dev), Some(_)) = (game.dev, game.end) else {
            return;
        };
        match &mut self.reply {
            Some((d, _, closed)) if *d == dev => *closed += 1,
            _ => {
                let devices = self.outside.len();
                match self.outside.entry(dev) {
                    Entry::Occupied(mut n) => *n.get_mut() += 1,
                    Entry::Vacant(e) if devices < MAX_DEVICES => {
                        e.insert(1);
                    }
                    // Past the devices remembered: a reply of this one may be reported
                    // short although it was not, and the report says it lost track.
                    Entry::Vacant(_) => self.ledger.devices_overflowed = true,
                }
            }
        }
    }

    /// A pull reply ends (its done frame came with `sent`, or it was cut off): it must have
    /// held every game it announced.
    pub(super) fn end_reply(&mut self, sent: Option<u32>) {
        let Some((_, announced, closed)) = self.reply.take() else {
            return;
        };
        let short = match sent {
            None => {
                format!("a pull reply announced {announced} games and was cut off after {closed}")
            }
            Some(sent) if sent != announced || closed != announced => format!(
                "a pull reply announced {announced} games, the device sent {sent}, {closed} arrived"
            ),
            Some(_) => return,
        };
        self.ledger.short_replies.push(short);
    }

    /// The done frame of a reply of `dev` whose pull begin this pull never saw (the capture
    /// began inside it, or on a port it answered an earlier request): the device says it
    /// sent `sent` games, and fewer than that arrived since the pull began (or since the
    /// device's last hello or reply) are lost: from a capture. On a port they are a note:
    /// those not acknowledged come again in this pull's own reply.
    fn headless_reply(&mut self, dev: u64, sent: u32) {
        let arrived = self.outside.remove(&dev).unwrap_or(0);
        if arrived >= sent {
            return;
        }
        let short = format!(
            "a pull reply of device {dev:016x} whose pull begin did not arrive ended: the device says it sent {sent} games, {arrived} arrived"
        );
        if self.asked {
            self.ledger.earlier_replies.push(format!(
                "{short} (a reply to an earlier request: the games of it not acknowledged come again in this pull's reply)"
            ));
        } else {
            self.ledger.short_replies.push(short);
        }
    }
}
