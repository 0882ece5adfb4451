//! The UF2 of the real Nano RP2040 Connect firmware: built from the firmware workspace, every
//! block checked, the second-stage bootloader first with the checksum the RP2040's ROM
//! demands, and the whole image inside the firmware's first megabyte of flash (the rest is
//! the game store's).

use std::path::{Path, PathBuf};
use std::process::Command;

use twenty48_uf2::{check, load_segments, Uf2, PAGE, RP2040_FAMILY};

fn firmware_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware")
}

/// Builds the Nano firmware (release, as flashed) and returns its ELF's bytes.
fn nano_elf() -> Vec<u8> {
    let dir = firmware_dir();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "-q",
            "-p",
            "twenty48-firmware-nano-rp2040",
        ])
        .current_dir(&dir)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the Nano firmware builds");
    let elf = dir.join("target/thumbv6m-none-eabi/release/twenty48-nano-rp2040");
    std::fs::read(&elf).unwrap_or_else(|e| panic!("cannot read {}: {e}", elf.display()))
}

/// CRC-32/MPEG-2 (polynomial 0x04C11DB7, not reflected, init 0xFFFFFFFF, no final XOR): what
/// the RP2040's boot ROM checks over the first 252 bytes of the second-stage bootloader.
fn crc32_mpeg2(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= (b as u32) << 24;
        for _ in 0..8 {
            crc = if crc & 0x8000_0000 != 0 {
                (crc << 1) ^ 0x04C1_1DB7
            } else {
                crc << 1
            };
        }
    }
    crc
}

#[test]
fn the_mpeg2_crc_is_the_standard_one() {
    assert_eq!(crc32_mpeg2(b"123456789"), 0x0376_E6E7);
}

#[test]
fn the_nano_firmware_makes_a_valid_uf2() {
    let elf = nano_elf();
    let segments = load_segments(&elf).expect("the ELF's segments");
    let uf2 = Uf2::from_elf(&elf, RP2040_FAMILY).expect("a UF2 image");
    let bytes = uf2.to_bytes();
    let summary = check(&bytes).expect("every block valid");
    assert_eq!(summary.family, RP2040_FAMILY);
    assert_eq!(summary.first_address, 0x1000_0000, "boot2 comes first");
    assert!(
        summary.end_address <= 0x1010_0000,
        "the firmware stays in its first megabyte: ends at {:#x}",
        summary.end_address
    );
    let data_bytes: usize = segments.iter().map(|(_, d)| d.len()).sum();
    assert!(
        summary.blocks >= data_bytes.div_ceil(PAGE as usize),
        "{} blocks for {data_bytes} bytes",
        summary.blocks
    );
    // The first block carries boot2, whose last word is the CRC of the 252 bytes before it.
    let boot2 = &bytes[32..32 + 256];
    let stored = u32::from_le_bytes(boot2[252..256].try_into().unwrap());
    assert_eq!(crc32_mpeg2(&boot2[..252]), stored, "boot2's checksum");
    // The vector table follows boot2: an initial stack pointer in RAM and a Thumb reset vector
    // in flash.
    let vectors = &bytes[512 + 32..512 + 40];
    let sp = u32::from_le_bytes(vectors[..4].try_into().unwrap());
    let reset = u32::from_le_bytes(vectors[4..8].try_into().unwrap());
    assert!((0x2000_0000..=0x2004_2000).contains(&sp), "stack {sp:#x}");
    assert!(
        (0x1000_0100..0x1010_0000).contains(&reset) && reset & 1 == 1,
        "reset {reset:#x}"
    );
    println!(
        "twenty48-nano-rp2040.uf2: {} blocks, {} bytes of firmware, flash {:#x}..{:#x}",
        summary.blocks, data_bytes, summary.first_address, summary.end_address
    );
}
