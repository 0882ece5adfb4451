//! Issue 13: the examples people copy work. The README's tour runs top to bottom in an empty
//! directory and every output it shows is compared with the output produced (`[..]` in a
//! shown line stands for any text, a `...` line for any lines); every example in every
//! `--help` runs, each command's in an empty directory of its own, and must not fail (exit
//! status 0, or 1 for the commands whose 1 means "the games differ"). The examples that need a
//! terminal or a board on a serial port are listed by name and checked to exist.
#![cfg(unix)] // a POSIX shell runs the examples (tests/windows.rs: the tour on Windows)

mod support;
use support::Start as _;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_twenty48")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-examples-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a shell command line in `dir` with `twenty48` on PATH and HOME there too; returns the
/// exit status and standard output and error together.
fn shell(dir: &Path, line: &str) -> (i32, String) {
    let bin_dir = Path::new(bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{{\n{line}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        // `share` links to this page, not to a local build of it (none before `just web`).
        .env("TWENTY48_WEB", "https://example.org/twenty48/")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .start()
        .unwrap();
    let out = support::finish(out);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Whether `line` matches the shown `pattern`, where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let Some(mut rest) = line.strip_prefix(parts[0]) else {
        return false;
    };
    for (i, part) in parts.iter().enumerate().skip(1) {
        if i == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `output` matches the shown lines (`...` stands for any lines).
fn output_matches(shown: &[&str], output: &[&str]) -> bool {
    match shown.split_first() {
        None => output.is_empty(),
        Some((&"...", rest)) => {
            (0..=output.len()).any(|skip| output_matches(rest, &output[skip..]))
        }
        Some((first, rest)) => {
            !output.is_empty()
                && line_matches(first, output[0])
                && output_matches(rest, &output[1..])
        }
    }
}

/// The `console` blocks of a Markdown file: (command, shown output lines).
fn console_examples(markdown: &str) -> Vec<(String, Vec<String>)> {
    let mut examples: Vec<(String, Vec<String>)> = Vec::new();
    let mut inside = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            inside = line == "```console";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push((command.to_string(), Vec::new()));
        } else if let Some((_, shown)) = examples.last_mut() {
            shown.push(line.trim_end().to_string());
        }
    }
    for (_, shown) in &mut examples {
        while shown.last().is_some_and(|l| l.is_empty()) {
            shown.pop();
        }
    }
    examples
}

#[test]
fn issue13_the_readme_tour_runs_top_to_bottom_and_shows_what_it_says() {
    let dir = scratch("readme");
    // What `just qemu-elf` builds and a capture of it: the v1 pair kept for devicelog's tests.
    let v1 = root().join("crates/devicelog/tests/data/v1");
    std::fs::copy(v1.join("twenty48-qemu.elf"), dir.join("twenty48-qemu")).unwrap();
    std::fs::copy(v1.join("capture.bin"), dir.join("capture.bin")).unwrap();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let examples = console_examples(&readme);
    assert!(examples.len() >= 10, "the tour: {examples:?}");
    for (command, shown) in &examples {
        let (code, output) = shell(&dir, command);
        assert!(
            code == 0 || (code == 1 && command.contains("diff")),
            "{command}: exit {code}\n{output}"
        );
        let shown: Vec<&str> = shown.iter().map(String::as_str).collect();
        let lines: Vec<&str> = output.lines().map(str::trim_end).collect();
        assert!(
            output_matches(&shown, &lines),
            "{command}\n--- shown in README.md:\n{}\n--- produced:\n{output}",
            shown.join("\n")
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The examples of a command's --help (the lines of its `Examples:` paragraph), with their
/// trailing remarks in parentheses and comment lines left out.
fn help_examples(command: &[&str]) -> Vec<String> {
    let mut args = command.to_vec();
    args.push("--help");
    let out = support::output(Command::new(bin()).args(&args));
    let help = String::from_utf8(out.stdout).unwrap();
    let Some((_, after)) = help.split_once("\nExamples:\n") else {
        return Vec::new();
    };
    after
        .lines()
        .take_while(|l| !l.is_empty())
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .map(|l| match l.find("  (") {
            Some(at) => l[..at].trim_end().to_string(),
            None => l.to_string(),
        })
        .collect()
}

/// The examples that need a terminal (they play or watch), a board on a serial port, or a
/// browser (`share --open`).
const NOT_RUN: [&str; 10] = [
    "twenty48 play",
    "twenty48 play --rules console -o game.t48",
    "twenty48 replay game.t48 --watch",
    "twenty48 play --rules console --seed 42 -o game.t48",
    "twenty48 play --size 5 --win none",
    "twenty48 record --seed 7 -o mine.t48",
    "twenty48 pull -o games/",
    "twenty48 pull --elf twenty48-nano-rp2040 --port /dev/ttyACM0 -o games/",
    "twenty48 pull --elf twenty48-nano-rp2040 --port /dev/ttyACM0 -o games/ --follow",
    "twenty48 share game.t48 --open",
];

/// Files the examples of `command` name, made in `dir` before they run.
fn prepare(dir: &Path, command: &str) {
    let v1 = root().join("crates/devicelog/tests/data/v1");
    let make = |args: &[&str]| {
        let out = support::output(Command::new(bin()).args(args).current_dir(dir));
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    match command {
        "record" => std::fs::write(dir.join("moves.txt"), "LURD\nLLUR\n").unwrap(),
        "recover" => {
            let mut journal = twenty48_tui::Journal::create(
                &dir.join("game.t48.journal"),
                twenty48_engine::Rules::CLASSIC,
                5,
                256,
            )
            .unwrap();
            journal.append(twenty48_engine::Direction::Left).unwrap();
            drop(journal);
            support::unlocked(&dir.join("game.t48.journal"));
        }
        "" => {
            std::os::unix::fs::symlink(root().join("fixtures"), dir.join("fixtures")).unwrap();
            make(&[
                "record", "--seed", "42", "--moves", "LURDLLUR", "--rules", "arduino", "-o",
                "b.t48",
            ]);
        }
        _ => {
            std::os::unix::fs::symlink(root().join("fixtures"), dir.join("fixtures")).unwrap();
            make(&[
                "record", "--seed", "42", "--moves", "LURDLLUR", "-o", "game.t48",
            ]);
            make(&["record", "--seed", "42", "--moves", "LURDLL", "-o", "a.t48"]);
            make(&[
                "record", "--seed", "42", "--moves", "LURDLLUR", "--rules", "arduino", "-o",
                "b.t48",
            ]);
            std::fs::create_dir(dir.join("games")).unwrap();
            std::fs::copy(dir.join("game.t48"), dir.join("games/game.t48")).unwrap();
            std::fs::copy(v1.join("twenty48-qemu.elf"), dir.join("twenty48-qemu")).unwrap();
            std::fs::copy(v1.join("capture.bin"), dir.join("capture.bin")).unwrap();
        }
    }
}

#[test]
fn issue13_every_help_example_runs() {
    let mut skipped = Vec::new();
    let mut ran = 0;
    let subcommands = [
        "",
        "record",
        "replay",
        "verify",
        "diff",
        "analyse",
        "inspect",
        "pull",
        "ports",
        "play",
        "recover",
        "share",
        "stats",
        "completions",
        "man",
    ];
    for name in subcommands {
        let command: Vec<&str> = if name.is_empty() { vec![] } else { vec![name] };
        let examples = help_examples(&command);
        assert!(
            !examples.is_empty(),
            "twenty48 {name} --help has no examples"
        );
        let dir = scratch(if name.is_empty() { "top" } else { name });
        prepare(&dir, name);
        for example in examples {
            if NOT_RUN.contains(&example.as_str()) {
                skipped.push(example);
                continue;
            }
            let (code, output) = shell(&dir, &example);
            let differs = example.contains(" diff ") && code == 1;
            assert!(code == 0 || differs, "{example}: exit {code}\n{output}");
            ran += 1;
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    skipped.sort();
    skipped.dedup();
    let mut listed = NOT_RUN.to_vec();
    listed.sort();
    assert_eq!(
        skipped, listed,
        "every example not run is one that needs a terminal, a board or a browser"
    );
    assert!(ran >= 25, "{ran} examples ran");
}
