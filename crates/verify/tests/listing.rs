//! `batch::list` keeps its promises: directories walked in name order, each directory and
//! each file once however it is reached, a non-regular `.t48` skipped unopened, an unreadable
//! path reported while the rest is listed.

use std::fs;
use std::path::{Path, PathBuf};

use twenty48_verify::batch::{list, Skip};
// The links, sockets and unreadable paths of the Unix-only tests.
#[cfg(unix)]
use twenty48_verify::batch::{collect, Listing};

/// A fresh directory under the system's temporary directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "twenty48-verify-listing-{}-{name}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes a small file at `rel` (its directories made), returning its path.
    fn file(&self, rel: &str) -> PathBuf {
        let path = self.0.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, b"not read by list").unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn rel<'a>(root: &Path, paths: impl IntoIterator<Item = &'a PathBuf>) -> Vec<String> {
    paths
        .into_iter()
        // Written with `/` on every platform (Windows joins with `\`).
        .map(|p| {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy();
            rel.replace(std::path::MAIN_SEPARATOR, "/")
        })
        .collect()
}

/// What `listing` skipped, each path relative to `root`, with why.
#[cfg(unix)]
fn skipped(root: &Path, listing: &Listing) -> Vec<(String, Skip)> {
    listing
        .skipped
        .iter()
        .map(|(p, s)| (rel(root, [p])[0].clone(), *s))
        .collect()
}

#[test]
fn directories_are_walked_in_name_order_for_move_logs_only() {
    let dir = Scratch::new("order");
    for name in [
        "z.t48",
        "a.t48",
        "m/y.t48",
        "m/b.t48",
        "notes.txt",
        "m/n/c.t48",
    ] {
        dir.file(name);
    }
    let listing = list(std::slice::from_ref(&dir.0));
    assert_eq!(
        rel(&dir.0, &listing.files),
        ["a.t48", "m/b.t48", "m/n/c.t48", "m/y.t48", "z.t48"]
    );
    assert!(listing.skipped.is_empty(), "{:?}", listing.skipped);
    assert!(listing.unreadable.is_empty(), "{:?}", listing.unreadable);
}

#[cfg(unix)]
#[test]
fn a_file_is_listed_once_however_it_is_named() {
    let dir = Scratch::new("file-again");
    let a = dir.file("a.t48");
    dir.file("b.t48");
    std::os::unix::fs::symlink(&a, dir.0.join("c-link.t48")).unwrap();
    // Named on its own, then found in its directory (once by name, once through a link),
    // then named again.
    let listing = list(&[a.clone(), dir.0.clone(), a.clone()]);
    assert_eq!(rel(&dir.0, &listing.files), ["a.t48", "b.t48"]);
    assert_eq!(
        skipped(&dir.0, &listing),
        [
            ("a.t48".to_string(), Skip::FileAgain),
            ("c-link.t48".to_string(), Skip::FileAgain),
            ("a.t48".to_string(), Skip::FileAgain),
        ]
    );
    // Found in the directory first, then named on its own: the same file again.
    let listing = list(&[dir.0.clone(), a.clone()]);
    assert_eq!(rel(&dir.0, &listing.files), ["a.t48", "b.t48"]);
    assert_eq!(listing.skipped.len(), 2, "{:?}", listing.skipped);
    assert_eq!(listing.skipped[1], (a, Skip::FileAgain));
}

#[cfg(unix)]
#[test]
fn a_directory_reached_again_through_a_link_is_walked_once() {
    let dir = Scratch::new("dir-again");
    dir.file("top.t48");
    dir.file("sub/inner.t48");
    // A loop back to the top, and a second name for `sub`.
    std::os::unix::fs::symlink(&dir.0, dir.0.join("sub/loop")).unwrap();
    std::os::unix::fs::symlink(dir.0.join("sub"), dir.0.join("twin")).unwrap();
    let listing = list(&[dir.0.clone(), dir.0.join("sub")]);
    assert_eq!(rel(&dir.0, &listing.files), ["sub/inner.t48", "top.t48"]);
    assert_eq!(
        skipped(&dir.0, &listing),
        [
            ("sub/loop".to_string(), Skip::DirectoryAgain),
            ("twin".to_string(), Skip::DirectoryAgain),
            ("sub".to_string(), Skip::DirectoryAgain),
        ]
    );
}

#[cfg(unix)]
#[test]
fn a_non_regular_move_log_name_is_skipped_unopened_and_a_broken_one_reported() {
    let dir = Scratch::new("special");
    dir.file("a.t48");
    // A socket under a move log's name: opening it could wait forever.
    let _socket = std::os::unix::net::UnixListener::bind(dir.0.join("s.t48")).unwrap();
    // A link to nothing, under a move log's name and under another name.
    std::os::unix::fs::symlink(dir.0.join("gone"), dir.0.join("broken.t48")).unwrap();
    std::os::unix::fs::symlink(dir.0.join("gone"), dir.0.join("broken.txt")).unwrap();
    let missing = dir.0.join("missing.t48");
    let listing = list(&[dir.0.clone(), missing.clone()]);
    assert_eq!(rel(&dir.0, &listing.files), ["a.t48"]);
    assert_eq!(listing.skipped, [(dir.0.join("s.t48"), Skip::NotRegular)]);
    let unreadable: Vec<&PathBuf> = listing.unreadable.iter().map(|(p, _)| p).collect();
    assert_eq!(unreadable, [&dir.0.join("broken.t48"), &missing]);
    assert!(listing
        .unreadable
        .iter()
        .all(|(_, e)| e.kind() == std::io::ErrorKind::NotFound));
    // collect: the first unreadable path is the error.
    let err = collect(std::slice::from_ref(&missing)).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    let err = collect(std::slice::from_ref(&dir.0)).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    fs::remove_file(dir.0.join("broken.t48")).unwrap();
    let files = collect(std::slice::from_ref(&dir.0)).unwrap();
    assert_eq!(rel(&dir.0, &files), ["a.t48"]);
}

#[test]
fn each_skip_says_why() {
    let texts = [Skip::NotRegular, Skip::DirectoryAgain, Skip::FileAgain].map(|s| s.to_string());
    assert!(texts[0].contains("not a regular file"), "{}", texts[0]);
    assert!(
        texts[1].contains("directory already walked"),
        "{}",
        texts[1]
    );
    assert!(texts[2].contains("same file"), "{}", texts[2]);
}
