//! `replay --svg` and `diff --svg`: boards as SVG pictures for bug reports.

use std::path::Path;

use anyhow::{bail, Context, Result};
use twenty48_engine::{Direction, Game};
use twenty48_movelog::MoveLog;
use twenty48_tui::{board_svg, boards_svg, SvgBoard};
use twenty48_verify::parting::differing_cells;
use twenty48_verify::{Divergence, State, Trace};

use crate::rules_args::rules_name;

/// Writes a picture whole or not at all. Without `force` nothing is replaced, not even a
/// file that appears while the picture is drawn: the finished file is linked into place,
/// which fails if the name is taken by then (no check-then-write window).
fn write(path: &Path, svg: &str, force: bool) -> Result<()> {
    crate::destination::write_output(path, svg.as_bytes(), force)
}

/// The board of `log` after `at` moves (all of them when `None`) as an SVG file (replacing
/// a regular file only with `force`). Returns the move number drawn.
pub fn write_replay(
    log: &MoveLog,
    file: &Path,
    at: Option<u32>,
    out: &Path,
    force: bool,
) -> Result<u32> {
    let total = log.moves.len() as u32;
    let n = at.unwrap_or(total);
    if n > total {
        bail!(
            "--move {n}: {} has {total} moves (give 0 to {total})",
            crate::input::shown(file)
        );
    }
    let mut game = Game::new(log.rules, log.seed)
        .with_context(|| format!("{} cannot be replayed", crate::input::shown(file)))?;
    let mut last: Option<Direction> = None;
    for &dir in &log.moves[..n as usize] {
        game.play(dir)
            .with_context(|| format!("{} cannot be replayed", crate::input::shown(file)))?;
        last = Some(dir);
    }
    let cells = game.cells();
    let name = file.file_name().map_or_else(
        || crate::input::shown(file),
        |n| n.to_string_lossy().into_owned(),
    );
    let played = last.map_or_else(|| "opening".to_string(), |d| format!("played {}", d.name()));
    let svg = board_svg(&SvgBoard {
        title: format!("{name}: move {n}/{total}"),
        size: log.rules.size,
        exponents: cells.exponents(),
        caption: format!(
            "score {}, {played}\n{} rules, seed {}",
            game.score(),
            rules_name(&log.rules),
            log.seed
        ),
        marked: &[],
    });
    write(out, &svg, force)?;
    Ok(n)
}

fn board<'a>(
    title: String,
    state: Option<&'a State>,
    size: u8,
    empty: &'a [u8],
    marked: &'a [u8],
) -> SvgBoard<'a> {
    match state {
        Some(s) => SvgBoard {
            title,
            size,
            exponents: s.cells.as_ref().map_or(empty, |c| c.exponents()),
            caption: match &s.cells {
                Some(_) => format!("score {}\nhash {:016x}", s.score, s.hash),
                None => format!("score {} (board not reported)", s.score),
            },
            marked,
        },
        None => SvgBoard {
            title,
            size,
            exponents: empty,
            caption: "(no move)".into(),
            marked: &[],
        },
    }
}

/// The boards at the divergence side by side: the shared board before it (if any), then each
/// game's board at the first move that differs, its differing cells outlined (replacing a
/// regular file only with `force`).
pub fn write_divergence(
    out: &Path,
    a: &Trace,
    b: &Trace,
    d: &Divergence,
    force: bool,
) -> Result<()> {
    let marked = differing_cells(d.a.as_ref(), d.b.as_ref());
    let size = a.rules.size;
    let empty = vec![0u8; size as usize * size as usize];
    let title = |label: &str, s: &Option<State>| match s.as_ref().and_then(|s| s.direction) {
        Some(dir) => format!("{label}: move {}, {}", d.move_number, dir.name()),
        None => format!("{label}: move {}", d.move_number),
    };
    let mut boards = Vec::new();
    if let Some(before) = &d.before {
        boards.push(board(
            format!("both, after move {}", before.move_number),
            Some(before),
            size,
            &empty,
            &[],
        ));
    }
    boards.push(board(
        title(&a.label, &d.a),
        d.a.as_ref(),
        size,
        &empty,
        &marked,
    ));
    let size_b = b.rules.size;
    let empty_b = vec![0u8; size_b as usize * size_b as usize];
    boards.push(board(
        title(&b.label, &d.b),
        d.b.as_ref(),
        size_b,
        &empty_b,
        &marked,
    ));
    write(out, &boards_svg(&boards), force)
}

/// Two identical games: the final board once (replacing a regular file only with `force`).
pub fn write_identical(out: &Path, a: &Trace, force: bool) -> Result<()> {
    let size = a.rules.size;
    let empty = vec![0u8; size as usize * size as usize];
    let last = a.last();
    let moves = a.len().saturating_sub(1);
    let b = board(
        format!("identical games, {moves} moves"),
        last.as_ref(),
        size,
        &empty,
        &[],
    );
    write(out, &boards_svg(&[b]), force)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("t48-svg-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn game(seed: u64, presses: usize) -> MoveLog {
        let mut g = Game::new(twenty48_engine::Rules::CLASSIC, seed).unwrap();
        let mut moves = Vec::new();
        for d in Direction::ALL.iter().cycle().take(presses) {
            if g.play(*d).unwrap().moved {
                moves.push(*d);
            }
        }
        MoveLog::from_moves(twenty48_engine::Rules::CLASSIC, seed, &moves, 0).unwrap()
    }

    #[test]
    fn replay_svg_draws_the_board_at_the_asked_move() {
        let dir = temp("replay");
        let log = game(3, 30);
        let out = dir.join("b.svg");
        let n = write_replay(&log, Path::new("g.t48"), Some(2), &out, false).unwrap();
        assert_eq!(n, 2);
        let svg = std::fs::read_to_string(&out).unwrap();
        let mut g = Game::new(log.rules, log.seed).unwrap();
        g.play(log.moves[0]).unwrap();
        g.play(log.moves[1]).unwrap();
        let tiles = g.cells().exponents().iter().filter(|&&e| e > 0).count();
        // One text per tile, plus the title and two caption lines.
        assert_eq!(svg.matches("<text").count(), tiles + 3);
        assert!(svg.contains(&format!("g.t48: move 2/{}", log.moves.len())));
        assert!(svg.contains(&format!(
            "score {}, played {}",
            g.score(),
            log.moves[1].name()
        )));
        let err = write_replay(&log, Path::new("g.t48"), Some(10_000), &out, true).unwrap_err();
        assert!(err.to_string().contains("--move 10000: g.t48 has"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Many writers racing for one new name: exactly one picture lands and none is
    /// replaced (a check before an atomic rename would let several through).
    #[test]
    fn racing_writers_never_replace_a_picture() {
        let dir = temp("race");
        let log = game(3, 30);
        for round in 0..20 {
            let out = dir.join(format!("b{round}.svg"));
            let barrier = std::sync::Barrier::new(6);
            let written: Vec<bool> = std::thread::scope(|s| {
                let workers: Vec<_> = (0..6u32)
                    .map(|i| {
                        let (log, out, barrier) = (&log, &out, &barrier);
                        s.spawn(move || {
                            barrier.wait();
                            write_replay(log, Path::new("g.t48"), Some(i), out, false).is_ok()
                        })
                    })
                    .collect();
                workers.into_iter().map(|w| w.join().unwrap()).collect()
            });
            assert_eq!(written.iter().filter(|&&w| w).count(), 1, "round {round}");
            let winner = written.iter().position(|&w| w).unwrap();
            let svg = std::fs::read_to_string(&out).unwrap();
            assert!(
                svg.contains(&format!("g.t48: move {winner}/")),
                "round {round}"
            );
        }
        // With --force the picture is replaced; without, an existing one is refused.
        let out = dir.join("b0.svg");
        let before = std::fs::read(&out).unwrap();
        let err = write_replay(&log, Path::new("g.t48"), Some(9), &out, false).unwrap_err();
        assert!(err.to_string().contains("already exists"), "{err}");
        assert_eq!(std::fs::read(&out).unwrap(), before);
        write_replay(&log, Path::new("g.t48"), Some(9), &out, true).unwrap();
        assert!(std::fs::read_to_string(&out).unwrap().contains("move 9/"));
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 20, "no temp file left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn divergence_svg_has_three_boards() {
        let dir = temp("diff");
        let a = game(3, 30);
        let mut moves = a.moves.clone();
        let last = moves.pop().unwrap();
        let mut g = Game::new(a.rules, a.seed).unwrap();
        for m in &moves {
            g.play(*m).unwrap();
        }
        let other = Direction::ALL
            .into_iter()
            .find(|d| *d != last && g.can_play(*d))
            .unwrap();
        moves.push(other);
        let b = MoveLog::from_moves(a.rules, a.seed, &moves, 0).unwrap();
        let (ta, tb) = (Trace::from_log("a", &a), Trace::from_log("b", &b));
        let d = twenty48_verify::diff(&ta, &tb).unwrap();
        let out = dir.join("d.svg");
        write_divergence(&out, &ta, &tb, &d, false).unwrap();
        let svg = std::fs::read_to_string(&out).unwrap();
        assert!(svg.contains(&format!("both, after move {}", moves.len() - 1)));
        assert!(svg.contains(&format!("a: move {}, {}", moves.len(), last.name())));
        assert!(svg.contains(&format!("b: move {}, {}", moves.len(), other.name())));
        // Three boards' backgrounds plus the page's.
        assert_eq!(svg.matches(r#"rx="8""#).count(), 3);
        // The cells where the two boards differ are outlined on both.
        let cells = differing_cells(d.a.as_ref(), d.b.as_ref());
        assert!(!cells.is_empty());
        assert_eq!(svg.matches(r#"class="differs""#).count(), 2 * cells.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
