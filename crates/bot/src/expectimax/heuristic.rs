//! The board score at the search's leaves: a sum of per-line scores from one 64K table.
//!
//! Every row and every column of a 4x4 board is a 16-bit line of four exponent nibbles. A
//! line scores, all in integers:
//! - a constant, so that a board with tiles on it is worth more than a lost one (worth 0);
//! - a bonus per empty cell and per pair of equal tiles that would merge;
//! - a penalty for breaking monotonicity: the smaller of the two directions' sums of
//!   `r^4` steps against the order (`r` the exponent), so a line may rise or fall but not
//!   both;
//! - a penalty on the tiles themselves, `r^3.5` each (rounded down, from an integer square
//!   root), which prefers fewer, larger tiles.
//!
//! The board's score is the sum over its four rows and four columns.

use std::sync::OnceLock;

/// What each part of a line's score weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights {
    /// Constant per line.
    pub base: i32,
    /// Per empty cell.
    pub empty: i32,
    /// Per pair of equal neighbouring tiles (gaps ignored).
    pub merge: i32,
    /// Per unit of the smaller monotonicity break (sum of `r^4` steps).
    pub monotonic: i32,
    /// Per unit of the tiles' `r^3.5`, in eighths (a weight of 8 is 1).
    pub mass_eighths: i32,
}

/// The weights the bot plays with.
pub(crate) const WEIGHTS: Weights = Weights {
    base: 180_000,
    empty: 300,
    merge: 650,
    monotonic: 45,
    mass_eighths: 90,
};

/// `floor(sqrt(n))`, exactly, in integers.
const fn isqrt(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let mut x = n;
    let mut y = x.div_ceil(2);
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    x
}

/// `floor(r^3.5)` for an exponent `r`.
const fn mass(r: u64) -> i64 {
    isqrt(r * r * r * r * r * r * r) as i64
}

/// The score of one line (four exponent nibbles, first cell in the low nibble).
pub(crate) fn line_score(line: u16, w: &Weights) -> i32 {
    let r: [i64; 4] = core::array::from_fn(|i| ((line >> (4 * i)) & 0xF) as i64);
    let empty = r.iter().filter(|&&x| x == 0).count() as i64;
    // Merges: equal tiles next to each other once the gaps are closed.
    let mut merges = 0i64;
    let mut prev = 0i64;
    for &x in &r {
        if x == 0 {
            continue;
        }
        if x == prev {
            merges += 1;
            prev = 0; // a tile merges once
        } else {
            prev = x;
        }
    }
    let (mut falling, mut rising) = (0i64, 0i64);
    for i in 0..3 {
        let (a, b) = (r[i].pow(4), r[i + 1].pow(4));
        if a > b {
            falling += a - b;
        } else {
            rising += b - a;
        }
    }
    let mass: i64 = r.iter().map(|&x| mass(x as u64)).sum();
    let score = w.base as i64 + w.empty as i64 * empty + w.merge as i64 * merges
        - w.monotonic as i64 * falling.min(rising)
        - w.mass_eighths as i64 * mass / 8;
    score as i32
}

/// The table of [`line_score`] with [`WEIGHTS`], built once.
pub(crate) fn table() -> &'static [i32] {
    static TABLE: OnceLock<Vec<i32>> = OnceLock::new();
    TABLE.get_or_init(|| (0..=u16::MAX).map(|l| line_score(l, &WEIGHTS)).collect())
}

/// A board's score: its four rows and four columns looked up in `table`.
#[inline(always)]
pub(crate) fn board_score(table: &[i32], board: u64) -> i64 {
    let t = twenty48_engine::bitboard::transpose(board);
    let mut sum = 0i64;
    for r in 0..4 {
        sum += table[((board >> (16 * r)) & 0xFFFF) as usize] as i64;
        sum += table[((t >> (16 * r)) & 0xFFFF) as usize] as i64;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isqrt_is_exact() {
        for n in 0..100_000u64 {
            let s = isqrt(n);
            assert!(s * s <= n && (s + 1) * (s + 1) > n, "{n}");
        }
        assert_eq!(mass(15), 13_071); // 15^3.5 = 13071.3
    }

    #[test]
    fn ordered_lines_beat_broken_ones() {
        let w = WEIGHTS;
        // 1024 512 256 128 against 1024 128 256 512 (exponents 10 9 8 7 / 10 7 8 9).
        let ordered = line_score(0x789A, &w);
        let broken = line_score(0x987A, &w);
        assert!(ordered > broken, "{ordered} <= {broken}");
        // Two 4s side by side merge; apart with a 2 between, they do not.
        assert!(line_score(0x0022, &w) > line_score(0x0212, &w) - w.empty);
        // Reversal does not matter: a line may fall either way.
        assert_eq!(line_score(0x1234, &w), line_score(0x4321, &w));
    }

    /// The transposition table keeps values as `i32`: eight lines' scores (a board's)
    /// always fit, and so does any mean of them.
    #[test]
    fn a_board_score_fits_in_an_i32() {
        let table = table();
        let (min, max) = (table.iter().min().unwrap(), table.iter().max().unwrap());
        assert!(8 * *min as i64 > i32::MIN as i64, "{min}");
        assert!(8 * *max as i64 <= i32::MAX as i64, "{max}");
    }

    #[test]
    fn board_score_sums_rows_and_columns() {
        let table = table();
        let board = 0x0000_0000_0000_0021u64; // a 2 then a 4 in the top row
        let rows = table[0x0021] as i64 + 3 * table[0] as i64;
        let columns = table[0x0002] as i64 + table[0x0001] as i64 + 2 * table[0] as i64;
        assert_eq!(board_score(table, board), rows + columns);
    }
}
