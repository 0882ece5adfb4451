//! `twenty48 record`: play a game from a move list or a bot and write it as a `.t48` log.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use twenty48_engine::{tile_value, Direction, Status};
use twenty48_movelog::{Recorder, DEFAULT_CHECKPOINT_INTERVAL};

use crate::bots::{make_bot, BotName, SearchArgs};
use crate::destination::{check_not_input, check_output, write_output};
use crate::input;
use crate::progress::Progress;
use crate::rules_args::RulesArgs;
use crate::style::{count, Ui};

/// Record a game to a .t48 file, from a move list or a bot.
///
/// Presses that do not change the board are skipped (they are not moves) and reported.
/// The file is written atomically: a crash never leaves half a file. With no move source
/// (no --moves, --moves-file or --bot) on a terminal, you play the game yourself, as with
/// `twenty48 play -o FILE`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 record --seed 42 --moves LURDLLUR -o game.t48
  twenty48 record --rules arduino --bot random --bot-seed 7 -o arduino.t48
  twenty48 record --seed 3 --bot expectimax --max-moves 200 -o best.t48   (about 6 ms a move)
  twenty48 record --seed 3 --bot expectimax --budget 4000000 --threads 2 --max-moves 20 -o d.t48
  twenty48 record --seed 3 --bot expectimax --depth 4 -o quick.t48
  twenty48 record --size 5 --scoring merges --four-chance 1/2 --moves-file moves.txt -o custom.t48
  echo LURD | twenty48 record --seed 1 --moves-file - -o - | twenty48 inspect -
  twenty48 record --seed 7 -o mine.t48       (no move source, on a terminal: you play)

Move lists are letters U, R, D, L (any case); spaces, commas and newlines are ignored.
`-` is standard input for --moves-file and standard output for -o (the summary then goes to
standard error).

JSON shape (--json; docs/schema/record.json): {schema_version, file, bytes, rules: {preset,
size, four_chance: [p, q], opening, win: {tile, exponent, ends_game} | null, scoring}, seed,
moves, score, max_tile, status, hash, skipped_presses: [input positions, 1-based],
ignored_after_end, ignored_after_limit}; with -o - it goes to standard error.")]
pub struct RecordArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Game seed; drawn from the operating system (and printed) when omitted
    #[arg(long)]
    pub seed: Option<u64>,
    /// Moves as letters U R D L, e.g. LURD
    #[arg(long, conflicts_with_all = ["moves_file", "bot"], value_name = "ULDR...")]
    pub moves: Option<String>,
    /// Read the moves from a file, `-` for standard input (same letters; at most 64 MiB, a
    /// longer file is refused)
    #[arg(long, value_name = "FILE", conflicts_with = "bot")]
    pub moves_file: Option<PathBuf>,
    /// Let a bot play
    #[arg(long, value_enum)]
    pub bot: Option<BotName>,
    /// The random bot's own seed, so a bot game is reproducible [default: the game seed]
    #[arg(long, requires = "bot")]
    pub bot_seed: Option<u64>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Stop after this many moves
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// Store a checkpoint hash every K moves (0: none)
    #[arg(long, value_name = "K", default_value_t = DEFAULT_CHECKPOINT_INTERVAL)]
    pub checkpoint_interval: u32,
    /// Output file, `-` for standard output
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Overwrite the output file if it is a regular file (never a FIFO, device, directory,
    /// socket or symbolic link)
    #[arg(long)]
    pub force: bool,
    /// Print the summary as JSON (shape in docs/schema/record.json)
    #[arg(long)]
    pub json: bool,
}

/// Presses that did not change the board, by their positions in the move list (from 1),
/// kept as runs: a 64 MiB list of presses against a wall is one run, not 67 million
/// numbers. Serialized as the list of positions, written as it goes.
#[derive(Default)]
struct SkippedPresses {
    /// (first position, length) of each run of consecutive positions.
    runs: Vec<(u64, u64)>,
    count: u64,
}

impl SkippedPresses {
    fn push(&mut self, position: u64) {
        self.count += 1;
        match self.runs.last_mut() {
            Some((first, len)) if *first + *len == position => *len += 1,
            _ => self.runs.push((position, 1)),
        }
    }

    fn positions(&self) -> impl Iterator<Item = u64> + '_ {
        self.runs
            .iter()
            .flat_map(|&(first, len)| first..first + len)
    }
}

impl serde::Serialize for SkippedPresses {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.positions())
    }
}

/// `record --json` (docs/schema/record.json), its fields in the order every other
/// document prints them (by name).
#[derive(serde::Serialize)]
struct Summary<'a> {
    bytes: usize,
    file: String,
    hash: String,
    ignored_after_end: usize,
    /// Presses of the list left unplayed when --max-moves was reached.
    ignored_after_limit: usize,
    max_tile: u64,
    moves: u32,
    rules: serde_json::Value,
    schema_version: u32,
    score: u64,
    seed: u64,
    skipped_presses: &'a SkippedPresses,
    status: &'static str,
}

/// Parses a move list: U R D L letters, any case; whitespace and commas ignored.
pub fn parse_moves(text: &str, source: &str) -> Result<Vec<Direction>> {
    let mut moves = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        for (col, ch) in line.chars().enumerate() {
            if ch.is_whitespace() || ch == ',' {
                continue;
            }
            match Direction::from_letter(ch) {
                Some(d) => moves.push(d),
                None => bail!(
                    "{source}, line {} column {}: {ch:?} is not a move (use U, R, D or L)",
                    line_no + 1,
                    col + 1
                ),
            }
        }
    }
    Ok(moves)
}

/// Refuses a bot's options that the bot asked for (or the lack of one) would ignore: a
/// game recorded with them must not look as if they had counted.
fn check_bot_options(args: &RecordArgs) -> Result<()> {
    let search = &args.search;
    let searching = [
        search.budget.map(|_| "--budget"),
        search.depth.map(|_| "--depth"),
        (search.threads != 1).then_some("--threads"),
    ];
    let given: Vec<&str> = searching.into_iter().flatten().collect();
    match args.bot {
        None => {
            if let Some(flag) = args
                .bot_seed
                .map(|_| "--bot-seed")
                .or(given.first().copied())
            {
                bail!("{flag} is a bot's option: give --bot too (without --bot, the moves come from the list or the player)");
            }
        }
        Some(bot) => {
            let name = match bot {
                BotName::Random => "random",
                BotName::Greedy => "greedy",
                BotName::Expectimax => "expectimax",
            };
            if args.bot_seed.is_some() && !matches!(bot, BotName::Random) {
                bail!("--bot-seed is the random bot's option; the {name} bot draws nothing (its game follows from --seed alone)");
            }
            if let (Some(flag), false) = (given.first(), matches!(bot, BotName::Expectimax)) {
                bail!("{flag} is the expectimax bot's option; the {name} bot has none (use --bot expectimax)");
            }
        }
    }
    Ok(())
}

pub fn run(args: RecordArgs, ui: &Ui) -> Result<ExitCode> {
    let rules = args.rules.resolve()?;
    check_bot_options(&args)?;
    if let Some(list) = &args.moves_file {
        // --force or not, the move list is never replaced by the game: standard input may
        // be the output file too (`--moves-file - -o m.txt < m.txt`).
        check_not_input(&args.output, &[list])?;
    }
    check_output(&args.output, args.force)?;
    // The move list first: a bad list fails before a seed is drawn and printed.
    let list = if args.bot.is_some() {
        None
    } else {
        Some(match (&args.moves, &args.moves_file) {
            (Some(text), _) => parse_moves(text, "--moves")?,
            (None, Some(path)) => {
                let text = input::text(&input::read(path)?, path)?;
                parse_moves(&text, &input::name(path))?
            }
            (None, None) if crate::play::on_terminal() => {
                // No move source on a terminal: the player is the move source.
                return crate::play::run_session(crate::play::Session {
                    rules,
                    seed: args.seed,
                    output: Some(args.output),
                    force: args.force,
                    data_dir: None,
                    checkpoint_interval: args.checkpoint_interval,
                    animation: true,
                    colors: ui.screen_colors(),
                    hint: false,
                });
            }
            (None, None) => bail!(
                "nothing to play: give --moves, --moves-file or --bot, or run on a terminal to play yourself (see twenty48 record --help)"
            ),
        })
    };
    let seed = match args.seed {
        Some(s) => s,
        None => {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes).map_err(|e| {
                anyhow::anyhow!("cannot draw a seed from the operating system: {e}")
            })?;
            let s = u64::from_le_bytes(bytes);
            if !ui.quiet {
                eprintln!("seed: {s}");
            }
            s
        }
    };
    let max_moves = args.max_moves.unwrap_or(u32::MAX);
    let mut recorder = Recorder::new(rules, seed)
        .context("cannot start the game")?
        .with_checkpoint_interval(args.checkpoint_interval);
    let mut skipped = SkippedPresses::default();
    let mut ignored_after_end = 0usize;
    let mut ignored_after_limit = 0usize;
    if let Some(moves) = list {
        for (i, &dir) in moves.iter().enumerate() {
            if recorder.game().move_count() >= max_moves {
                ignored_after_limit = moves.len() - i;
                break;
            }
            if recorder.game().status().is_finished() {
                ignored_after_end = moves.len() - i;
                break;
            }
            if !recorder.play(dir)?.moved {
                skipped.push(i as u64 + 1);
            }
        }
    } else if let Some(bot) = args.bot {
        let mut bot = make_bot(bot, &rules, args.bot_seed.unwrap_or(seed), &args.search)?;
        // A bot game can take minutes (expectimax, deep): its moves and score so far, on a
        // terminal only.
        let progress = (!ui.quiet)
            .then(|| Progress::spinner("recording", "moves"))
            .filter(Progress::is_visible);
        while recorder.game().status() == Status::Playing
            && recorder.game().move_count() < max_moves
        {
            let Some(dir) = bot.choose(recorder.game()) else {
                break;
            };
            recorder.play(dir)?;
            if let Some(p) = &progress {
                p.inc(1);
                p.message(format!("score {}", recorder.game().score()));
            }
        }
        if let Some(p) = progress {
            p.finish();
        }
    }
    let log = recorder.finish();
    let bytes = log.encode();
    write_output(&args.output, &bytes, args.force)?;
    let to_stdout = crate::input::is_stdio(&args.output);
    if args.json {
        let doc = Summary {
            schema_version: crate::view::SCHEMA_VERSION,
            file: args.output.display().to_string(),
            bytes: bytes.len(),
            rules: crate::view::rules_json(&rules),
            seed,
            moves: log.claims.move_count,
            score: log.claims.score,
            max_tile: tile_value(log.claims.max_exponent),
            status: log.claims.status.name(),
            hash: format!("{:016x}", log.claims.final_hash),
            skipped_presses: &skipped,
            ignored_after_end,
            ignored_after_limit,
        };
        crate::view::print_json(&doc, to_stdout)?;
        return Ok(ExitCode::SUCCESS);
    }
    if ui.quiet {
        return Ok(ExitCode::SUCCESS);
    }
    if skipped.count > 0 {
        let list: Vec<String> = skipped
            .positions()
            .take(10)
            .map(|n| n.to_string())
            .collect();
        let presses = count(skipped.count, "press", "presses");
        eprintln!(
            "note: {presses} did not change the board and {} not recorded (input {} {}{})",
            if skipped.count == 1 { "was" } else { "were" },
            if skipped.count == 1 {
                "position"
            } else {
                "positions"
            },
            list.join(", "),
            if skipped.count > 10 { ", ..." } else { "" }
        );
    }
    if ignored_after_end > 0 {
        eprintln!(
            "note: the game ended ({}); the last {} {} ignored",
            log.claims.status,
            count(ignored_after_end as u64, "press", "presses"),
            if ignored_after_end == 1 {
                "was"
            } else {
                "were"
            }
        );
    }
    if ignored_after_limit > 0 {
        eprintln!(
            "note: --max-moves {max_moves} was reached; the last {} {} not played",
            count(ignored_after_limit as u64, "press", "presses"),
            if ignored_after_limit == 1 {
                "was"
            } else {
                "were"
            }
        );
    }
    let line = format!(
        "{} ({})",
        crate::view::log_summary("recorded", &log, &args.output),
        count(bytes.len() as u64, "byte", "bytes")
    );
    // With `-o -` standard output holds the log: the summary goes to standard error.
    if to_stdout {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}
