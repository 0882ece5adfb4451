//! Issue 34: the pull touches no file but through its `Folder`. A pull into a folder held
//! in memory keeps there what a pull into a directory writes on disk, name for name and
//! byte for byte, with the same report; a longer copy's place-taking and the removal of a
//! prefix go through it too.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use twenty48_devicelog::pull::{Folder, PullOptions, Puller};
use twenty48_movelog::Placed;
use twenty48_testkit::frames::{cycle, Frames};

/// A folder in memory: file paths and their bytes.
#[derive(Debug, Default)]
struct Memory {
    files: Arc<Mutex<BTreeMap<PathBuf, Vec<u8>>>>,
}

impl Folder for Memory {
    fn path(&self) -> &Path {
        Path::new("/memory")
    }
    fn write_free(&mut self, name: &str, bytes: &[u8]) -> io::Result<Placed> {
        let mut files = self.files.lock().unwrap();
        for n in 1..=twenty48_movelog::MAX_FREE_NAMES {
            let path = twenty48_movelog::free_name(&self.path().join(name), n);
            match files.get(&path) {
                Some(b) if b == bytes => return Ok(Placed::Identical(path)),
                Some(_) => continue,
                None => {
                    files.insert(path.clone(), bytes.to_vec());
                    return Ok(Placed::New(path));
                }
            }
        }
        Err(io::Error::other("every name taken"))
    }
    fn replace(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut files = self.files.lock().unwrap();
        files.insert(path.to_path_buf(), bytes.to_vec());
        Ok(())
    }
    fn remove(&mut self, path: &Path) -> bool {
        self.files.lock().unwrap().remove(path).is_some()
    }
    fn read(&self, path: &Path, limit: u64) -> Option<Vec<u8>> {
        let files = self.files.lock().unwrap();
        files.get(path).filter(|b| b.len() as u64 <= limit).cloned()
    }
    fn exists(&self, path: &Path) -> bool {
        self.files.lock().unwrap().contains_key(path)
    }
    fn names(&self, found: &mut dyn FnMut(&str)) {
        for path in self.files.lock().unwrap().keys() {
            found(path.file_name().unwrap().to_str().unwrap());
        }
    }
}

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
    let options = PullOptions::default();
    let mut disk = Puller::with_options(&elf, &dir, options).unwrap();
    disk.feed(&capture).unwrap();
    disk.finish().unwrap();
    let memory = Memory::default();
    let files = Arc::clone(&memory.files);
    let mut mem = Puller::with_folder(&elf, Box::new(memory), options).unwrap();
    mem.feed(&capture).unwrap();
    mem.finish().unwrap();
    let kept: Vec<(String, Vec<u8>)> = files
        .lock()
        .unwrap()
        .iter()
        .map(|(p, b)| {
            (
                p.file_name().unwrap().to_str().unwrap().to_string(),
                b.clone(),
            )
        })
        .collect();
    let written = on_disk(&dir);
    assert!(written
        .iter()
        .any(|(n, _)| n == "7e57000000000001-g000040.t48"));
    assert!(!written.iter().any(|(n, _)| n.contains("g000040.partial")));
    assert_eq!(kept, written);
    assert_eq!(mem.summary(), disk.summary());
    let _ = std::fs::remove_dir_all(&dir);
}
