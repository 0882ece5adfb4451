//! The log protocol: the defmt frames that record every game (docs/firmware.md).
//!
//! Three frames, all at `info` level, each a fixed format string the host recognises by its
//! literal text. Every field is a plain integer or bool with no display hint, so the host
//! reads them back exactly. [`LOG_FORMAT_VERSION`] changes whenever a frame changes.

use twenty48_engine::{Direction, Game, OpeningSpawn, Rules, Scoring};

/// The version of this protocol, sent in every game-start frame.
pub const LOG_FORMAT_VERSION: u8 = 1;

/// Logs the start of a game: protocol version, seed and the full rules.
///
/// `opening` is the number of opening spawns and `twos` a bit mask of the ones that are
/// always a 2 (bit 0 = first spawn); `win` is the winning exponent (0: no win) and `ends`
/// whether reaching it ends the game; `scoring` is 0 for merged values, 1 for merge count.
pub fn game_start(rules: &Rules, seed: u64) {
    let spawns = rules.opening.spawns();
    let mut twos: u8 = 0;
    for (i, s) in spawns.iter().enumerate() {
        if *s == OpeningSpawn::Two {
            twos |= 1 << i;
        }
    }
    let (win, ends) = match rules.win {
        Some(w) => (w.exponent, w.ends_game),
        None => (0, false),
    };
    let scoring: u8 = match rules.scoring {
        Scoring::MergedValues => 0,
        Scoring::MergeCount => 1,
    };
    defmt::info!(
        "t48 start v={=u8} seed={=u64} size={=u8} four={=u32}/{=u32} opening={=u8} twos={=u8} win={=u8} ends={=bool} scoring={=u8}",
        LOG_FORMAT_VERSION,
        seed,
        rules.size,
        rules.four_chance.numerator,
        rules.four_chance.denominator,
        spawns.len() as u8,
        twos,
        win,
        ends,
        scoring
    );
}

/// Logs a move that changed the board: its sequence number in the game (1 for the first),
/// its direction code, and the score and state hash after it (spawn included).
pub fn moved(seq: u32, dir: Direction, score: u64, hash: u64) {
    defmt::info!(
        "t48 move seq={=u32} dir={=u8} score={=u64} hash={=u64}",
        seq,
        dir.code(),
        score,
        hash
    );
}

/// Logs the end of a game: result (0 abandoned, 1 won, 2 over: the engine's status
/// codes), final score, number of moves and final state hash.
pub fn game_end(game: &Game) {
    defmt::info!(
        "t48 end result={=u8} score={=u64} moves={=u32} hash={=u64}",
        game.status() as u8,
        game.score(),
        game.move_count(),
        game.state_hash()
    );
}
