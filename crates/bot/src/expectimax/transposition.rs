//! The search's transposition table: values of spawn positions already searched during one
//! move, with the depth they were searched to.
//!
//! A fixed number of slots, each board in the one slot its hash names, a newer entry
//! replacing an older one there. The hash, the slot count and the order of stores are all
//! fixed, so what the table holds (and so every value the search returns) is the same on
//! every machine. Each move starts a new generation: entries of earlier generations are
//! ignored, so nothing carries over from one move to the next without clearing the slots.

/// log2 of the number of slots.
const SLOT_BITS: u32 = 17;

/// One slot: a board, the value its search gave, the depth searched to and the move
/// (generation) it belongs to. 16 bytes, so that four share a cache line: a value always
/// fits in an `i32` (a board's heuristic score is a sum of eight `i32` line scores of at
/// most a few million each, and a search's value is a mean of such scores or 0).
#[derive(Clone, Copy, Default, Debug)]
struct Slot {
    board: u64,
    value: i32,
    generation: u16,
    depth: u8,
}

/// A direct-mapped table of searched spawn positions.
#[derive(Clone, Debug)]
pub(crate) struct TranspositionTable {
    slots: Vec<Slot>,
    /// The current generation; slots of others are empty. Starts at 1 (fresh slots are 0);
    /// when it wraps, every slot is emptied, so no generation is ever met twice.
    generation: u16,
}

impl TranspositionTable {
    /// An empty table.
    pub(crate) fn new() -> TranspositionTable {
        TranspositionTable {
            slots: vec![Slot::default(); 1 << SLOT_BITS],
            generation: 1,
        }
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// The slot of `board`: a fixed multiplicative hash, top bits.
    #[inline(always)]
    fn index(board: u64) -> usize {
        let h = (board ^ (board >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (h >> (64 - SLOT_BITS)) as usize
    }

    /// The value stored for `board` if it was searched at least `depth` deep this generation.
    #[inline(always)]
    pub(crate) fn get(&self, board: u64, depth: u8) -> Option<i64> {
        let slot = &self.slots[Self::index(board)];
        (slot.board == board && slot.generation == self.generation && slot.depth >= depth)
            .then_some(slot.value as i64)
    }

    /// Starts loading `board`'s slot into the cache, for a [`TranspositionTable::get`] soon
    /// after: a hint, with no effect on what the table holds or answers.
    #[inline(always)]
    pub(crate) fn prefetch(&self, board: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Slot = &self.slots[Self::index(board)];
            // SAFETY: a prefetch of the address of a live slot; it reads nothing the program
            // sees and cannot fault.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(slot.cast())
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    /// Stores `board`'s value searched `depth` deep, replacing whatever held its slot (a
    /// value outside `i32`, which no search gives, is not stored: only looked up again).
    #[inline(always)]
    pub(crate) fn put(&mut self, board: u64, depth: u8, value: i64) {
        let Ok(value) = i32::try_from(value) else {
            return;
        };
        self.slots[Self::index(board)] = Slot {
            board,
            value,
            generation: self.generation,
            depth,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_last_one_generation_and_answer_only_as_deep() {
        let mut table = TranspositionTable::new();
        assert_eq!(table.get(0x21, 1), None);
        table.put(0x21, 3, -7);
        assert_eq!(table.get(0x21, 3), Some(-7));
        assert_eq!(table.get(0x21, 2), Some(-7));
        assert_eq!(table.get(0x21, 4), None, "searched less deep than asked");
        assert_eq!(table.get(0x12, 1), None);
        table.clear();
        assert_eq!(table.get(0x21, 1), None, "an earlier move's entry");
    }

    #[test]
    fn the_generation_wraps_to_an_empty_table() {
        let mut table = TranspositionTable::new();
        table.put(0x21, 3, 5);
        table.generation = u16::MAX;
        table.put(0x31, 3, 6);
        table.clear();
        assert_eq!(table.generation, 1);
        assert_eq!(
            table.get(0x21, 1),
            None,
            "slot of generation 1 before the wrap"
        );
        assert_eq!(table.get(0x31, 1), None);
    }
}
