//! `twenty48 diff`: the first move at which two games part, boards side by side.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;
use twenty48_devicelog::{decode_capture, DeviceGame};
use twenty48_movelog::MAGIC;
use twenty48_verify::{diff, verify, Difference, Divergence, EngineChoice, State, Trace};

use crate::input::{self, EXIT_FAILED};
use crate::rules_args::RulesArgs;
use crate::view;

/// Find where two games part: the first move whose state differs, what differed (move,
/// spawn, merge, score, board), and the boards side by side.
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
  twenty48 diff capture.bin --elf twenty48-qemu
  twenty48 diff capture.bin game.t48 --elf twenty48-qemu --game 2

A log that does not verify is never identical: diff reports it invalid, with the
verifier's problem.

Exit status: 0 identical, 1 the games part or a log does not verify, 2 an input cannot be
read.")]
pub struct DiffArgs {
    /// First game (.t48, or a capture with --elf)
    pub a: PathBuf,
    /// Second game; omitted: a host replay of the first game's moves
    pub b: Option<PathBuf>,
    /// Firmware ELF that decodes device captures
    #[arg(long, value_name = "FILE")]
    pub elf: Option<PathBuf>,
    /// Which game of a capture to compare: the device's game number (protocol v2), or
    /// its place in the capture, 1-based (v1)
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
    /// Also write the boards at the divergence side by side as an SVG picture
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// With --svg: overwrite FILE if it is a regular file (never an input)
    #[arg(long, requires = "svg")]
    pub force: bool,
    /// Replay the single game under these rules instead of its own
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// A device game as a trace: the device reports moves, scores and hashes, not boards or
/// spawns; its opening is the host's (rules and seed fix it).
fn device_trace(game: &DeviceGame, label: String) -> Trace {
    let host = Trace::replay("host", game.rules, game.seed, &[]);
    let mut states: Vec<State> = host.state(0).into_iter().collect();
    let mut previous = 0;
    for m in &game.moves {
        states.push(State {
            move_number: m.seq,
            direction: Some(m.dir),
            spawns: Vec::new(),
            gained: m.score.saturating_sub(previous),
            merges: 0,
            score: m.score,
            hash: m.hash,
            status: twenty48_engine::Status::Playing,
            cells: None,
        });
        previous = m.score;
    }
    Trace::from_states(
        label,
        game.rules,
        game.seed,
        states,
        game.end
            .is_none()
            .then(|| "the capture ends before the game does".into()),
    )
}

enum Side {
    Log(twenty48_movelog::MoveLog),
    Device(Box<DeviceGame>),
}

fn load(path: &Path, elf: Option<(&Path, &[u8])>, game: u32) -> Result<Side> {
    let bytes = input::read(path)?;
    let Some((elf_path, elf)) = elf.filter(|_| !bytes.starts_with(&MAGIC)) else {
        // The bytes already read are decoded: the file is opened once, so a file that
        // changes meanwhile cannot give two different games.
        return Ok(Side::Log(input::decode_log(path, &bytes)?));
    };
    let capture = decode_capture(elf, &bytes).with_context(|| {
        format!(
            "cannot decode {} with {}",
            path.display(),
            elf_path.display()
        )
    })?;
    let count = capture.games.len();
    // Protocol v2 numbers games on the device, and a capture may hold one game twice (live,
    // then from the store): the copy that verifies, else the longest, stands for it.
    let found = capture
        .games
        .into_iter()
        .filter(|g| g.number == game)
        .max_by_key(|g| {
            (
                twenty48_devicelog::check(g).is_verified(),
                g.moves.len(),
                std::cmp::Reverse(g.offset),
            )
        })
        .with_context(|| {
            format!(
                "{} holds {count} game(s), not a game {game}",
                path.display()
            )
        })?;
    Ok(Side::Device(Box::new(found)))
}

fn trace(side: &Side, label: String) -> Trace {
    match side {
        Side::Log(log) => Trace::from_log(label, log),
        Side::Device(g) => device_trace(g, label),
    }
}

fn block(title: String, state: Option<&State>) -> (String, Vec<String>) {
    let lines = match state {
        None => vec!["(no move)".to_string()],
        Some(s) => {
            let mut l = match &s.cells {
                Some(c) => view::board_lines(c),
                None => vec!["(board not reported)".to_string()],
            };
            l.push(format!("score {}", s.score));
            l.push(format!("hash {:016x}", s.hash));
            l
        }
    };
    (title, lines)
}

fn report_text(a: &Trace, b: &Trace, d: &Divergence) -> String {
    let mut out = format!(
        "{} and {} part at move {}{}:\n",
        a.label,
        b.label,
        d.move_number,
        if d.move_number == 0 {
            " (the opening)"
        } else {
            ""
        }
    );
    for diff in &d.differences {
        out.push_str(&format!("  {diff}\n"));
        if *diff == Difference::Rules {
            out.push_str(&format!(
                "    {}: {}\n    {}: {}\n",
                a.label, a.rules, b.label, b.rules
            ));
        }
    }
    out.push('\n');
    let mut blocks = Vec::new();
    if let Some(before) = &d.before {
        blocks.push(block(
            format!("both, after move {}", before.move_number),
            Some(before),
        ));
    }
    let title = |label: &str, s: &Option<State>| match s.as_ref().and_then(|s| s.direction) {
        Some(dir) => format!("{label}: {dir}"),
        None => label.to_string(),
    };
    blocks.push(block(title(&a.label, &d.a), d.a.as_ref()));
    blocks.push(block(title(&b.label, &d.b), d.b.as_ref()));
    out.push_str(&view::side_by_side(&blocks, 26));
    out
}

/// A log side that does not verify can never be "identical": its first problem, if any.
fn invalid_side<'a>(sides: &[(&'a Side, &'a Path)]) -> Option<(&'a Path, String)> {
    sides.iter().find_map(|(side, path)| match side {
        Side::Log(log) => verify(log, EngineChoice::Fast)
            .problem
            .map(|p| (*path, p.to_string())),
        Side::Device(_) => None,
    })
}

pub fn run(args: DiffArgs) -> Result<ExitCode> {
    // The ELF is read first, whether or not a side turns out to be a capture: a firmware
    // that cannot be read is an error, never silently ignored.
    let elf_bytes = match &args.elf {
        Some(path) => Some(
            input::read(path)
                .with_context(|| format!("--elf {} cannot be used", path.display()))?,
        ),
        None => None,
    };
    let elf = args.elf.as_deref().zip(elf_bytes.as_deref());
    let first = load(&args.a, elf, args.game)?;
    let mut second_side = None;
    let label_a = args.a.display().to_string();
    let (ta, tb) = match &args.b {
        Some(b) => {
            if args.rules.any() {
                bail!("rule flags apply only when diffing one game against a replay of its moves");
            }
            let second = load(b, elf, args.game)?;
            let traces = (
                trace(&first, label_a),
                trace(&second, b.display().to_string()),
            );
            second_side = Some(second);
            traces
        }
        None => {
            let (rules, seed, moves) = match &first {
                Side::Log(log) => (log.rules, log.seed, log.moves.clone()),
                Side::Device(g) => (g.rules, g.seed, g.moves.iter().map(|m| m.dir).collect()),
            };
            let rules = args.rules.resolve_from(rules)?;
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
    if divergence.is_none() {
        let mut sides = vec![(&first, args.a.as_path())];
        if let (Some(second), Some(b)) = (&second_side, &args.b) {
            sides.push((second, b.as_path()));
        }
        if let Some((path, problem)) = invalid_side(&sides) {
            if args.json {
                let doc = json!({
                    "identical": false,
                    "invalid": path.display().to_string(),
                    "problem": problem,
                });
                println!("{}", serde_json::to_string_pretty(&doc)?);
            } else {
                println!(
                    "invalid: {} does not verify, so it cannot be identical to anything: {problem}",
                    path.display()
                );
            }
            return Ok(ExitCode::from(EXIT_FAILED));
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
    if args.json {
        let size = ta.rules.size;
        let doc = match &divergence {
            None => json!({"identical": true, "moves": ta.len().saturating_sub(1)}),
            Some(d) => json!({
                "identical": false,
                "move": d.move_number,
                "differences": d.differences.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
                "before": d.before.as_ref().map(|s| view::state_json(s, size)),
                "a": d.a.as_ref().map(|s| view::state_json(s, size)),
                "b": d.b.as_ref().map(|s| view::state_json(s, size)),
            }),
        };
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        match &divergence {
            None => println!(
                "identical: {} and {} agree on all {} moves",
                ta.label,
                tb.label,
                ta.len().saturating_sub(1)
            ),
            Some(d) => print!("{}", report_text(&ta, &tb, d)),
        }
    }
    Ok(if divergence.is_some() {
        ExitCode::from(EXIT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}
