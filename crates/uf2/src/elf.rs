//! The loadable segments of a 32-bit little-endian ELF file, read by hand: the program header
//! table is all a UF2 needs.

use crate::error::Uf2Error;

fn field(bytes: &[u8], offset: u64, len: usize, what: &'static str) -> Result<u64, Uf2Error> {
    let start = usize::try_from(offset).map_err(|_| Uf2Error::Truncated { what, offset })?;
    let slice = start
        .checked_add(len)
        .and_then(|end| bytes.get(start..end))
        .ok_or(Uf2Error::Truncated { what, offset })?;
    Ok(slice
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | b as u64))
}

/// Every `PT_LOAD` segment with data: `(load address, bytes)`, by its physical (load)
/// address, in the order of the program header table. Segments with no bytes in the file
/// (`.bss`) are left out.
pub fn load_segments(elf: &[u8]) -> Result<Vec<(u32, Vec<u8>)>, Uf2Error> {
    if elf.len() < 52 || &elf[..4] != b"\x7fELF" {
        return Err(Uf2Error::NotElf("no ELF magic"));
    }
    if elf[4] != 1 {
        return Err(Uf2Error::NotElf("not a 32-bit ELF"));
    }
    if elf[5] != 1 {
        return Err(Uf2Error::NotElf("not little-endian"));
    }
    let phoff = field(elf, 28, 4, "program header offset")?;
    let phentsize = field(elf, 42, 2, "program header size")?;
    let phnum = field(elf, 44, 2, "program header count")?;
    if phnum > 0 && phentsize < 32 {
        return Err(Uf2Error::NotElf("program headers shorter than 32 bytes"));
    }
    let mut segments = Vec::new();
    for i in 0..phnum {
        let at = phoff + i * phentsize;
        let what = "program header";
        if field(elf, at, 4, what)? != 1 {
            continue; // not PT_LOAD
        }
        let offset = field(elf, at + 4, 4, what)?;
        let paddr = field(elf, at + 12, 4, what)? as u32;
        let filesz = field(elf, at + 16, 4, what)?;
        if filesz == 0 {
            continue;
        }
        let start = offset as usize;
        let data = start
            .checked_add(filesz as usize)
            .and_then(|end| elf.get(start..end))
            .ok_or(Uf2Error::Truncated {
                what: "segment data",
                offset,
            })?;
        segments.push((paddr, data.to_vec()));
    }
    Ok(segments)
}
