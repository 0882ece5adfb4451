//! How the device-log tests open a pull into a directory: as a port's (each game written as
//! it closes, then acknowledged) or, `defer`, as a capture's (every game decided when the
//! bytes end, with all its copies in view).

use std::path::Path;

use twenty48_devicelog::pull::{Conversation, PortOptions};
use twenty48_devicelog::Directory;

/// How a test's pull is opened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PullOptions {
    /// Also write damaged or unfinished games' verified moves, marked incomplete.
    pub keep_partial: bool,
    /// A capture's pull (else a port's).
    pub defer: bool,
}

/// A pull decoding with `elf`, writing into `dir`.
pub fn open(elf: &[u8], dir: &Path, options: PullOptions) -> Conversation {
    let folder = Box::new(Directory::new(dir));
    if options.defer {
        Conversation::capture(elf, folder, options.keep_partial)
    } else {
        let port = PortOptions {
            all: false,
            keep_partial: options.keep_partial,
        };
        Conversation::port(elf, folder, port, 0)
    }
    .expect("the firmware ELF")
}
