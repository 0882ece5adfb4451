//! The device's id, kept in an erase sector of its own beside the store (runs on the board):
//! made once from what the board draws (ADC noise, timer jitter) on its first boot, read
//! back on every later one, so that two boards do not report the same id.
//!
//! The record, at the start of its sector: `"T48I"`, the id (u64, little-endian), CRC-32 of
//! the 12 bytes before: 16 bytes. Anything else there (an erased sector, a previous sketch's
//! bytes, a record torn by a power cut) is no id: the sector is erased and a fresh id
//! written. A power cut while it is written loses only that id, before any game used it.

use embedded_storage::nor_flash::NorFlash;

use twenty48_deviceproto::crc32;

/// Bytes of the id record.
pub const ID_RECORD_LEN: usize = 16;

const MAGIC: &[u8; 4] = b"T48I";

/// The id recorded at `at` (the first byte of an erase sector the store does not use), or,
/// when none is readable there, `fresh()` written there now. Returns the id and whether it
/// was just made.
///
/// ```
/// use twenty48_devicestore::{device_id, MemFlash};
///
/// // The Mega's 4 KB EEPROM: the store in the first 15 sectors, the id in the last.
/// let mut eeprom = MemFlash::<_, 256>::new_sized([0xFF; 4096]);
/// let (id, made) = device_id(&mut eeprom, 3840, || 0x2560_1234_5678_9abc)?;
/// assert!(made);
/// // The next boot reads it back; what it would draw is not used.
/// assert_eq!(device_id(&mut eeprom, 3840, || 7)?, (id, false));
/// # Ok::<(), twenty48_devicestore::nor::NorError>(())
/// ```
pub fn device_id<F: NorFlash>(
    flash: &mut F,
    at: u32,
    fresh: impl FnOnce() -> u64,
) -> Result<(u64, bool), F::Error> {
    if let Some(id) = read_record(flash, at, MAGIC)? {
        return Ok((id, false));
    }
    let id = fresh();
    write_record(flash, at, MAGIC, id)?;
    Ok((id, true))
}

/// The value of the 16-byte record at `at` (`magic`, the value, CRC-32 of the 12 bytes
/// before), or `None` when there is no whole record of that magic there.
pub(crate) fn read_record<F: NorFlash>(
    flash: &mut F,
    at: u32,
    magic: &[u8; 4],
) -> Result<Option<u64>, F::Error> {
    let mut record = [0u8; ID_RECORD_LEN];
    flash.read(at, &mut record)?;
    let crc = u32::from_le_bytes([record[12], record[13], record[14], record[15]]);
    if &record[..4] != magic || crc32(&record[..12]) != crc {
        return Ok(None);
    }
    let mut value = [0u8; 8];
    value.copy_from_slice(&record[4..12]);
    Ok(Some(u64::from_le_bytes(value)))
}

/// Erases the sector at `at` and writes the record of `value` under `magic` there.
pub(crate) fn write_record<F: NorFlash>(
    flash: &mut F,
    at: u32,
    magic: &[u8; 4],
    value: u64,
) -> Result<(), F::Error> {
    let mut record = [0u8; ID_RECORD_LEN];
    record[..4].copy_from_slice(magic);
    record[4..12].copy_from_slice(&value.to_le_bytes());
    let crc = crc32(&record[..12]);
    record[12..].copy_from_slice(&crc.to_le_bytes());
    flash.erase(at, at + F::ERASE_SIZE as u32)?;
    flash.write(at, &record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemFlash;

    /// A power cut at every operation of the first boot's write, torn in many ways: the next
    /// boot has the first id (the record survived whole) or makes one, and every boot after
    /// it reads that one. Never an id nobody drew.
    #[test]
    fn a_power_cut_while_the_id_is_written_never_yields_a_wrong_id() {
        let mut cases = 0;
        for k in 1..=4 {
            for seed in 0..200 {
                let mut eeprom = MemFlash::<_, 128>::new_sized([0xFF; 1024]);
                eeprom.bytes_mut()[896..].fill(0x3C); // a previous sketch's bytes
                eeprom.cut_power_at(k, seed);
                let first = device_id(&mut eeprom, 896, || 111);
                let cut = eeprom.is_cut();
                let mut eeprom = MemFlash::<_, 128>::new_sized(eeprom.into_inner());
                let (id, made) = device_id(&mut eeprom, 896, || 222).unwrap();
                if cut {
                    assert!(first.is_err());
                    assert!(id == 111 || (id == 222 && made), "k {k} seed {seed}: {id}");
                } else {
                    assert_eq!((first.unwrap(), id, made), ((111, true), 111, false));
                }
                assert_eq!(device_id(&mut eeprom, 896, || 333).unwrap(), (id, false));
                // The store's sectors are untouched.
                assert!(eeprom.bytes()[..896].iter().all(|&b| b == 0xFF));
                cases += 1;
            }
        }
        assert_eq!(cases, 800);
    }

    #[test]
    fn a_damaged_record_is_replaced() {
        let mut eeprom = MemFlash::<_, 128>::new_sized([0xFF; 1024]);
        assert_eq!(device_id(&mut eeprom, 896, || 5).unwrap(), (5, true));
        eeprom.bytes_mut()[900] ^= 1;
        assert_eq!(device_id(&mut eeprom, 896, || 6).unwrap(), (6, true));
        assert_eq!(device_id(&mut eeprom, 896, || 7).unwrap(), (6, false));
    }
}
