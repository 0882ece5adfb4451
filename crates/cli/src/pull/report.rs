//! What `twenty48 pull` prints: one line a game, the damage, the device's facts, the summary
//! (or all of it as JSON).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use twenty48_devicelog::pull::{AckWindow, Conversation, Listed, Outcome, Pulled, Verdict, LISTED};

use crate::style::count;

/// The device and number a game is known by: `game 12` (v1) or `device 7e57...01 game 12`.
pub(super) fn name(pulled: &Pulled) -> String {
    match pulled.game.dev {
        Some(dev) => format!("device {dev:016x} game {}", pulled.game.number),
        None => format!("game {}", pulled.game.number),
    }
}

fn moves(n: impl Into<u64>) -> String {
    count(n, "move", "moves")
}

/// The line for people of one copy received, its file in `dir`.
pub(super) fn describe(pulled: &Pulled, dir: &Path) -> String {
    if pulled.outcome == Outcome::InProgress {
        return format!(
            "{}: still being played, {} so far, verified; it is in the device's store and the next pull brings it",
            name(pulled),
            moves(pulled.check.verified_moves)
        );
    }
    let mut line = match &pulled.check.problem {
        None if pulled.game.is_partial() => format!(
            "{}: verified, interrupted after {} (stored partial game), score {}",
            name(pulled),
            moves(pulled.check.verified_moves),
            pulled.check.score
        ),
        None => format!(
            "{}: verified, {}, score {}, {}",
            name(pulled),
            moves(pulled.check.verified_moves),
            pulled.check.score,
            pulled.check.status
        ),
        Some(problem) => format!("{problem}"),
    };
    let path = pulled
        .file
        .as_ref()
        .map(|f| crate::input::shown(&dir.join(f)));
    let path = path.as_deref().unwrap_or("?");
    match &pulled.outcome {
        Outcome::Written => {
            let _ = write!(line, " -> {path}");
        }
        Outcome::AlreadyPulled => {
            let _ = write!(line, "; already pulled ({path})");
        }
        Outcome::Duplicate => line.push_str("; a duplicate of a copy received before"),
        Outcome::Conflict { reason } => {
            let _ = write!(line, "; CONFLICT: {reason}; not written");
        }
        Outcome::DamagedPrefix => {
            let _ = write!(
                line,
                "; its first {} -> {path} (partial)",
                moves(pulled.check.verified_moves)
            );
        }
        Outcome::NotWritten => {
            line.push_str("; not written (--keep-partial keeps the verified moves)")
        }
        _ => {}
    }
    line
}

/// What the report lists that the library does not keep: the first
/// [`LISTED`](twenty48_devicelog::pull::LISTED) copies received, each as it was pulled (the
/// counts, the damage, the device's frames, the acknowledgements and the verdict are the
/// conversation's).
#[derive(Default)]
pub(super) struct Report {
    /// The folder the files are in (the pull's file names are in it).
    pub(super) dir: PathBuf,
    /// The first [`LISTED`](twenty48_devicelog::pull::LISTED) copies received, and how many
    /// more.
    games: Listed<Pulled>,
    /// A port pull: the raw capture reached its cap.
    pub(super) raw_cut: Option<String>,
}

impl Report {
    /// The report of a pull into `dir`.
    pub(super) fn new(dir: &Path) -> Report {
        Report {
            dir: dir.to_path_buf(),
            ..Report::default()
        }
    }

    /// A copy received: listed while there is room.
    pub(super) fn add_game(&mut self, pulled: Pulled) {
        if let (Some(old), Some(new)) = (&pulled.replaces, &pulled.file) {
            // A longer copy took the place of a prefix this pull wrote: the earlier copies'
            // entries name the file that holds their moves now.
            for earlier in &mut self.games.items {
                if earlier.file.as_ref() == Some(old) {
                    earlier.file = Some(new.clone());
                }
            }
        }
        self.games.push(pulled);
    }

    /// The findings of the verdict, one line each, for people; `source`: the port or the
    /// capture, as the failures name it.
    pub(super) fn findings(&self, v: &Verdict, talk: &Conversation, source: &str) -> Vec<String> {
        let s = v.summary();
        let mut out = Vec::new();
        for (dev, game) in &s.duplicates {
            out.push(format!(
                "duplicate: device {dev:016x} game {game} received again with the same content (written once)"
            ));
        }
        for (dev, game, reason) in &s.conflicts {
            out.push(format!(
                "CONFLICT: device {dev:016x} game {game}: {reason}; not counted as received, not acknowledged again"
            ));
        }
        for gap in &s.gaps {
            if gap.first == gap.last {
                out.push(format!(
                    "LOST: device {:016x} game {} was never received complete",
                    gap.dev, gap.first
                ));
            } else {
                out.push(format!(
                    "LOST: device {:016x} games {}..={} were never received complete",
                    gap.dev, gap.first, gap.last
                ));
            }
        }
        for l in &s.lost {
            out.push(format!("LOST: {l}"));
        }
        for d in &s.damage {
            out.push(format!("DAMAGE: {d}"));
        }
        for f in &s.failed {
            out.push(format!("FAILED: {f}"));
        }
        for n in &s.notes {
            out.push(format!("note: {n}"));
        }
        out.extend(ack_findings(talk.acks()));
        if talk.no_store() {
            out.push(
                "note: the device keeps no game store: only the games it played while the port \
                 was read came, live (--follow keeps reading)"
                    .to_string(),
            );
        }
        if let Some(cut) = &self.raw_cut {
            out.push(format!("note: {cut}"));
        }
        for f in v.sentences(source) {
            out.push(format!("FAILED: {f}"));
        }
        out
    }

    /// The summary line: games (distinct, as JSON's `received` and `partial`), then copies
    /// (as JSON's `copies`), then the lists' full counts.
    pub(super) fn summary(v: &Verdict, talk: &Conversation) -> String {
        let s = v.summary();
        let c = v.copies();
        let n = |k: usize, one: &str, many: &str| count(k as u64, one, many);
        format!(
            "{} received ({} partial), in {}: {} verified, {} unverified (damaged or unfinished), {} written, {} already pulled; {}, {}, {}; {} in the capture",
            n(s.received, "game", "games"),
            s.partial,
            n(c.received, "copy", "copies"),
            c.verified,
            c.unverified(),
            c.written,
            c.already_pulled,
            n(s.totals.duplicates, "duplicate", "duplicates"),
            n(s.totals.conflicts, "conflict", "conflicts"),
            n(s.totals.gaps, "gap", "gaps"),
            n(talk.damage().total(), "damaged stretch", "damaged stretches")
        )
    }

    /// What the lists of the JSON report leave out, as notes.
    fn unlisted_notes(&self, talk: &Conversation) -> Vec<String> {
        [
            talk.damage().unlisted("damaged stretches in the capture"),
            self.games.unlisted("games received"),
            talk.facts().unlisted("frames of the device"),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// The report as JSON (docs/schema/pull.json).
    pub(super) fn json(&self, v: &Verdict, talk: &Conversation, source: &str) -> serde_json::Value {
        let s = v.summary();
        let answered: BTreeSet<u32> = talk.acks().answered().items.iter().copied().collect();
        let games: Vec<serde_json::Value> = self
            .games
            .items
            .iter()
            .map(|p| {
                let g = &p.game;
                let acked = g
                    .dev
                    .map(|_| answered.contains(&g.number) && p.ack.is_some());
                serde_json::json!({
                    "number": g.number,
                    "device": g.dev.map(|d| format!("{d:016x}")),
                    "seed": g.seed,
                    "rules": crate::view::rules_json(&g.rules),
                    "moves_received": g.moves_received(),
                    "verified_moves": p.check.verified_moves,
                    "verified": p.is_verified(),
                    "problem": p.check.problem.as_ref().map(|e| e.to_string()),
                    "file": p.file.as_ref().map(|f| self.dir.join(f).display().to_string()),
                    "complete": p.file.is_some() && p.is_verified() && !g.is_partial(),
                    "partial": g.is_partial(),
                    "outcome": outcome_name(&p.outcome),
                    "acked": acked,
                })
            })
            .collect();
        let damage: Vec<serde_json::Value> = talk
            .damage()
            .items
            .iter()
            .map(|d| {
                serde_json::json!({
                    "offset": d.offset,
                    "len": d.len,
                    "game": d.game,
                    "report": d.to_string(),
                })
            })
            .collect();
        let hex = |d: u64| format!("{d:016x}");
        let (acks, ack_notes) = ack_json(talk.acks());
        let c = v.copies();
        serde_json::json!({
            "schema_version": crate::view::SCHEMA_VERSION,
            "games": games,
            "damage": damage,
            "received": s.received,
            "partial": s.partial,
            "copies": {
                "received": c.received,
                "verified": c.verified,
                "unverified": c.unverified(),
                "written": c.written,
                "already_pulled": c.already_pulled,
            },
            "duplicates": s.duplicates.iter().map(|&(d, g)| serde_json::json!({"device": hex(d), "game": g})).collect::<Vec<_>>(),
            "conflicts": s.conflicts.iter().map(|(d, g, r)| serde_json::json!({"device": hex(*d), "game": g, "reason": r})).collect::<Vec<_>>(),
            "gaps": s.gaps.iter().map(|g| serde_json::json!({"device": hex(g.dev), "first": g.first, "last": g.last})).collect::<Vec<_>>(),
            "lost": s.lost,
            "failed": s.failed.iter().cloned().chain(v.sentences(source)).collect::<Vec<_>>(),
            "notes": s.notes.iter().cloned().chain(self.unlisted_notes(talk)).chain(ack_notes).chain(self.raw_cut.clone()).collect::<Vec<_>>(),
            "device": talk.facts().items.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "acks": acks,
            "all_verified": v.is_ok(),
        })
    }
}

pub(super) fn outcome_name(o: &Outcome) -> &'static str {
    match o {
        Outcome::Written => "written",
        Outcome::AlreadyPulled => "already_pulled",
        Outcome::Duplicate => "duplicate",
        Outcome::Conflict { .. } => "conflict",
        Outcome::DamagedPrefix => "damaged_prefix",
        Outcome::NotWritten => "not_written",
        Outcome::InProgress => "in_progress",
        _ => "pending",
    }
}

/// The report's lines about the acknowledgements, for people.
fn ack_findings(acks: &AckWindow) -> Vec<String> {
    let mut out: Vec<String> = acks
        .refusals()
        .items
        .iter()
        .map(|r| format!("ACK FAILED: {r}"))
        .collect();
    if let Some(line) = acks.refusals().unlisted("acknowledgements refused") {
        out.push(format!("ACK FAILED: {line}"));
    }
    if acks.waiting() {
        let (games, more) = acks.unanswered();
        let games: Vec<String> = games.iter().map(u32::to_string).collect();
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        out.push(format!(
            "not acknowledged by the device: games {}{more} (written; they come again next time and are recognised)",
            games.join(", ")
        ));
    }
    out
}

/// The JSON `acks` object and the notes counting what its lists leave out.
fn ack_json(acks: &AckWindow) -> (serde_json::Value, Vec<String>) {
    let mut notes: Vec<String> = acks
        .answered()
        .unlisted("games acknowledged by the device")
        .into_iter()
        .collect();
    let (unanswered, more) = acks.unanswered();
    if more > 0 {
        notes.push(format!(
            "{more} more games not acknowledged by the device after the first {LISTED}, counted but not listed"
        ));
    }
    notes.extend(acks.refusals().unlisted("acknowledgements refused"));
    // In order of game number, each once (a game acknowledged twice: two copies).
    let mut acked = acks.answered().items.clone();
    acked.sort_unstable();
    acked.dedup();
    let value = serde_json::json!({
        "acked": acked,
        "unanswered": unanswered,
        "refused": acks.refusals().items,
    });
    (value, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use twenty48_devicelog::pull::LISTED;
    use twenty48_devicelog::{DeviceGame, GameEnd, ReceivedGame};
    use twenty48_engine::{Rules, Status};

    /// Game `number` of a device, received whole with no moves, written and acknowledged.
    fn written(number: u32) -> Pulled {
        let game = ReceivedGame::from(&DeviceGame {
            number,
            dev: Some(1),
            start_check: Some(9),
            rules: Rules::CLASSIC,
            seed: 1,
            moves: Vec::new(),
            end: Some(GameEnd {
                status: Status::Playing,
                score: None,
                moves: 0,
                hash: None,
                partial: true,
                start: Some(9),
                check: Some(number),
            }),
            offset: 0,
        });
        Pulled {
            check: game.check(),
            game,
            file: None,
            outcome: Outcome::Written,
            ack: Some(twenty48_deviceproto::Ack {
                game: number,
                check: number,
            }),
            replaces: None,
        }
    }

    /// Issue 34: a longer copy of a game took the place of the prefix this pull wrote: the
    /// earlier copy's entry names the file that holds its moves now, not one that is gone.
    #[test]
    fn an_entry_names_the_file_that_replaced_its_own() {
        let mut report = Report::new(Path::new("d"));
        let old = "7e57000000000001-g000001.partial.t48".to_string();
        let new = "7e57000000000001-g000001.t48".to_string();
        let mut first = written(1);
        first.file = Some(old.clone());
        report.add_game(first);
        let mut whole = written(1);
        whole.file = Some(new.clone());
        whole.replaces = Some(old);
        report.add_game(whole);
        let paths: Vec<_> = report.games.items.iter().map(|p| p.file.clone()).collect();
        assert_eq!(paths, [Some(new.clone()), Some(new)]);
    }

    /// Issue 26: the report kept every game and every frame of the device until the end.
    /// It keeps the first LISTED copies, counts every one, and says how many it left out
    /// (the device's frames, the damage and the acknowledgements are the conversation's,
    /// in lists of the same kind: devicelog's `Listed`).
    #[test]
    fn the_report_keeps_the_first_games_and_counts_every_one() {
        let mut report = Report::new(Path::new("d"));
        for n in 1..=3 * LISTED as u32 {
            report.add_game(written(n));
        }
        assert_eq!(report.games.items.len(), LISTED);
        assert_eq!(report.games.total(), 3 * LISTED);
        assert_eq!(
            report.games.unlisted("games received").as_deref(),
            Some("2000 more games received after the first 1000, counted but not listed")
        );
    }
}
