//! What a pull found, gathered from every copy closed: received games, duplicates,
//! conflicts, gaps, losses, notes. Runs in time proportional to the copies and frames
//! received (and one listing of the directory), never to the game numbers they name.

use std::collections::BTreeSet;

use crate::fact::DeviceFact;

use super::{gaps, Gap, Outcome, Pulled, Puller, Summary, LISTED_DAMAGE};

impl Puller {
    /// What the pull found: received games, duplicates, conflicts, gaps, losses, notes.
    /// Pull replies are checked too: each must hold the games it announced.
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        let received: BTreeSet<(u64, u32)> = self
            .pulled
            .iter()
            .filter(|p| p.is_received())
            .filter_map(|p| p.game.dev.map(|d| (d, p.game.number)))
            .collect();
        let received_numbers: BTreeSet<u32> = received.iter().map(|k| k.1).collect();
        let mut counted = BTreeSet::new();
        let mut conflict_keys = BTreeSet::new();
        for p in &self.pulled {
            match p.game.dev {
                None => {
                    if p.is_verified() {
                        s.received += 1;
                    } else {
                        s.failed.push(describe_problem(p));
                    }
                }
                Some(dev) => {
                    let key = (dev, p.game.number);
                    match &p.outcome {
                        Outcome::InProgress => s.notes.push(format!(
                            "device {dev:016x} game {}: still being played when the pull ended ({} moves so far, verified); it is in the device's store and the next pull brings it",
                            p.game.number, p.check.verified_moves
                        )),
                        Outcome::Duplicate => s.duplicates.push(key),
                        Outcome::Conflict { reason } => {
                            if conflict_keys.insert(key) {
                                s.conflicts.push((dev, p.game.number, reason.clone()));
                            }
                        }
                        _ if p.is_received() => {
                            if counted.insert(key) {
                                s.received += 1;
                                if p.game.is_partial() {
                                    s.partial += 1;
                                }
                            }
                        }
                        _ if received.contains(&key) => s.notes.push(format!(
                            "{} (the game arrived whole in another copy)",
                            describe_problem(p)
                        )),
                        _ => s.failed.push(describe_problem(p)),
                    }
                }
            }
        }
        // A game received in one copy and conflicting in another is not received.
        for c in &s.conflicts {
            if counted.remove(&(c.0, c.1)) {
                s.received -= 1;
            }
        }
        for fact in &self.facts {
            match *fact {
                DeviceFact::Lost {
                    dev, game, frames, ..
                } => {
                    let whole = game != 0
                        && dev.map_or(received_numbers.contains(&game), |d| {
                            received.contains(&(d, game))
                        });
                    if whole {
                        s.notes
                            .push(format!("{fact}; game {game} arrived whole from the store"));
                    } else if game == 0 {
                        s.notes
                            .push(format!("{fact} (no game's frames among them)"));
                    } else {
                        s.lost
                            .push(format!("{fact} ({frames} frames never received)"));
                    }
                }
                DeviceFact::Full { .. } | DeviceFact::Error { .. } => {
                    s.notes.push(fact.to_string())
                }
                _ => {}
            }
        }
        s.lost.extend(self.short_replies.iter().cloned());
        if let Some((_, announced, closed)) = self.reply {
            s.lost.push(format!(
                "a pull reply announced {announced} games and was cut off after {closed}"
            ));
        }
        for d in &self.damage {
            let whole = d.game.is_some_and(|g| received_numbers.contains(&g));
            if whole {
                s.notes.push(format!("{d}; its game arrived whole"));
            } else {
                s.damage.push(d.to_string());
            }
        }
        if self.unlisted_damage > 0 {
            s.damage.push(format!(
                "{} more damaged stretches after the first {LISTED_DAMAGE}, counted but not listed",
                self.unlisted_damage
            ));
        }
        let on_disk = gaps::on_disk(&self.out_dir);
        let conflicted: BTreeSet<(u64, u32)> = s.conflicts.iter().map(|c| (c.0, c.1)).collect();
        for (&dev, numbers) in &self.seen {
            let Some(&lo) = numbers.iter().next() else {
                continue;
            };
            let seen_hi = numbers.iter().next_back().copied().unwrap_or(lo);
            // The newest number hello announced is the game in progress when the host asked
            // (a pull reply leaves it out) unless it arrived: a note, not a gap.
            let announced = self.next.get(&dev).map_or(0, |n| n.saturating_sub(1));
            let in_progress = announced > seen_hi
                && !received.contains(&(dev, announced))
                && !on_disk.contains(&(dev, announced));
            if in_progress {
                s.notes.push(format!(
                    "device {dev:016x} game {announced}: not sent (being played when the pull began); the next pull brings it"
                ));
            }
            let hi = seen_hi.max(announced.saturating_sub(in_progress as u32));
            // Unverified copies count as present: they are reported as failed games already.
            let of_dev = |set: &BTreeSet<(u64, u32)>| -> Vec<u32> {
                set.range((dev, lo)..=(dev, hi)).map(|k| k.1).collect()
            };
            let mut present: BTreeSet<u32> = numbers.clone();
            present.extend(of_dev(&received));
            present.extend(of_dev(&conflicted));
            present.extend(of_dev(&on_disk));
            for (first, last) in gaps::missing_runs(lo, hi, &present) {
                s.gaps.push(Gap { dev, first, last });
            }
        }
        s.notes.extend(self.free_names.iter().cloned());
        s
    }
}

fn describe_problem(p: &Pulled) -> String {
    match &p.check.problem {
        Some(problem) => format!("{problem}"),
        None => format!("game {}: not written", p.game.number),
    }
}
