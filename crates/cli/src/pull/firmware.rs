//! Which firmware ELF decodes a board's log when `pull` is not given `--elf`: the ELFs
//! `just firmware` built (or those in the folder `TWENTY48_ELF_DIR` names), each tried on the
//! first frames (`twenty48_devicelog::Probe`); the one whose defmt table reads them is used.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use twenty48_devicelog::Probe;

use crate::ports::board::{Board, BOARD_FIRMWARE};

/// The environment variable naming a folder of firmware ELFs to choose from, instead of
/// those `just firmware` built.
pub const ELF_DIR_VAR: &str = "TWENTY48_ELF_DIR";

/// The most files of a `TWENTY48_ELF_DIR` folder looked at.
const MAX_FILES: usize = 64;

/// Where `just firmware` leaves the ELFs, in the workspace this binary was built from.
const BUILT: [&str; 5] = [
    "crates/firmware/target/thumbv6m-none-eabi/release/twenty48-nano-rp2040",
    "crates/firmware-avr/target/avr-atmega2560/release/twenty48-mega2560.elf",
    "crates/firmware-avr/target/avr-atmega1280/release/twenty48-mega1280.elf",
    "crates/firmware-avr/target/avr-atmega328p/release/twenty48-uno.elf",
    "crates/firmware/target/thumbv6m-none-eabi/release/twenty48-qemu",
];

/// A firmware ELF that may decode the log.
pub struct Candidate {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

impl Candidate {
    /// Its name without `.elf`: `twenty48-mega2560`.
    fn stem(&self) -> String {
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        name.strip_suffix(".elf").unwrap_or(&name).to_string()
    }
}

/// The candidates and where they were looked for (for messages).
pub struct Candidates {
    pub list: Vec<Candidate>,
    pub place: String,
}

impl Candidates {
    /// The ELFs of the folder `TWENTY48_ELF_DIR` names, else those `just firmware` built in
    /// the workspace this binary came from. None found is an error that says where it looked.
    pub fn find() -> Result<Candidates> {
        let found = match std::env::var_os(ELF_DIR_VAR) {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                Candidates {
                    list: in_folder(&dir)?,
                    place: format!("{} ({ELF_DIR_VAR})", crate::input::shown(&dir)),
                }
            }
            None => {
                let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
                let root = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
                let list = BUILT
                    .iter()
                    .map(|rel| root.join(rel))
                    .filter(|p| p.is_file())
                    .map(|path| read(&path).map(|bytes| Candidate { path, bytes }))
                    .collect::<Result<_>>()?;
                Candidates {
                    list,
                    place: format!(
                        "the firmware built by `just firmware` in {}",
                        crate::input::shown(root)
                    ),
                }
            }
        };
        if found.list.is_empty() {
            bail!(
                "no firmware ELF to decode the log with: none in {}; give --elf, or set {ELF_DIR_VAR} to a folder of them",
                found.place
            );
        }
        Ok(found)
    }

    /// A probe of these candidates, in order.
    pub fn probe(&self) -> Probe {
        let elfs: Vec<&[u8]> = self.list.iter().map(|c| c.bytes.as_slice()).collect();
        Probe::new(&elfs)
    }

    /// The names of the candidates `indexes`, for a message.
    fn names(&self, indexes: impl IntoIterator<Item = usize>) -> String {
        indexes
            .into_iter()
            .map(|i| crate::input::shown(&self.list[i].path))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The candidate whose table reads the frames `probe` was fed from `source` (a port
    /// or capture, and the board recognised on it). Several that read them alike are
    /// narrowed by the board's firmware, then taken as one when their tables agree. An
    /// error names the candidates: none reads the log, several do and differ, or the one
    /// that does is another board's firmware. Returns the one chosen and the others that
    /// decode alike with it.
    pub fn choose(
        &self,
        probe: &Probe,
        source: &str,
        board: Option<Board>,
    ) -> Result<(usize, Vec<usize>)> {
        let mut readers = probe.readers();
        if readers.is_empty() {
            bail!(
                "no firmware ELF among {} decodes the frames of {source}: {}; give --elf with the firmware the board runs",
                self.place,
                self.names(0..self.list.len())
            );
        }
        if let Some(board) = board {
            let its: Vec<usize> = readers
                .iter()
                .copied()
                .filter(|&i| board.firmware().contains(&self.list[i].stem().as_str()))
                .collect();
            if !its.is_empty() {
                readers = its;
            }
        }
        let first = readers[0];
        if !readers.iter().all(|&i| probe.alike(first, i)) {
            bail!(
                "{} firmware ELFs decode the frames of {source}: {}; give --elf with the one the board runs",
                readers.len(),
                self.names(readers)
            );
        }
        let stem = self.list[first].stem();
        // A clone's chip says nothing of the board behind it: only a board's own identity
        // can contradict a board's firmware.
        if let Some(board) = board.filter(|b| !matches!(b, Board::Ch340Clone | Board::Ftdi)) {
            if BOARD_FIRMWARE.contains(&stem.as_str()) && !board.firmware().contains(&stem.as_str())
            {
                bail!(
                    "{source} is an {} but its frames decode with {}, another board's firmware; give --elf if that is right",
                    board.name(),
                    crate::input::shown(&self.list[first].path)
                );
            }
        }
        Ok((first, readers[1..].to_vec()))
    }

    /// The sentence that says which ELF `choose` chose for `source`.
    pub fn told(&self, (chosen, alike): &(usize, Vec<usize>), source: &str) -> String {
        let path = crate::input::shown(&self.list[*chosen].path);
        let of = crate::style::count(self.list.len() as u64, "ELF", "ELFs");
        if alike.is_empty() {
            format!(
                "firmware: {path}, the one of {of} in {} whose defmt table decodes the frames of {source}",
                self.place
            )
        } else {
            format!(
                "firmware: {path}, the first of {of} in {} whose defmt tables decode the frames of {source}, and alike: also {}",
                self.place,
                self.names(alike.iter().copied())
            )
        }
    }
}

/// The firmware `given` (its bytes `elf`) decoded nothing of `head`, the first bytes of
/// `source`: when another of the candidates does, that is an error naming both.
pub fn check_given(given: &Path, elf: &[u8], head: &[u8], source: &str) -> Result<()> {
    let Ok(found) = Candidates::find() else {
        return Ok(());
    };
    let mut elfs: Vec<&[u8]> = vec![elf];
    elfs.extend(found.list.iter().map(|c| c.bytes.as_slice()));
    let mut probe = Probe::new(&elfs);
    probe.feed(head);
    let readers = probe.readers();
    if readers.is_empty() || readers.contains(&0) {
        return Ok(());
    }
    bail!(
        "{source} does not log with the firmware {}: its frames decode with {} ({}); give that --elf, or leave --elf out",
        crate::input::shown(given),
        found.names(readers.iter().map(|i| i - 1)),
        found.place
    )
}

/// The ELF files of a folder (by name, at most [`MAX_FILES`] looked at).
fn in_folder(dir: &Path) -> Result<Vec<Candidate>> {
    let shown = crate::input::shown(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the folder {shown} ({ELF_DIR_VAR})"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        // Regular files, links followed; not folders, devices or pipes.
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths.into_iter().take(MAX_FILES) {
        if is_elf(&path) {
            out.push(Candidate {
                bytes: read(&path)?,
                path,
            });
        }
    }
    Ok(out)
}

/// Whether a file starts as an ELF does.
fn is_elf(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| magic == *b"\x7fELF")
}

fn read(path: &Path) -> Result<Vec<u8>> {
    crate::input::read(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(version: &str, file: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../devicelog/tests/data")
            .join(version)
            .join(file)
    }

    fn candidate(path: PathBuf, name: &str) -> Candidate {
        Candidate {
            bytes: std::fs::read(&path).unwrap(),
            path: PathBuf::from(name),
        }
    }

    fn candidates(list: Vec<Candidate>) -> Candidates {
        Candidates {
            list,
            place: "test".into(),
        }
    }

    fn probed(c: &Candidates, capture: &Path) -> Probe {
        let mut probe = c.probe();
        probe.feed(&std::fs::read(capture).unwrap());
        probe
    }

    #[test]
    fn the_one_elf_that_reads_the_log() {
        let c = candidates(vec![
            candidate(data("v1", "twenty48-qemu.elf"), "v1.elf"),
            candidate(data("v2", "twenty48-qemu.elf"), "v2.elf"),
            candidate(data("v3", "twenty48-qemu.elf"), "v3.elf"),
        ]);
        let probe = probed(&c, &data("v2", "session.bin"));
        assert_eq!(c.choose(&probe, "capture.bin", None).unwrap().0, 1);
        let probe = probed(&c, &data("v1", "capture.bin"));
        assert_eq!(c.choose(&probe, "capture.bin", None).unwrap().0, 0);
    }

    #[test]
    fn none_or_several_that_differ_is_an_error_naming_them() {
        let c = candidates(vec![
            candidate(data("v2", "twenty48-qemu.elf"), "a.elf"),
            candidate(data("v3", "twenty48-qemu.elf"), "b.elf"),
        ]);
        let err = c
            .choose(&probed(&c, &data("v1", "capture.bin")), "capture.bin", None)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "no firmware ELF among test decodes the frames of capture.bin: a.elf, b.elf; give --elf with the firmware the board runs"
        );
        // Both read a hello alone (v3 kept v2's hello frame).
        let mut probe = c.probe();
        let session = std::fs::read(data("v3", "session.bin")).unwrap();
        let first = session.iter().position(|&b| b == 0).unwrap();
        let hello = session[first..]
            .iter()
            .skip(1)
            .position(|&b| b == 0)
            .unwrap();
        probe.feed(&session[..first + 1 + hello + 1]);
        if probe.readers().len() == 2 {
            let err = c.choose(&probe, "/dev/ttyACM0", None).unwrap_err();
            assert_eq!(
                err.to_string(),
                "2 firmware ELFs decode the frames of /dev/ttyACM0: a.elf, b.elf; give --elf with the one the board runs"
            );
        }
    }

    #[test]
    fn the_board_narrows_elfs_that_read_alike_and_refuses_another_boards() {
        let v3 = data("v3", "twenty48-qemu.elf");
        // The same table under two board names: the board's own is chosen.
        let c = candidates(vec![
            candidate(v3.clone(), "twenty48-uno.elf"),
            candidate(v3.clone(), "twenty48-mega2560.elf"),
        ]);
        let probe = probed(&c, &data("v3", "session.bin"));
        assert_eq!(probe.readers(), [0, 1]);
        let chosen = c.choose(&probe, "COM3", Some(Board::Mega2560)).unwrap();
        assert_eq!(chosen, (1, vec![]));
        assert_eq!(
            c.told(&chosen, "COM3"),
            "firmware: twenty48-mega2560.elf, the one of 2 ELFs in test whose defmt table decodes the frames of COM3"
        );
        assert_eq!(c.choose(&probe, "COM3", Some(Board::Uno)).unwrap().0, 0);
        // No board: alike, so the first, and the other named.
        let chosen = c.choose(&probe, "COM3", None).unwrap();
        assert_eq!(chosen, (0, vec![1]));
        assert_eq!(
            c.told(&chosen, "COM3"),
            "firmware: twenty48-uno.elf, the first of 2 ELFs in test whose defmt tables decode the frames of COM3, and alike: also twenty48-mega2560.elf"
        );
        // A Nano whose frames only another board's firmware reads.
        let err = c
            .choose(&probe, "COM3", Some(Board::NanoRp2040Connect))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "COM3 is an Arduino Nano RP2040 Connect but its frames decode with twenty48-uno.elf, another board's firmware; give --elf if that is right"
        );
    }

    #[test]
    fn a_folder_gives_its_elf_files_only() {
        let dir = std::env::temp_dir().join(format!("t48-elfdir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::copy(data("v3", "twenty48-qemu.elf"), dir.join("b.elf")).unwrap();
        std::fs::copy(data("v2", "twenty48-qemu.elf"), dir.join("a")).unwrap();
        std::fs::write(dir.join("notes.txt"), "not an ELF").unwrap();
        std::fs::write(dir.join("short"), "\x7fE").unwrap();
        let found = in_folder(&dir).unwrap();
        let names: Vec<String> = found.iter().map(Candidate::stem).collect();
        assert_eq!(names, ["a", "b"]);
        let Err(err) = in_folder(&dir.join("missing")) else {
            panic!("a missing folder is an error");
        };
        assert!(err.to_string().contains("cannot read the folder"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
