//! The layout rules of docs/architecture.md, checked over every crate's sources: no import
//! circle between the modules of a crate, no source file over 600 lines of non-test code
//! (split it along its ideas; C, JavaScript, Python and shell files too, whole), no
//! integration test left out of the build, and a map that names every crate, folder and
//! harness on the floor its dependencies put it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

#[path = "layout/circles.rs"]
mod circles;
#[path = "layout/tokens.rs"]
mod tokens;

const MAX_LINES: usize = 600;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code before the first `#[cfg(test)]` line (tests may be as long as they need).
fn non_test(text: &str) -> &str {
    match text.find("\n#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// Every `src/` directory of the repository's crates (the firmware workspaces' too).
fn source_dirs() -> Vec<PathBuf> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = Vec::new();
    let mut stack = vec![crates];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if !p.is_dir() || p.file_name().is_some_and(|n| n == "target" || n == "tests") {
                continue;
            }
            if p.file_name().is_some_and(|n| n == "src") {
                dirs.push(p);
            } else {
                stack.push(p);
            }
        }
    }
    dirs.sort();
    dirs
}

#[test]
fn no_file_is_over_600_lines_of_non_test_code() {
    let mut long = Vec::new();
    for src in source_dirs() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let text = fs::read_to_string(&f).unwrap();
            let n = non_test(&text).lines().count();
            if n > MAX_LINES {
                long.push(format!("{}: {n} lines", f.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "split these along their ideas:\n{}",
        long.join("\n")
    );
}

/// The repository's root.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir` whose name ends in one of `extensions`, outside build output,
/// npm's packages and hidden folders.
fn files_ending(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if name != "target" && name != "node_modules" && !name.starts_with('.') {
                files_ending(&p, extensions, out);
            }
        } else if extensions.iter().any(|x| name.ends_with(x)) {
            out.push(p);
        }
    }
}

/// Issue 34: the size rule covers the C, JavaScript and Python sources too (the simavr
/// harness was 686 lines in one file).
#[test]
fn no_c_javascript_or_python_file_is_over_600_lines() {
    let mut files = Vec::new();
    files_ending(
        &repo_root(),
        &[".c", ".h", ".js", ".mjs", ".py", ".sh"],
        &mut files,
    );
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("crates/sim-avr/harness/avr_sim.c")),
        "the walk finds the sources: {files:?}"
    );
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = fs::read_to_string(f).ok()?.lines().count();
            (n > MAX_LINES).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "split these along their ideas:\n{}",
        long.join("\n")
    );
}

/// No module of a crate reaches itself through others by the paths its code names (inline
/// modules and those inside folders too; see circles.rs for what counts as an edge).
#[test]
fn no_import_circle_between_modules() {
    let root = repo_root().canonicalize().unwrap();
    let read = |p: &Path| fs::read_to_string(p).ok();
    let mut found = Vec::new();
    let mut modules = 0;
    for src in source_dirs() {
        let src = src.canonicalize().unwrap();
        for crate_root in ["lib.rs", "main.rs"].map(|f| src.join(f)) {
            let krate = circles::read_crate(&crate_root, &read);
            modules += krate.modules.len();
            for circle in krate.circles() {
                found.push(krate.describe(&circle, &root));
            }
        }
    }
    assert!(modules > 150, "the modules are found: {modules}");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The circle check finds the circle it is shown and no other: a name a parent re-exports
/// leads to the module that defines it, and test code and comments make no edge.
#[test]
fn the_circle_check_finds_a_known_circle_and_no_other() {
    let sources = circles::in_memory(&[
        (
            "src/lib.rs",
            "mod pull;\nmod store;\npub use pull::Puller;\npub struct Error;\n",
        ),
        // mod.rs defines Puller, re-exports Kept, and calls keeping's function: the circle.
        (
            "src/pull/mod.rs",
            "mod keeping;\nmod files;\nmod report;\npub use files::Kept;\n\
             pub struct Puller;\n\
             impl Puller { fn go(&self) -> report::Summary { keeping::keep(self); todo!() } }\n",
        ),
        (
            "src/pull/keeping.rs",
            "use super::Puller;\npub fn keep(_: &Puller) {}\n\
             #[cfg(test)]\nmod tests { use crate::Error; }\n",
        ),
        // Kept is re-exported by mod.rs, which names report: report.rs -> files.rs only.
        (
            "src/pull/report.rs",
            "use super::{Kept};\npub struct Summary(Kept);\n",
        ),
        (
            "src/pull/files.rs",
            "pub struct Kept(crate::store::Store);\n// super::Puller\n\
             pub(in crate::pull) fn seen() {}\n",
        ),
        (
            "src/store.rs",
            "pub struct Store;\nmod disk { fn f() -> super::Store { super::Store } }\n",
        ),
    ]);
    let krate = circles::read_crate(Path::new("src/lib.rs"), &sources);
    let id = |place: &str| {
        let places: Vec<String> = krate
            .modules
            .iter()
            .map(|m| m.place(Path::new("")))
            .collect();
        places
            .iter()
            .position(|p| p == place)
            .unwrap_or_else(|| panic!("{places:?}"))
    };
    let edges = krate.edges();
    let edge = |a: &str, b: &str| edges.contains_key(&(id(a), id(b)));
    assert_eq!(krate.modules.len(), 7);
    assert!(edge("src/pull/report.rs", "src/pull/files.rs"));
    assert!(!edge("src/pull/report.rs", "src/pull/mod.rs"));
    assert!(edge("src/store.rs (mod disk)", "src/store.rs"));
    assert!(edge("src/lib.rs", "src/pull/mod.rs"));
    assert!(!edge("src/pull/keeping.rs", "src/lib.rs"));
    assert!(!edge("src/pull/files.rs", "src/pull/mod.rs"));
    let circles = krate.circles();
    assert_eq!(
        circles,
        [[id("src/pull/mod.rs"), id("src/pull/keeping.rs")]]
    );
    let text = krate.describe(&circles[0], Path::new(""));
    assert!(text.contains("line 1: use super::Puller"), "{text}");
    assert!(text.contains("line 6: keeping::keep"), "{text}");
}

/// A crate with `autotests = false` builds only the test targets its Cargo.toml names (one
/// binary of modules, for cheaper rebuilds under `just mutants`): every file in its tests/
/// must be such a target or a `mod` of one, or it would silently never run.
#[test]
fn every_integration_test_file_is_built() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut left_out = Vec::new();
    let mut merged = 0;
    for entry in fs::read_dir(&crates).unwrap().flatten() {
        let dir = entry.path();
        let Ok(manifest) = fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        if !manifest.contains("\nautotests = false") {
            continue;
        }
        merged += 1;
        let targets: Vec<&str> = manifest
            .lines()
            .filter_map(|l| l.strip_prefix("path = \"tests/")?.strip_suffix('"'))
            .collect();
        let roots: String = targets
            .iter()
            .map(|t| fs::read_to_string(dir.join("tests").join(t)).unwrap())
            .collect();
        let Ok(files) = fs::read_dir(dir.join("tests")) else {
            continue;
        };
        for file in files.flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            if !targets.contains(&name.as_str()) && !roots.contains(&format!("\nmod {stem};")) {
                left_out.push(format!("{}", file.path().display()));
            }
        }
    }
    assert!(
        merged >= 3,
        "engine, movelog and verify set autotests = false"
    );
    assert!(
        left_out.is_empty(),
        "never built (add a `mod` line to tests/main.rs): {}",
        left_out.join(", ")
    );
}

/// The `twenty48-*` crates a package's manifest names in `sections` (`[dependencies]`,
/// `[dev-dependencies]`, ...), by package name.
fn local_dependencies(package: &str, sections: &[&str]) -> BTreeSet<String> {
    let dir = package.strip_prefix("twenty48-").unwrap();
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = fs::read_to_string(crates.join(dir).join("Cargo.toml")).unwrap();
    let mut section = String::new();
    let mut out = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
        } else if sections.contains(&section.as_str()) {
            if let Some(name) = line.split(['.', ' ', '=']).next() {
                if name.starts_with("twenty48-") {
                    out.insert(name.to_string());
                }
            }
        }
    }
    out
}

/// Issue 28, item 10: `just check` answers "did my engine change alter any recorded game?"
/// without building the CLI: it tests only the engine, the move log and the verifier (whose
/// tests replay every fixture game against its transcript), whose tests need no crate beyond
/// those and the bots, and then runs the independent implementation. The README names it
/// beside `just test`.
#[test]
fn issue28_just_check_tests_the_games_without_the_cli() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let justfile = fs::read_to_string(root.join("justfile")).unwrap();
    let recipe: Vec<&str> = justfile
        .split("\ncheck:\n")
        .nth(1)
        .expect("a `check` recipe")
        .lines()
        .take_while(|l| l.starts_with("    "))
        .collect();
    let tested: Vec<&str> = recipe
        .iter()
        .filter(|l| l.contains("cargo test"))
        .flat_map(|l| l.split(" -p ").skip(1))
        .map(|p| p.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        tested,
        ["twenty48-engine", "twenty48-movelog", "twenty48-verify"],
        "{recipe:?}"
    );
    assert!(
        recipe.iter().any(|l| l.contains("INSTA_UPDATE=no")),
        "snapshots are checked, never written"
    );
    assert!(recipe
        .iter()
        .any(|l| l.contains("python3 docs/independent/check.py")));
    // What those tests build: the three, their dev-dependencies, and what those depend on.
    let mut built: BTreeSet<String> = tested.iter().map(|p| p.to_string()).collect();
    for p in &tested {
        built.extend(local_dependencies(p, &["[dev-dependencies]"]));
    }
    loop {
        let more: BTreeSet<String> = built
            .iter()
            .flat_map(|p| local_dependencies(p, &["[dependencies]"]))
            .collect();
        if more.is_subset(&built) {
            break;
        }
        built.extend(more);
    }
    let expected = [
        "twenty48-bot",
        "twenty48-engine",
        "twenty48-movelog",
        "twenty48-verify",
    ];
    assert_eq!(built.iter().collect::<Vec<_>>(), expected);
    // The verifier's tests hold the fixture replays.
    let tests = fs::read_to_string(root.join("crates/verify/tests/main.rs")).unwrap();
    assert!(tests.contains("\nmod fixtures;\n"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let setup = readme.split("## Set-up for development").nth(1).unwrap();
    let setup = setup.split("\n## ").next().unwrap();
    assert!(setup.contains("just test") && setup.contains("`just check`"));
}

/// Issue 34: the justfile reads at a glance: every recipe in a group (`just --list` shows
/// them by group), no recipe body longer than 20 lines and no inline program in it (a long
/// body is a script under scripts/ with its own name).
#[test]
fn every_recipe_has_a_group_and_a_short_body() {
    let justfile = fs::read_to_string(repo_root().join("justfile")).unwrap();
    let lines: Vec<&str> = justfile.lines().collect();
    let mut wrong = Vec::new();
    let mut recipes = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = line.split([' ', ':']).next() else {
            continue;
        };
        let is_recipe = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && line.contains(':')
            && !line.contains(":=");
        if !is_recipe {
            continue;
        }
        recipes += 1;
        let attributes = lines[..i].iter().rev().take_while(|l| l.starts_with('['));
        if !attributes.clone().any(|l| l.starts_with("[group(")) {
            wrong.push(format!("{name}: no [group]"));
        }
        let body: Vec<&&str> = lines[i + 1..]
            .iter()
            .take_while(|l| l.starts_with("    ") || l.is_empty())
            .take_while(|l| !l.is_empty())
            .collect();
        if body.len() > 20 {
            wrong.push(format!(
                "{name}: {} lines (move it into scripts/)",
                body.len()
            ));
        }
        if body.iter().any(|l| l.contains("<<")) {
            wrong.push(format!("{name}: an inline program (move it into scripts/)"));
        }
    }
    assert!(recipes >= 30, "the recipes are found: {recipes}");
    assert!(wrong.is_empty(), "justfile:\n{}", wrong.join("\n"));
}
