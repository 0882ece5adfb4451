//! The value a player reads: the chance that the bot, playing on, reaches the next tile.
//!
//! The search gives each move a value in the heuristic's units, which is no chance and no
//! score. [`chance`] maps it, with the tiles on the board and the tile aimed at, to the
//! chance that the calibration's bot ([`crate::calibration::ROLLOUT_DEPTH`]), playing on from
//! the board after the move, reaches that tile: a logistic curve per tile, fitted on the
//! positions of fixed-seed games the bot played (`just calibrate`; docs/analysis.md gives the
//! fit and its reliability on other games). Integers only: the curve's coefficients and
//! the logistic function are integer tables, so the CLI and the page give the same chances.

use crate::calibration::{Curve, CURVES, LOGISTIC, LOGISTIC_SPAN, TARGET_FIRST};

/// Certainty, in the unit of every chance: millionths.
pub const ONE: u32 = 1_000_000;

/// The tile aimed at from a board whose largest tile has exponent `largest`: the next tile,
/// twice the largest (its exponent).
pub const fn target_of(largest: u8) -> u8 {
    largest + 1
}

/// The curve's input: `z` in 2^-16 units, from the search value `value` of the board after a
/// move and the tiles' sum `sum`, for the tile of exponent `target`.
pub fn logit(target: u8, value: i64, sum: u64) -> i64 {
    let curve = curve(target);
    let progress = progress(target, sum);
    let z32 = i128::from(curve.intercept)
        + i128::from(curve.value) * i128::from(value)
        + i128::from(curve.progress) * i128::from(progress);
    (z32 >> 16).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// How far the tiles' sum has come towards the tile aimed at, in 1024ths of it (at most
/// 4096): a tile of `2^target` needs tiles adding up to it at least.
pub fn progress(target: u8, sum: u64) -> i64 {
    let shift = u32::from(target.min(40));
    (((u128::from(sum)) << 10) >> shift).min(4096) as i64
}

fn curve(target: u8) -> Curve {
    let i = usize::from(target.saturating_sub(TARGET_FIRST)).min(CURVES.len() - 1);
    CURVES[i]
}

/// The chance, in millionths, that the bot reaches the tile of exponent `target` playing on
/// from a board after a move: `value` is the search's value of that board, `sum` its tiles'
/// sum, `reached` whether it holds that tile already (then the chance is [`ONE`]). A value of
/// 0 or less (a lost board) has no chance. Non-decreasing in `value`: the best move by the
/// search has the highest chance.
pub fn chance(target: u8, value: i64, sum: u64, reached: bool) -> u32 {
    if reached {
        return ONE;
    }
    if value <= 0 {
        return 0;
    }
    logistic(logit(target, value, sum))
}

/// `1 / (1 + e^-z)` in millionths for `z` in 2^-16 units: the table [`LOGISTIC`] (every
/// 1/16 from `-LOGISTIC_SPAN` to `LOGISTIC_SPAN`), read between its entries by a straight
/// line, rounded down.
pub fn logistic(z16: i64) -> u32 {
    const STEP: i64 = 1 << 12; // 1/16 in 2^-16 units
    let from = -(LOGISTIC_SPAN << 16);
    let last = LOGISTIC.len() - 1;
    let pos = z16.saturating_sub(from).max(0);
    let i = (pos / STEP) as usize;
    if i >= last {
        return LOGISTIC[last];
    }
    let (a, b) = (i64::from(LOGISTIC[i]), i64::from(LOGISTIC[i + 1]));
    (a + (b - a) * (pos % STEP) / STEP) as u32
}

/// A chance in millionths as a percentage with one decimal, rounded down: `62.4%`.
pub fn percent(chance: u32) -> String {
    let tenths = chance / 1000;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// A change of chance in millionths, in percentage points with one decimal and its sign
/// (rounded towards zero): `+3.1`, `-0.4`, `0.0`.
pub fn points(delta: i64) -> String {
    let tenths = delta / 1000;
    let sign = if tenths > 0 {
        "+"
    } else if tenths < 0 {
        "-"
    } else {
        ""
    };
    format!("{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logistic_table_is_the_logistic_function() {
        assert_eq!(logistic(0), 500_000);
        assert!(logistic(-(40 << 16)) < 1_000);
        assert!(logistic(40 << 16) > 999_000);
        // 1 / (1 + e^-1) = 0.731058...
        assert!((731_000..=731_100).contains(&logistic(1 << 16)));
        let mut last = 0;
        for z in (-(20i64 << 16)..(20 << 16)).step_by(997) {
            let p = logistic(z);
            assert!(p >= last, "non-decreasing at {z}");
            last = p;
        }
    }

    #[test]
    fn a_higher_value_is_never_a_lower_chance() {
        for target in 2..=17u8 {
            let sum = 3u64 << target.saturating_sub(1);
            let mut last = 0;
            for value in (1..2_000_000i64).step_by(9_973) {
                let p = chance(target, value, sum, false);
                assert!(p >= last, "target {target} value {value}");
                last = p;
            }
        }
        assert_eq!(chance(11, 5, 100, true), ONE);
        assert_eq!(chance(11, 0, 100, false), 0);
    }

    #[test]
    fn chances_and_points_print_as_percentages() {
        assert_eq!(percent(624_999), "62.4%");
        assert_eq!(percent(ONE), "100.0%");
        assert_eq!(points(31_000), "+3.1");
        assert_eq!(points(-4_900), "-0.4");
        assert_eq!(points(999), "0.0");
    }
}
