//! The game's figures on cases whose answer is known (issue 45): for every 4x4 fixture, each
//! tile's start less its errors plus its luck is its end, exactly; and on fresh seeds the
//! error rate ranks the expectimax bot's games above the greedy bot's, and the greedy bot's
//! above the random bot's, 8 games each, with no overlap.

use std::path::Path;

use twenty48_analysis::{Analysis, Class, Setting, ONE};
use twenty48_bot::Bot;
use twenty48_engine::{Direction, Game, Rules, Status};
use twenty48_movelog::MoveLog;

/// A shallow setting, so that every fixture (20,449 moves for the longest) is analysed in
/// seconds: the sums add up whatever the setting.
const SHALLOW: Setting = Setting::Depth(1);

#[test]
fn start_less_errors_plus_luck_is_the_end_on_every_fixture() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/games");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".t48"))
        .collect();
    names.sort();
    let mut analysed = 0;
    for name in names {
        let log = MoveLog::decode(&std::fs::read(dir.join(&name)).unwrap()).unwrap();
        if log.rules.size != 4 {
            continue;
        }
        let a = Analysis::of_game_with(log.rules, log.seed, log.moves.iter().copied(), SHALLOW)
            .unwrap();
        let s = &a.summary;
        assert!(!s.segments().is_empty() || a.ratings.is_empty(), "{name}");
        for g in s.segments() {
            let end = g.end.unwrap_or_else(|| panic!("{name}: {g:?} left open"));
            assert_eq!(
                i64::from(g.start) - g.errors as i64 + g.luck,
                i64::from(end),
                "{name}: {g:?}"
            );
        }
        // Every tile but the last was reached; the sums are the tiles'.
        let n = s.segments().len();
        assert!(
            s.segments()[..n.saturating_sub(1)]
                .iter()
                .all(|g| g.reached()),
            "{name}"
        );
        let errors: u64 = a.ratings.iter().map(|r| u64::from(r.error)).sum();
        assert_eq!(s.errors(), errors, "{name}");
        // A game that ended lost its last tile's chance: 0, unless reached.
        let mut game = Game::new(log.rules, log.seed).unwrap();
        game.play_all(&log.moves[..a.ratings.len()]).unwrap();
        if game.status() == Status::Over && a.stopped.is_none() {
            let last = s.segments().last().unwrap();
            assert!(
                last.end == Some(0) || last.end == Some(ONE),
                "{name}: {last:?}"
            );
        }
        analysed += 1;
    }
    assert!(analysed >= 15, "{analysed} fixtures");
}

fn play(bot: &mut Bot, seed: u64) -> Vec<Direction> {
    let mut game = Game::new(Rules::CLASSIC, seed).unwrap();
    let mut moves = Vec::new();
    while game.status() == Status::Playing {
        let Some(dir) = bot.choose(&game) else { break };
        game.play(dir).unwrap();
        moves.push(dir);
    }
    moves
}

/// The error rates of 8 games of a bot from fresh seeds (neither the calibration's nor its
/// table's), analysed at depth 2.
fn rates(name: &str) -> Vec<u32> {
    (3001..=3008)
        .map(|seed| {
            let mut bot = match name {
                "expectimax" => Bot::expectimax(&Rules::CLASSIC, 2),
                "greedy" => Bot::greedy(),
                _ => Bot::random(seed),
            };
            let moves = play(&mut bot, seed);
            let a = Analysis::of_game_with(Rules::CLASSIC, seed, moves, Setting::Depth(2)).unwrap();
            if name == "expectimax" {
                // The bot's own moves are never an error.
                assert!(a
                    .ratings
                    .iter()
                    .all(|r| !r.class.is_error() && r.class != Class::Good));
            }
            assert_eq!(
                a.summary.accuracy(),
                a.summary.error_rate().map(|e| 1000 - e)
            );
            a.summary.error_rate().expect("a game with real choices")
        })
        .collect()
}

#[test]
fn the_error_rate_ranks_expectimax_above_greedy_above_random_with_no_overlap() {
    let expectimax = rates("expectimax");
    let greedy = rates("greedy");
    let random = rates("random");
    let max = |v: &[u32]| *v.iter().max().unwrap();
    let min = |v: &[u32]| *v.iter().min().unwrap();
    assert!(max(&expectimax) < min(&greedy), "{expectimax:?} {greedy:?}");
    assert!(max(&greedy) < min(&random), "{greedy:?} {random:?}");
}
