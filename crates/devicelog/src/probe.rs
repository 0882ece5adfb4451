//! Which firmware a log is from: the first bytes of a log decoded with each of several
//! firmware ELFs, to find the one whose defmt table reads it. Always runs on the host; no
//! I/O (the caller reads the ELFs and the bytes).

use crate::capture::CaptureDecoder;
use crate::event::Event;
use crate::received::ReceivedGame;

/// The first bytes of a log, decoded with each candidate firmware ELF at once.
///
/// A candidate *reads* a frame when its table decodes it to a protocol frame (a game's
/// start, move or end, or the device's own frames) whose checks hold; a frame of another
/// firmware decodes with it to damage, or at most to a plain log message, which does not
/// count. So once any candidate reads a frame, [`Probe::readers`] are those that read the
/// most frames: one, when the firmware is among the candidates.
///
/// ```no_run
/// use twenty48_devicelog::Probe;
/// let mega = std::fs::read("twenty48-mega2560.elf")?;
/// let uno = std::fs::read("twenty48-uno.elf")?;
/// let mut probe = Probe::new(&[&mega, &uno]);
/// probe.feed(&std::fs::read("capture.bin")?);
/// if probe.heard() {
///     println!("the log is read by candidate(s) {:?}", probe.readers());
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Probe {
    /// Each candidate's decoder (`None`: not a firmware ELF with a defmt table) and the
    /// frames it read.
    candidates: Vec<(Option<CaptureDecoder<ReceivedGame>>, u64)>,
}

impl Probe {
    /// A probe of the candidates `elfs`, in order; an ELF that cannot decode a log (not an
    /// ELF, no defmt table, another encoding) never reads a frame.
    pub fn new(elfs: &[&[u8]]) -> Probe {
        Probe {
            candidates: elfs
                .iter()
                .map(|elf| (CaptureDecoder::with_record(elf).ok(), 0))
                .collect(),
        }
    }

    /// What to send a board so that it logs a frame at once: `{hello}` (docs/firmware.md),
    /// whose answer every firmware since protocol v2 sends.
    pub fn request() -> Vec<u8> {
        twenty48_deviceproto::Request::Hello
            .to_string()
            .into_bytes()
    }

    /// More bytes of the log.
    pub fn feed(&mut self, bytes: &[u8]) {
        for (decoder, read) in &mut self.candidates {
            if let Some(decoder) = decoder {
                for event in decoder.feed(bytes) {
                    if !matches!(event, Event::Damaged(_) | Event::Message(_)) {
                        *read += 1;
                    }
                }
            }
        }
    }

    /// Whether any candidate has read a frame.
    pub fn heard(&self) -> bool {
        self.candidates.iter().any(|(_, read)| *read > 0)
    }

    /// Whether the candidate at `index` can decode a log at all (an ELF with a defmt table).
    pub fn usable(&self, index: usize) -> bool {
        self.candidates
            .get(index)
            .is_some_and(|(decoder, _)| decoder.is_some())
    }

    /// Whether the candidates at `a` and `b` decode every log alike: their defmt tables
    /// hold the same entries at the same indexes (two builds of one firmware, or of boards
    /// whose firmware logs the same frames).
    pub fn alike(&self, a: usize, b: usize) -> bool {
        match (self.candidates.get(a), self.candidates.get(b)) {
            (Some((Some(x), _)), Some((Some(y), _))) => x.table_entries() == y.table_entries(),
            _ => false,
        }
    }

    /// The candidates (their indexes, in order) that read the most frames, none when no
    /// candidate read any.
    pub fn readers(&self) -> Vec<usize> {
        let most = self.candidates.iter().map(|(_, read)| *read).max();
        match most {
            None | Some(0) => Vec::new(),
            Some(most) => (0..self.candidates.len())
                .filter(|&i| self.candidates[i].1 == most)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(version: &str, file: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(version)
            .join(file);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Each version's capture is read by its own firmware's ELF alone, among the three
    /// committed ones, a not-ELF and an empty file; bit by bit, from its first frame on.
    #[test]
    fn a_capture_is_read_by_its_own_firmware_alone() {
        let elfs = [
            data("v1", "twenty48-qemu.elf"),
            data("v2", "twenty48-qemu.elf"),
            data("v3", "twenty48-qemu.elf"),
            b"not an ELF".to_vec(),
            Vec::new(),
        ];
        let elfs: Vec<&[u8]> = elfs.iter().map(Vec::as_slice).collect();
        for (version, capture, own) in [
            ("v1", "capture.bin", 0),
            ("v2", "session.bin", 1),
            ("v3", "session.bin", 2),
        ] {
            let bytes = data(version, capture);
            let mut probe = Probe::new(&elfs);
            assert!(!probe.heard());
            assert_eq!(probe.readers(), Vec::<usize>::new());
            // Fed in small pieces, as a port gives them: decided at the first frame.
            let first = bytes.iter().position(|&b| b == 0).unwrap();
            probe.feed(&bytes[..first]);
            assert!(!probe.heard(), "{version}: no frame is complete yet");
            let mut at = first;
            while !probe.heard() && at < bytes.len() {
                let end = (at + 7).min(bytes.len());
                probe.feed(&bytes[at..end]);
                at = end;
            }
            // Protocol v3 changed some frames of v2, not its hello: both read the first.
            assert!(probe.readers().contains(&own), "{version}");
            probe.feed(&bytes[at..]);
            assert_eq!(probe.readers(), [own], "{version}, whole");
            assert!(probe.usable(0) && probe.usable(2));
            assert!(!probe.usable(3) && !probe.usable(4) && !probe.usable(5));
            assert!(probe.alike(1, 1) && !probe.alike(1, 2) && !probe.alike(3, 3));
        }
    }

    #[test]
    fn noise_is_read_by_no_one() {
        let elf = data("v3", "twenty48-qemu.elf");
        let mut probe = Probe::new(&[&elf]);
        probe.feed(&[0x55; 300]);
        probe.feed(&[0, 1, 2, 3, 0, 0, 0xff, 0xfe, 0]);
        assert!(!probe.heard());
        assert!(probe.readers().is_empty());
    }
}
