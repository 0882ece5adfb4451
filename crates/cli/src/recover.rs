//! `twenty48 recover`: turn the journal of an interrupted game into a normal `.t48` file.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;
use twenty48_engine::tile_value;
use twenty48_tui::{journal_path, LockedJournal};

use crate::play::journal_target;

/// Recover an interrupted game: write its journal (FILE.t48.journal) as a .t48 file.
///
/// `play` journals every move before reading the next key; when a session dies, the journal
/// stays beside the file the game was meant for. Every move up to the first damaged byte is
/// recovered (damage is reported, and the game is then written as a partial log: the moves
/// after the damage are lost); the journal is then removed unless --keep is given, or the
/// game is written to standard output (`-o -`), whose reader may never save it.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 recover game.t48.journal -o saved.t48 --keep --json
  twenty48 recover game.t48            (the same as game.t48.journal: writes game.t48)

JSON shape (--json; docs/schema/recover.json): {schema_version, journal, output, rules,
seed, moves, score, max_tile, hash, status, complete, damage: null | {offset, dropped,
reason}}")]
pub struct RecoverArgs {
    /// The journal, or the game file it belongs to
    pub file: PathBuf,
    /// Where to write the game [default: the journal's name without .journal]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite the output file if it is a regular file (never a FIFO, device, directory,
    /// socket or symbolic link)
    #[arg(long)]
    pub force: bool,
    /// Keep the journal after writing the game
    #[arg(long)]
    pub keep: bool,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: RecoverArgs, ui: &crate::style::Ui) -> Result<ExitCode> {
    let journal = if args.file.to_string_lossy().ends_with(".journal") {
        args.file.clone()
    } else {
        journal_path(&args.file)
    };
    // Read under the journal's lock, held until the journal is removed: a game that a
    // running `play` holds is refused, and no session can take it up meanwhile.
    let (locked, recovered) = LockedJournal::open(&journal)?;
    let output = match args.output.or_else(|| journal_target(&journal)) {
        Some(o) => o,
        None => bail!(
            "{} has no name to derive the game file from; give -o",
            crate::input::shown(&journal)
        ),
    };
    // Writing the game over its own journal would lose both (the journal is removed next).
    crate::destination::check_not_input(&output, &[&journal])?;
    crate::destination::check_output(&output, args.force)?;
    let log = &recovered.log;
    crate::destination::write_output(&output, &log.encode(), args.force)?;
    // A game written to standard output cannot be known to have arrived anywhere (a closed
    // stdout is /dev/null to the process, a pipe's reader may never read it): the journal
    // stays.
    let to_stdout = crate::input::is_stdio(&output);
    if to_stdout && !args.keep && !ui.quiet && !args.json {
        eprintln!(
            "note: {} is kept: a game written to standard output is not known to be saved (remove the journal once it is)",
            crate::input::shown(&journal)
        );
    }
    if !args.keep && !to_stdout {
        locked.remove().with_context(|| {
            format!(
                "{} is written, but cannot remove {}",
                crate::input::shown(&output),
                crate::input::shown(&journal)
            )
        })?;
    }
    if args.json {
        let doc = json!({
            "schema_version": crate::view::SCHEMA_VERSION,
            "journal": journal.display().to_string(),
            "output": output.display().to_string(),
            "rules": crate::view::rules_json(&log.rules),
            "seed": log.seed,
            "moves": log.claims.move_count,
            "score": log.claims.score,
            "max_tile": tile_value(log.claims.max_exponent),
            "hash": format!("{:016x}", log.claims.final_hash),
            "status": log.claims.status.name(),
            "complete": log.complete,
            "damage": recovered.damage.as_ref().map(|d| json!({"offset": d.offset, "dropped": d.dropped, "reason": d.reason})),
        });
        // With `-o -` standard output holds the game: the JSON goes to standard error.
        crate::view::print_json(&doc, to_stdout)?;
    } else if !ui.quiet {
        if let Some(d) = &recovered.damage {
            eprintln!(
                "note: {}: {d}; the moves before it are written as a partial game (the moves after the damage are lost)",
                crate::input::shown(&journal)
            );
        }
        let line = crate::view::log_summary("recovered", log, &output);
        if to_stdout {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
