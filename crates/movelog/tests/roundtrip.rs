//! Logs of random games survive encode -> decode unchanged.

use crate::common;

use common::real_moves;
use proptest::prelude::*;
use twenty48_engine::{
    Direction, FourChance, Game, Opening, OpeningSpawn, Rules, RulesError, Scoring, Win,
    MAX_OPENING,
};
use twenty48_movelog::{
    checkpoint_count, checkpoint_hash, MoveLog, PackedLog, RecordError, Recorder,
};

fn direction() -> impl Strategy<Value = Direction> {
    (0u8..4).prop_map(|c| Direction::from_code(c).unwrap())
}

fn rules() -> impl Strategy<Value = Rules> {
    (2u8..=8).prop_flat_map(|size| {
        let cells = size as usize * size as usize;
        let max_exponent = (cells + 1) as u8;
        (
            (1u32..=1000).prop_flat_map(|d| (0..=d, Just(d))),
            proptest::collection::vec(any::<bool>(), 1..=MAX_OPENING.min(cells)),
            proptest::option::of((2..=max_exponent, any::<bool>())),
            any::<bool>(),
        )
            .prop_map(move |((n, d), opening, win, count)| {
                let kinds: Vec<OpeningSpawn> = opening
                    .into_iter()
                    .map(|two| {
                        if two {
                            OpeningSpawn::Two
                        } else {
                            OpeningSpawn::Normal
                        }
                    })
                    .collect();
                Rules {
                    size,
                    four_chance: FourChance::new(n, d),
                    opening: Opening::new(&kinds).unwrap(),
                    win: win.map(|(exponent, ends_game)| Win {
                        exponent,
                        ends_game,
                    }),
                    scoring: if count {
                        Scoring::MergeCount
                    } else {
                        Scoring::MergedValues
                    },
                }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn encode_then_decode_is_the_identity(
        rules in rules(),
        seed in any::<u64>(),
        dirs in proptest::collection::vec(direction(), 0..400),
        k in prop_oneof![Just(0u32), 1u32..20, Just(128), any::<u32>()],
        complete in any::<bool>(),
    ) {
        let moves = real_moves(rules, seed, &dirs);
        let mut log = MoveLog::from_moves(rules, seed, &moves, k).unwrap();
        prop_assert_eq!(log.moves.len(), log.claims.move_count as usize);
        prop_assert_eq!(log.checkpoints.len() as u32, checkpoint_count(log.claims.move_count, k));
        log.complete = complete;
        let bytes = log.encode();
        prop_assert_eq!(bytes.len(), 56 + rules.opening.spawns().len() + 7
            + moves.len().div_ceil(4) + 4 * log.checkpoints.len() + 4);
        // The borrowed reading holds the same moves, packed as docs/format.md lays them out
        // (move i in byte i / 4, bits 2 * (i % 4) and up), and the same checkpoints.
        let packed = PackedLog::decode(&bytes).unwrap();
        let raw = packed.packed_moves();
        prop_assert_eq!(raw.len(), moves.len().div_ceil(4));
        for (i, d) in moves.iter().enumerate() {
            prop_assert_eq!((raw[i / 4] >> (2 * (i % 4))) & 3, d.code());
        }
        prop_assert!(packed.moves().eq(moves.iter().copied()));
        prop_assert_eq!(packed.checkpoint_count() as usize, log.checkpoints.len());
        for (i, &c) in log.checkpoints.iter().enumerate() {
            prop_assert_eq!(packed.checkpoint(i), Some(c));
        }
        prop_assert_eq!(packed.checkpoint(log.checkpoints.len()), None);
        prop_assert_eq!(MoveLog::decode(&bytes), Ok(log));
    }

    #[test]
    fn recorder_and_from_moves_agree(
        rules in rules(),
        seed in any::<u64>(),
        dirs in proptest::collection::vec(direction(), 0..300),
        k in 0u32..10,
    ) {
        let mut rec = Recorder::new(rules, seed).unwrap().with_checkpoint_interval(k);
        let mut game = Game::new(rules, seed).unwrap();
        for &d in &dirs {
            prop_assert_eq!(rec.play(d), game.play(d));
            // Checkpoints are the low 32 bits of the state hash after every K-th real move.
            let n = game.move_count();
            let log = rec.finish();
            if k > 0 && n > 0 && n % k == 0 {
                prop_assert_eq!(log.checkpoint_after(n), Some(checkpoint_hash(game.state_hash())));
            }
        }
        let moves = real_moves(rules, seed, &dirs);
        prop_assert_eq!(rec.moves(), &moves[..]);
        prop_assert_eq!(rec.finish(), MoveLog::from_moves(rules, seed, &moves, k).unwrap());
        // Changing K after playing recomputes the checkpoints; K = 0 drops them.
        for k in [3, 0] {
            prop_assert_eq!(
                rec.clone().with_checkpoint_interval(k).finish(),
                MoveLog::from_moves(rules, seed, &moves, k).unwrap()
            );
        }
    }
}

#[test]
fn from_moves_refuses_a_move_that_changes_nothing() {
    // A seed whose opening leaves some direction a no-op (both tiles against one wall).
    let (seed, noop) = (0..)
        .find_map(|seed| {
            let game = Game::new(Rules::CLASSIC, seed).unwrap();
            Direction::ALL
                .into_iter()
                .find(|d| !game.can_play(*d))
                .map(|d| (seed, d))
        })
        .unwrap();
    let err = MoveLog::from_moves(Rules::CLASSIC, seed, &[noop], 0).unwrap_err();
    assert_eq!(
        err,
        RecordError::NoMove {
            move_number: 1,
            direction: noop
        }
    );
    assert_eq!(
        err.to_string(),
        format!("move 1 ({noop}) does not change the board")
    );
    // After a real move, the same move again often changes nothing: find such a case.
    let (seed, first) = (0..)
        .find_map(|seed| {
            Direction::ALL.into_iter().find_map(|d| {
                let mut game = Game::new(Rules::CLASSIC, seed).unwrap();
                (game.play(d).unwrap().moved && !game.can_play(d)).then_some((seed, d))
            })
        })
        .unwrap();
    let err = MoveLog::from_moves(Rules::CLASSIC, seed, &[first, first], 0).unwrap_err();
    assert!(
        matches!(err, RecordError::NoMove { move_number: 2, .. }),
        "{err}"
    );
}

#[test]
fn from_moves_refuses_moves_after_the_end() {
    // A 2x2 board fills up fast; play until it ends, then one more.
    let rules = Rules {
        size: 2,
        win: None,
        ..Rules::CLASSIC
    };
    let dirs: Vec<Direction> = (0..200).map(|i| Direction::ALL[i % 4]).collect();
    let moves = real_moves(rules, 3, &dirs);
    let game_over = MoveLog::from_moves(rules, 3, &moves, 1).unwrap();
    assert!(game_over.claims.status.is_finished());
    let mut more = moves.clone();
    more.push(Direction::Up);
    let err = MoveLog::from_moves(rules, 3, &more, 1).unwrap_err();
    assert_eq!(
        err,
        RecordError::GameEnded {
            move_number: moves.len() as u32 + 1,
            status: game_over.claims.status
        }
    );
    assert!(err
        .to_string()
        .starts_with("the game already ended (over) at move"));
}

#[test]
fn invalid_rules_are_refused() {
    let rules = Rules {
        size: 9,
        ..Rules::CLASSIC
    };
    let err = MoveLog::from_moves(rules, 0, &[], 0).unwrap_err();
    assert!(matches!(err, RecordError::InvalidRules { .. }));
    // The rules' own error is the source, for callers that print the chain.
    let source = std::error::Error::source(&err).expect("a source");
    assert_eq!(
        source.downcast_ref::<RulesError>(),
        Some(&RulesError::Size { size: 9 })
    );
    assert!(Recorder::new(rules, 0).is_err());
    // The other refusals have no source.
    let stuck = MoveLog::from_moves(Rules::CLASSIC, 0, &[Direction::Up; 40], 0).unwrap_err();
    assert!(std::error::Error::source(&stuck).is_none(), "{stuck}");
}

#[test]
fn a_log_breaking_its_invariants_is_refused_by_try_encode() {
    use twenty48_movelog::EncodeError;
    let mut log = common::example();
    log.moves.pop();
    assert_eq!(
        log.try_encode(),
        Err(EncodeError::MoveCount {
            moves: 5,
            claimed: 6
        })
    );
    let mut log = common::example();
    log.checkpoint_interval = 2;
    assert_eq!(
        log.try_encode(),
        Err(EncodeError::Checkpoints {
            found: 1,
            expected: 3
        })
    );
    assert_eq!(
        log.try_encode().unwrap_err().to_string(),
        "the log has 1 checkpoints where its moves and interval call for 3"
    );
    assert_eq!(
        common::example().try_encode(),
        Ok(common::example().encode())
    );
}
