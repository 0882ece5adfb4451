//! What the emulator tests share: the firmware built and its UF2 written as `just firmware`
//! does, boards started on it, the log decoded with its ELF.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use twenty48_devicelog::{decode_capture, Capture};
pub mod lcd;
pub mod player;

use twenty48_sim_rp2040::{setup, Nano, Options};

/// The firmware workspace.
fn firmware_dir() -> PathBuf {
    setup::repo_root().join("crates/firmware")
}

/// The Nano's ELF, built as `just firmware` builds it (`cargo build --release` of the whole
/// firmware workspace), and its UF2 written to where `just firmware` writes it. Once per test
/// process.
pub fn firmware() -> &'static (PathBuf, Vec<u8>) {
    static BUILT: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = firmware_dir();
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "--release"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_BUILD_TARGET")
            .status()
            .expect("cargo runs");
        assert!(
            status.success(),
            "building the firmware failed (is the thumbv6m-none-eabi target installed?)"
        );
        let elf_path = dir.join("target/thumbv6m-none-eabi/release/twenty48-nano-rp2040");
        let elf = std::fs::read(&elf_path).expect("the Nano ELF");
        let uf2 = twenty48_uf2::Uf2::from_elf(&elf, twenty48_uf2::RP2040_FAMILY)
            .expect("the UF2 of the Nano ELF")
            .to_bytes();
        let out = setup::default_uf2();
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        let tmp = out.with_extension(format!("uf2.{}.tmp", std::process::id()));
        std::fs::write(&tmp, &uf2).unwrap();
        std::fs::rename(&tmp, &out).unwrap();
        (elf_path, elf)
    })
}

/// The Nano ELF's bytes (the host decodes the log with it).
pub fn elf() -> &'static [u8] {
    &firmware().1
}

/// A board on the firmware, started with `options` (the UF2 and ROM filled in), panicking
/// with the harness's explanation when it cannot start.
pub fn board(options: Options) -> Nano {
    firmware();
    Nano::start(&options).unwrap_or_else(|e| panic!("{e}"))
}

/// A board booted: LCD initialised, USB configured.
pub fn booted(options: Options) -> Nano {
    let mut nano = board(options);
    nano.run(Duration::from_millis(400))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        nano.seen().connected,
        "USB was not configured within 400 ms"
    );
    nano
}

/// Decodes a capture with the Nano ELF.
pub fn decoded(bytes: &[u8]) -> Capture {
    decode_capture(elf(), bytes).expect("the ELF has a defmt table")
}

/// A scratch path unique to this process.
pub fn scratch(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("t48-nano-{}-{n}-{name}", std::process::id()))
}

/// The `twenty48` binary (built by cargo for the CLI's own tests; here found beside this
/// test binary's target directory, built if missing).
pub fn twenty48() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let target = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
        let bin = target.join("twenty48");
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "twenty48-cli", "--bin", "twenty48"])
            .current_dir(setup::repo_root())
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building twenty48");
        bin
    })
    .clone()
}

/// Where the store's partition starts in the flash (the firmware's `PARTITION_START`).
pub const PARTITION: usize = 1 << 20;

/// Writes a 16 MB flash image to `path`: erased, but for garbage (a previous sketch's data,
/// say) in the partition's first `sectors` sectors, which the store erases before using.
pub fn garbage_flash(path: &Path, sectors: usize) {
    let mut image = vec![0xFFu8; 16 << 20];
    for (i, b) in image[PARTITION..PARTITION + sectors * 4096]
        .iter_mut()
        .enumerate()
    {
        *b = (i * 37 % 251) as u8;
    }
    std::fs::write(path, image).unwrap();
}

/// Fails on any harness warning but rp2040js's about the USB PHY registers (USB_MUXING,
/// USBPHY_DIRECT, its override and trims) and the write-only or read-only USB registers the
/// HAL clears at start-up: nothing the emulation depends on (docs/firmware.md). A firmware
/// that starts to use a peripheral the emulator does not model shows up here.
pub fn assert_known_notes(nano: &Nano) {
    let known = |n: &str| {
        n.starts_with("note usb bus reset ended by the host")
            || [
                "0x48", "0x5c", "0x74", "0x7c", "0x80", "0x84", "0x88", "0x8c", "0x98",
            ]
            .iter()
            .any(|r| {
                n.starts_with(&format!(
                    "warn [USB] Unimplemented peripheral read from {r}"
                )) || n.starts_with(&format!(
                    "warn [USB] Unimplemented peripheral write to {r}:"
                ))
            })
    };
    let unknown: Vec<&String> = nano.seen().notes.iter().filter(|n| !known(n)).collect();
    assert!(unknown.is_empty(), "harness warnings: {unknown:#?}");
}
