//! `twenty48 analyse`: every move of a game rated by the expectimax bot (twenty48-analysis):
//! each move's chance of the next tile, its error against the best move, its class, the
//! spawns' luck, the game's error rate and where each tile's chance went.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;
use serde_json::{json, Value};
use twenty48_analysis::{
    counted, percent, points, Class, Luck, Position, Positions, Rater, Rating, Segment, Setting,
    Summary, DEFAULT_DEPTH, REAL_STAKE, THRESHOLDS,
};
use twenty48_engine::Direction;
use twenty48_verify::{verify, EngineChoice};

use crate::analyse_graph;
use crate::input::{self, EXIT_FAILED};
use crate::progress::Progress;
use crate::rules_args::rules_name;
use crate::style::{count, Ui};
use crate::view;

/// The version of `analyse --json`'s shape (docs/schema/analyse.json).
pub const ANALYSE_SCHEMA_VERSION: u32 = 3;

/// Positions rated per thread between two writes (and progress steps).
const BATCH: usize = 32;

/// The most moves `analyse` takes: about 100 minutes a core in the default setting. A log
/// whose header claims more is refused before its moves are read.
pub const MAX_ANALYSE_MOVES: u32 = 1_000_000;

/// The largest `--budget`: 16 times the default, about 100 ms a move and thread, so that a
/// 1000-move game is analysed within minutes on one core (a budget of u64::MAX would search
/// every move to the deepest depth, for hours).
pub const MAX_BUDGET: u64 = 16_000_000;

/// Analyse a game: every move rated by the expectimax bot, the mistakes found.
///
/// For each move, the bot searches the board before it and values every move that changes
/// it, as a chance: that the bot, playing on, reaches the next tile (twice the largest on the
/// board), from a curve fitted on the bot's games (docs/analysis.md gives its reliability).
/// A move's error is the chance it gives away against the best move; it is classed by it:
/// best, good, inaccuracy, mistake or blunder (only, when it was the one move that changed
/// the board). A spawn's luck is how far it moved the chance. For each tile: where its
/// chance started, the errors, the luck and where it ended, which add up. The error rate is
/// the chance given away over the chance at stake in the decisions with a real choice.
/// By default the search goes to depth 6, as the web page's does: the same numbers as the
/// page, every one an integer, the same on every machine.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 analyse game.t48
  twenty48 analyse game.t48 --all          # every move, not only the errors
  twenty48 analyse game.t48 --depth 3      # faster, shallower (default 6: the web page's)
  twenty48 analyse game.t48 --budget 1000000  # as the bot plays by default: slower, deeper
  twenty48 analyse game.t48 --json > analysis.json
  twenty48 analyse game.t48 --svg graph.svg  # the evaluation graph, errors marked

A log that fails verification is analysed up to its last move that verifies, and the
command says so and exits 1; an incomplete log (a game cut off) is analysed as far as it
goes. The analysis searches 4x4 boards only.

JSON shape (--json; docs/schema/analyse.json; chances in millionths): {schema_version, file,
rules, seed, depth (null with a budget), budget (null with --depth), moves, analysed,
complete, hinted, problem, thresholds: {inaccuracy, mistake, blunder, real_stake}, ratings:
[{move, played, best, tile, values: {up, right, down, left}, chances: {...}, legal, error,
stake, class}], summary: {accuracy, error_rate, chosen, mean_error, counts: {only, best,
good, inaccuracy, mistake, blunder, unrated}, errors, luck, worst: [move numbers], luckiest:
[{move, tile, luck}], unluckiest: [...], tiles: [{tile, first_move, last_move, start,
errors, luck, end}]}}")]
pub struct AnalyseArgs {
    /// The game to analyse, `-` for standard input
    pub file: PathBuf,
    /// Search within a budget of positions scored a move instead of a depth, as `record --bot
    /// expectimax --budget` (1 to 16000000; the bot's default, 1000000, about 6 ms a move
    /// and thread, is the calibration's): more is slower and sees further
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..=MAX_BUDGET))]
    pub budget: Option<u64>,
    /// The search's largest depth (1-8) [default: 6, the web page's: about 2 ms a move and
    /// thread]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=8))]
    pub depth: Option<u8>,
    /// Print every move's rating, not only the inaccuracies, mistakes and blunders
    #[arg(long)]
    pub all: bool,
    /// Print JSON (one document) instead of text
    #[arg(long, conflicts_with = "all")]
    pub json: bool,
    /// Also write the evaluation graph (the chance of the next tile before each move, the
    /// errors marked) as an SVG picture to FILE (`-`: standard output, instead of the text)
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    pub svg: Option<PathBuf>,
    /// With --svg: overwrite FILE if it is a regular file (never the game analysed)
    #[arg(long, requires = "svg")]
    pub force: bool,
    /// Worker threads (default: one per core; more than the cores run as many as the
    /// cores, each search's tables taking memory); the numbers are the same with any
    #[arg(long, value_name = "N", value_parser = input::jobs_parser())]
    pub jobs: Option<usize>,
}

/// A direction's name in the JSON (`up`, `right`, `down`, `left`).
fn dir_name(dir: Direction) -> &'static str {
    dir.name()
}

/// A share in tenths of a percent as a percentage with one decimal: `41.2%`.
fn tenths(tenths: u32) -> String {
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// The tile of exponent `target`.
fn tile(target: u8) -> u64 {
    1u64.checked_shl(u32::from(target)).unwrap_or(0)
}

/// A rating as the JSON object of docs/schema/analyse.json (the web page's too).
pub fn rating_json(r: &Rating) -> Value {
    let mut values = serde_json::Map::new();
    let mut chances = serde_json::Map::new();
    for dir in Direction::ALL {
        values.insert(dir_name(dir).into(), json!(r.value(dir)));
        chances.insert(dir_name(dir).into(), json!(r.chance(dir)));
    }
    json!({
        "move": r.move_number,
        "played": dir_name(r.played),
        "best": r.best.map(dir_name),
        "tile": (r.class != Class::Unrated).then(|| tile(r.target)),
        "values": values,
        "chances": chances,
        "legal": r.legal,
        "error": r.error,
        "stake": r.stake,
        "class": r.class.name(),
    })
}

fn summary_json(s: &Summary) -> Value {
    let mut counts = serde_json::Map::new();
    for class in Class::ALL {
        counts.insert(class.name().into(), json!(s.count(class)));
    }
    let luck = |l: &Luck| json!({"move": l.move_number, "tile": tile(l.target), "luck": l.luck});
    let segment = |g: &Segment| {
        json!({
            "tile": tile(g.target),
            "first_move": g.first_move,
            "last_move": g.last_move,
            "start": g.start,
            "errors": g.errors,
            "luck": g.luck,
            "end": g.end,
        })
    };
    json!({
        "accuracy": s.accuracy(),
        "error_rate": s.error_rate(),
        "chosen": s.chosen(),
        "mean_error": s.mean_error(),
        "counts": counts,
        "errors": s.errors(),
        "luck": s.luck(),
        "worst": s.worst().iter().map(|r| r.move_number).collect::<Vec<_>>(),
        "luckiest": s.luckiest().iter().map(luck).collect::<Vec<_>>(),
        "unluckiest": s.unluckiest().iter().map(luck).collect::<Vec<_>>(),
        "tiles": s.segments().iter().map(segment).collect::<Vec<_>>(),
    })
}

fn rating_line(r: &Rating) -> String {
    let (Some(best), Some(before), Some(after)) = (r.best, r.before(), r.after()) else {
        return format!("move {}: {} (unrated)", r.move_number, r.played);
    };
    let chance = format!(
        "chance to reach {}: {} -> {}",
        tile(r.target),
        percent(before),
        percent(after)
    );
    if r.class == Class::Best || r.class == Class::Only {
        format!(
            "move {}: {}, {} ({chance})",
            r.move_number, r.played, r.class
        )
    } else {
        format!(
            "move {}: {}, best {best}: {chance}, {} points ({})",
            r.move_number,
            r.played,
            points(-i64::from(r.error)),
            r.class
        )
    }
}

/// A tile's line: `2048: 35.2% before move 801, errors -12.0, luck +76.8 points: reached
/// after move 1020`.
fn segment_line(g: &Segment) -> String {
    let end = match g.end {
        Some(_) if g.reached() => format!("reached after move {}", g.last_move),
        Some(e) => format!("{} after move {}", percent(e), g.last_move),
        None => "open".to_string(),
    };
    format!(
        "{}: {} before move {}, errors {}, luck {} points: {end}",
        tile(g.target),
        percent(g.start),
        g.first_move,
        points(-(g.errors as i64)),
        points(g.luck)
    )
}

fn luck_line(l: &Luck) -> String {
    format!(
        "the spawn after move {}: {} points for {}",
        l.move_number,
        points(l.luck),
        tile(l.target)
    )
}

/// `value` pretty-printed (docs/json.md: two-space indents) as the value of a field at the
/// top level of a document: its lines after the first indented by two more spaces.
fn pretty_field(key: &str, value: &Value) -> String {
    let text = serde_json::to_string_pretty(value).expect("a JSON value prints");
    format!("  {}: {}", Value::from(key), text.replace('\n', "\n  "))
}

/// Rates `positions` on `raters.len()` threads, in order.
fn rate_all(raters: &mut [Rater], positions: &[Position]) -> Vec<Rating> {
    if raters.len() == 1 || positions.len() < 2 {
        return positions.iter().map(|p| raters[0].rate(p)).collect();
    }
    let per = positions.len().div_ceil(raters.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = raters
            .iter_mut()
            .zip(positions.chunks(per))
            .map(|(rater, chunk)| {
                scope.spawn(move || chunk.iter().map(|p| rater.rate(p)).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a rating thread does not panic"))
            .collect()
    })
}

pub fn run(args: AnalyseArgs, ui: &Ui) -> Result<ExitCode> {
    // Standard output closed (`>&-`): every write would vanish and the exit say success.
    crate::output::require_stdout()?;
    if let Some(out) = args.svg.as_deref().filter(|o| !input::is_stdio(o)) {
        crate::destination::check_not_input(out, &[&args.file])?;
        crate::destination::check_output(out, args.force)?;
    }
    let bytes = input::read_log_file_of_moves(&args.file, MAX_ANALYSE_MOVES, "the analysis")?;
    let log = input::decode_packed(&args.file, &bytes)?;
    let name = input::name(&args.file);
    if log.rules.size != 4 {
        bail!(
            "{name}: cannot analyse a {0}x{0} game: the analysis rates moves on 4x4 boards only (the bot searches those)",
            log.rules.size
        );
    }
    // The moves analysed: up to the last that verifies.
    let report = verify(&log, EngineChoice::Fast);
    let problem = report.problem.as_ref().map(|p| p.to_string());
    // A checkpoint that disagrees stops the replay after moves that all play: those are
    // analysed (the game diverged somewhere before the checkpoint, not at it).
    let verified = report.replayed_moves(log.move_count());
    // More threads than cores rate no faster, and each holds its search's tables.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = input::jobs(args.jobs).min(cores).max(1);
    let setting = match (args.depth, args.budget) {
        (Some(depth), _) => Setting::Depth(depth),
        (None, Some(budget)) => Setting::Budget(budget),
        // The page's setting: the CLI and the page give the same numbers by default.
        (None, None) => Setting::Depth(DEFAULT_DEPTH),
    };
    let mut raters: Vec<Rater> = (0..jobs)
        .map(|_| Rater::with_setting(&log.rules, setting))
        .collect();
    let mut out = crate::output::stdout();
    let mut summary = Summary::new();
    // The graph's points, when it is drawn: a few bytes a move.
    let mut graph: Vec<analyse_graph::Point> = Vec::new();
    let svg_to_stdout = args.svg.as_deref().is_some_and(input::is_stdio);
    let text = !args.json && !ui.quiet && !svg_to_stdout;
    // The JSON document's fields after "ratings" (in key order, as serde_json writes them).
    let mut tail: Vec<(String, Value)> = Vec::new();
    let progress = Progress::counter(u64::from(verified), "analysing", "moves");

    if args.json {
        let head = json!({
            "schema_version": ANALYSE_SCHEMA_VERSION,
            "file": args.file.display().to_string(),
            "rules": view::rules_json(&log.rules),
            "seed": log.seed,
            "depth": match setting { Setting::Depth(d) => Some(d), _ => None },
            "budget": match setting { Setting::Budget(b) => Some(b), _ => None },
            "moves": log.move_count(),
            "analysed": verified,
            "complete": log.complete,
            "hinted": log.hinted,
            "problem": problem,
            "thresholds": {
                "inaccuracy": THRESHOLDS.inaccuracy,
                "mistake": THRESHOLDS.mistake,
                "blunder": THRESHOLDS.blunder,
                "real_stake": REAL_STAKE,
            },
        });
        // One pretty-printed document, its keys in order as in every other --json, written
        // as it goes: the fields before "ratings", the ratings as they are made, then the
        // rest with the summary (memory stays the same however long the game).
        writeln!(out, "{{")?;
        for (key, value) in head.as_object().expect("an object").iter() {
            if key.as_str() < "ratings" {
                writeln!(out, "{},", pretty_field(key, value))?;
            } else {
                tail.push((key.clone(), value.clone()));
            }
        }
        write!(out, "  \"ratings\": [")?;
    } else if text {
        writeln!(
            out,
            "{name}: {} rules, seed {}, {}{}; analysed at {setting}",
            rules_name(&log.rules),
            log.seed,
            count(log.move_count(), "move", "moves"),
            if log.complete {
                ""
            } else {
                " (incomplete log)"
            }
        )?;
        if log.hinted {
            writeln!(
                out,
                "a hinted game: hints were shown while it was played (play --hint)"
            )?;
        }
        if let Some(p) = &problem {
            writeln!(
                out,
                "the log does not verify ({p}): analysed its first {}",
                count(verified, "move", "moves")
            )?;
        }
    }

    let mut positions = Positions::new(log.rules, log.seed, log.moves().take(verified as usize))
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let mut first = true;
    let mut batch = Vec::with_capacity(BATCH * jobs);
    loop {
        batch.clear();
        for p in positions.by_ref().take(BATCH * jobs) {
            // Every move up to `verified` replays: verify said so.
            batch.push(p.map_err(|e| anyhow::anyhow!("{name}: {e}"))?);
        }
        if batch.is_empty() {
            break;
        }
        for r in rate_all(&mut raters, &batch) {
            summary.add(&r);
            if args.svg.is_some() {
                graph.extend(analyse_graph::Point::of(&r));
            }
            if args.json {
                let text =
                    serde_json::to_string_pretty(&rating_json(&r)).expect("a JSON value prints");
                write!(
                    out,
                    "{}\n    {}",
                    if first { "" } else { "," },
                    text.replace('\n', "\n    ")
                )?;
            } else if text && (args.all || r.class.is_error()) {
                writeln!(out, "{}", rating_line(&r))?;
            }
            first = false;
        }
        progress.inc(batch.len() as u64);
    }
    progress.finish();
    summary.finish(raters[0].standing(&positions.cells()));

    if args.json {
        writeln!(out, "{}],", if first { "" } else { "\n  " })?;
        tail.push(("summary".to_string(), summary_json(&summary)));
        tail.sort_by(|a, b| a.0.cmp(&b.0));
        let fields: Vec<String> = tail.iter().map(|(k, v)| pretty_field(k, v)).collect();
        writeln!(out, "{}\n}}", fields.join(",\n"))?;
    } else if text {
        write_summary(&mut out, &summary)?;
    }
    if let Some(path) = &args.svg {
        let picture = analyse_graph::svg(&graph, &name);
        if svg_to_stdout {
            out.write_all(picture.as_bytes())?;
        } else {
            crate::destination::write_output(path, picture.as_bytes(), args.force)?;
        }
    }
    out.flush()?;
    Ok(if problem.is_some() {
        ExitCode::from(EXIT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}

fn write_summary(out: &mut impl Write, summary: &Summary) -> std::io::Result<()> {
    let counts: Vec<String> = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
        Class::Only,
    ]
    .iter()
    .map(|&c| counted(summary.count(c), c))
    .collect();
    match (summary.error_rate(), summary.accuracy()) {
        (Some(rate), Some(accuracy)) => writeln!(
            out,
            "error rate {} of the chance at stake over {} with a real choice (accuracy {}); mean error {} points",
            tenths(rate),
            count(summary.chosen(), "decision", "decisions"),
            tenths(accuracy),
            {
                let m = summary.mean_error().unwrap_or(0);
                format!("{}.{:02}", m / 10_000, m / 100 % 100)
            },
        )?,
        _ => writeln!(out, "no decision with a real choice: no error rate")?,
    }
    writeln!(out, "{}", counts.join(", "))?;
    if summary.count(Class::Unrated) > 0 {
        writeln!(
            out,
            "{} unrated (a tile of 65536 or more on the board)",
            count(summary.count(Class::Unrated), "move", "moves")
        )?;
    }
    writeln!(
        out,
        "each tile's chance: start, errors, luck, end (points of chance):"
    )?;
    for g in summary.segments() {
        writeln!(out, "  {}", segment_line(g))?;
    }
    if !summary.worst().is_empty() {
        writeln!(out, "worst moves:")?;
        for r in summary.worst() {
            writeln!(out, "  {}", rating_line(r))?;
        }
    }
    for (title, list) in [
        ("luckiest spawns:", summary.luckiest()),
        ("unluckiest spawns:", summary.unluckiest()),
    ] {
        if !list.is_empty() {
            writeln!(out, "{title}")?;
            for l in list {
                writeln!(out, "  {}", luck_line(l))?;
            }
        }
    }
    Ok(())
}
