//! The harness's chip models against the datasheet, with a probe program (tests/probe/
//! probe.c, built here with avr-gcc for the ATmega328P) that does each thing once and sends
//! what it saw: the EEPROM's three modes and their write times, a power cut's torn byte, the
//! rules it refuses (a read during a write, EEPE without EEMPE), the SPI's byte time and its
//! write collision, a button's pull-up, held USART input, and the stack run into the static
//! data. Every check here is one the firmware tests rely on never failing.
#![cfg(unix)] // the emulator runs on Unix only

use std::path::PathBuf;
use std::process::Command;

use twenty48_sim_avr::eeprom::{torn, Mode};
use twenty48_sim_avr::{board, Error, Image, Options, Sim, Stop};

/// Builds the probe once; returns its `.hex` and ELF.
fn probe() -> (PathBuf, PathBuf) {
    static BUILT: std::sync::OnceLock<(PathBuf, PathBuf)> = std::sync::OnceLock::new();
    BUILT.get_or_init(build).clone()
}

fn build() -> (PathBuf, PathBuf) {
    // Under target/, rebuilt each run: nothing left in the temporary directory.
    let dir = twenty48_sim_avr::repo_root().join("target/avr-sim/probe");
    std::fs::create_dir_all(&dir).unwrap();
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/probe/probe.c");
    let (elf, hex) = (dir.join("probe.elf"), dir.join("probe.hex"));
    let built = Command::new("avr-gcc")
        .args(["-mmcu=atmega328p", "-Os", "-o"])
        .arg(&elf)
        .arg(&source)
        .status()
        .expect("avr-gcc runs (Debian: apt-get install gcc-avr avr-libc)");
    assert!(built.success(), "avr-gcc failed on {}", source.display());
    let copied = Command::new("avr-objcopy")
        .args(["-O", "ihex", "-R", ".eeprom"])
        .arg(&elf)
        .arg(&hex)
        .status()
        .expect("avr-objcopy runs (Debian: apt-get install binutils-avr)");
    assert!(copied.success());
    (hex, elf)
}

fn run(image: &Image, options: &Options) -> (Sim, Stop) {
    let mut sim = Sim::start(image, options).unwrap_or_else(|e| panic!("{e}"));
    // Until the probe's last report ('E'), then the bytes it never reads, then its end.
    while sim.uart.last() != Some(&b'E') && sim.now_ns() < 100_000_000 {
        let stop = sim.run_for(500_000).unwrap();
        if stop != Stop::Time {
            return (sim, stop);
        }
    }
    sim.send(b"0123456789").unwrap();
    let stop = sim.run(400_000_000, 0, 0).unwrap();
    (sim, stop)
}

#[test]
fn the_chip_models_follow_the_datasheet() {
    let (hex, elf) = probe();
    let image = Image::load(&board::UNO, &hex, &elf).unwrap_or_else(|e| panic!("{e}"));
    let (mut sim, stop) = run(&image, &Options::default());
    assert_eq!(
        stop,
        Stop::Done,
        "the probe sleeps with interrupts off at its end"
    );
    let out = sim.uart.clone();
    assert_eq!((out[0], out[out.len() - 1]), (b'P', b'E'), "{out:?}");
    let ticks = |i: usize| u16::from_le_bytes([out[i], out[i + 1]]);
    // EEPM 00: erase and write, 3.4 ms (850 ticks of 4 us); 10: write only, 1.8 ms, bits
    // only cleared; 01: erase only, 1.8 ms.
    assert_eq!(out[1], 0x5A);
    assert!(
        (845..=856).contains(&ticks(2)),
        "erase and write: {} ticks",
        ticks(2)
    );
    assert_eq!(out[4], 0x5A & 0x0F);
    assert!(
        (445..=456).contains(&ticks(5)),
        "write only: {} ticks",
        ticks(5)
    );
    assert_eq!(out[7], 0xFF);
    assert!(
        (445..=456).contains(&ticks(8)),
        "erase only: {} ticks",
        ticks(8)
    );
    // EEPE without EEMPE wrote nothing; the released button read high through its pull-up.
    assert_eq!((out[10], out[11]), (0xFF, 1));
    let modes: Vec<Mode> = sim.eeprom_ops.ops.iter().map(|op| op.mode).collect();
    assert_eq!(
        modes,
        [Mode::EraseWrite, Mode::Write, Mode::Erase, Mode::EraseWrite]
    );
    let eeprom = sim.eeprom().unwrap();
    assert_eq!(&eeprom[10..13], &[0xFF, 0x33, 0xFF]);
    let broken: Vec<&str> = sim.violations.iter().map(|v| v.what.as_str()).collect();
    assert_eq!(
        broken,
        [
            "eeprom-read-while-busy",
            "eeprom-eepe-without-eempe",
            "spi-write-collision"
        ]
    );
    // SPI at clk/16: 8 us a byte; the byte written during the transfer never went out.
    let spi: Vec<u8> = sim.spi.iter().map(|b| b.byte).collect();
    assert_eq!(spi, [0xF8, 0xF8, 0x22]);
    let gap = sim.spi[2].at_ns - sim.spi[1].at_ns;
    assert!((8_000..9_000).contains(&gap), "{gap} ns between two bytes");
    let stats = sim.stats().unwrap();
    // The Uno's four buttons are on port D: the first read of PIND found all four without
    // pull-up, the second D5-D7 (the probe turned on D4's alone).
    assert_eq!(
        stats.floating_reads,
        4 + 3,
        "button pins read without their pull-ups"
    );
    assert!(stats.held_bytes > 0, "bytes the probe never read waited");
    // The recursion ran the stack into the static data.
    let breach = sim.stack_breach.expect("the stack reached the static data");
    assert!(breach.sp + 1 < image.static_end);
    assert!(sim.stack().unwrap().untouched < 0);
}

#[test]
fn a_power_cut_tears_the_byte_of_its_operation() {
    let (hex, elf) = probe();
    let image = Image::load(&board::UNO, &hex, &elf).unwrap();
    for seed in [1, 2, 3, 40, 99] {
        let (mut sim, stop) = run(
            &image,
            &Options {
                cut: Some((2, seed)),
                ..Options::default()
            },
        );
        assert_eq!(stop, Stop::Cut);
        let eeprom = sim.eeprom().unwrap();
        // Operation 2 is the write only of 0x0F over 0x5A.
        assert_eq!(eeprom[10], torn(0x5A, Mode::Write, 0x0A, seed));
        assert_eq!(sim.eeprom_ops.cut_at(2, seed), Some(eeprom));
    }
}

#[test]
fn a_hex_that_is_not_its_elf_is_refused() {
    let (hex, elf) = probe();
    let text = std::fs::read_to_string(&hex).unwrap();
    // One data byte changed (its record's checksum fixed): the ELF says otherwise.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let line = &mut lines[1];
    let mut bytes: Vec<u8> = (1..line.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&line[i..i + 2], 16).unwrap())
        .collect();
    bytes[4] ^= 0x01;
    let n = bytes.len();
    bytes[n - 1] = 0u8.wrapping_sub(bytes[..n - 1].iter().fold(0u8, |s, b| s.wrapping_add(*b)));
    *line = format!(
        ":{}",
        bytes.iter().map(|b| format!("{b:02X}")).collect::<String>()
    );
    let bad = hex.with_extension("bad.hex");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    match Image::load(&board::UNO, &bad, &elf) {
        Err(Error::ImageMismatch { address, .. }) => assert_eq!(address, 16),
        other => panic!("{other:?}"),
    }
}

/// Whether process `pid` still exists (not yet reaped).
fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn the_harness_is_killed_on_drop_and_when_it_takes_too_long() {
    // The Uno's firmware, which runs until the power goes.
    let image = Image::shipped(&board::UNO).unwrap_or_else(|e| panic!("{e}"));
    let sim = Sim::start(&image, &Options::default()).unwrap();
    let pid = sim.pid();
    assert!(alive(pid));
    drop(sim);
    assert!(!alive(pid), "dropped, the harness is gone");
    let mut sim = Sim::start(
        &image,
        &Options {
            limit: std::time::Duration::from_millis(50),
            ..Options::default()
        },
    )
    .unwrap();
    let pid = sim.pid();
    // Ten minutes of emulated time take far longer than 50 ms.
    match sim.run(600_000_000_000, 0, 0) {
        Err(Error::Timeout { .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(!alive(pid), "timed out, the harness is gone");
}
