//! `twenty48 inspect`: what a log file holds, without replaying it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use serde_json::json;
use twenty48_engine::tile_value;
use twenty48_movelog::MAGIC;

use crate::input;
use crate::rules_args::rules_name;
use crate::style::{count, Ui};
use crate::view;

/// Inspect a log: header, rules, claims and sizes, as read from the file (no replay; use
/// `verify` to check the claims).
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 inspect game.t48
  twenty48 inspect game.t48 --json
  twenty48 inspect - < game.t48

`-` reads the log from standard input. With -q the text is not printed (--json still is):
the exit status says whether the file is a valid log.

JSON shape (--json; docs/schema/inspect.json): {schema_version, file, bytes, format_version,
rules: {preset, size, four_chance: [p, q], opening, win: {tile, exponent, ends_game} | null,
scoring}, seed, rng, moves, moves_bytes, checkpoint_interval, checkpoints (a count),
complete, hints, claims: {moves, score, max_tile, hash, status}}")]
pub struct InspectArgs {
    /// The log to inspect, `-` for standard input
    pub file: PathBuf,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: InspectArgs, ui: &Ui) -> Result<ExitCode> {
    // One read: the size shown is that of the bytes decoded.
    let bytes = input::read_log_file(&args.file)?;
    // The moves are not unpacked: nothing here grows with them.
    let log = input::decode_packed(&args.file, &bytes)?;
    let c = &log.claims;
    let moves_bytes = log.packed_moves().len();
    if args.json {
        let doc = json!({
            "schema_version": view::SCHEMA_VERSION,
            "file": args.file.display().to_string(),
            "bytes": bytes.len(),
            "format_version": log.format_version,
            "rules": view::rules_json(&log.rules),
            "seed": log.seed,
            "rng": twenty48_engine::RNG_NAME,
            "moves": log.move_count(),
            "moves_bytes": moves_bytes,
            "checkpoint_interval": log.checkpoint_interval,
            "checkpoints": log.checkpoint_count(),
            "complete": log.complete,
            "hints": log.hinted,
            "claims": {
                "moves": c.move_count,
                "score": c.score,
                "max_tile": tile_value(c.max_exponent),
                "hash": format!("{:016x}", c.final_hash),
                "status": c.status.name(),
            },
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(ExitCode::SUCCESS);
    }
    if ui.quiet {
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "file:        {} ({})",
        input::name(&args.file),
        count(bytes.len() as u64, "byte", "bytes")
    );
    println!(
        "format:      twenty48 move log (magic {}), version {}",
        MAGIC.map(|b| format!("{b:02x}")).join(" "),
        log.format_version
    );
    println!("rules:       {} ({})", rules_name(&log.rules), log.rules);
    println!(
        "seed:        {} (rng {})",
        log.seed,
        twenty48_engine::RNG_NAME
    );
    println!(
        "moves:       {} ({} packed, 2 bits each)",
        log.move_count(),
        count(moves_bytes as u64, "byte", "bytes")
    );
    println!(
        "checkpoints: {} ({})",
        log.checkpoint_count(),
        match log.checkpoint_interval {
            0 => "none stored".to_string(),
            1 => "after every move".to_string(),
            k => format!("every {k} moves"),
        }
    );
    println!(
        "claims:      {}, score {}, max tile {}, {}, hash {:016x}",
        count(c.move_count, "move", "moves"),
        c.score,
        twenty48_engine::TileName(c.max_exponent),
        c.status,
        c.final_hash
    );
    println!(
        "complete:    {}",
        if log.complete {
            "yes"
        } else {
            "no (a partial log: the moves are a certain beginning of the game)"
        }
    );
    if log.hinted {
        println!("hints:       shown (the player saw the bot's moves: not an unaided game)");
    }
    Ok(ExitCode::SUCCESS)
}
