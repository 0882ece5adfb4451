//! The EEPROM's operations as the harness reports them, and what a power cut leaves.
//!
//! The harness runs each operation as the datasheet says (ATmega328P / ATmega2560 EECR:
//! EEPM1:0 picks erase and write in one operation, 3.4 ms; erase only, 1.8 ms; write only,
//! 1.8 ms; EEPE stays set until it is done) and reports each as it starts. A power cut during
//! operation k leaves the EEPROM as the operations before k left it, with k's byte torn:
//! some of the bits the operation was changing changed, the others not ([`torn`]). Since the
//! EEPROM is all that survives a power cut (RAM is lost, flash is not written), the image a
//! cut at any operation leaves can be rebuilt from one run's reports ([`Ops::cut_at`]); the
//! harness's own `--cut` stops a run there and gives the same image (the tests check both
//! ways agree).

/// How an operation changes its byte (EECR's EEPM1:0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Erase, then write, in one operation: the byte becomes the data.
    EraseWrite,
    /// Erase only: the byte becomes 0xFF.
    Erase,
    /// Write only: bits go from 1 to 0 where the data has 0 (new = old AND data).
    Write,
}

impl Mode {
    /// The mode of EEPM value `bits` (0, 1, 2; 3 is reserved).
    pub fn from_bits(bits: u8) -> Option<Mode> {
        match bits {
            0 => Some(Mode::EraseWrite),
            1 => Some(Mode::Erase),
            2 => Some(Mode::Write),
            _ => None,
        }
    }
}

/// One EEPROM operation, as it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    /// Its number since the chip was powered (from 1).
    pub k: u64,
    /// Emulated time it started, in ns from power-on.
    pub at_ns: u64,
    /// Its mode.
    pub mode: Mode,
    /// The byte's address.
    pub addr: u16,
    /// The byte before.
    pub old: u8,
    /// The byte once the operation is done.
    pub result: u8,
}

/// SplitMix64, the harness's generator (the same outputs on both sides).
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The byte a power cut during an operation leaves, torn the way `seed` picks (the
/// harness's `--cut K --tear SEED` tears the same way): of the bits the operation changes,
/// a random part changed. Erase and write is cut during its erase (some bits set) or during
/// its write after the erase (0xFF with some of the data's zeros written).
pub fn torn(old: u8, mode: Mode, result: u8, seed: u64) -> u8 {
    let mut state = seed;
    let r = splitmix(&mut state);
    let mask = r as u8;
    match mode {
        Mode::Erase => old | (mask & !old),
        Mode::Write => old & !(mask & old & !result),
        Mode::EraseWrite if r & 0x100 != 0 => old | (mask & !old),
        Mode::EraseWrite => !(mask & !result),
    }
}

/// The operations of one run, from an EEPROM image.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ops {
    /// The EEPROM when the run began.
    pub initial: Vec<u8>,
    /// Every operation, in order.
    pub ops: Vec<Op>,
}

impl Ops {
    /// The EEPROM once operations `1..=n` are done.
    pub fn after(&self, n: u64) -> Vec<u8> {
        let mut image = self.initial.clone();
        for op in self.ops.iter().take_while(|op| op.k <= n) {
            image[op.addr as usize] = op.result;
        }
        image
    }

    /// The EEPROM a power cut during operation `k` leaves (its byte [`torn`] by `seed`), or
    /// `None` when the run has no operation `k`.
    pub fn cut_at(&self, k: u64, seed: u64) -> Option<Vec<u8>> {
        let op = self.ops.iter().find(|op| op.k == k)?;
        let mut image = self.after(k - 1);
        image[op.addr as usize] = torn(op.old, op.mode, op.result, seed);
        Some(image)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_byte_only_moves_the_bits_the_operation_moves() {
        for seed in 0..2000 {
            for old in [0x00, 0x5A, 0xA5, 0xFF, 0x0F] {
                for data in [0x00, 0x3C, 0xFF, 0x81] {
                    let erased = torn(old, Mode::Erase, 0xFF, seed);
                    assert_eq!(erased & old, old, "erase only sets bits");
                    let result = old & data;
                    let written = torn(old, Mode::Write, result, seed);
                    assert_eq!(written | old, old, "write only clears bits");
                    assert_eq!(written & result, result, "and only bits the data clears");
                    let both = torn(old, Mode::EraseWrite, data, seed);
                    assert!(
                        both & old == old || both & data == data,
                        "{old:#x} {data:#x}"
                    );
                }
            }
        }
        // Tears differ from seed to seed.
        let outcomes: std::collections::BTreeSet<u8> =
            (0..200).map(|s| torn(0x00, Mode::Erase, 0xFF, s)).collect();
        assert!(outcomes.len() > 50, "{outcomes:?}");
    }

    #[test]
    fn a_cut_leaves_the_operations_before_it_and_a_torn_byte() {
        let op = |k, addr, old, result| Op {
            k,
            at_ns: k * 1000,
            mode: Mode::Write,
            addr,
            old,
            result,
        };
        let ops = Ops {
            initial: vec![0xFF; 4],
            ops: vec![
                op(1, 0, 0xFF, 0x12),
                op(2, 1, 0xFF, 0x34),
                op(3, 0, 0x12, 0x10),
            ],
        };
        assert_eq!(ops.after(3), vec![0x10, 0x34, 0xFF, 0xFF]);
        let cut = ops.cut_at(2, 7).unwrap();
        assert_eq!(cut[0], 0x12);
        assert_eq!(cut[1], torn(0xFF, Mode::Write, 0x34, 7));
        assert_eq!(ops.cut_at(4, 7), None);
    }
}
