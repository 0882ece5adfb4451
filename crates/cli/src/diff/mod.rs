//! `twenty48 diff`: the first move at which two games part, boards side by side.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;
use twenty48_devicelog::{decode_capture, DeviceGame};
use twenty48_engine::{Direction, Engine, Game, Refusal, Rules};
use twenty48_movelog::{PackedLog, MAGIC};
use twenty48_verify::{diff, parting, verify, EngineChoice, State, Trace};

use crate::input::{self, EXIT_FAILED};
use crate::rules_args::RulesArgs;
use crate::style::Ui;

mod report;

/// Find where two games part: the first move whose state differs, what differed (move,
/// spawn, merge, score, board), and the boards side by side.
///
/// A state is what a move produced: its direction, spawn, merges and points, score, board
/// and state hash (the status is not compared on its own: a game whose status ends it has no
/// next move, and that is reported). When one game is a prefix of the other, diff says
/// which ends first; when every move agrees but the rules (or seeds) differ, it says so.
///
/// Each side is a .t48 log or, with --elf, a device capture (its game number --game,
/// default 1). With one side only, the game is compared with a host replay of its own moves:
/// under rule flags (e.g. --rules arduino) to see where other rules change the game, or,
/// for a capture, to find the first move at which the device and the host disagree.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 diff a.t48 b.t48
  twenty48 diff a.t48 b.t48 --svg divergence.svg
  twenty48 diff game.t48 --rules arduino
  twenty48 diff - b.t48 < a.t48
  twenty48 diff capture.bin --elf twenty48-qemu
  twenty48 diff capture.bin game.t48 --elf twenty48-qemu --game 2

(`just qemu-elf` builds twenty48-qemu and prints its path.) A log that does not verify is
never identical, nor a prefix, nor apart by rules alone: when every move agrees, all the
way or up to a move the log cannot play (one that does not change the board, or one after
the end), diff reports it invalid, with the verifier's problem. Cells are named by row and col, from 1 at the top
left, each game's on its own board.

JSON shape (--json; docs/schema/diff.json): {schema_version, identical, moves (when
identical), invalid, problem (a log that does not verify), move, parting (\"state\" |
\"prefix\" | \"rules\"), differences: [{kind, a, b, ...}], before, a, b (states as in
replay --json)}

Exit status: 0 identical, 1 the games part or a log does not verify, 2 an input cannot be
read.")]
pub struct DiffArgs {
    /// First game (.t48, or a capture with --elf); `-` for standard input
    pub a: PathBuf,
    /// Second game; omitted: a host replay of the first game's moves
    pub b: Option<PathBuf>,
    /// Firmware ELF that decodes device captures
    #[arg(long, value_name = "FILE")]
    pub elf: Option<PathBuf>,
    /// Which game of a capture to compare: the device's game number (protocol v2 and v3), or
    /// its place in the capture, 1-based (v1)
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
    /// Also write the boards at the divergence side by side as an SVG picture, the cells
    /// that differ outlined (`-`: standard output, instead of the report)
    #[arg(short = 'o', long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// With --svg: overwrite FILE if it is a regular file (never an input)
    #[arg(long, requires = "svg")]
    pub force: bool,
    /// Replay the single game under these rules instead of its own (a preset replaces the
    /// game's rules; other flags change single fields of the game's rules)
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// A device game as a trace: the device reports moves, scores and hashes, not boards or
/// spawns; its opening is the host's (rules and seed fix it). A stored game pulled in
/// protocol v3 reports its directions only (no score or hash a move): its trace is the
/// replay of them.
fn device_trace(game: &DeviceGame, label: String) -> Trace {
    let stopped = game
        .end
        .is_none()
        .then(|| "the capture ends before the game does".to_string());
    if game
        .moves
        .iter()
        .any(|m| m.score.is_none() || m.hash.is_none())
    {
        let dirs: Vec<_> = game.moves.iter().map(|m| m.dir).collect();
        let mut trace = Trace::replay(label, game.rules, game.seed, &dirs);
        trace.stopped = trace.stopped.or(stopped);
        return trace;
    }
    let host = Trace::replay("host", game.rules, game.seed, &[]);
    let mut states: Vec<State> = host.state(0).into_iter().collect();
    let mut previous = 0;
    for m in &game.moves {
        let (score, hash) = (m.score.unwrap_or(0), m.hash.unwrap_or(0));
        states.push(State {
            move_number: m.seq,
            direction: Some(m.dir),
            spawns: Vec::new(),
            gained: score.saturating_sub(previous),
            merges: 0,
            score,
            hash,
            status: twenty48_engine::Status::Playing,
            cells: None,
        });
        previous = score;
    }
    Trace::from_states(label, game.rules, game.seed, states, stopped)
}

enum Side {
    /// A move log's bytes, decoded when read; its moves stay packed (a log may hold
    /// billions of moves that no replay ever reaches).
    Log(Vec<u8>),
    Device(Box<DeviceGame>),
}

/// The log a [`Side::Log`] holds, decoded again (it was decoded when read, so this cannot
/// fail).
fn packed(bytes: &[u8]) -> PackedLog<'_> {
    PackedLog::decode(bytes).expect("the bytes decoded when they were read")
}

/// How many moves are unpacked at a time while looking for where a replay stops.
const STRETCH: usize = 1 << 16;

/// The moves of `log` up to and including the first that `rules` refuse (a move that does
/// not change the board, or one after the end): all that a replay under `rules` plays or
/// reports. The moves after it are never unpacked.
fn moves_that_play(log: &PackedLog<'_>, rules: Rules) -> Vec<Direction> {
    let total = log.move_count() as usize;
    let Ok(mut game) = Game::with_engine(rules, log.seed, Engine::Fast) else {
        // No game at all: the trace says the rules cannot be played.
        return Vec::new();
    };
    let mut moves = Vec::new();
    let mut stretch = vec![Direction::Up; STRETCH.min(total)];
    let mut start = 0;
    while start < total {
        let n = STRETCH.min(total - start);
        let stretch = &mut stretch[..n];
        log.unpack_into(start, stretch);
        match game.play_all(stretch) {
            Ok(()) => moves.extend_from_slice(stretch),
            Err(Refusal::NoMove { index, .. } | Refusal::Finished { index, .. }) => {
                moves.extend_from_slice(&stretch[..=index]);
                return moves;
            }
            // A refusal this build does not know: every move, as before.
            Err(_) => return log.moves().collect(),
        }
        start += n;
    }
    moves
}

fn load(path: &Path, elf: Option<(&Path, &[u8])>, game: u32) -> Result<Side> {
    // Without --elf a side can only be a move log: read no further than its header says,
    // so a file that is not one is said so after its first bytes.
    let bytes = match elf {
        Some(_) => input::read(path)?,
        None => input::read_log_file(path)?,
    };
    let Some((elf_path, elf)) = elf.filter(|_| !bytes.starts_with(&MAGIC)) else {
        // The bytes already read are decoded: the file is opened once, so a file that
        // changes meanwhile cannot give two different games.
        input::decode_packed(path, &bytes)?;
        return Ok(Side::Log(bytes));
    };
    let capture = decode_capture(elf, &bytes).with_context(|| {
        format!(
            "cannot decode {} with {}",
            crate::input::shown(path),
            crate::input::shown(elf_path)
        )
    })?;
    let count = capture.games.len();
    // Protocol v2 numbers games on the device, and a capture may hold one game twice (live,
    // then from the store): the copy that verifies, else the longest, stands for it (of
    // those, one with the device's score and hash for every move: a live copy).
    let found = capture
        .games
        .into_iter()
        .filter(|g| g.number == game)
        .max_by_key(|g| {
            (
                twenty48_devicelog::check(g).is_verified(),
                g.moves.len(),
                g.moves.iter().all(|m| m.score.is_some()),
                std::cmp::Reverse(g.offset),
            )
        })
        .with_context(|| {
            format!(
                "{} holds {}, not a game {game}",
                input::name(path),
                crate::style::count(count as u64, "game", "games")
            )
        })?;
    Ok(Side::Device(Box::new(found)))
}

fn trace(side: &Side, label: String) -> Trace {
    match side {
        Side::Log(bytes) => {
            let log = packed(bytes);
            Trace::replay(
                label,
                log.rules,
                log.seed,
                &moves_that_play(&log, log.rules),
            )
        }
        Side::Device(g) => device_trace(g, label),
    }
}

/// The first problem of side `side` when it is a log that does not verify.
fn problem(side: &Side) -> Option<String> {
    match side {
        Side::Log(bytes) => verify(&packed(bytes), EngineChoice::Fast)
            .problem
            .map(|p| p.to_string()),
        Side::Device(_) => None,
    }
}

pub fn run(args: DiffArgs, ui: &Ui) -> Result<ExitCode> {
    // The ELF is read first, whether or not a side turns out to be a capture: a firmware
    // that cannot be read is an error, never silently ignored.
    let elf_bytes = match &args.elf {
        Some(path) => Some(
            input::read(path)
                .with_context(|| format!("--elf {} cannot be used", crate::input::shown(path)))?,
        ),
        None => None,
    };
    let elf = args.elf.as_deref().zip(elf_bytes.as_deref());
    if args.json && args.svg.as_deref().is_some_and(input::is_stdio) {
        bail!("--json and --svg - both write to standard output; write the picture to a file");
    }
    let first = load(&args.a, elf, args.game)?;
    let mut second_side = None;
    let label_a = input::name(&args.a);
    let (ta, tb) = match &args.b {
        Some(b) => {
            if args.rules.any() {
                bail!("rule flags apply only when diffing one game against a replay of its moves");
            }
            let second = load(b, elf, args.game)?;
            let traces = (trace(&first, label_a), trace(&second, input::name(b)));
            second_side = Some(second);
            traces
        }
        None => {
            let (rules, seed, moves) = match &first {
                Side::Log(bytes) => {
                    let log = packed(bytes);
                    let rules = args.rules.resolve_from(log.rules)?;
                    (rules, log.seed, moves_that_play(&log, rules))
                }
                Side::Device(g) => (
                    args.rules.resolve_from(g.rules)?,
                    g.seed,
                    g.moves.iter().map(|m| m.dir).collect(),
                ),
            };
            let label_b = match &first {
                Side::Device(_) => "host replay".to_string(),
                Side::Log(_) if args.rules.any() => "replay under other rules".to_string(),
                Side::Log(_) => "host replay".to_string(),
            };
            (
                trace(&first, label_a),
                Trace::replay(label_b, rules, seed, &moves),
            )
        }
    };
    let divergence = diff(&ta, &tb);
    // Traces whose every move agrees (identical, or only their rules or seeds differ), or
    // that part only where a log stops at a move it cannot play: a log that does not verify
    // is reported invalid, with the verifier's problem.
    let sides = [Some(&first), second_side.as_ref()];
    let paths = [Some(args.a.as_path()), args.b.as_deref()];
    if let Some(elf) = &args.elf {
        // An ELF that decodes nothing would look as if it had been checked against.
        if !sides.iter().flatten().any(|s| matches!(s, Side::Device(_))) {
            bail!(
                "--elf {} decodes captures, and no game given here is one (only .t48 logs): leave --elf out",
                crate::input::shown(elf)
            );
        }
    }
    let invalid = parting::invalid_side(
        divergence.as_ref(),
        [ta.stopped.is_some(), tb.stopped.is_some()],
        |i| sides[i].and_then(problem),
    );
    if let Some((i, problem)) = invalid {
        let path = paths[i].unwrap_or(args.a.as_path());
        if args.json {
            let doc = json!({
                "schema_version": crate::view::SCHEMA_VERSION,
                "identical": false,
                "invalid": path.display().to_string(),
                "problem": problem,
            });
            println!("{}", serde_json::to_string_pretty(&doc)?);
        } else {
            println!(
                "{}: {}",
                ui.bad("invalid"),
                parting::invalid_text(&input::name(path), &problem)
            );
        }
        return Ok(ExitCode::from(EXIT_FAILED));
    }
    // Two games that agree move for move are not two whole games when one is partial.
    if !args.json && !ui.quiet {
        for (side, path) in sides.iter().zip(paths) {
            if let (Some(Side::Log(bytes)), Some(path)) = (side, path) {
                if !packed(bytes).complete {
                    eprintln!(
                        "note: {} is a partial log: its moves are a verified beginning of a game, the rest was not recorded",
                        input::name(path)
                    );
                }
            }
        }
    }
    if let Some(out) = &args.svg {
        let inputs: Vec<&Path> = [
            Some(args.a.as_path()),
            args.b.as_deref(),
            args.elf.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect();
        crate::destination::check_not_input(out, &inputs)?;
        crate::destination::check_output(out, args.force)?;
        match &divergence {
            Some(d) => crate::svg::write_divergence(out, &ta, &tb, d, args.force)?,
            None => crate::svg::write_identical(out, &ta, args.force)?,
        }
    }
    let svg_on_stdout = args.svg.as_deref().is_some_and(input::is_stdio);
    if args.json {
        let doc = match &divergence {
            None => json!({
                "schema_version": crate::view::SCHEMA_VERSION,
                "identical": true,
                "moves": ta.len().saturating_sub(1),
            }),
            Some(d) => report::json(&ta, &tb, d),
        };
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else if ui.quiet && !svg_on_stdout {
        // Quiet: only the first line of a parting.
        if let Some(d) = &divergence {
            let text = report::text(&ta, &tb, d, ui);
            println!("{}", text.lines().next().unwrap_or_default());
        }
    } else if !svg_on_stdout {
        match &divergence {
            None => println!("{}: {}", ui.good("identical"), parting::agreement(&ta, &tb)),
            Some(d) => print!("{}", report::text(&ta, &tb, d, ui)),
        }
    }
    Ok(if divergence.is_some() {
        ExitCode::from(EXIT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}
