//! `twenty48 verify`: replay logs and check everything they claim.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use serde_json::json;
use twenty48_engine::tile_value;
use twenty48_movelog::MoveLog;
use twenty48_verify::batch::{list, read_log_bytes, verify_all, Verdict};
use twenty48_verify::{verify, EngineChoice};

use crate::input::{is_stdio, EXIT_BAD_INPUT, EXIT_FAILED};
use crate::progress::Progress;
use crate::style::{count, Ui};

/// Which engines replay.
#[derive(Clone, Copy, Debug, ValueEnum, Default)]
pub enum Engines {
    /// The 4x4 bitboard (other sizes use the reference engine), at the engine's full speed.
    #[default]
    Fast,
    /// The reference engine.
    Reference,
    /// Verify on the fast engine, then compare it with the reference engine after every
    /// move (an engine test; about five times slower than `fast`).
    Both,
}

/// Verify games: replay each log, check every move, checkpoint and claim.
///
/// Directories are searched recursively for .t48 files; all cores are used. Prints one line
/// per file and a summary. Exit status 0 when all verify, 1 when any fails verification,
/// 2 when any input cannot be read or parsed.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 verify game.t48
  twenty48 verify fixtures/games --engine both
  twenty48 verify games/ --json > report.json
  twenty48 record --seed 1 --moves LURD -o - | twenty48 verify -

`-` reads one game from standard input.

JSON shape (--json; docs/schema/verify.json): {schema_version, files: [{file, ok,
error_kind (null|\"verification\"|\"unreadable\"), message, moves, score, max_tile, hash,
complete}], summary: {files, verified, failed, unreadable}}")]
pub struct VerifyArgs {
    /// Files or directories (`-`: a game on standard input)
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Engines to replay on
    #[arg(long, value_enum, default_value_t)]
    pub engine: Engines,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
    /// Worker threads, 1 to 256 [default: one per core]
    #[arg(short, long, value_name = "N", value_parser = crate::input::jobs_parser())]
    pub jobs: Option<usize>,
}

fn line(path: &Path, verdict: &Verdict, ui: &Ui) -> String {
    let path = crate::input::name(path);
    let (ok, failed, error) = (ui.good("ok"), ui.bad("FAILED"), ui.bad("ERROR"));
    match verdict {
        Verdict::Replayed(r) => match (&r.problem, &r.last) {
            (None, Some(_)) => format!("{ok}      {path}  ({})", r.summary()),
            (None, None) => format!("{ok}      {path}"),
            (Some(_), _) => format!("{failed}  {path}: {}", r.summary()),
        },
        Verdict::Unreadable(e) => format!("{error}   {path}: cannot read: {e}"),
        Verdict::Undecodable(e) => format!("{error}   {path}: {e}"),
        _ => format!("{error}   {path}: unknown verdict"),
    }
}

/// The verdict on a game read from standard input (`-`).
fn verify_stdin(engines: EngineChoice) -> Verdict {
    let mut bytes = Vec::new();
    let read = read_log_bytes(&mut std::io::stdin().lock(), &mut bytes);
    match read {
        Err(e) => Verdict::Unreadable(e),
        Ok(()) => match MoveLog::decode(&bytes) {
            Err(e) => Verdict::Undecodable(e),
            Ok(log) => Verdict::Replayed(Box::new(verify(&log, engines))),
        },
    }
}

pub fn run(args: VerifyArgs, ui: &Ui) -> Result<ExitCode> {
    let stdin_count = args.paths.iter().filter(|p| is_stdio(p)).count();
    if stdin_count > 1 {
        bail!("standard input (-) can be read only once in a command");
    }
    let paths: Vec<PathBuf> = args
        .paths
        .iter()
        .filter(|p| !is_stdio(p))
        .cloned()
        .collect();
    // A path that cannot be read is an unreadable entry of the report, not the end of it.
    let listing = list(&paths);
    for (path, why) in &listing.skipped {
        if !ui.quiet {
            eprintln!("note: skipped {}: {why}", crate::input::shown(path));
        }
    }
    if listing.files.is_empty() && listing.unreadable.is_empty() && stdin_count == 0 {
        bail!("no .t48 files found under the given paths");
    }
    let files = listing.files;
    let engines = match args.engine {
        Engines::Fast => EngineChoice::Fast,
        Engines::Reference => EngineChoice::Reference,
        Engines::Both => EngineChoice::Both,
    };
    let threads = crate::input::jobs(args.jobs);
    // Drawn only when stderr is a terminal and there is more than one file.
    let progress = (files.len() > 1 && !ui.quiet)
        .then(|| Progress::counter(files.len() as u64, "verifying", "files"));
    let verdicts = verify_all(&files, engines, threads, &|_, _, _| {
        if let Some(p) = &progress {
            p.inc(1);
        }
    });
    if let Some(p) = progress {
        p.finish();
    }
    // Standard input comes first; the paths that could not be read follow the files that
    // could.
    let (mut files, mut verdicts) = (files, verdicts);
    if stdin_count == 1 {
        files.insert(0, PathBuf::from("-"));
        verdicts.insert(0, verify_stdin(engines));
    }
    for (path, e) in listing.unreadable {
        files.push(path);
        verdicts.push(Verdict::Unreadable(e));
    }
    let total = files.len();
    let verified = verdicts.iter().filter(|v| v.is_ok()).count();
    let unreadable = verdicts
        .iter()
        .filter(|v| !matches!(v, Verdict::Replayed(_)))
        .count();
    let failed = total - verified - unreadable;
    if args.json {
        let entries: Vec<_> = files
            .iter()
            .zip(&verdicts)
            .map(|(f, v)| {
                let (kind, message, last) = match v {
                    Verdict::Replayed(r) => (
                        r.problem.as_ref().map(|_| "verification"),
                        r.problem.as_ref().map(|p| p.to_string()),
                        r.last.as_ref(),
                    ),
                    Verdict::Unreadable(e) => (Some("unreadable"), Some(e.to_string()), None),
                    Verdict::Undecodable(e) => (Some("unreadable"), Some(e.to_string()), None),
                    _ => (Some("unreadable"), None, None),
                };
                json!({
                    "file": f.display().to_string(),
                    "ok": v.is_ok(),
                    "error_kind": kind,
                    "message": message,
                    "moves": last.map(|s| s.move_number),
                    "score": last.map(|s| s.score),
                    "max_tile": last.and_then(|s| s.cells.as_ref()).map(|c| {
                        tile_value(c.exponents().iter().copied().max().unwrap_or(0))
                    }),
                    "hash": last.map(|s| format!("{:016x}", s.hash)),
                    "complete": match v {
                        Verdict::Replayed(r) => Some(r.complete),
                        _ => None,
                    },
                })
            })
            .collect();
        let doc = json!({
            "schema_version": crate::view::SCHEMA_VERSION,
            "files": entries,
            "summary": {"files": total, "verified": verified, "failed": failed, "unreadable": unreadable},
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        // One write for many lines, not one per file.
        let mut out = crate::output::stdout();
        for (f, v) in files.iter().zip(&verdicts) {
            // Quiet: only what did not verify.
            if !ui.quiet || !v.is_ok() {
                writeln!(out, "{}", line(f, v, ui))?;
            }
        }
        if !ui.quiet {
            let failed_text = format!("{failed} failed");
            let unreadable_text = format!("{unreadable} unreadable");
            writeln!(
                out,
                "{}: {verified} verified, {}, {}",
                count(total as u64, "file", "files"),
                if failed > 0 {
                    ui.bad(&failed_text)
                } else {
                    failed_text
                },
                if unreadable > 0 {
                    ui.bad(&unreadable_text)
                } else {
                    unreadable_text
                }
            )?;
        }
        out.flush()?;
    }
    Ok(if unreadable > 0 {
        ExitCode::from(EXIT_BAD_INPUT)
    } else if failed > 0 {
        ExitCode::from(EXIT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}
