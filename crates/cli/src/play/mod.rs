//! `twenty48 play`: play in the terminal; every game is recorded, move by move, crash-safe.
//!
//! Each move is appended to a journal beside the target file (`game.t48.journal`) and synced
//! before the next key is read. A finished (or quit) game is written atomically as a normal
//! `.t48` file and its journal removed. A journal left by a killed session is offered for
//! resuming at the next start; `twenty48 recover` turns one into a `.t48` file.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use crossterm::event::Event;
use twenty48_engine::{tile_value, Rules, Status};
use twenty48_movelog::{write_free_except, Recorder, DEFAULT_CHECKPOINT_INTERVAL};
use twenty48_tui::{
    action, journal_path, render_play, BestScores, BoardView, ColorMode, Flow, Journal,
    JournalError, PlayView, Step, Terminal,
};

use crate::rules_args::{rules_name, RulesArgs};

mod screen;

pub(crate) use screen::draw_fitted;
use screen::{animate, ask, Answer, Still};

/// Play 2048 in the terminal; the game is recorded to a .t48 file as you play.
///
/// Arrow keys or WASD move; Q asks before quitting; Ctrl-C saves and leaves at once. Every
/// move is on disk (in FILE.journal) before the next key is read, so a closed terminal or a
/// power cut loses at most the move being made; the next `play` offers to resume it.
/// Best scores are kept per rule set in the data directory.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  twenty48 play
  twenty48 play --rules console --seed 42 -o game.t48
  twenty48 play --size 5 --win none

Files:
  Without -o, games are saved as <data dir>/games/game-<time>-<seed>.t48.
  The data directory is --data-dir, else $TWENTY48_DATA_DIR, else $XDG_DATA_HOME/twenty48,
  else ~/.local/share/twenty48 (on Windows: %APPDATA%\\twenty48). Best scores:
  <data dir>/best-scores.txt.

Colours follow the original game; NO_COLOR or TERM=dumb turn them off.")]
pub struct PlayArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Game seed; drawn from the operating system when omitted
    #[arg(long)]
    pub seed: Option<u64>,
    /// Where to save the game (a further game goes to FILE-2.t48, ...)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite the output file if it is a regular file (never a FIFO, device, directory,
    /// socket or symbolic link)
    #[arg(long)]
    pub force: bool,
    /// Data directory for best scores and games saved without -o
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Store a checkpoint hash every K moves (0: none)
    #[arg(long, value_name = "K", default_value_t = DEFAULT_CHECKPOINT_INTERVAL)]
    pub checkpoint_interval: u32,
    /// Show each move at once, without the slide, merge and spawn animation
    #[arg(long)]
    pub no_animation: bool,
    /// Show the expectimax bot's move under the board. The saved game says hints were shown
    /// (format version 2), so it is never taken for an unaided game
    #[arg(long)]
    pub hint: bool,
}

/// What a play session needs; `record` with no move source on a terminal makes one too.
pub struct Session {
    pub rules: Rules,
    pub seed: Option<u64>,
    pub output: Option<PathBuf>,
    pub force: bool,
    pub data_dir: Option<PathBuf>,
    pub checkpoint_interval: u32,
    /// Tiles slide, merge and appear in steps.
    pub animation: bool,
    /// The screen's colours (`--color`, the environment).
    pub colors: ColorMode,
    /// Show the bot's move (new games are then recorded as hinted).
    pub hint: bool,
}

pub fn run(args: PlayArgs, ui: &crate::style::Ui) -> Result<ExitCode> {
    run_session(Session {
        rules: args.rules.resolve()?,
        seed: args.seed,
        output: args.output,
        force: args.force,
        data_dir: args.data_dir,
        checkpoint_interval: args.checkpoint_interval,
        animation: !args.no_animation,
        colors: ui.screen_colors(),
        hint: args.hint,
    })
}

/// Whether stdin and stdout are both terminals.
pub fn on_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

pub fn draw_seed() -> Result<u64> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("cannot draw a seed from the operating system: {e}"))?;
    Ok(u64::from_le_bytes(bytes))
}

/// `game.t48`, else `game-2.t48`, `game-3.t48`, ...: the first that exists neither as a file
/// nor as a journal.
fn free_path(base: &Path) -> PathBuf {
    let taken = |p: &Path| p.exists() || journal_path(p).exists();
    (1..)
        .map(|n| twenty48_movelog::free_name(base, n))
        .find(|p| !taken(p))
        .expect("some number is free")
}

/// The target of a journal: its path without `.journal`.
pub fn journal_target(journal: &Path) -> Option<PathBuf> {
    let name = journal.file_name()?.to_str()?;
    let target = name.strip_suffix(".journal")?;
    (!target.is_empty()).then(|| journal.with_file_name(target))
}

/// The unfinished games a session offers to resume: with `-o FILE`, the journals of FILE
/// and of the further games of its sessions (FILE-2.t48, ...); else every journal in the
/// data directory's games.
fn pending_journals(session: &Session, games_dir: &Path) -> Vec<PathBuf> {
    if let Some(out) = &session.output {
        let stem = out
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let ext = out
            .extension()
            .map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
        let dir = out.parent().filter(|p| !p.as_os_str().is_empty());
        let is_family = |name: &str| {
            let Some(target) = name.strip_suffix(".journal") else {
                return false;
            };
            let Some(rest) = target
                .strip_prefix(stem.as_str())
                .and_then(|r| r.strip_suffix(ext.as_str()))
            else {
                return false;
            };
            rest.is_empty()
                || rest
                    .strip_prefix('-')
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        let mut found: Vec<PathBuf> = fs::read_dir(dir.unwrap_or(Path::new(".")))
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.file_name().to_str().is_some_and(is_family))
                    .map(|e| match dir {
                        Some(d) => d.join(e.file_name()),
                        None => PathBuf::from(e.file_name()),
                    })
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        return found;
    }
    let mut found: Vec<PathBuf> = fs::read_dir(games_dir)
        .map(|dir| {
            dir.flatten()
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().ends_with(".t48.journal"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// One game being played: its recorder, journal and target.
struct Current {
    recorder: Recorder,
    journal: Option<Journal>,
    target: PathBuf,
    /// Whether an existing file at `target` may be replaced (--force for the first game).
    replace: bool,
    /// Whether the player is shown hints in this game (its log then says so).
    hinted: bool,
    /// Whether moves of this game were lost (its journal is damaged): it is saved as a
    /// partial log, never played on.
    partial: bool,
}

/// Lines printed after the terminal is restored.
#[derive(Default)]
struct Report {
    saved: Vec<String>,
    notes: Vec<String>,
}

fn save(current: &mut Current, report: &mut Report) -> Result<()> {
    let Some(journal) = current.journal.take() else {
        return Ok(());
    };
    let mut log = current.recorder.finish();
    log.hinted = current.hinted;
    log.complete = !current.partial;
    if log.moves.is_empty() && !current.partial {
        journal
            .remove()
            .context("cannot remove the journal of an empty game")?;
        return Ok(());
    }
    let bytes = log.encode();
    if current.replace {
        crate::destination::write_output(&current.target, &bytes, true)?;
    } else {
        // Never replace a file: if the name is taken (even since the game began, or by
        // another game's journal), the game goes to the next free name, and the player is
        // told.
        let wanted = current.target.clone();
        let journal_of_another = |p: &Path| p != wanted && journal_path(p).exists();
        let placed = write_free_except(&wanted, &bytes, &journal_of_another)?;
        current.target = placed.path().to_path_buf();
        if current.target != wanted {
            report.notes.push(format!(
                "{} already exists and is left as it is; the game is saved as {}",
                crate::input::shown(&wanted),
                crate::input::shown(&current.target)
            ));
        }
    }
    journal.remove().context("the game is saved")?;
    report
        .saved
        .push(crate::view::log_summary("recorded", &log, &current.target));
    Ok(())
}

/// Exit status when the terminal goes away: as for the hang-up signal.
const EXIT_TERMINAL_GONE: u8 = 130;

/// Leaves after the terminal went away: every move is in the journal, which stays for the
/// next `play` or `twenty48 recover`. Nothing is drawn or asked any more.
fn terminal_gone(term: Terminal, journal: Option<&Path>) -> Result<ExitCode> {
    drop(term);
    use std::io::Write;
    let kept = journal.map_or(String::new(), |j| {
        format!("; {} is kept", crate::input::shown(j))
    });
    let _ = writeln!(
        std::io::stderr(),
        "twenty48: the terminal went away{kept} (every move is in it)"
    );
    Ok(ExitCode::from(EXIT_TERMINAL_GONE))
}

pub fn run_session(session: Session) -> Result<ExitCode> {
    if !on_terminal() {
        bail!("play needs a terminal on stdin and stdout (to record without one, use twenty48 record --moves, --moves-file or --bot)");
    }
    let data_dir = match &session.data_dir {
        Some(d) => d.clone(),
        None => twenty48_tui::data_dir(|name| std::env::var(name).ok()).context(format!(
            "no data directory for best scores: set {}, or give --data-dir",
            twenty48_tui::DATA_DIR_VARS
        ))?,
    };
    let games_dir = data_dir.join("games");
    let (mut best, problem) = BestScores::load(&data_dir);
    let mut report = Report::default();
    let mut note: Option<String> = problem.map(|p| p.to_string());
    if let Some(n) = &note {
        report.notes.push(n.clone());
    }
    // An existing FILE is refused (without --force) unless an unfinished game of FILE's
    // sessions is there to resume.
    let pending = pending_journals(&session, &games_dir);
    if let Some(out) = &session.output {
        if pending.is_empty() {
            crate::destination::check_output(out, session.force)?;
        }
    }
    // Every unfinished game is opened (and its journal locked) before the terminal is
    // taken: a journal another session is playing into is never touched.
    let mut opened = Vec::new();
    for journal in pending {
        let Some(target) = journal_target(&journal) else {
            continue;
        };
        match Journal::resume(&journal) {
            Ok((journal, recovered)) => opened.push((journal, recovered, target)),
            Err(e @ JournalError::InUse { .. }) if session.output.is_some() => return Err(e.into()),
            Err(e @ JournalError::InUse { .. }) => report.notes.push(e.to_string()),
            Err(e) => report
                .notes
                .push(format!("{e}; left as it is (see twenty48 recover)")),
        }
    }
    let mut term = Terminal::enter().context("cannot set up the terminal")?;
    term.set_colors(session.colors);
    let mut current = None;
    for (journal, recovered, target) in opened {
        let log = &recovered.log;
        let mut lines = vec![
            "twenty48".into(),
            String::new(),
            format!(
                "An unfinished game was found: {}",
                crate::input::shown(journal.path())
            ),
            format!(
                "{} rules, seed {}, {}, score {}",
                rules_name(&log.rules),
                log.seed,
                crate::style::count(log.claims.move_count, "move", "moves"),
                log.claims.score
            ),
            String::new(),
        ];
        match &recovered.damage {
            // Moves after the damage are lost: the game is saved as the partial log it is,
            // never played on as if they had not been made.
            Some(d) => lines.extend([
                format!("Its journal is damaged: {d}."),
                format!(
                    "It is saved as a partial game, {}. [Y/N] to go on",
                    crate::input::shown(&target)
                ),
            ]),
            None => lines.push(format!(
                "Resume it? [Y/N]  (N saves it as {} and starts a new game)",
                crate::input::shown(&target)
            )),
        }
        let resume = match ask(&mut term, &lines)? {
            Answer::Yes => recovered.damage.is_none(),
            Answer::No => false,
            Answer::Leave => {
                // Ctrl-C: leave at once, the journal as it is.
                drop(term);
                eprintln!(
                    "note: {} is left as it is",
                    crate::input::shown(journal.path())
                );
                return Ok(ExitCode::SUCCESS);
            }
            Answer::Gone => return terminal_gone(term, Some(journal.path())),
        };
        if let Some(d) = &recovered.damage {
            report.notes.push(format!(
                "{}: {d}; its moves up to there are saved as a partial game",
                crate::input::shown(journal.path())
            ));
        }
        let mut recorder = Recorder::new(recovered.log.rules, recovered.log.seed)?
            .with_checkpoint_interval(recovered.log.checkpoint_interval);
        for &dir in &recovered.log.moves {
            recorder.play(dir)?;
        }
        let mut game = Current {
            recorder,
            journal: Some(journal),
            target: target.clone(),
            replace: false,
            hinted: recovered.log.hinted,
            partial: recovered.damage.is_some(),
        };
        if resume && session.hint && !game.hinted {
            // Its journal says it began unaided, and it cannot say otherwise later.
            note = Some("No hints in this game: it was begun without them.".into());
        }
        if resume && game.recorder.game().status() == Status::Playing {
            current = Some(game);
            break;
        }
        save(&mut game, &mut report)?;
    }
    let mut seed = session.seed;
    let mut first_output = session.output.clone();
    let new_game = |seed: Option<u64>, output: Option<PathBuf>, replace: bool| -> Result<Current> {
        let seed = match seed {
            Some(s) => s,
            None => draw_seed()?,
        };
        let target = match output {
            Some(path) => path,
            None => {
                // The error names the directory.
                twenty48_movelog::create_dirs(&games_dir)?;
                let secs = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                free_path(&games_dir.join(format!("game-{secs}-{seed}.t48")))
            }
        };
        let recorder = Recorder::new(session.rules, seed)
            .context("cannot start the game")?
            .with_checkpoint_interval(session.checkpoint_interval);
        let journal = Journal::create_with_hints(
            &journal_path(&target),
            session.rules,
            seed,
            session.checkpoint_interval,
            session.hint,
        )?;
        Ok(Current {
            recorder,
            journal: Some(journal),
            target,
            replace,
            hinted: session.hint,
            partial: false,
        })
    };
    let mut current = match current {
        Some(c) => c,
        None => {
            let replace = session.force && report.saved.is_empty();
            let out = first_output
                .take()
                .map(|o| if replace { o } else { free_path(&o) });
            new_game(seed.take(), out, replace)?
        }
    };
    let mut flow = Flow::new();
    let mut gained = 0u64;
    // A key that cut an animation short: handled next, before reading another.
    let mut pending: Option<Event> = None;
    let mut hint = crate::hint::Hint::default();
    loop {
        let game = current.recorder.game();
        let rules = *game.rules();
        let cells = game.cells();
        let stored = best.best(&rules);
        let shown = (session.hint && current.hinted)
            .then(|| hint.line(game, note.as_deref()))
            .flatten();
        let view = PlayView {
            board: BoardView {
                size: rules.size,
                exponents: cells.exponents(),
                marked: &[],
            },
            rules: &rules,
            seed: game.seed(),
            score: game.score(),
            gained,
            best: stored.max(game.score()),
            moves: game.move_count(),
            prompt: flow.prompt(),
            note: shown.as_deref().or(note.as_deref()),
        };
        draw_fitted(&mut term, &render_play(&view))?;
        let event = match pending.take() {
            Some(e) => e,
            None => match term.read_event()? {
                Some(e) => e,
                None => {
                    let journal = current.journal.as_ref().map(|j| j.path().to_path_buf());
                    return terminal_gone(term, journal.as_deref());
                }
            },
        };
        let Event::Key(key) = event else {
            continue;
        };
        match flow.key(action(key)) {
            Step::Nothing => {}
            Step::Leave => break,
            Step::Move(dir) => {
                let before = current.recorder.game().clone();
                let outcome = current.recorder.play(dir)?;
                if !outcome.moved {
                    continue;
                }
                if let Some(journal) = &mut current.journal {
                    journal.append(dir)?;
                }
                gained = outcome.gained;
                note = None;
                if session.animation {
                    pending = animate(
                        &mut term,
                        &before,
                        dir,
                        &Still::of(current.recorder.game(), gained, &best),
                    )?;
                }
                if outcome.reached_win && outcome.status == Status::Playing {
                    let tile = rules.win.map_or(0, |w| tile_value(w.exponent));
                    note = Some(format!("You made {tile}!"));
                }
                if outcome.status.is_finished() {
                    save(&mut current, &mut report)?;
                    let game = current.recorder.game();
                    if best.record(game.rules(), game.score()) {
                        if let Err(e) = best.save() {
                            report.notes.push(e.to_string());
                        }
                    }
                    note = report.saved.last().map(|s| format!("saved: {s}"));
                }
                flow.moved(outcome.status);
                if outcome.reached_win && outcome.status == Status::Playing {
                    flow.won();
                }
            }
            Step::NewGame => {
                // The game in play (a restart, or a win left for a new game) is saved first;
                // a finished one already is.
                save(&mut current, &mut report)?;
                let game = current.recorder.game();
                if best.record(game.rules(), game.score()) {
                    if let Err(e) = best.save() {
                        report.notes.push(e.to_string());
                    }
                }
                let out = session.output.as_deref().map(free_path);
                current = new_game(None, out, false)?;
                note = report.saved.last().map(|s| format!("saved: {s}"));
                gained = 0;
            }
        }
    }
    save(&mut current, &mut report)?;
    let game = current.recorder.game();
    if best.record(game.rules(), game.score()) {
        if let Err(e) = best.save() {
            report.notes.push(e.to_string());
        }
    }
    drop(term);
    for line in &report.saved {
        println!("{line}");
    }
    for n in &report.notes {
        eprintln!("note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_paths_skip_files_and_journals() {
        let dir = std::env::temp_dir().join(format!("t48-free-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let base = dir.join("game.t48");
        assert_eq!(free_path(&base), base);
        fs::write(&base, b"x").unwrap();
        fs::write(dir.join("game-2.t48.journal"), b"x").unwrap();
        assert_eq!(free_path(&base), dir.join("game-3.t48"));
        assert_eq!(
            journal_target(&dir.join("game-2.t48.journal")),
            Some(dir.join("game-2.t48"))
        );
        assert_eq!(journal_target(Path::new(".journal")), None);
        fs::remove_dir_all(&dir).unwrap();
    }
}
