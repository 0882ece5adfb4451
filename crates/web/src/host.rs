//! What the page asks of the engine, answered as JSON text: the calls behind the
//! WebAssembly exports (src/exports.rs), kept here so that the host's tests run them.

use twenty48_bot::Bot;
use twenty48_engine::{tile_value, Direction, Rules, Status};
use twenty48_verify::parting::{self, Parting};
use twenty48_verify::{diff, Trace};

use crate::analysis::Analysing;
use crate::frame::{write_events, Frame};
use crate::json::Json;
use crate::link;
use crate::session::Session;
use crate::viewer::{Opened, Verdict, Viewer};

/// The most moves one [`Host::replay_all`] plays (at least the game once): a few seconds in a
/// browser.
pub const MAX_REPLAYED: u64 = 100_000_000;

/// How many of the `times` replays asked for a game of `moves` moves [`Host::replay_all`]
/// plays: as many as keep the moves under [`MAX_REPLAYED`], at least one.
fn replay_times(moves: u32, times: u32) -> u32 {
    let most = MAX_REPLAYED / u64::from(moves.max(1));
    times.min(u32::try_from(most.max(1)).unwrap_or(u32::MAX))
}

/// The largest file whose link the page writes in its address: 1 MiB, as `twenty48 share`
/// (about 4 million moves; the link would pass the 2 MB browsers take in an address).
pub const MAX_LINKED_BYTES: usize = 1 << 20;

/// The games open in the page: viewers by number (from 1), and the game being played.
#[derive(Debug, Default)]
pub struct Host {
    viewers: Vec<Option<Viewer>>,
    session: Option<Session>,
    /// The analysis under way (one at a time: the worker's).
    analysis: Option<Analysing>,
    /// The bot that gives hints in Play (`twenty48 play --hint`'s), made for a game's rules
    /// when first asked.
    hinter: Option<(Rules, Bot)>,
    /// The rater behind the bot's line ([`Host::line`]), made for a game's rules and depth
    /// when first asked.
    liner: Option<(Rules, u8, twenty48_analysis::Rater)>,
}

/// The JSON of an answer that is an error: `{"error": message}`.
pub(crate) fn error(message: impl core::fmt::Display) -> String {
    let mut j = Json::new();
    j.open().field_string("error", message).close();
    j.finish()
}

fn write_verdict(j: &mut Json, verdict: &Verdict) {
    j.key("verdict")
        .open()
        .field_string("word", verdict.kind.word())
        .field_string("message", &verdict.message)
        .close();
}

impl Host {
    /// No game open.
    pub fn new() -> Host {
        Host::default()
    }

    /// Opens a file's bytes. The answer: `id` (0 when there is nothing to show),
    /// `verdict` {`word`, `message`}, and for a game its `rules`, `preset`, `size`, `seed`
    /// (a string: seeds pass 2^53), `moves` (shown), `logged` (in the file), `complete`,
    /// `hinted`, the claims, and `first` (the opening's frame).
    pub fn open(&mut self, bytes: &[u8]) -> String {
        if bytes.len() > crate::limits::MAX_FILE_BYTES {
            return error(format_args!(
                "the file is {} bytes; the page opens logs of up to {} bytes (use twenty48 verify for larger ones)",
                bytes.len(),
                crate::limits::MAX_FILE_BYTES
            ));
        }
        let Opened { verdict, viewer } = Viewer::open(bytes);
        let mut j = Json::new();
        j.open();
        write_verdict(&mut j, &verdict);
        match viewer {
            None => {
                j.field_number("id", 0u32);
            }
            Some(mut v) => {
                let log = v.log();
                let rules = log.rules;
                j.field_string("rules", rules).key("preset");
                match rules.preset() {
                    Some(p) => j.string(p.name()),
                    None => j.null(),
                };
                j.field_number("size", rules.size)
                    .field_string("seed", log.seed)
                    .field_number("logged", log.moves.len() as u64)
                    .key("complete")
                    .boolean(log.complete)
                    .key("hinted")
                    .boolean(log.hinted);
                j.key("claims")
                    .open()
                    .field_number("moves", log.claims.move_count)
                    .field_number("score", log.claims.score)
                    .field_number("max_tile", tile_value(log.claims.max_exponent))
                    .field_string("status", log.claims.status)
                    .field_string("hash", format_args!("{:016x}", log.claims.final_hash))
                    .close();
                j.field_number("moves", v.moves());
                j.key("first");
                v.frame(0).write(&mut j);
                self.viewers.push(Some(v));
                j.field_number("id", self.viewers.len() as u64);
            }
        }
        j.close();
        j.finish()
    }

    /// Opens the game in a link's fragment (as [`Host::open`]).
    pub fn open_link(&mut self, fragment: &str) -> String {
        match link::game_from_fragment(fragment) {
            Ok(bytes) => self.open(&bytes),
            Err(e) => error(e),
        }
    }

    fn viewer(&mut self, id: u32) -> Option<&mut Viewer> {
        let slot = (id as usize).checked_sub(1)?;
        self.viewers.get_mut(slot)?.as_mut()
    }

    fn viewer_ref(&self, id: u32) -> Option<&Viewer> {
        let slot = (id as usize).checked_sub(1)?;
        self.viewers.get(slot)?.as_ref()
    }

    /// The ratings of viewer `id`'s next `count` moves at largest depth `depth` (clamped to
    /// 1-8), taken up where the last call for the same game and depth stopped (from the
    /// first move otherwise): `{ratings: [...], analysed, total, depth, summary}`, with the
    /// ratings and the summary (of every move rated so far) as `twenty48 analyse --json`
    /// writes them; `total` is the moves shown (those that verify).
    pub fn analyse(&mut self, id: u32, count: u32, depth: u8) -> String {
        let Some(slot) = (id as usize).checked_sub(1) else {
            return error(format_args!("no game {id} is open"));
        };
        let Some(Some(viewer)) = self.viewers.get(slot) else {
            return error(format_args!("no game {id} is open"));
        };
        let log = viewer.log();
        // The moves that replay (the viewer shows every move that plays, past a checkpoint
        // that disagrees too; the analysis up to that checkpoint): those `twenty48 analyse`
        // rates.
        let total = viewer.report().replayed_moves(viewer.moves());
        let depth = depth.clamp(1, 8);
        let same = matches!(&self.analysis, Some(a) if a.id == id && a.depth == depth);
        if !same {
            self.analysis = Analysing::new(id, log.rules, log.seed, depth);
        }
        let Some(analysing) = self.analysis.as_mut() else {
            return error(format_args!(
                "the analysis rates moves on 4x4 boards only (the bot searches those); this game is {0}x{0}",
                log.rules.size
            ));
        };
        let from = analysing.next().min(total);
        let to = from.saturating_add(count).min(total);
        analysing.rate(&log.moves[from as usize..to as usize], total)
    }

    /// Closes viewer `id`.
    pub fn close(&mut self, id: u32) {
        if let Some(slot) = (id as usize).checked_sub(1) {
            if let Some(v) = self.viewers.get_mut(slot) {
                *v = None;
            }
            if self.analysis.as_ref().is_some_and(|a| a.id == id) {
                self.analysis = None;
            }
        }
    }

    /// Viewer `id` at move `n` (clamped): `{frame, events}`; with `animate`, `events` are
    /// move `n`'s animation events, else none.
    pub fn show(&mut self, id: u32, n: u32, animate: bool) -> String {
        let Some(v) = self.viewer(id) else {
            return error(format_args!("no game {id} is open"));
        };
        let (frame, events) = if animate {
            v.step(n)
        } else {
            (v.frame(n), Vec::new())
        };
        answer(&frame, &events)
    }

    /// The bot's line from viewer `id`'s board after move `n` (clamped to the moves shown),
    /// searched at largest depth `depth` (clamped to 1-8) as the analysis searches: up to
    /// `plies` (clamped to 1-8) of its moves, each followed by the likeliest spawn
    /// ([`twenty48_analysis::Rater::line`]): `{move, depth, line: [{played, tile, chance,
    /// spawn: {cell, tile}}...]}`, `chance` in millionths; an empty line on a board other
    /// than 4x4 or with no move left.
    pub fn line(&mut self, id: u32, n: u32, plies: u32, depth: u8) -> String {
        let Some(v) = self.viewer(id) else {
            return error(format_args!("no game {id} is open"));
        };
        let frame = v.frame(n);
        let rules = v.log().rules;
        let depth = depth.clamp(1, 8);
        let mut j = Json::new();
        j.open()
            .field_number("move", frame.move_number)
            .field_number("depth", depth);
        j.key("line").open_array();
        if let Ok(cells) = <[u8; 16]>::try_from(frame.cells.exponents()) {
            if !matches!(&self.liner, Some((r, d, _)) if *r == rules && *d == depth) {
                self.liner = Some((rules, depth, twenty48_analysis::Rater::new(&rules, depth)));
            }
            let (_, _, rater) = self.liner.as_mut().expect("made above");
            let spawn = twenty48_analysis::likelier_spawn(&rules);
            for ply in rater.line(&cells, spawn, plies.clamp(1, 8) as usize) {
                j.open()
                    .field_string("played", ply.played.name())
                    .field_number("tile", 1u64 << ply.target)
                    .field_number("chance", ply.chance);
                j.key("spawn")
                    .open()
                    .field_number("cell", ply.spawn.0)
                    .field_number("tile", 1u64 << ply.spawn.1)
                    .close();
                j.close();
            }
        }
        j.close_array().close();
        j.finish()
    }

    /// What `twenty48 diff` says of games `a` and `b`, named `labels` (as the CLI names
    /// its files): `{verdict: "identical", line}`, `{verdict: "invalid", line, side}` (a
    /// log that does not verify: side 0 or 1), or `{verdict: "parted", move, parting, line,
    /// differences: [text...]}`, where `line` is the CLI's first line after the verdict's
    /// word (for a parting, the whole line) and `differences` its lines below it.
    pub fn diff(&self, a: u32, b: u32, labels: [&str; 2]) -> String {
        let (Some(va), Some(vb)) = (self.viewer_ref(a), self.viewer_ref(b)) else {
            return error("two games must be open to compare them");
        };
        let (ta, tb) = (
            Trace::from_log(labels[0], va.log()),
            Trace::from_log(labels[1], vb.log()),
        );
        let divergence = diff(&ta, &tb);
        let reports = [va.report(), vb.report()];
        let invalid = parting::invalid_side(
            divergence.as_ref(),
            [ta.stopped.is_some(), tb.stopped.is_some()],
            |i| reports[i].problem.as_ref().map(|p| p.to_string()),
        );
        let mut j = Json::new();
        j.open();
        match (invalid, divergence) {
            (Some((side, problem)), _) => {
                j.field_string("verdict", "invalid")
                    .field_string("line", parting::invalid_text(labels[side], &problem))
                    .field_number("side", side as u32);
            }
            (None, None) => {
                j.field_string("verdict", "identical")
                    .field_string("line", parting::agreement(&ta, &tb));
            }
            (None, Some(d)) => {
                let words = parting::words(&ta, &tb, &d);
                j.field_string("verdict", "parted")
                    .field_number("move", d.move_number)
                    .field_string("parting", Parting::of(&d).name())
                    .field_string("line", format_args!("{}{}", words.notice, words.rest))
                    .key("differences")
                    .open_array();
                for line in &words.lines {
                    j.string(line);
                }
                j.close_array();
            }
        }
        j.close();
        j.finish()
    }

    /// Replays viewer `id`'s game `times` times (the speed measure), but no more times than
    /// keep the moves played under [`MAX_REPLAYED`] (a call never holds the page for more than
    /// a few seconds): the moves played.
    pub fn replay_all(&mut self, id: u32, times: u32) -> u64 {
        self.viewer(id)
            .map_or(0, |v| v.replay_all(replay_times(v.moves(), times)))
    }

    /// Starts a new game: `{frame}` or `{error}`.
    pub fn new_game(&mut self, preset: &str, seed: &str) -> String {
        match Session::new(preset, seed) {
            Ok(s) => {
                let frame = s.frame();
                self.session = Some(s);
                self.session_answer(&frame, &[])
            }
            Err(e) => error(e),
        }
    }

    /// Resumes a saved game: `{frame}` or `{error}`.
    pub fn resume(&mut self, bytes: &[u8]) -> String {
        match Session::resume(bytes) {
            Ok(s) => {
                let frame = s.frame();
                self.session = Some(s);
                self.session_answer(&frame, &[])
            }
            Err(e) => error(e),
        }
    }

    /// Plays `dir` (0 up, 1 right, 2 down, 3 left: the engine's codes) in the game being
    /// played: `{frame, events, rules, seed, preset}`.
    pub fn play(&mut self, code: u8) -> String {
        let Some(dir) = Direction::from_code(code) else {
            return error(format_args!("no direction has code {code}"));
        };
        let Some(s) = self.session.as_mut() else {
            return error("no game is being played");
        };
        let (frame, events) = s.play(dir);
        self.session_answer(&frame, &events)
    }

    fn session_answer(&self, frame: &Frame, events: &[twenty48_engine::Event]) -> String {
        let Some(s) = &self.session else {
            return error("no game is being played");
        };
        let mut j = Json::new();
        j.open().key("frame");
        frame.write(&mut j);
        j.key("events");
        write_events(&mut j, events);
        let rules = s.game().rules();
        j.field_string("rules", rules).key("preset");
        match rules.preset() {
            Some(p) => j.string(p.name()),
            None => j.null(),
        };
        j.field_string("seed", s.game().seed()).close();
        j.finish()
    }

    /// The game being played as a `.t48` file (empty when none).
    pub fn saved(&self) -> Vec<u8> {
        self.session.as_ref().map_or_else(Vec::new, Session::bytes)
    }

    /// The move `twenty48 play --hint` gives for the game being played: the expectimax
    /// bot in its default setting. `{best: "up"}`, `{best: null}` once no move is left, or
    /// `{error}` when no game is being played.
    pub fn hint(&mut self) -> String {
        let Some(s) = &self.session else {
            return error("no game is being played");
        };
        let game = s.game();
        let rules = *game.rules();
        let bot = match &mut self.hinter {
            Some((r, bot)) if *r == rules => bot,
            slot => &mut slot.insert((rules, Bot::expectimax_default(&rules))).1,
        };
        let best = match game.status() {
            Status::Playing => bot.choose(game),
            _ => None,
        };
        let mut j = Json::new();
        j.open().key("best");
        match best {
            Some(dir) => j.string(dir.name()),
            None => j.null(),
        };
        j.close();
        j.finish()
    }

    /// The fragment of a link to a file's bytes (`g=...`), empty when the file is larger
    /// than [`MAX_LINKED_BYTES`]: the address the page shows for a file it opened.
    pub fn link(&self, bytes: &[u8]) -> String {
        if bytes.len() > MAX_LINKED_BYTES {
            return String::new();
        }
        link::fragment(bytes)
    }

    /// The fragment that carries the game being played (empty when none).
    pub fn session_fragment(&self) -> String {
        self.session
            .as_ref()
            .map_or_else(String::new, |s| link::fragment(&s.bytes()))
    }
}

/// `{frame, events}`.
fn answer(frame: &Frame, events: &[twenty48_engine::Event]) -> String {
    let mut j = Json::new();
    j.open().key("frame");
    frame.write(&mut j);
    j.key("events");
    write_events(&mut j, events);
    j.close();
    j.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use twenty48_engine::Rules;
    use twenty48_movelog::MoveLog;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    fn game(seed: u64, moves: &str) -> Vec<u8> {
        game_under(Rules::CLASSIC, seed, moves)
    }

    fn game_under(rules: Rules, seed: u64, moves: &str) -> Vec<u8> {
        let moves: Vec<_> = moves
            .chars()
            .map(|c| Direction::from_letter(c).unwrap())
            .collect();
        MoveLog::from_moves(rules, seed, &moves, 4)
            .unwrap()
            .encode()
    }

    #[test]
    fn a_game_opens_shows_its_moves_and_closes() {
        let mut host = Host::new();
        let bytes = game(42, "LURDLLUR");
        let answer = parse(&host.open(&bytes));
        assert_eq!(answer["id"], 1);
        assert_eq!(answer["verdict"]["word"], "ok");
        assert_eq!(answer["moves"], 8);
        assert_eq!(answer["seed"], "42");
        assert_eq!(answer["preset"], "classic");
        assert_eq!(answer["first"]["move"], 0);
        let last = parse(&host.show(1, 8, true));
        assert_eq!(last["frame"]["move"], 8);
        assert_eq!(last["frame"]["hash"], answer["claims"]["hash"]);
        assert!(!last["events"].as_array().unwrap().is_empty());
        // Past the end: the last move; without animation: no events.
        let past = parse(&host.show(1, 99, false));
        assert_eq!(past["frame"], last["frame"]);
        assert_eq!(past["events"], Value::Array(vec![]));
        host.close(1);
        assert_eq!(parse(&host.show(1, 0, false))["error"], "no game 1 is open");
        assert!(parse(&host.show(0, 0, false))["error"].is_string());
    }

    #[test]
    fn the_line_is_the_raters_from_the_board_shown() {
        let mut host = Host::new();
        assert_eq!(parse(&host.open(&game(42, "LURDLLUR")))["id"], 1);
        let answer = parse(&host.line(1, 3, 4, 3));
        assert_eq!(
            (answer["move"].clone(), answer["depth"].clone()),
            (Value::from(3), Value::from(3))
        );
        let line = answer["line"].as_array().unwrap();
        assert_eq!(line.len(), 4);
        // The same plies as the analysis crate's line from the board after move 3.
        let frame = parse(&host.show(1, 3, false));
        let cells: Vec<u8> = frame["frame"]["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap() as u8)
            .collect();
        let cells: [u8; 16] = cells.try_into().unwrap();
        let plies = twenty48_analysis::Rater::new(&Rules::CLASSIC, 3).line(&cells, 1, 4);
        for (ply, said) in plies.iter().zip(line) {
            assert_eq!(said["played"], ply.played.name());
            assert_eq!(said["chance"], ply.chance);
            assert_eq!(said["tile"], 1u64 << ply.target);
            assert_eq!(said["spawn"]["cell"], ply.spawn.0);
            assert_eq!(said["spawn"]["tile"], 2);
        }
        assert!(parse(&host.line(9, 0, 4, 3))["error"].is_string());
    }

    #[test]
    fn what_is_not_a_game_gets_a_verdict_and_no_viewer() {
        let mut host = Host::new();
        let answer = parse(&host.open(b"T48 but not really"));
        assert_eq!(
            (answer["id"].clone(), answer["verdict"]["word"].clone()),
            (Value::from(0), Value::from("ERROR"))
        );
        let answer = parse(&host.open_link("#g=@@"));
        assert!(answer["error"].as_str().unwrap().contains("not base64url"));
        let big = vec![0; crate::limits::MAX_FILE_BYTES + 1];
        assert!(parse(&host.open(&big))["error"]
            .as_str()
            .unwrap()
            .contains("up to"));
    }

    #[test]
    fn two_games_part_where_diff_says() {
        let mut host = Host::new();
        host.open(&game(42, "LURDLLUR"));
        host.open(&game(42, "LURDLLUR"));
        let same = parse(&host.diff(1, 2, ["a", "b"]));
        assert_eq!(same["verdict"], "identical");
        assert_eq!(same["line"], "a and b agree on all 8 moves");
        // README's tour: the same moves under the Arduino rules part at move 6.
        host.open(&game_under(Rules::ARDUINO, 42, "LURDLLUR"));
        let d = parse(&host.diff(1, 3, ["a", "c"]));
        assert_eq!(
            (&d["verdict"], &d["move"], &d["parting"], &d["line"]),
            (
                &Value::from("parted"),
                &Value::from(6),
                &Value::from("state"),
                &Value::from("a and c part at move 6:")
            )
        );
        let first = d["differences"][0].as_str().unwrap();
        assert!(first.starts_with("rules differ\n    a: 4x4"), "{d}");
        assert!(parse(&host.diff(1, 9, ["a", "b"]))["error"].is_string());
    }

    /// Nothing in a file's bytes reaches a panic (in the page, an abort: a dead page): every
    /// bit of small logs of several sizes and presets flipped, and every cut, through every
    /// call that takes a file.
    #[test]
    fn flipped_and_cut_logs_never_panic_any_call() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games");
        for name in [
            "classic-moves.t48",
            "custom-2x2.t48",
            "console-noop-presses.t48",
        ] {
            let good = std::fs::read(dir.join(name)).unwrap();
            let mut host = Host::new();
            let mut variants: Vec<Vec<u8>> = (0..good.len()).map(|n| good[..n].to_vec()).collect();
            for i in 0..good.len() * 8 {
                let mut bad = good.clone();
                bad[i / 8] ^= 1 << (i % 8);
                variants.push(bad);
            }
            for bad in &variants {
                let opened = parse(&host.open(bad));
                let id = opened["id"].as_u64().unwrap() as u32;
                if id != 0 {
                    for n in [0, 1, 5, u32::MAX] {
                        parse(&host.show(id, n, true));
                    }
                    host.open(&good);
                    parse(&host.diff(id, id + 1, ["bad", "good"]));
                    host.close(id + 1);
                    host.close(id);
                }
                parse(&host.resume(bad));
                parse(&host.play(0));
                parse(&host.open_link(&link::fragment(bad)));
            }
        }
    }

    /// Issue 27's review: `t48_replay(id, 4294967295)` froze the page for hours.
    #[test]
    fn a_replay_is_bounded_whatever_it_is_asked() {
        let mut host = Host::new();
        assert_eq!(host.replay_all(1, u32::MAX), 0);
        host.open(&game(42, "LURDLLUR"));
        assert_eq!(host.replay_all(1, 3), 24);
        assert_eq!(replay_times(8, u32::MAX), (MAX_REPLAYED / 8) as u32);
        assert_eq!(replay_times(u32::MAX, 5), 1);
        assert_eq!(replay_times(0, 5), 5);
    }

    /// A log that does not verify is never identical to anything, as `twenty48 diff` says
    /// (issue 27's review: the page called two copies of a log with a false claim
    /// identical).
    #[test]
    fn a_log_that_does_not_verify_makes_the_comparison_invalid() {
        let mut log = MoveLog::decode(&game(42, "LURDLLUR")).unwrap();
        log.claims.score += 4;
        let mut host = Host::new();
        host.open(&game(42, "LURDLLUR"));
        host.open(&log.encode());
        let d = parse(&host.diff(1, 2, ["good.t48", "false.t48"]));
        assert_eq!(
            (&d["verdict"], &d["side"]),
            (&Value::from("invalid"), &Value::from(1))
        );
        assert_eq!(
            d["line"],
            "false.t48 does not verify, so it cannot be identical to anything: the log claims score 24, but the replay gives 20"
        );
    }

    /// Issue 46: Play's hint is `twenty48 play --hint`'s (the expectimax bot in its
    /// default setting), and a file's link is `twenty48 share`'s, up to its size.
    #[test]
    fn a_hint_is_the_default_bots_move_and_a_file_has_its_link() {
        let mut host = Host::new();
        assert!(parse(&host.hint())["error"].is_string());
        host.new_game("classic", "11");
        for code in [3, 0, 3] {
            host.play(code);
        }
        let session = host.session.as_ref().unwrap();
        let mut bot = Bot::expectimax_default(session.game().rules());
        let want = bot.choose(session.game()).unwrap().name();
        assert_eq!(parse(&host.hint())["best"], want);
        let over = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures/games/classic-random-over.t48"),
        )
        .unwrap();
        host.resume(&over);
        assert_eq!(parse(&host.hint())["best"], Value::Null);
        assert_eq!(host.link(&over), link::fragment(&over));
        assert_eq!(host.link(&vec![0; MAX_LINKED_BYTES + 1]), "");
    }

    #[test]
    fn a_played_game_is_saved_linked_and_resumed() {
        let mut host = Host::new();
        assert!(parse(&host.play(0))["error"].is_string());
        assert!(host.saved().is_empty() && host.session_fragment().is_empty());
        let start = parse(&host.new_game("console", "7"));
        assert_eq!(
            (start["preset"].clone(), start["seed"].clone()),
            ("console".into(), "7".into())
        );
        for code in [3, 0, 1, 2, 3, 3] {
            let answer = parse(&host.play(code));
            assert!(answer["frame"]["move"].is_u64());
        }
        assert!(parse(&host.play(4))["error"].is_string());
        let saved = host.saved();
        let moves = MoveLog::decode(&saved).unwrap().moves.len();
        assert_eq!(
            link::game_from_fragment(&host.session_fragment()).unwrap(),
            saved
        );
        let mut again = Host::new();
        let resumed = parse(&again.resume(&saved));
        assert_eq!(resumed["frame"]["move"], moves);
        assert!(parse(&again.resume(b"nothing"))["error"].is_string());
        assert!(parse(&again.new_game("classic", "x"))["error"].is_string());
    }
}
