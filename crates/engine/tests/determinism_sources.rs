//! Determinism is the product: nothing a game depends on may use floating point or a hash
//! collection (whose iteration order varies between runs). This test reads the sources of the
//! crates that define games, logs and device records, and fails on any such use outside
//! comments. Platform-width integers are kept out of formats by the pinned byte layouts
//! (movelog's golden test, the device protocol's pinned checks).

use std::fs;
use std::path::Path;

/// Words that must not appear in code (comments may discuss them).
const BANNED: &[&str] = &["f32", "f64", "HashMap", "HashSet", "RandomState"];

/// The crates whose code decides what a game is.
const CRATES: &[&str] = &["engine", "movelog", "deviceproto", "devicestore"];

fn scan(dir: &Path, found: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            scan(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for word in BANNED {
                    let hit = code.match_indices(word).any(|(i, _)| {
                        let before = code[..i].chars().next_back();
                        let after = code[i + word.len()..].chars().next();
                        let ident =
                            |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                        !ident(before) && !ident(after)
                    });
                    if hit {
                        found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
}

#[test]
fn no_floats_or_hash_collections_in_game_code() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for name in CRATES {
        let src = crates.join(name).join("src");
        assert!(src.is_dir(), "{} is missing", src.display());
        scan(&src, &mut found);
    }
    assert!(
        found.is_empty(),
        "floating point or hash collections in game code:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_a_float() {
    let dir = std::env::temp_dir().join(format!("t48-det-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("a.rs"),
        "// f64 in a comment is fine\nlet x: f64 = 1.0;\nlet y = my_f64_name;\n",
    )
    .unwrap();
    let mut found = Vec::new();
    scan(&dir, &mut found);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains(":2:"));
}
