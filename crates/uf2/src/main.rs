//! `twenty48-uf2 ELF [UF2]`: writes the UF2 file for an RP2040 firmware ELF, checks it, and
//! copies it to a mounted `RPI-RP2` drive when one is there (`--deploy`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use twenty48_uf2::{check, Uf2, RP2040_FAMILY};

const USAGE: &str = "\
usage: twenty48-uf2 ELF [UF2] [--deploy]

Writes the UF2 file for an RP2040 firmware ELF (default: the ELF's path with .uf2), checks
every block, and prints where it is. With --deploy, also copies it to a mounted RPI-RP2 drive
(the board's USB bootloader: hold BOOTSEL or double-press reset) when one is found.";

fn drives() -> Vec<PathBuf> {
    let mut found = Vec::new();
    let user = std::env::var("USER").unwrap_or_default();
    let roots = [
        PathBuf::from("/media").join(&user),
        PathBuf::from("/run/media").join(&user),
        PathBuf::from("/media"),
        PathBuf::from("/Volumes"),
        PathBuf::from("/mnt"),
    ];
    for root in roots {
        let candidate = root.join("RPI-RP2");
        if candidate.join("INFO_UF2.TXT").is_file() {
            found.push(candidate);
        }
    }
    found
}

fn run(args: &[String]) -> Result<(), String> {
    let deploy = args.iter().any(|a| a == "--deploy");
    let paths: Vec<&String> = args.iter().filter(|a| *a != "--deploy").collect();
    if paths.is_empty() || paths.len() > 2 || paths.iter().any(|p| p.starts_with('-')) {
        return Err(USAGE.into());
    }
    let elf_path = Path::new(paths[0]);
    let out = paths
        .get(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| elf_path.with_extension("uf2"));
    let elf =
        std::fs::read(elf_path).map_err(|e| format!("cannot read {}: {e}", elf_path.display()))?;
    let uf2 =
        Uf2::from_elf(&elf, RP2040_FAMILY).map_err(|e| format!("{}: {e}", elf_path.display()))?;
    let bytes = uf2.to_bytes();
    let summary =
        check(&bytes).map_err(|e| format!("internal error, the UF2 made is invalid: {e}"))?;
    let tmp = out.with_extension("uf2.tmp");
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::rename(&tmp, &out))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "{}: {} blocks, family {:#010x}, flash {:#010x}..{:#010x}",
        out.display(),
        summary.blocks,
        summary.family,
        summary.first_address,
        summary.end_address
    );
    if deploy {
        match drives().first() {
            Some(drive) => {
                let target = drive.join(out.file_name().unwrap_or_default());
                std::fs::copy(&out, &target)
                    .map_err(|e| format!("cannot copy to {}: {e}", target.display()))?;
                println!("copied to {} (the board restarts into the game)", target.display());
            }
            None => println!(
                "no RPI-RP2 drive mounted: hold BOOTSEL (or double-press reset) and copy {} onto it",
                out.display()
            ),
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
