//! The CPU-dependent steps of the replay loop: portable code everywhere, and `pext`/`pdep`
//! on x86-64 CPUs with BMI2.

use super::*;

/// The two steps of the replay loop that depend on the CPU's instructions: sliding the board
/// and putting a spawned tile on the `k`-th empty cell (row-major, `k` below the number of
/// empty cells). Every implementation gives the same results; tests compare them.
pub(crate) trait Cpu: Copy {
    /// [`Packed::slide`].
    fn slide(self, board: Packed, dir: Direction) -> FastSlide;
    /// The board with a 2 (or a 4 when `four`) on its `k`-th empty cell.
    fn spawn_kth_empty(self, board: Packed, k: u32, four: bool) -> Packed;
}

/// Any CPU: [`Packed::slide`] (one code path per direction), and placement by running counts
/// of the empty cells from one multiply, then the cell whose count is `k + 1`
/// ([`Packed::spawn_kth_empty`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Cpu for Portable {
    #[inline(always)]
    fn slide(self, board: Packed, dir: Direction) -> FastSlide {
        board.slide(dir)
    }

    #[inline(always)]
    fn spawn_kth_empty(self, board: Packed, k: u32, four: bool) -> Packed {
        board.spawn_kth_empty(board.empty_prefix_counts(), k, four)
    }
}

/// x86-64 with BMI2. `pext` reads any line (row or column) out of the board and `pdep` puts
/// it back, so one branch-free code path slides in all four directions through the line
/// table; `pdep` also deposits bit `k` onto the `k`-th empty cell in one instruction. Exists
/// only where the CPU has BMI2: the only way to get one is [`Bmi2::detect`], which asks the
/// CPU at run time.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2(());

#[cfg(all(feature = "std", target_arch = "x86_64"))]
impl Bmi2 {
    /// `Some` when this CPU has BMI2 (the answer is cached by std after the first call).
    #[inline]
    pub(crate) fn detect() -> Option<Bmi2> {
        std::is_x86_feature_detected!("bmi2").then_some(Bmi2(()))
    }
}

/// For each direction code, the board bits of its four lines, each read from the wall
/// outwards in increasing bit order: columns for up and down, rows for right and left.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
static LINE_BITS: [[u64; 4]; 4] = {
    const COLUMN: u64 = 0x000F_000F_000F_000F;
    const ROW: u64 = 0xFFFF;
    let columns = [COLUMN, COLUMN << 4, COLUMN << 8, COLUMN << 12];
    let rows = [ROW, ROW << 16, ROW << 32, ROW << 48];
    [columns, rows, columns, rows]
};

/// [`LINE_BITS`] again, for putting the slid lines back: a second table so that the
/// compiler reads each mask from memory where `pdep` needs it instead of keeping four
/// masks in registers through the slide (the replay loop runs short of registers).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
static PLACE_BITS: [[u64; 4]; 4] = LINE_BITS;

/// For each direction code, where a [`line_entry`] holds the slid line.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
const LINE_HALF: [u32; 4] = [TOWARDS_FIRST, TOWARDS_LAST, TOWARDS_LAST, TOWARDS_FIRST];

#[cfg(all(feature = "std", target_arch = "x86_64"))]
impl Cpu for Bmi2 {
    #[inline(always)]
    fn slide(self, board: Packed, dir: Direction) -> FastSlide {
        use core::arch::x86_64::{_pdep_u64, _pext_u64};
        let bits = &LINE_BITS[dir.code() as usize];
        let place = &PLACE_BITS[dir.code() as usize];
        let half = LINE_HALF[dir.code() as usize];
        let mut slid = 0;
        let mut entries = [0; 4];
        for ((&mask, &put), entry) in bits.iter().zip(place).zip(&mut entries) {
            // SAFETY: a `Bmi2` value exists only when `detect` found BMI2 on this CPU.
            let index = unsafe { _pext_u64(board.0, mask) } as usize;
            // SAFETY: `mask` has 16 bits set, so `pext` returns at most 16 bits. (Told to the
            // compiler, this spares a zero-extension on the replay's critical path.)
            unsafe { core::hint::assert_unchecked(index <= 0xFFFF) };
            *entry = line(index);
            // `pdep` takes as many low bits of its source as the mask has: the 16 of the line.
            slid |= unsafe { _pdep_u64(*entry >> half, put) };
        }
        let packed = packed_sum(entries);
        if packed >> OVERFLOW_SHIFT != 0 {
            return FastSlide::Overflow;
        }
        FastSlide::Done {
            board: Packed(slid),
            merged_value: packed & SCORE_MASK,
            merges: (packed >> MERGE_SHIFT) & 0xF,
        }
    }

    #[inline(always)]
    fn spawn_kth_empty(self, board: Packed, k: u32, four: bool) -> Packed {
        // SAFETY: a `Bmi2` value exists only when `detect` found BMI2 on this CPU.
        let hit = unsafe { core::arch::x86_64::_pdep_u64(1 << k, board.empty_nibbles()) };
        Packed(board.0 | if four { hit << 1 } else { hit })
    }
}
