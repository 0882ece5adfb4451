//! The page's analysis (Host::analyse, in chunks) is the analysis crate's, move for move, and
//! stops where the log stops verifying, as `twenty48 analyse` does.

use std::path::Path;

use serde_json::Value;
use twenty48_web::Host;

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures")
            .join(rel),
    )
    .unwrap()
}

/// Every rating of the game in `bytes`, asked for `chunk` moves at a time: (ratings, the
/// last answer).
fn analyse_in_chunks(bytes: &[u8], chunk: u32, depth: u8) -> (Vec<Value>, Value) {
    let mut host = Host::new();
    let opened: Value = serde_json::from_str(&host.open(bytes)).unwrap();
    let id = opened["id"].as_u64().unwrap() as u32;
    let mut ratings = Vec::new();
    loop {
        let answer: Value = serde_json::from_str(&host.analyse(id, chunk, depth)).unwrap();
        assert!(answer.get("error").is_none(), "{answer}");
        ratings.extend(answer["ratings"].as_array().unwrap().iter().cloned());
        if answer["analysed"] == answer["total"] {
            return (ratings, answer);
        }
    }
}

#[test]
fn chunks_of_any_size_give_the_same_ratings() {
    let bytes = fixture("games/classic-moves.t48");
    let (one, last_one) = analyse_in_chunks(&bytes, 1, 3);
    let (seven, last_seven) = analyse_in_chunks(&bytes, 7, 3);
    assert_eq!(one, seven);
    assert_eq!(last_one["summary"], last_seven["summary"]);
    assert_eq!(one.len(), 30);
}

#[test]
fn a_log_is_analysed_up_to_where_it_verifies() {
    let (ratings, last) = analyse_in_chunks(&fixture("broken/wrong-checkpoint.t48"), 100, 1);
    // Issue 45: the 256 moves before the checkpoint that disagrees all play.
    assert_eq!(last["total"], 256, "{last}");
    assert_eq!(ratings.len(), 256);
}

#[test]
fn other_board_sizes_are_refused() {
    let mut host = Host::new();
    let opened: Value = serde_json::from_str(&host.open(&fixture("games/custom-5x5.t48"))).unwrap();
    let answer: Value =
        serde_json::from_str(&host.analyse(opened["id"].as_u64().unwrap() as u32, 5, 2)).unwrap();
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("4x4 boards only"),
        "{answer}"
    );
    let answer: Value = serde_json::from_str(&host.analyse(99, 5, 2)).unwrap();
    assert_eq!(answer["error"], "no game 99 is open");
}
