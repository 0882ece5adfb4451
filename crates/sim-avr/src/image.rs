//! A board's shipped image: the `.hex` `just firmware` writes, checked byte for byte against
//! the ELF it came from, with what the tests need from the ELF (the end of the static data,
//! the defmt table's bytes).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use object::elf::{FileHeader32, EM_AVR, PT_LOAD};
use object::read::elf::{FileHeader, ProgramHeader};
use object::{LittleEndian, Object, ObjectSection, ObjectSymbol};

use crate::board::Board;
use crate::error::{io, Error};
use crate::hex;

/// ELF addresses at or above this are RAM (0x800000) or EEPROM (0x810000), not flash.
const DATA_SPACE: u32 = 0x80_0000;

/// The repository's root (this crate is crates/sim-avr).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Builds every AVR board's ELF and writes the `.hex` files to target/firmware, as `just
/// firmware` does (both run crates/firmware-avr/images.sh), once per process.
pub fn build_shipped() -> Result<(), Error> {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let result = BUILT.get_or_init(|| {
        let root = repo_root();
        let script = root.join("crates/firmware-avr/images.sh");
        let status = Command::new("bash")
            .arg(&script)
            .arg(root.join("target/firmware"))
            .status()
            .map_err(|e| format!("running {}: {e}", script.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!(
                "{} failed ({status}): it needs the nightly of \
                 crates/firmware-avr/rust-toolchain.toml with rust-src, gcc-avr, avr-libc and \
                 binutils-avr (`just setup-avr`)",
                script.display()
            ))
        }
    });
    result.clone().map_err(|what| Error::Build { what })
}

/// A board's program: its flash bytes from the `.hex`, and its ELF.
#[derive(Clone, Debug)]
pub struct Image {
    /// The board it is for.
    pub board: Board,
    /// The `.hex` file.
    pub hex: PathBuf,
    /// The ELF file.
    pub elf: PathBuf,
    /// The flash from address 0 (gaps erased, 0xFF).
    pub flash: Vec<u8>,
    /// The ELF's bytes (the defmt table the host decodes the log with).
    pub elf_bytes: Vec<u8>,
    /// The first RAM address of the static data (the `.data` section's).
    pub data_start: u16,
    /// The first RAM address past the static data (`_end`: the end of .bss and .noinit).
    pub static_end: u16,
}

impl Image {
    /// The board's image as `just firmware` writes it (built first, see [`build_shipped`]).
    pub fn shipped(board: &Board) -> Result<Image, Error> {
        build_shipped()?;
        let root = repo_root();
        let elf = root.join("crates/firmware-avr").join(board.elf);
        Image::load(board, &root.join(board.hex), &elf)
    }

    /// Reads `hex` and `elf` and checks that the `.hex` holds exactly the ELF's flash bytes.
    pub fn load(board: &Board, hex: &Path, elf: &Path) -> Result<Image, Error> {
        let text =
            std::fs::read_to_string(hex).map_err(io(format!("reading {}", hex.display())))?;
        let image = hex::parse(hex, &text, board.flash)?;
        let elf_bytes = std::fs::read(elf).map_err(io(format!("reading {}", elf.display())))?;
        let bad = |problem: &str| Error::Elf {
            path: elf.to_path_buf(),
            problem: problem.to_string(),
        };
        let program = elf_flash(&elf_bytes, board.flash).map_err(|p| bad(&p))?;
        let len = image.bytes.len().max(program.bytes.len());
        for a in 0..len {
            let from_hex = image.written.get(a).copied().unwrap_or(false);
            let from_elf = program.written.get(a).copied().unwrap_or(false);
            if from_hex != from_elf || (from_hex && image.bytes[a] != program.bytes[a]) {
                return Err(Error::ImageMismatch {
                    hex: hex.to_path_buf(),
                    elf: elf.to_path_buf(),
                    address: a as u32,
                });
            }
        }
        let file = object::File::parse(&*elf_bytes).map_err(|e| bad(&e.to_string()))?;
        let ram = |address: u64| (address as u32 & 0xFFFF) as u16;
        let symbol = |name: &str| {
            file.symbols()
                .find(|s| s.name() == Ok(name))
                .map(|s| ram(s.address()))
        };
        // avr-libc's linker scripts always define `_end` (after .bss and .noinit); its
        // `__heap_start` is the same address, when the program refers to it.
        let static_end = symbol("_end")
            .or_else(|| symbol("__heap_start"))
            .ok_or_else(|| bad("no symbol _end (avr-libc's linker scripts define it)"))?;
        let data_start = file
            .section_by_name(".data")
            .map(|s| ram(s.address()))
            .ok_or_else(|| bad("no .data section"))?;
        Ok(Image {
            board: *board,
            hex: hex.to_path_buf(),
            elf: elf.to_path_buf(),
            flash: image.bytes,
            data_start,
            static_end,
            elf_bytes,
        })
    }

    /// Bytes of static RAM (.data and .bss).
    pub fn static_ram(&self) -> u16 {
        self.static_end - self.data_start
    }

    /// Bytes of flash the program takes (the `.hex`'s extent).
    pub fn flash_used(&self) -> usize {
        self.flash.len()
    }
}

/// The flash bytes of an AVR ELF: every loadable segment's file bytes at its load (physical)
/// address below the data space.
fn elf_flash(bytes: &[u8], limit: usize) -> Result<hex::HexImage, String> {
    let header = FileHeader32::<LittleEndian>::parse(bytes).map_err(|e| e.to_string())?;
    let endian = header.endian().map_err(|e| e.to_string())?;
    if header.e_machine(endian) != EM_AVR {
        return Err("not an AVR ELF".into());
    }
    let mut image = hex::HexImage {
        bytes: Vec::new(),
        written: Vec::new(),
    };
    for segment in header
        .program_headers(endian, bytes)
        .map_err(|e| e.to_string())?
    {
        let (paddr, filesz) = (segment.p_paddr(endian), segment.p_filesz(endian));
        if segment.p_type(endian) != PT_LOAD || filesz == 0 || paddr >= DATA_SPACE {
            continue;
        }
        let data = segment
            .data(endian, bytes)
            .map_err(|()| "a segment past the end of the file".to_string())?;
        let (start, end) = (paddr as usize, paddr as usize + filesz as usize);
        if end > limit {
            return Err(format!("a segment ends at {end:#x}, past the chip's flash"));
        }
        if image.bytes.len() < end {
            image.bytes.resize(end, 0xFF);
            image.written.resize(end, false);
        }
        image.bytes[start..end].copy_from_slice(data);
        image.written[start..end].fill(true);
    }
    Ok(image)
}
