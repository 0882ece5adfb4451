//! The NOR flash rules, as MemFlash and the plain functions enforce them.

use embedded_storage::nor_flash::{NorFlash, ReadNorFlash};
use twenty48_devicestore::nor::{self, NorError};
use twenty48_devicestore::MemFlash;

#[test]
fn a_program_never_sets_a_bit() {
    let mut f = MemFlash::new(vec![0xFF; 8192]);
    f.write(10, &[0b1010_1010]).unwrap();
    // Clearing more bits is fine; setting one back is not, and changes nothing.
    f.write(10, &[0b1000_1000]).unwrap();
    assert_eq!(
        f.write(10, &[0b1100_1000]),
        Err(NorError::SetsBit {
            offset: 10,
            old: 0b1000_1000,
            data: 0b1100_1000
        })
    );
    let mut b = [0];
    f.read(10, &mut b).unwrap();
    assert_eq!(b, [0b1000_1000]);
    assert_eq!(f.ops(), 2);
    // The plain function: all or nothing.
    let mut old = [0xFF, 0x0F];
    assert!(nor::apply_program(0, &mut old, &[0x00, 0x1F]).is_err());
    assert_eq!(old, [0xFF, 0x0F]);
    nor::apply_program(0, &mut old, &[0x00, 0x0E]).unwrap();
    assert_eq!(old, [0x00, 0x0E]);
}

#[test]
#[should_panic(expected = "would set a 0 bit to 1")]
fn a_strict_flash_panics_on_a_bit_set() {
    let mut f = MemFlash::new(vec![0xFF; 4096]).strict();
    f.write(0, &[0]).unwrap();
    let _ = f.write(0, &[1]);
}

#[test]
fn a_program_never_crosses_a_page() {
    let mut f = MemFlash::new(vec![0xFF; 8192]);
    assert_eq!(
        f.write(250, &[0; 10]),
        Err(NorError::CrossesPage {
            offset: 250,
            len: 10
        })
    );
    f.write(246, &[0; 10]).unwrap();
    f.write(256, &[0; 256]).unwrap();
    assert_eq!(
        nor::check_program(255, 2, 8192),
        Err(NorError::CrossesPage {
            offset: 255,
            len: 2
        })
    );
    assert!(nor::check_program(8190, 4, 8192).is_err());
}

#[test]
fn erase_takes_whole_aligned_sectors() {
    let mut f = MemFlash::new(vec![0x00; 3 * 4096]);
    assert_eq!(
        f.erase(100, 4096),
        Err(NorError::NotAligned {
            from: 100,
            to: 4096
        })
    );
    assert_eq!(
        f.erase(0, 4000),
        Err(NorError::NotAligned { from: 0, to: 4000 })
    );
    assert!(matches!(
        f.erase(0, 4 * 4096),
        Err(NorError::OutOfBounds { .. })
    ));
    f.erase(4096, 3 * 4096).unwrap();
    assert_eq!(f.ops(), 2, "one operation a sector");
    assert!(f.bytes()[..4096].iter().all(|&b| b == 0));
    assert!(f.bytes()[4096..].iter().all(|&b| b == 0xFF));
    assert_eq!(nor::check_erase(4096, 8192, 8192), Ok(4096..8192));
}

#[test]
fn a_power_cut_tears_one_operation_and_stops_the_rest() {
    for seed in 0..50 {
        let mut f = MemFlash::new(vec![0xFF; 4096]);
        f.write(0, &[0x0F; 4]).unwrap();
        f.cut_power_at(1, seed);
        assert_eq!(f.write(4, &[0x00; 100]), Err(NorError::PowerCut));
        assert!(f.is_cut());
        // A prefix done, one byte partly, the rest untouched.
        let b = &f.bytes()[4..104];
        let j = b.iter().position(|&x| x != 0).unwrap_or(99);
        assert!(b[j + 1..].iter().all(|&x| x == 0xFF));
        assert_eq!(f.write(200, &[0]), Err(NorError::PowerCut));
        let mut r = [0];
        assert_eq!(f.read(0, &mut r), Err(NorError::PowerCut));
        assert_eq!(f.bytes()[200], 0xFF);
    }
}

/// The tears MemFlash and the QEMU board's flash draw: pinned (the values of SplitMix64's
/// output function over seed ^ op << 32, computed apart), so that a power cut at the same
/// operation with the same seed tears as it always did. This must break if the draw changes.
#[test]
fn tears_are_pinned() {
    let pinned = [
        (nor::Tear::new(0, 1, 4096), (312, 26)),
        (nor::Tear::new(1, 17, 4096), (1748, 9)),
        (nor::Tear::new(7, 865, 24), (20, 114)),
        (nor::Tear::new(u64::MAX, u32::MAX, 1), (0, 162)),
    ];
    for (tear, (at, mask)) in pinned {
        assert_eq!((tear.at, tear.mask), (at, mask));
    }
}

#[test]
fn a_torn_program_and_erase() {
    let tear = nor::Tear {
        at: 2,
        mask: 0b0101_0101,
    };
    let mut flash = [0xFF, 0xF0, 0xFF, 0xFF];
    nor::tear_program(&mut flash, &[0x0F, 0x00, 0x00, 0x00], tear);
    // Two bytes done (AND), byte 2 only the mask's bits cleared, byte 3 untouched.
    assert_eq!(flash, [0x0F, 0x00, 0b1010_1010, 0xFF]);
    assert_eq!(tear.program_byte(0b1100_1100, 0), 0b1000_1000);
    let mut sector = [0x00; 4];
    nor::tear_erase(&mut sector, tear);
    assert_eq!(sector, [0xFF, 0xFF, 0b0101_0101, 0x00]);
    assert_eq!(tear.erase_byte(0b1000_0000), 0b1101_0101);
    // A tear at or past the end does the whole operation but the torn byte.
    let mut flash = [0xFF; 2];
    nor::tear_program(&mut flash, &[0, 0], nor::Tear { at: 5, mask: 0 });
    assert_eq!(flash, [0, 0]);
}
