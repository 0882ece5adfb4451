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

use twenty48_engine::bitboard::{transpose, Packed};
use twenty48_engine::Direction;

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

/// For every line: the [`line_score`] of the line slid towards its first cell and towards its
/// last, built once from [`table`] and the engine's slides. A line whose slide merges two
/// 32768s (which the bitboard cannot hold) has zeros: [`best_reply`] never reads it.
pub(crate) fn slid_table() -> &'static [[i32; 2]] {
    static TABLE: OnceLock<Vec<[i32; 2]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let score = table();
        (0..=u16::MAX)
            .map(|line| {
                [Direction::Left, Direction::Right].map(|dir| {
                    Packed(line as u64)
                        .slide_board(dir)
                        .map_or(0, |slid| score[slid.0 as usize])
                })
            })
            .collect()
    })
}

/// The best score of the boards `board` slides to (the slides that change it), each scored
/// exactly as [`board_score`] scores it, never below 0 (a lost game's value, as a move node
/// takes it), and how many boards were scored; `(0, 0)` if no slide changes the board.
///
/// A slide left or right leaves the columns to be read anew, but its rows are the board's
/// rows slid: their scores come from the board's own rows in `slid`; and the same for the
/// columns of a slide up or down. 24 lookups where four [`board_score`]s take 32, and three
/// transposes where they take four.
#[inline(always)]
pub(crate) fn best_reply(table: &[i32], slid: &[[i32; 2]], board: Packed) -> (i64, u64) {
    let Some(slides) = board.slide_each_fitting() else {
        // Two 32768s: a line may merge them, which `slid` does not hold.
        return board
            .slide_each()
            .into_iter()
            .flatten()
            .filter(|&after| after != board)
            .fold((0, 0), |(best, n), after| {
                (best.max(board_score(table, after.0)), n + 1)
            });
    };
    let x = board.0;
    let t = transpose(x);
    let (mut left, mut right, mut up, mut down) = (0i64, 0i64, 0i64, 0i64);
    for r in 0..4 {
        let [first, last] = slid[line(x, r)];
        left += first as i64;
        right += last as i64;
        let [first, last] = slid[line(t, r)];
        up += first as i64;
        down += last as i64;
    }
    let rows = |b: u64| (0..4).map(|r| table[line(b, r)] as i64).sum::<i64>();
    let [s_up, s_right, s_down, s_left] = slides;
    let scores = [
        up + rows(s_up.0),
        right + rows(transpose(s_right.0)),
        down + rows(s_down.0),
        left + rows(transpose(s_left.0)),
    ];
    let (mut best, mut n) = (0i64, 0u64);
    for (after, score) in slides.into_iter().zip(scores) {
        if after != board {
            best = best.max(score);
            n += 1;
        }
    }
    (best, n)
}

/// Row `r` of a board (bits `16r..16r + 16`) as a line, an index into the tables.
#[inline(always)]
fn line(board: u64, r: u32) -> usize {
    ((board >> (16 * r)) & 0xFFFF) as usize
}

/// A board's score: its four rows and four columns looked up in `table`.
#[inline(always)]
pub(crate) fn board_score(table: &[i32], board: u64) -> i64 {
    let t = transpose(board);
    let mut sum = 0i64;
    for r in 0..4 {
        sum += table[line(board, r)] as i64;
        sum += table[line(t, r)] as i64;
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

    /// `best_reply` is the best `board_score` over the slides that change the board (at
    /// least 0, as a move node's value), and counts them: on boards of every kind, with two
    /// 32768s (the fallback) and stuck ones.
    #[test]
    fn best_reply_is_the_best_board_score_of_the_slides() {
        let (table, slid) = (table(), slid_table());
        let mut x = 0x0123_4567_89AB_CDEFu64;
        let mut boards = vec![0, 0x1212_2121_1212_2121, 0xF00F, 0xFF00_0000_0000_00FF];
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            boards.extend([x, x & 0x7777_7777_7777_7777, x & 0x0F0F_F0F0_0F0F_F0F0]);
        }
        for board in boards.into_iter().map(Packed) {
            let changed: Vec<Packed> = board
                .slide_each()
                .into_iter()
                .flatten()
                .filter(|&after| after != board)
                .collect();
            let expected = changed
                .iter()
                .map(|after| board_score(table, after.0))
                .fold(0, i64::max);
            assert_eq!(
                best_reply(table, slid, board),
                (expected, changed.len() as u64),
                "{:016x}",
                board.0
            );
        }
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
