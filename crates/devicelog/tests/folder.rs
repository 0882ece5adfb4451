//! Issues 34 and 47: the pull touches no file but through its `Folder`, which works on
//! names. A pull into a folder held
//! in memory keeps there what a pull into a directory writes on disk, name for name and
//! byte for byte, with the same report; a longer copy's place-taking and the removal of a
//! prefix go through it too.

use std::path::Path;

use twenty48_devicelog::pull::{Conversation, PortOptions};
use twenty48_devicelog::Directory;
use twenty48_testkit::folder::Memory;
use twenty48_testkit::frames::{cycle, Frames};

/// The files of `dir` on disk, by name.
fn on_disk(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_pull_in_memory_keeps_what_a_pull_on_disk_writes() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v2");
    let elf = std::fs::read(data.join("twenty48-qemu.elf")).unwrap();
    let f = Frames::new(&elf, twenty48_deviceproto::QEMU_DEVICE_ID);
    // A recorded session, then growing copies of one interrupted game and the whole game
    // (a prefix replaced in place, then removed).
    let mut capture = std::fs::read(data.join("session.bin")).unwrap();
    let moves = cycle(60);
    for n in [5, 9, 14] {
        capture.extend(
            f.game(40, &twenty48_engine::Rules::CLASSIC, 3, &moves[..n], true)
                .0,
        );
    }
    capture.extend(
        f.game(40, &twenty48_engine::Rules::CLASSIC, 3, &moves, false)
            .0,
    );
    let dir = std::env::temp_dir().join(format!("t48-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = PortOptions::default();
    let folder = Box::new(Directory::new(&dir));
    let mut disk = Conversation::port(&elf, folder, options, 0).unwrap();
    disk.feed(&capture, 0).unwrap();
    disk.finish().unwrap();
    let memory = Memory::new();
    let mut mem = Conversation::port(&elf, Box::new(memory.clone()), options, 0).unwrap();
    mem.feed(&capture, 0).unwrap();
    mem.finish().unwrap();
    let kept: Vec<(String, Vec<u8>)> = memory.files().into_iter().collect();
    let written = on_disk(&dir);
    assert!(written
        .iter()
        .any(|(n, _)| n == "7e57000000000001-g000040.t48"));
    assert!(!written.iter().any(|(n, _)| n.contains("g000040.partial")));
    assert_eq!(kept, written);
    assert_eq!(mem.summary(), disk.summary());
    let _ = std::fs::remove_dir_all(&dir);
}
