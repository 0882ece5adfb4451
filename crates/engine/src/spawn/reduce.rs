//! From a generator's raw draws to a spawn: the reductions both generators share
//! (docs/rules.md).

use crate::rules::FourChance;

/// Reduces a raw output to an index in `0..n`: `(raw * n) >> 32`, in 64-bit arithmetic.
///
/// Every index gets `floor` or `ceil` of `2^32 / n` raw values: a bias below `n / 2^32`.
#[inline]
pub const fn reduce_cell(raw: u32, n: u32) -> u32 {
    ((raw as u64 * n as u64) >> 32) as u32
}

/// Reduces a raw output to "is a 4": `((raw * denominator) >> 32) < numerator`, in 64-bit
/// arithmetic. With `numerator == denominator` it is always true, with `0` always false.
#[inline]
pub const fn reduce_four(raw: u32, chance: FourChance) -> bool {
    ((raw as u64 * chance.denominator as u64) >> 32) < chance.numerator as u64
}

/// One spawn from a generator's pair of draws `(cell, value)` (docs/rules.md): `k`, the
/// index among the `empty` empty cells, and the exponent: 2 (a 4) when the value draw says
/// so and `always_two` does not forbid it, else 1. Both generators draw through it.
#[inline(always)]
pub(crate) const fn spawn_of(
    (cell, value): (u32, u32),
    empty: u32,
    four: FourChance,
    always_two: bool,
) -> (u32, u8) {
    let is_four = reduce_four(value, four);
    (
        reduce_cell(cell, empty),
        if is_four && !always_two { 2 } else { 1 },
    )
}

/// [`reduce_four`] as one comparison: `raw` gives a 4 exactly when
/// `(raw as u64) < four_threshold(chance)`, the threshold being
/// `ceil(numerator * 2^32 / denominator)` (`floor(raw * d / 2^32) < n` holds exactly when
/// `raw * d < n * 2^32`). For replay loops; the denominator must not be 0.
#[inline]
pub const fn four_threshold(chance: FourChance) -> u64 {
    ((chance.numerator as u64) << 32).div_ceil(chance.denominator as u64)
}
