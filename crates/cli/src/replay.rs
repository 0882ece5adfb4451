//! `twenty48 replay`: show a recorded game board by board, checking it as it goes.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use serde_json::json;
use twenty48_engine::Engine;
use twenty48_verify::{replay, verify, EngineChoice, State};

use crate::input::{self, EXIT_FAILED};
use crate::rules_args::rules_name;
use crate::style::{count, Ui};
use crate::view;

/// The engine that replays.
#[derive(Clone, Copy, Debug, ValueEnum, Default)]
pub enum EngineName {
    /// The 4x4 bitboard (other sizes use the reference engine).
    #[default]
    Fast,
    /// The plain reference engine.
    Reference,
}

/// Replay a game: every board in turn with its move, points and spawn, then the verdict.
///
/// The replay checks every move, every checkpoint and the log's claims; if anything
/// disagrees it stops there, says why, and exits with status 1.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 replay game.t48
  twenty48 replay game.t48 --final
  twenty48 replay game.t48 --json > game.jsonl
  twenty48 replay game.t48 --watch
  twenty48 replay game.t48 --svg board.svg --move 5
  twenty48 record --seed 42 --moves LURD -o - | twenty48 replay - --final

`-` reads the game from standard input; `--svg -` writes the picture to standard output.
With --svg the log is verified too: a log that fails is drawn only at a board the replay
verified (by default the last one), FAILED and the reason go to standard error, and the
exit status is 1.

JSON shape (--json; docs/schema/replay.json): JSON Lines (application/jsonl), one object a
line as the replay goes: the head {schema_version, file, rules, seed, complete, moves}, then
each state {move, direction, gained, merges, spawns: [{row, col, value}], score, hash,
status, max_tile, reached_win, board: [[values]]}, then {verdict: {ok, problem}}")]
pub struct ReplayArgs {
    /// The game to replay, `-` for standard input
    pub file: PathBuf,
    /// Show only the final board and summary
    #[arg(long = "final")]
    pub final_only: bool,
    /// Print JSON Lines instead of text: a head line, a line per state, a verdict line
    #[arg(long)]
    pub json: bool,
    /// Engine to replay on
    #[arg(long, value_enum, default_value_t)]
    pub engine: EngineName,
    /// Watch the game animated in the terminal (space pauses, arrows step, +/- speed,
    /// g jumps to a move, q quits)
    #[arg(long, conflicts_with_all = ["json", "final_only", "svg"])]
    pub watch: bool,
    /// Write the final board (or the board at --move N) as an SVG picture to FILE (`-`:
    /// standard output)
    #[arg(short = 'o', long, value_name = "FILE", conflicts_with_all = ["json", "final_only"])]
    pub svg: Option<PathBuf>,
    /// With --svg: the board after this many moves (0: the opening)
    #[arg(long = "move", value_name = "N", requires = "svg")]
    pub at_move: Option<u32>,
    /// With --svg: overwrite FILE if it is a regular file (never the game being replayed)
    #[arg(long, requires = "svg")]
    pub force: bool,
}

/// Whether a state is the one on which the win was reached: the first whose largest tile
/// reaches the rules' winning tile (`previous_max`: the largest exponent before it).
fn reached_win(state: &State, win: Option<u8>, previous_max: u8) -> bool {
    let max = max_exponent(state);
    win.is_some_and(|w| max >= w && previous_max < w)
}

fn max_exponent(state: &State) -> u8 {
    state
        .cells
        .as_ref()
        .map_or(0, |c| c.exponents().iter().copied().max().unwrap_or(0))
}

/// A state in words; `won_with`: the winning tile's exponent when the win was reached on it
/// (with `--final`, at all), so the text names the rules' winning tile, not the largest.
fn state_text(state: &State, size: u8, won_with: Option<u8>) -> String {
    let mut out = String::new();
    match state.direction {
        None => {
            let spawns: Vec<String> = state
                .spawns
                .iter()
                .map(|s| view::spawn_text(s, size))
                .collect();
            out.push_str(&format!("opening: {}\n", spawns.join("; ")));
        }
        Some(dir) => {
            let spawn = state.spawns.first().map_or(String::new(), |s| {
                format!(", spawn {}", view::spawn_text(s, size))
            });
            out.push_str(&format!(
                "move {}: {dir}, +{}{spawn}, score {}\n",
                state.move_number, state.gained, state.score
            ));
        }
    }
    if let Some(win) = won_with {
        out.push_str(&format!(
            "the win is reached: a {} tile\n",
            twenty48_engine::TileName(win)
        ));
    }
    if let Some(cells) = &state.cells {
        for line in view::board_lines(cells) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// `replay --svg`: the board after a move, drawn only where the replay verified it. The log
/// is verified first, as a replay would: a log that fails still gives its boards up to the
/// failure (the claims' failure leaves every board), says why it failed, and exits 1.
fn svg(
    args: &ReplayArgs,
    out: &std::path::Path,
    log: twenty48_movelog::MoveLog,
    choice: EngineChoice,
    ui: &Ui,
) -> Result<ExitCode> {
    crate::destination::check_not_input(out, &[&args.file])?;
    crate::destination::check_output(out, args.force)?;
    let report = verify(&log, choice);
    let verified = report.verified_moves(log.moves.len() as u32);
    if let Some(problem) = &report.problem {
        let wanted = args.at_move.unwrap_or(verified);
        if wanted > verified {
            eprintln!(
                "{}: {}: {problem}",
                ui.bad("FAILED"),
                crate::input::shown(&args.file)
            );
            eprintln!(
                "the board after move {wanted} is not drawn: the replay verifies the boards up to move {verified} only"
            );
            return Ok(ExitCode::from(EXIT_FAILED));
        }
    }
    let at = args.at_move.or(report.problem.as_ref().map(|_| verified));
    let n = crate::svg::write_replay(&log, &args.file, at, out, args.force)?;
    if !ui.quiet && !input::is_stdio(out) {
        println!(
            "wrote {} (the board after move {n})",
            crate::input::shown(out)
        );
    }
    Ok(match &report.problem {
        None => ExitCode::SUCCESS,
        Some(problem) => {
            eprintln!(
                "{}: {}: {problem}",
                ui.bad("FAILED"),
                crate::input::shown(&args.file)
            );
            ExitCode::from(EXIT_FAILED)
        }
    })
}

pub fn run(args: ReplayArgs, ui: &Ui) -> Result<ExitCode> {
    // The moves stay packed in the file's bytes: memory is the file's size, however long
    // the game, and every state is written as the replay reaches it.
    let bytes = input::read_log_file(&args.file)?;
    let log = input::decode_packed(&args.file, &bytes)?;
    if args.watch {
        crate::watch::run(&log.to_log(), &args.file, ui)?;
        return Ok(ExitCode::SUCCESS);
    }
    let engine = match args.engine {
        EngineName::Fast => Engine::Fast,
        EngineName::Reference => Engine::Reference,
    };
    let choice = match engine {
        Engine::Reference => EngineChoice::Reference,
        _ => EngineChoice::Fast,
    };
    if let Some(out) = &args.svg {
        return svg(&args, out, log.to_log(), choice, ui);
    }
    let size = log.rules.size;
    // Every state is written as the replay reaches it, never gathered: memory stays the
    // same however long the game.
    let mut out = crate::output::stdout();
    if args.json {
        // JSON Lines: the head, then one line per state, then the verdict.
        let head = json!({
            "schema_version": view::REPLAY_SCHEMA_VERSION,
            "file": args.file.display().to_string(),
            "rules": view::rules_json(&log.rules),
            "seed": log.seed,
            "complete": log.complete,
            "moves": log.move_count(),
        });
        writeln!(out, "{head}")?;
    } else if !ui.quiet {
        writeln!(
            out,
            "{}: {} rules ({}), seed {}, {}{}",
            input::name(&args.file),
            rules_name(&log.rules),
            log.rules,
            log.seed,
            count(log.move_count(), "move", "moves"),
            if log.complete {
                ""
            } else {
                " (incomplete log)"
            }
        )?;
    }
    let mut write_error = None;
    let win = log.rules.win.map(|w| w.exponent);
    let mut previous_max = 0u8;
    let quiet = ui.quiet && !args.json;
    let mut emit = |out: &mut std::io::BufWriter<_>, s: &State| {
        // With --final the one state shown is the last; the win is whether it was reached
        // at all.
        let won = reached_win(s, win, previous_max);
        previous_max = max_exponent(s);
        if quiet {
            Ok(())
        } else if args.json {
            let mut doc = view::state_json(s, size);
            doc["reached_win"] = json!(won);
            writeln!(out, "{doc}")
        } else {
            out.write_all(state_text(s, size, win.filter(|_| won)).as_bytes())
        }
    };
    let (last, problem) = if args.final_only {
        // Only the last state is shown: the verifier's report has it, without a state per
        // move (the report's last state is the replay's, also where it stops at a problem).
        let report = verify(&log, choice);
        if let Some(s) = &report.last {
            emit(&mut out, s)?;
        }
        (report.last, report.problem)
    } else {
        let mut last = None;
        let result = replay(&log, engine, |s| {
            if write_error.is_none() {
                write_error = emit(&mut out, s).err();
            }
            last = Some(s.clone());
        });
        // Claims are checked by the verifier on the same engine.
        let problem = match result {
            Err(p) => Some(p),
            Ok(_) => verify(&log, choice).problem,
        };
        (last, problem)
    };
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if args.json {
        let verdict =
            json!({"ok": problem.is_none(), "problem": problem.as_ref().map(|p| p.to_string())});
        writeln!(out, "{}", json!({ "verdict": verdict }))?;
    } else {
        if let (Some(last), false) = (&last, ui.quiet) {
            writeln!(
                out,
                "final: move {}, score {}, max tile {}, {}, hash {:016x}",
                last.move_number,
                last.score,
                twenty48_engine::TileName(max_exponent(last)),
                last.status,
                last.hash
            )?;
        }
        match &problem {
            None if ui.quiet => {}
            None => writeln!(
                out,
                "{}: every move, checkpoint and claim holds",
                ui.good("verified")
            )?,
            Some(p) => writeln!(out, "{}: {p}", ui.bad("FAILED"))?,
        }
    }
    out.flush()?;
    Ok(if problem.is_some() {
        ExitCode::from(EXIT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}
