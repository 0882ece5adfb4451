//! What `twenty48 pull` prints: one line a game, the damage, the device's facts, the summary
//! (or all of it as JSON).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use twenty48_devicelog::pull::{Listed, Outcome, Pulled, Summary};
use twenty48_devicelog::{Damage, DeviceFact};

use twenty48_devicelog::pull::AckWindow;

use super::acks;
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

/// Everything a pull found, as printed. Each list keeps its first [`LISTED`](twenty48_devicelog::pull::LISTED) entries and
/// counts the rest, so that the report takes the same room however much a device sends.
pub(super) struct Report {
    /// The folder the files are in (the pull's file names are in it).
    pub(super) dir: PathBuf,
    /// The first [`LISTED`](twenty48_devicelog::pull::LISTED) games received (copies), and those of them whose
    /// acknowledgement the device confirmed (by number).
    games: Listed<Pulled>,
    acked: BTreeSet<u32>,
    /// Every game received, listed or not, and how many of them verified, were written
    /// (or their verified moves) and were there already.
    counts: Counts,
    /// The first [`LISTED`](twenty48_devicelog::pull::LISTED) damaged stretches of the capture, and how many more.
    damage: Listed<Damage>,
    /// The first [`LISTED`](twenty48_devicelog::pull::LISTED) of the device's frames, and how many more came.
    facts: Listed<DeviceFact>,
    /// The source gave nothing to pull: the board stopped answering, or a capture held
    /// no frame at all.
    pub(super) silent: Option<String>,
    /// A port pull: the port.
    pub(super) port: Option<String>,
    /// A port pull: the device's pull reply ended (pull done, or no store to pull from).
    pub(super) replied: bool,
    /// A port pull: the device said it keeps no game store.
    pub(super) no_store: bool,
    /// A port pull: the raw capture reached its cap.
    pub(super) raw_cut: Option<String>,
}

/// How many of the games a pull received (listed or not) verified, were written (or their
/// verified moves) and were there already.
#[derive(Clone, Copy, Default)]
struct Counts {
    verified: usize,
    written: usize,
    already: usize,
}

impl Report {
    /// The report of a pull into `dir`.
    pub(super) fn new(dir: &Path) -> Report {
        Report {
            dir: dir.to_path_buf(),
            games: Listed::default(),
            acked: BTreeSet::new(),
            counts: Counts::default(),
            damage: Listed::default(),
            facts: Listed::default(),
            silent: None,
            port: None,
            replied: false,
            no_store: false,
            raw_cut: None,
        }
    }

    /// A game received: counted, and listed while there is room.
    pub(super) fn add_game(&mut self, pulled: Pulled) {
        let c = &mut self.counts;
        c.verified += usize::from(pulled.is_verified());
        c.written += usize::from(matches!(
            pulled.outcome,
            Outcome::Written | Outcome::DamagedPrefix
        ));
        c.already += usize::from(pulled.outcome == Outcome::AlreadyPulled);
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

    /// The device confirmed the acknowledgement of game `game`.
    pub(super) fn acked(&mut self, game: u32) {
        if self
            .games
            .items
            .iter()
            .any(|p| p.game.number == game && p.ack.is_some())
        {
            self.acked.insert(game);
        }
    }

    /// A frame of the device: listed while there is room.
    pub(super) fn add_fact(&mut self, fact: DeviceFact) {
        self.facts.push(fact);
    }

    /// Whether every game arrived and verified: nothing lost, damaged, conflicting or
    /// failed; every acknowledgement answered. Unreadable noise before the first frame alone
    /// does not count, but a capture of nothing but noise does.
    /// Whether nothing at all came: no game, no frame of the device, no damaged stretch.
    /// Whether no frame decoded to a game or a device's frame (bytes, damage, plain log
    /// messages at most): the mark of a log of other firmware.
    pub(super) fn decoded_nothing(&self) -> bool {
        self.games.total() == 0 && self.facts.total() == 0
    }

    pub(super) fn nothing_received(&self) -> bool {
        self.games.total() == 0 && self.facts.total() == 0 && self.damage.total() == 0
    }

    pub(super) fn ok(&self, summary: &Summary, acks: &AckWindow) -> bool {
        let nothing = self.games.total() == 0 && self.damage.total() > 0;
        summary.is_ok()
            && !nothing
            && self.no_reply().is_none()
            && self.silent.is_none()
            && !acks.any_refused()
            && !acks.waiting()
    }

    /// A port pull whose request got no reply (no pull begin and done): nothing stored on
    /// the board was pulled, whether it went silent or the user pressed Ctrl-C.
    fn no_reply(&self) -> Option<String> {
        let port = self.port.as_ref().filter(|_| !self.replied)?;
        Some(format!(
            "no pull reply came from {port} (no pull begin and done): the games it stores were not pulled"
        ))
    }

    /// Failures of the conversation on a port, as sentences.
    fn conversation_failures(&self) -> Vec<String> {
        self.no_reply()
            .into_iter()
            .chain(self.silent.clone())
            .collect()
    }

    /// The findings of the summary, one line each, for people.
    pub(super) fn findings(&self, s: &Summary, acks: &AckWindow) -> Vec<String> {
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
        out.extend(acks::findings(acks));
        if self.no_store {
            out.push(
                "note: the device keeps no game store: only the games it played while the port \
                 was read came, live (--follow keeps reading)"
                    .to_string(),
            );
        }
        if let Some(cut) = &self.raw_cut {
            out.push(format!("note: {cut}"));
        }
        for f in self.conversation_failures() {
            out.push(format!("FAILED: {f}"));
        }
        out
    }

    pub(super) fn summary(&self, s: &Summary) -> String {
        let Counts {
            verified,
            written,
            already,
        } = self.counts;
        let games = self.games.total();
        let n = |k: usize, one: &str, many: &str| count(k as u64, one, many);
        format!(
            "{} received: {verified} verified ({} partial), {} damaged or unfinished; {} written, {already} already pulled; {}, {}, {}; {} in the capture",
            n(games, "game", "games"),
            s.partial,
            games - verified,
            n(written, "file", "files"),
            n(s.totals.duplicates, "duplicate", "duplicates"),
            n(s.totals.conflicts, "conflict", "conflicts"),
            n(s.totals.gaps, "gap", "gaps"),
            n(self.damage.total(), "damaged stretch", "damaged stretches")
        )
    }

    /// What the lists of the JSON report leave out, as notes.
    fn unlisted_notes(&self) -> Vec<String> {
        [
            self.damage.unlisted("damaged stretches in the capture"),
            self.games.unlisted("games received"),
            self.facts.unlisted("frames of the device"),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Counts a damaged stretch of the capture; keeps the first [`LISTED`](twenty48_devicelog::pull::LISTED).
    pub(super) fn add_damage(&mut self, damage: Damage) {
        self.damage.push(damage);
    }

    pub(super) fn json(&self, s: &Summary, acks: &AckWindow, ok: bool) -> serde_json::Value {
        let games: Vec<serde_json::Value> = self
            .games
            .items
            .iter()
            .map(|p| {
                let g = &p.game;
                let acked = g
                    .dev
                    .map(|_| self.acked.contains(&g.number) && p.ack.is_some());
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
        let damage: Vec<serde_json::Value> = self
            .damage
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
        let (acks, ack_notes) = acks::json(acks);
        serde_json::json!({
            "schema_version": crate::view::SCHEMA_VERSION,
            "games": games,
            "damage": damage,
            "received": s.received,
            "partial": s.partial,
            "duplicates": s.duplicates.iter().map(|&(d, g)| serde_json::json!({"device": hex(d), "game": g})).collect::<Vec<_>>(),
            "conflicts": s.conflicts.iter().map(|(d, g, r)| serde_json::json!({"device": hex(*d), "game": g, "reason": r})).collect::<Vec<_>>(),
            "gaps": s.gaps.iter().map(|g| serde_json::json!({"device": hex(g.dev), "first": g.first, "last": g.last})).collect::<Vec<_>>(),
            "lost": s.lost,
            "failed": s.failed.iter().cloned().chain(self.conversation_failures()).collect::<Vec<_>>(),
            "notes": s.notes.iter().cloned().chain(self.unlisted_notes()).chain(ack_notes).chain(self.raw_cut.clone()).collect::<Vec<_>>(),
            "device": self.facts.items.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "acks": acks,
            "all_verified": ok,
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
    /// It keeps the first LISTED of each, counts every one, and says how many it left out.
    #[test]
    fn the_report_keeps_the_first_games_and_frames_and_counts_every_one() {
        let mut report = Report::new(Path::new("d"));
        for n in 1..=3 * LISTED as u32 {
            report.add_game(written(n));
            report.add_fact(DeviceFact::Acked { dev: None, game: n });
            report.acked(n);
        }
        assert_eq!(report.games.items.len(), LISTED);
        assert_eq!(report.facts.items.len(), LISTED);
        assert!(report.acked.len() <= LISTED);
        let summary = Summary::default();
        let line = report.summary(&summary);
        assert!(
            line.starts_with("3000 games received: 3000 verified"),
            "{line}"
        );
        assert!(line.contains("3000 files written"), "{line}");
        let json = report.json(&summary, &AckWindow::default(), true);
        assert_eq!(json["games"].as_array().unwrap().len(), LISTED);
        assert_eq!(json["games"][0]["acked"], true);
        let notes: Vec<&str> = json["notes"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n.as_str())
            .collect();
        assert!(
            notes
                .contains(&"2000 more games received after the first 1000, counted but not listed"),
            "{notes:?}"
        );
        assert!(
            notes.contains(
                &"2000 more frames of the device after the first 1000, counted but not listed"
            ),
            "{notes:?}"
        );
    }
}
