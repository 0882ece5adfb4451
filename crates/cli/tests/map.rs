//! docs/architecture.md is the map, drawn from the code: these tests fail when it and the
//! repository part (issue 34).
//! - Every crate under crates/ has a row on the floor its Cargo.toml files put it (the
//!   longest chain of the repository's crates below it), with exactly the crates it depends
//!   on, and a paragraph of its own.
//! - Every top-level folder, and every harness folder of C or JavaScript inside a crate, is
//!   named.
//! - Every path the map names exists.
//! - Every module of the CLI (a file or folder in crates/cli/src) and every file or folder in
//!   scripts/ is named (issue 47): the parts a test of the crates cannot see.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn map() -> String {
    fs::read_to_string(root().join("docs/architecture.md")).unwrap()
}

/// Every file and folder under `dir` (relative, with `/`), outside build output, npm's
/// packages and hidden folders; folders end with `/`.
fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        let path = format!("{rel}{name}");
        if e.path().is_dir() {
            out.push(format!("{path}/"));
            walk(&e.path(), &format!("{path}/"), out);
        } else {
            out.push(path);
        }
    }
}

/// `path` with `.` and `..` resolved, without touching the file system.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// A manifest's dependency lines, by section: `(section, name, path or None, workspace)`.
fn entries(manifest: &str) -> Vec<(String, String, Option<String>, bool)> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(['[', ']']).to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        let (name, workspace) = match key.strip_suffix(".workspace") {
            Some(name) => (name, true),
            None => (key, value.contains("workspace = true")),
        };
        let path = value
            .split("path = \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .map(str::to_string);
        out.push((section.clone(), name.to_string(), path, workspace));
    }
    out
}

/// The crate folders under crates/ and, for each, the crate folders its Cargo.toml files
/// (every package in it: a workspace of its own has several) depend on, dev-dependencies
/// aside.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = root();
    // The path dependencies each workspace declares once, by name.
    let workspace_paths = |base: &Path| -> BTreeMap<String, PathBuf> {
        let manifest = fs::read_to_string(base.join("Cargo.toml")).unwrap_or_default();
        entries(&manifest)
            .into_iter()
            .filter(|(section, ..)| section == "workspace.dependencies")
            .filter_map(|(_, name, path, _)| Some((name, normal(&base.join(path?)))))
            .collect()
    };
    let top = workspace_paths(&root);
    let mut graph = BTreeMap::new();
    for entry in fs::read_dir(root.join("crates")).unwrap().flatten() {
        let dir = entry.path();
        if !dir.join("Cargo.toml").exists() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        // A folder whose Cargo.toml has a [workspace] of its own resolves against it.
        let own = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let shared = if own.contains("\n[workspace]") || own.starts_with("[workspace]") {
            workspace_paths(&dir)
        } else {
            top.clone()
        };
        let mut files = Vec::new();
        walk(&dir, "", &mut files);
        let mut deps = BTreeSet::new();
        for manifest in files
            .iter()
            .filter(|f| *f == "Cargo.toml" || f.ends_with("/Cargo.toml"))
        {
            let at = dir.join(manifest);
            let text = fs::read_to_string(&at).unwrap();
            for (section, dep, path, workspace) in entries(&text) {
                let counted = section == "dependencies"
                    || section == "build-dependencies"
                    || (section.starts_with("target.") && section.ends_with(".dependencies"));
                if !counted {
                    continue;
                }
                let target = match (path, workspace) {
                    (Some(path), _) => normal(&at.parent().unwrap().join(path)),
                    (None, true) => match shared.get(&dep) {
                        Some(path) => path.clone(),
                        None => continue,
                    },
                    (None, false) => continue,
                };
                if let Ok(rel) = target.strip_prefix(root.join("crates")) {
                    let other = rel.components().next().unwrap();
                    let other = other.as_os_str().to_string_lossy().into_owned();
                    if other != name {
                        deps.insert(other);
                    }
                }
            }
        }
        graph.insert(name, deps);
    }
    graph
}

/// Each crate's floor: 0 with no crate below it, else one above its highest dependency.
fn floors(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, usize> {
    fn floor(
        c: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        memo: &mut BTreeMap<String, usize>,
        depth: usize,
    ) -> usize {
        assert!(depth <= graph.len(), "a dependency circle through {c}");
        if let Some(&f) = memo.get(c) {
            return f;
        }
        let f = graph[c]
            .iter()
            .map(|d| floor(d, graph, memo, depth + 1) + 1)
            .max()
            .unwrap_or(0);
        memo.insert(c.to_string(), f);
        f
    }
    let mut memo = BTreeMap::new();
    for c in graph.keys() {
        floor(c, graph, &mut memo, 0);
    }
    memo
}

/// The backticked words of `text`.
fn ticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The map's table of floors: crate, (floor, dependencies).
fn table(map: &str) -> BTreeMap<String, (String, BTreeSet<String>)> {
    let section = map
        .split("## Crates, on their floors")
        .nth(1)
        .expect("the map has its floors")
        .split("Beside the crates:")
        .next()
        .unwrap();
    let mut rows = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (floor, name, deps) = (cells[1], cells[2], cells[3]);
        if floor == "floor" || floor.starts_with("---") {
            continue;
        }
        let name = name.trim_matches('`').to_string();
        let deps = ticked(deps).into_iter().map(str::to_string).collect();
        rows.insert(name, (floor.to_string(), deps));
    }
    rows
}

#[test]
fn every_crate_is_on_the_floor_its_dependencies_put_it() {
    let graph = graph();
    assert!(graph.len() >= 19, "the crates are found: {graph:?}");
    assert!(graph["cli"].contains("web") && graph["firmware-avr"].contains("firmware"));
    let floors = floors(&graph);
    let map = map();
    let rows = table(&map);
    let mut wrong = Vec::new();
    for (name, deps) in &graph {
        match rows.get(name) {
            None => wrong.push(format!("`{name}` has no row")),
            Some((floor, shown)) => {
                if *floor != floors[name].to_string() {
                    wrong.push(format!(
                        "`{name}` is on floor {} (the map says {floor})",
                        floors[name]
                    ));
                }
                if shown != deps {
                    wrong.push(format!(
                        "`{name}` depends on {deps:?} (the map says {shown:?})"
                    ));
                }
            }
        }
        if !map.contains(&format!("\n**`{name}`**")) {
            wrong.push(format!("`{name}` has no paragraph"));
        }
    }
    for name in rows.keys().filter(|n| !graph.contains_key(*n)) {
        wrong.push(format!("`{name}` is in the map but not under crates/"));
    }
    assert!(
        wrong.is_empty(),
        "docs/architecture.md:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_folder_and_harness_is_named() {
    let root = root();
    let map = map();
    let named: BTreeSet<&str> = ticked(&map).into_iter().collect();
    let mut missing = Vec::new();
    for e in fs::read_dir(&root).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_dir() && !name.starts_with('.') && name != "target" {
            let folder = format!("{name}/");
            if !named.contains(folder.as_str()) {
                missing.push(folder);
            }
        }
    }
    // A harness: a folder inside a crate (not its tests) holding C or JavaScript sources.
    let mut files = Vec::new();
    walk(&root.join("crates"), "crates/", &mut files);
    let harnesses: BTreeSet<String> = files
        .iter()
        .filter(|f| [".c", ".mjs", ".js"].iter().any(|x| f.ends_with(x)))
        .filter(|f| !f.contains("/tests/"))
        .filter_map(|f| Some(format!("{}/", f.rsplit_once('/')?.0)))
        .collect();
    assert!(
        harnesses.contains("crates/sim-avr/harness/"),
        "harnesses are found: {harnesses:?}"
    );
    for h in harnesses {
        if !named.contains(h.as_str()) {
            missing.push(h);
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name: {}",
        missing.join(", ")
    );
}

#[test]
fn every_path_the_map_names_exists() {
    let root = root();
    let mut all = Vec::new();
    walk(&root, "", &mut all);
    let map = map();
    let looks_like_path = |t: &&str| {
        t.contains('/')
            && !t.contains(' ')
            && !t.starts_with('#')
            // Build output: made by the recipes, not kept in the repository.
            && !t.starts_with("target/")
            && (t.ends_with('/')
                || [
                    ".rs", ".md", ".c", ".h", ".mjs", ".js", ".py", ".sh", ".toml", ".csv",
                ]
                .iter()
                .any(|x| t.ends_with(x)))
    };
    let gone: Vec<&str> = ticked(&map)
        .into_iter()
        .filter(looks_like_path)
        .filter(|t| !all.iter().any(|f| f == t || f.ends_with(&format!("/{t}"))))
        .collect();
    assert!(
        gone.is_empty(),
        "docs/architecture.md names paths that do not exist: {gone:?}"
    );
}

/// The names of the entries of `dir` (folders end with `/`), hidden ones aside.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                format!("{name}/")
            } else {
                name
            }
        })
        .filter(|name| !name.starts_with('.'))
        .collect();
    names.sort();
    names
}

#[test]
fn every_cli_module_and_script_is_named() {
    let root = root();
    let map = map();
    let named: BTreeSet<&str> = ticked(&map).into_iter().collect();
    let mut missing = Vec::new();
    for (dir, what) in [("crates/cli/src", "CLI module"), ("scripts", "script")] {
        let entries = listing(&root.join(dir));
        assert!(entries.len() >= 7, "{dir} is read: {entries:?}");
        for name in entries {
            if !named.contains(name.as_str()) {
                missing.push(format!("{what} {dir}/{name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name: {}",
        missing.join(", ")
    );
}
