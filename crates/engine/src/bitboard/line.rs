//! One line slid: every 16-bit row or column of four nibbles, slid both ways, with its
//! score, merges and overflow packed in one word (what the tables in `tables.rs` hold);
//! and the board's rows and columns as line values.

/// Packed per-row slide result: score in bits 0..24, merges in bits 24..28, overflow
/// count in bits 28..31. Sums of four rows never carry across fields.
pub(super) const SCORE_MASK: u32 = 0x00FF_FFFF;
pub(super) const MERGE_SHIFT: u32 = 24;
pub(super) const OVERFLOW_SHIFT: u32 = 28;

/// Slides one row of four nibbles towards nibble 0 (the same rule as the reference engine).
/// Returns the new row and the packed score/merges/overflow word.
pub(super) const fn slide_row(row: u16) -> (u16, u32) {
    let mut out = [0u16; 4];
    let mut placed = 0;
    let mut last_merged = false;
    let mut packed = 0u32;
    let mut i = 0;
    while i < 4 {
        let tile = (row >> (4 * i)) & 0xF;
        if tile != 0 {
            if placed > 0 && !last_merged && out[placed - 1] == tile {
                if tile == 15 {
                    packed += 1 << OVERFLOW_SHIFT;
                    out[placed - 1] = 0; // meaningless: the caller takes the wide path
                } else {
                    out[placed - 1] = tile + 1;
                    packed += 1 << (tile + 1);
                }
                packed += 1 << MERGE_SHIFT;
                last_merged = true;
            } else {
                out[placed] = tile;
                placed += 1;
                last_merged = false;
            }
        }
        i += 1;
    }
    (out[0] | out[1] << 4 | out[2] << 8 | out[3] << 12, packed)
}

/// Reverses the order of the four nibbles of a row.
#[inline(always)]
pub(super) const fn reverse_row(row: u16) -> u16 {
    (row >> 12) | ((row >> 4) & 0x00F0) | ((row << 4) & 0x0F00) | (row << 12)
}

/// Spreads a row's four nibbles into a column: nibble `j` goes to bits `16j..16j + 4`.
pub(super) const fn spread(row: u16) -> u64 {
    let r = row as u64;
    (r & 0xF) | ((r & 0xF0) << 12) | ((r & 0xF00) << 24) | ((r & 0xF000) << 36)
}

/// Where a [`line_entry`] keeps the line slid towards nibble 0 (up, left).
pub(super) const TOWARDS_FIRST: u32 = 32;
/// Where a [`line_entry`] keeps the line slid towards nibble 3 (down, right).
pub(super) const TOWARDS_LAST: u32 = 48;

/// The slide of one line (a row, or a column read top to bottom) in every form the fast path
/// needs: bits 0..32 the packed score/merges/overflow word (the same both ways), bits 32..48
/// the line slid towards nibble 0, bits 48..64 slid towards nibble 3. With the packed word at
/// the bottom, adding four entries and keeping the low 32 bits sums four packed words.
pub(super) const fn line_entry(line: u16) -> u64 {
    let (towards_first, packed) = slide_row(line);
    let (reversed, _) = slide_row(reverse_row(line));
    packed as u64
        | (towards_first as u64) << TOWARDS_FIRST
        | (reverse_row(reversed) as u64) << TOWARDS_LAST
}

/// The sum of the packed words of four [`line_entry`]s.
#[inline(always)]
pub(super) const fn packed_sum(e: [u64; 4]) -> u32 {
    // No field of the packed words carries into the next in a sum of four.
    e[0].wrapping_add(e[1])
        .wrapping_add(e[2])
        .wrapping_add(e[3]) as u32
}

/// A row slid left and slid right, each in row 0 of an otherwise empty board, from the
/// row's [`line_entry`].
pub(super) const fn row_pair(entry: u64) -> [u64; 2] {
    [
        (entry >> TOWARDS_FIRST) & 0xFFFF,
        (entry >> TOWARDS_LAST) & 0xFFFF,
    ]
}

/// A column slid up and slid down, each spread back into column 0 of an otherwise empty
/// board, from the column's [`line_entry`].
pub(super) const fn column_pair(entry: u64) -> [u64; 2] {
    [
        spread((entry >> TOWARDS_FIRST) as u16),
        spread((entry >> TOWARDS_LAST) as u16),
    ]
}

/// Row `r` of the board as a line value (nibble `j` is column `j`).
#[inline(always)]
pub(super) const fn row_of(x: u64, r: u32) -> usize {
    (x >> (16 * r)) as u16 as usize
}

/// Column `c` of the board as a line value (nibble `j` is row `j`), gathered by one multiply:
/// the four nibbles at bits `0, 16, 32, 48` (after the shift) land side by side in the top 16
/// bits of the product, and no partial product carries into them.
#[inline(always)]
pub(super) const fn column_of(x: u64, c: u32) -> usize {
    const COLUMN_0: u64 = 0x000F_000F_000F_000F;
    const GATHER: u64 = (1 << 48) | (1 << 36) | (1 << 24) | (1 << 12);
    (((x >> (4 * c)) & COLUMN_0).wrapping_mul(GATHER) >> 48) as usize
}

/// Whether two or more cells hold 15 (32768): only then can a slide merge two of them and
/// overflow a nibble. A board with a single 32768 slides on the tables like any other (a
/// line's table entry is exact unless two 15s merge in it), so a game's long stretch after
/// its first 32768 stays on the fast path.
#[inline(always)]
pub(super) const fn may_overflow(x: u64) -> bool {
    let t = x & (x >> 1);
    let fifteens = t & (t >> 2) & 0x1111_1111_1111_1111;
    fifteens & fifteens.wrapping_sub(1) != 0
}

/// Transposes the 4x4 nibble matrix (row `r`, column `c` goes to row `c`, column `r`).
#[inline(always)]
pub const fn transpose(x: u64) -> u64 {
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

/// [`Packed::slide_each`]'s combining of the four rows (columns) of a board from their
/// [`row_pair`]s ([`column_pair`]s): both directions of a line side by side.
#[cfg(all(
    feature = "row-tables",
    target_arch = "x86_64",
    target_feature = "sse2"
))]
pub(super) mod pairs {
    use crate::bitboard::tables::{Pairs, COLUMNS, ROWS};
    use core::arch::x86_64::{
        __m128i, _mm_cvtsi128_si64, _mm_loadu_si128, _mm_or_si128, _mm_slli_epi64,
        _mm_unpackhi_epi64,
    };

    #[inline(always)]
    fn load(table: &Pairs, line: usize) -> __m128i {
        let pair: &[u64; 2] = &table.0[line];
        // SAFETY: `pair` is 16 readable bytes; the load needs no alignment.
        unsafe { _mm_loadu_si128(pair.as_ptr().cast()) }
    }

    // SAFETY (every `unsafe` below but the load's): SSE2 is enabled for this build (the
    // module exists only then; every x86-64 CPU has it).

    #[inline(always)]
    fn halves(v: __m128i) -> [u64; 2] {
        unsafe {
            [
                _mm_cvtsi128_si64(v) as u64,
                _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64,
            ]
        }
    }

    /// The board slid left and slid right, from its four row values.
    #[inline(always)]
    pub(crate) fn rows(lines: [usize; 4]) -> [u64; 2] {
        let [a, b, c, d] = lines.map(|l| load(&ROWS, l));
        halves(unsafe {
            _mm_or_si128(
                _mm_or_si128(a, _mm_slli_epi64::<16>(b)),
                _mm_or_si128(_mm_slli_epi64::<32>(c), _mm_slli_epi64::<48>(d)),
            )
        })
    }

    /// The board slid up and slid down, from its four column values.
    #[inline(always)]
    pub(crate) fn columns(lines: [usize; 4]) -> [u64; 2] {
        let [a, b, c, d] = lines.map(|l| load(&COLUMNS, l));
        halves(unsafe {
            _mm_or_si128(
                _mm_or_si128(a, _mm_slli_epi64::<4>(b)),
                _mm_or_si128(_mm_slli_epi64::<8>(c), _mm_slli_epi64::<12>(d)),
            )
        })
    }
}

/// [`Packed::slide_each`]'s combining, one `u64` at a time (from the tables where present).
#[cfg(not(all(
    feature = "row-tables",
    target_arch = "x86_64",
    target_feature = "sse2"
)))]
pub(super) mod pairs {
    #[inline(always)]
    fn row(line: usize) -> [u64; 2] {
        #[cfg(feature = "row-tables")]
        {
            crate::bitboard::tables::ROWS.0[line]
        }
        #[cfg(not(feature = "row-tables"))]
        {
            super::row_pair(super::line_entry(line as u16))
        }
    }

    #[inline(always)]
    fn column(line: usize) -> [u64; 2] {
        #[cfg(feature = "row-tables")]
        {
            crate::bitboard::tables::COLUMNS.0[line]
        }
        #[cfg(not(feature = "row-tables"))]
        {
            super::column_pair(super::line_entry(line as u16))
        }
    }

    /// The board slid left and slid right, from its four row values.
    #[inline(always)]
    pub(crate) fn rows(lines: [usize; 4]) -> [u64; 2] {
        let [a, b, c, d] = lines.map(row);
        [0, 1].map(|h| a[h] | b[h] << 16 | c[h] << 32 | d[h] << 48)
    }

    /// The board slid up and slid down, from its four column values.
    #[inline(always)]
    pub(crate) fn columns(lines: [usize; 4]) -> [u64; 2] {
        let [a, b, c, d] = lines.map(column);
        [0, 1].map(|h| a[h] | b[h] << 4 | c[h] << 8 | d[h] << 12)
    }
}
