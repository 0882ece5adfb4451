//! `twenty48 stats`: how a pile of games went. Every file is read and verified on all cores
//! (the verify crate's batch machinery); each game is folded into running totals as it
//! finishes, so memory grows with the number of rule sets, failures and scores kept for the
//! median (8 bytes a game), never with the games' moves.

mod report;
mod totals;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::{bail, Result};
use clap::Args;
use twenty48_engine::Rules;
use twenty48_movelog::PackedLog;
use twenty48_verify::batch::{for_each_file, list, read_log_bytes, Reader, Verdict};
use twenty48_verify::{verify, EngineChoice};

use crate::input::{is_stdio, EXIT_BAD_INPUT, EXIT_FAILED};
use crate::progress::Progress;
use totals::{Game, Totals};

/// Statistics over games: scores, largest tiles, win rates, per rule set.
///
/// Directories are searched recursively for .t48 files; all cores are used. Every game is
/// verified first: only games that verify are counted in the figures; a file that fails
/// verification or cannot be read is counted and named. Exit status as for verify: 0 when
/// all verify, 1 when any fails, 2 when any cannot be read.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 stats fixtures/games
  twenty48 stats fixtures/games --json > stats.json
  twenty48 stats fixtures/games --csv --svg tiles.svg

Partial logs (a verified beginning of a game each, such as a device game a power cut
interrupted) are listed as PARTIAL and never counted as games.

JSON shape (--json; docs/schema/stats.json): {schema_version, files, games, verified,
failed: [{file, problem}], unreadable: [{file, problem}], partial: [{file, problem}], moves,
score: {mean, median, max, max_file}, max_tiles: {\"2048\": N, ...}, longest: {file,
moves}|null, rules: [{rules, games, moves, score: {...}, max_tiles, longest, win_tile|null,
win_exponent|null, wins|null, win_rate|null}]}.
CSV: one row per rule set, then `all`: rules,games,moves,score_mean,score_median,score_max,
win_tile,wins,win_rate, then one column per tile (games whose max tile it is).")]
pub struct StatsArgs {
    /// Files and directories
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Print JSON instead of text
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV instead of text
    #[arg(long)]
    pub csv: bool,
    /// Also draw the largest-tile histogram as an SVG picture to FILE
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Overwrite the SVG file if it exists
    #[arg(long)]
    pub force: bool,
    /// Worker threads, 1 to 256 [default: one per core]
    #[arg(short, long, value_name = "N", value_parser = crate::input::jobs_parser())]
    pub jobs: Option<usize>,
}

fn group_name(rules: &Rules) -> String {
    match rules.preset() {
        Some(p) => p.name().to_string(),
        None => format!("custom ({rules})"),
    }
}

/// One file's outcome, as a worker reports it.
enum Outcome {
    Verified(Game),
    /// A partial log that verifies: why it is not counted.
    Partial(String),
    Failed(String),
    Unreadable(String),
}

fn examine(path: &Path, reader: &mut Reader) -> Outcome {
    match reader.decode(path) {
        Ok(log) => judge(&log),
        Err(Verdict::Unreadable(e)) => Outcome::Unreadable(format!("cannot read: {e}")),
        Err(Verdict::Undecodable(e)) => Outcome::Unreadable(e.to_string()),
        Err(_) => Outcome::Unreadable("cannot read".into()),
    }
}

/// The game read from standard input (`-`), read as verify reads it: a non-log is refused
/// after its first bytes, a log is read only as far as its header says it extends.
fn examine_stdin(taken: bool) -> Outcome {
    if taken {
        return Outcome::Unreadable("standard input (-) can be read only once in a command".into());
    }
    let mut bytes = Vec::new();
    if let Err(e) = read_log_bytes(&mut std::io::stdin().lock(), &mut bytes) {
        return Outcome::Unreadable(format!("cannot read: {e}"));
    }
    match PackedLog::decode(&bytes) {
        Ok(log) => judge(&log),
        Err(e) => Outcome::Unreadable(e.to_string()),
    }
}

/// Verifies a decoded log: the game it is, or why it fails.
fn judge(log: &PackedLog) -> Outcome {
    let report = verify(log, EngineChoice::Fast);
    match (&report.problem, report.last) {
        (Some(p), _) => Outcome::Failed(p.to_string()),
        // Readers never present a partial log as a whole game (docs/format.md).
        (None, _) if !log.complete => Outcome::Partial(format!(
            "a partial log: its {} are a verified beginning of a game, not counted",
            crate::style::count(log.claims.move_count, "move", "moves")
        )),
        (None, _) => Outcome::Verified(Game {
            rules: log.rules,
            moves: log.claims.move_count,
            score: log.claims.score,
            max_exponent: log.claims.max_exponent,
        }),
    }
}

/// Reads, verifies and folds every file under `paths` on `threads` workers; `output`, a
/// file the command will write, is refused first if it is one of them.
pub fn gather(paths: &[PathBuf], threads: usize, output: Option<&Path>) -> Result<Totals> {
    let (stdin, paths): (Vec<PathBuf>, Vec<PathBuf>) =
        paths.iter().cloned().partition(|p| is_stdio(p));
    let listing = list(&paths);
    for (path, why) in &listing.skipped {
        eprintln!("note: skipped {}: {why}", crate::input::shown(path));
    }
    if listing.files.is_empty() && listing.unreadable.is_empty() && stdin.is_empty() {
        bail!("no .t48 files found under the given paths");
    }
    let files = listing.files;
    if let Some(output) = output {
        let inputs: Vec<&Path> = paths.iter().chain(&files).map(PathBuf::as_path).collect();
        crate::destination::check_not_input(output, &inputs)?;
    }
    let progress =
        (files.len() > 1).then(|| Progress::counter(files.len() as u64, "reading", "games"));
    let totals = Mutex::new(Totals::default());
    for_each_file(&files, threads, examine, |_, i, outcome| {
        let path = &files[i];
        let mut t = totals.lock().expect("no worker panics holding the lock");
        match outcome {
            Outcome::Verified(game) => t
                .by_rules
                .entry(group_name(&game.rules))
                .or_default()
                .add(&game, path),
            Outcome::Failed(why) => t.failed.push((path.clone(), why)),
            Outcome::Partial(why) => t.partial.push((path.clone(), why)),
            Outcome::Unreadable(why) => t.unreadable.push((path.clone(), why)),
        }
        if let Some(p) = &progress {
            p.inc(1);
        }
    });
    if let Some(p) = progress {
        p.finish();
    }
    let mut totals = totals.into_inner().expect("no worker panicked");
    for (i, path) in stdin.iter().enumerate() {
        let name = PathBuf::from(crate::input::name(path));
        match examine_stdin(i > 0) {
            Outcome::Verified(game) => totals
                .by_rules
                .entry(group_name(&game.rules))
                .or_default()
                .add(&game, &name),
            Outcome::Failed(why) => totals.failed.push((name, why)),
            Outcome::Partial(why) => totals.partial.push((name, why)),
            Outcome::Unreadable(why) => totals.unreadable.push((name, why)),
        }
    }
    for (path, e) in listing.unreadable {
        totals.unreadable.push((path, format!("cannot read: {e}")));
    }
    // Completion order varies from run to run; the report does not.
    totals.failed.sort();
    totals.unreadable.sort();
    totals.partial.sort();
    for g in totals.by_rules.values_mut() {
        g.scores.sort_unstable();
    }
    Ok(totals)
}

pub fn run(args: StatsArgs, ui: &crate::style::Ui) -> Result<ExitCode> {
    if let Some(svg) = &args.svg {
        crate::destination::check_output(svg, args.force)?;
    }
    let threads = crate::input::jobs(args.jobs);
    let totals = gather(&args.paths, threads, args.svg.as_deref())?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report::json(&totals))?);
    } else if args.csv {
        print!("{}", report::csv(&totals));
    } else if ui.quiet {
        // -q: only the files that failed or could not be read.
        print!("{}", report::problems(&totals));
    } else {
        print!("{}", report::text(&totals));
    }
    if let Some(svg) = &args.svg {
        crate::destination::write_output(svg, report::svg(&totals.all()).as_bytes(), args.force)?;
    }
    if args.csv {
        // The text and JSON reports name them; a CSV table has no place for them.
        for (path, why) in totals.failed.iter().chain(&totals.unreadable) {
            eprintln!("note: {} is not counted: {why}", crate::input::shown(path));
        }
    }
    Ok(if !totals.unreadable.is_empty() {
        ExitCode::from(EXIT_BAD_INPUT)
    } else if !totals.failed.is_empty() {
        ExitCode::from(EXIT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}
