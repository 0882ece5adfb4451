//! The game counter of the EEPROM store (the Arduino Uno's, which kept only this counter
//! before it had a store): the next game's number in two erase sectors, written before each
//! game starts, so that numbers never repeat across power cycles.
//!
//! Each sector holds a 16-byte record as the device id's (`"T48N"`, the next number as a
//! u64, CRC-32), written by the same code. A game's number is given only once the record of
//! the number after it is whole in the sector that did not hold the latest one: a power cut
//! while it is written tears that sector alone, and the other still holds a number no game
//! was given yet.

use embedded_storage::nor_flash::NorFlash;

use crate::identity::{read_record, write_record};

const MAGIC: &[u8; 4] = b"T48N";

/// The next game number, kept in the two erase sectors from a given offset of a flash the
/// caller owns (each call takes it).
///
/// ```
/// use twenty48_devicestore::{GameCounter, MemFlash};
///
/// let mut eeprom = MemFlash::<_, 128>::new_sized([0xFF; 1024]);
/// let mut counter = GameCounter::open(&mut eeprom, 0)?;
/// assert_eq!(counter.take(&mut eeprom)?, 1);
/// assert_eq!(counter.take(&mut eeprom)?, 2);
/// // After a power cycle the numbers go on.
/// let counter = GameCounter::open(&mut eeprom, 0)?;
/// assert_eq!(counter.next_game_number(), 3);
/// # Ok::<(), twenty48_devicestore::nor::NorError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct GameCounter {
    first: u32,
    next: u32,
    /// The sector (0 or 1) whose record is the latest.
    latest: u8,
}

impl GameCounter {
    /// Reads the counter in the two erase sectors from `first`: the larger number of the
    /// whole records there, or 1 when there is none (a fresh board).
    pub fn open<F: NorFlash>(flash: &mut F, first: u32) -> Result<GameCounter, F::Error> {
        let a = read_record(flash, first, MAGIC)?;
        let b = read_record(flash, first + F::ERASE_SIZE as u32, MAGIC)?;
        let number = |v: Option<u64>| v.map_or(0, |v| u32::try_from(v).unwrap_or(u32::MAX));
        let (a, b) = (number(a), number(b));
        Ok(GameCounter {
            first,
            next: a.max(b).max(1),
            latest: u8::from(b > a),
        })
    }

    /// The number the next game will be given.
    pub fn next_game_number(&self) -> u32 {
        self.next
    }

    /// Makes the next number at least `number` (a store that found a game numbered
    /// `number - 1` says so; recorded by the next [`take`](GameCounter::take)).
    pub fn at_least(&mut self, number: u32) {
        self.next = self.next.max(number);
    }

    /// Gives the next game its number, once the number after it is recorded in `flash` (an
    /// error: no number given; the game must not start).
    pub fn take<F: NorFlash>(&mut self, flash: &mut F) -> Result<u32, F::Error> {
        let number = self.next;
        let other = 1 - self.latest;
        let at = self.first + u32::from(other) * F::ERASE_SIZE as u32;
        write_record(flash, at, MAGIC, u64::from(number) + 1)?;
        self.latest = other;
        self.next = number + 1;
        Ok(number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemFlash;

    /// Power cuts at every operation of a run of games, torn in many ways, boot after boot:
    /// no number is given twice and every number given is larger than the ones before.
    #[test]
    fn a_power_cut_never_gives_a_number_twice() {
        let mut cases = 0;
        for k in 1..=6 {
            for seed in 0..100 {
                let mut bytes = [0x3Cu8; 512]; // a previous sketch's bytes
                let (mut last, mut given) = (0u32, 0u32);
                for boot in 0..5u64 {
                    let mut eeprom = MemFlash::<_, 128>::new_sized(bytes);
                    if boot % 2 == 0 {
                        eeprom.cut_power_at(k, seed * 7 + boot);
                    }
                    if let Ok(mut counter) = GameCounter::open(&mut eeprom, 128) {
                        for _ in 0..3 {
                            match counter.take(&mut eeprom) {
                                Ok(n) => {
                                    assert!(n > last, "k {k} seed {seed}: {n} after {last}");
                                    (last, given) = (n, given + 1);
                                }
                                Err(_) => break,
                            }
                        }
                    }
                    bytes = eeprom.into_inner();
                    // The sectors beside the counter's are untouched.
                    assert!(bytes[..128].iter().chain(&bytes[384..]).all(|&b| b == 0x3C));
                }
                assert!(given > 0, "k {k} seed {seed}");
                cases += 1;
            }
        }
        assert_eq!(cases, 600);
    }

    #[test]
    fn the_older_record_damaged_changes_nothing() {
        let mut eeprom = MemFlash::<_, 128>::new_sized([0xFF; 1024]);
        let mut counter = GameCounter::open(&mut eeprom, 0).unwrap();
        assert_eq!(
            (
                counter.take(&mut eeprom).unwrap(),
                counter.take(&mut eeprom).unwrap()
            ),
            (1, 2)
        );
        // Sector 1 holds 2, sector 0 the latest, 3.
        eeprom.bytes_mut()[133] ^= 1;
        let mut counter = GameCounter::open(&mut eeprom, 0).unwrap();
        assert_eq!(counter.take(&mut eeprom).unwrap(), 3);
        assert_eq!(
            GameCounter::open(&mut eeprom, 0)
                .unwrap()
                .next_game_number(),
            4
        );
    }
}
