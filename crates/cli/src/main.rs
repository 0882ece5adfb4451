//! `twenty48`: record, replay, verify, diff and inspect deterministic 2048 games.
//! Runs on the host. One module per subcommand.

mod analyse;
mod analyse_graph;
mod bots;
mod completions;
mod destination;
mod diff;
mod hint;
mod input;
mod inspect;
mod output;
mod play;
mod ports;
mod progress;
mod pull;
mod record;
mod recover;
mod replay;
mod rules_args;
mod share;
mod stats;
mod style;
mod svg;
mod verify;
mod view;
mod watch;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Deterministic 2048: every game is a seed, a rule set and a list of moves.
///
/// Record games to compact `.t48` files, replay them bit for bit, verify what they claim,
/// find the first move where two games part, and pull games from an Arduino.
#[derive(Parser)]
#[command(
    name = "twenty48",
    version,
    propagate_version = true,
    disable_help_subcommand = true
)]
#[command(after_help = "\
Exit status:
  0  success (the game verifies, the games are identical)
  1  a game failed verification, or two games diverge
  2  an input could not be read or parsed, or the command line is wrong
  (play, recover, completions and man exit 0 unless they fail, then 2)

Examples:
  twenty48 record --seed 42 --bot greedy -o game.t48
  twenty48 replay game.t48 --final
  twenty48 verify fixtures/games
  twenty48 stats fixtures/games
  twenty48 diff game.t48 b.t48
  twenty48 play --rules console -o game.t48
  twenty48 replay game.t48 --watch
  twenty48 share game.t48 --open

Every command that reports takes --json; its shape is in that command's --help and in
docs/schema/ (JSON Schema). `-` is standard input or output wherever a file is named.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour the output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE
    /// forces it), always or never
    #[arg(long, value_enum, value_name = "WHEN", default_value_t, global = true)]
    color: style::ColorChoice,
    /// Print no summaries or notes on success; failures and errors are still printed, the
    /// exit status tells, and what was asked for (--json, --csv, a log or picture on `-`,
    /// a link, a page) is printed all the same
    #[arg(short, long, global = true)]
    quiet: bool,
}

#[derive(Subcommand)]
enum Command {
    Record(record::RecordArgs),
    Replay(replay::ReplayArgs),
    Verify(verify::VerifyArgs),
    Diff(diff::DiffArgs),
    Analyse(analyse::AnalyseArgs),
    Inspect(inspect::InspectArgs),
    Pull(pull::PullArgs),
    Ports(ports::PortsArgs),
    Play(play::PlayArgs),
    Stats(stats::StatsArgs),
    Recover(recover::RecoverArgs),
    Share(share::ShareArgs),
    Completions(completions::CompletionsArgs),
    Man(completions::ManArgs),
}

fn main() -> ExitCode {
    #[cfg(unix)]
    // SAFETY: setting a signal's action to the default at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    output::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // --help, --version and usage errors: clap prints them; a failed write is
            // reported like any other.
            let stream = if err.use_stderr() { "stderr" } else { "stdout" };
            return match err.print() {
                Ok(()) => u8::try_from(err.exit_code()).unwrap_or(2).into(),
                Err(io) => output::io_error(&io, stream),
            };
        }
    };
    output::guard(|| run(cli))
}

fn run(cli: Cli) -> ExitCode {
    let ui = style::Ui::new(cli.color, cli.quiet);
    let result = match cli.command {
        Command::Record(args) => record::run(args, &ui),
        Command::Analyse(args) => analyse::run(args, &ui),
        Command::Replay(args) => replay::run(args, &ui),
        Command::Verify(args) => verify::run(args, &ui),
        Command::Diff(args) => diff::run(args, &ui),
        Command::Inspect(args) => inspect::run(args, &ui),
        Command::Pull(args) => pull::run(args, &ui),
        Command::Ports(args) => ports::run(args, &ui),
        Command::Play(args) => play::run(args, &ui),
        Command::Stats(args) => stats::run(args, &ui),
        Command::Recover(args) => recover::run(args, &ui),
        Command::Share(args) => share::run(args, &ui),
        Command::Completions(args) => completions::completions(args, Cli::command()),
        Command::Man(args) => completions::man(args, Cli::command()),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            // A failed write to stdout that a command returned as an error.
            if let Some(code) = output::returned_failure() {
                return code;
            }
            if let Some(io) = err.downcast_ref::<io::Error>() {
                if io.kind() == io::ErrorKind::BrokenPipe {
                    return output::io_error(io, "stdout");
                }
            }
            // One sentence with its causes, never a backtrace.
            // A cause whose text its error already shows (a library error that prints its
            // source, e.g. a journal's) is not repeated.
            let mut message = err.to_string();
            for cause in err.chain().skip(1) {
                let cause = cause.to_string();
                if !message.ends_with(&cause) {
                    message.push_str(": ");
                    message.push_str(&cause);
                }
            }
            let _ = writeln!(io::stderr(), "twenty48: error: {message}");
            input::EXIT_BAD_INPUT.into()
        }
    }
}
