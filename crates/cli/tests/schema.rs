//! Issue 13: every `--json` shape is published as a JSON Schema (docs/schema/*.json), and
//! each is checked here against what the binary really prints, for every command that takes
//! `--json`. The checker is a small one of our own: it knows the keywords the schemas use and
//! fails on any other, so no part of a schema is silently ignored.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schema(name: &str) -> Value {
    let path = root().join("docs/schema").join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The problems of `value` against `schema` (`top` resolves `$ref`s), each with its JSON path.
fn check(value: &Value, schema: &Value, top: &Value, at: &str, problems: &mut Vec<String>) {
    let Some(rules) = schema.as_object() else {
        panic!("{at}: a schema must be an object");
    };
    for (key, rule) in rules {
        match key.as_str() {
            "$schema" | "$id" | "title" | "description" | "$defs" => {}
            "$ref" => {
                let name = rule.as_str().unwrap().strip_prefix("#/$defs/").unwrap();
                check(value, &top["$defs"][name], top, at, problems);
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().map(|t| t.as_str().unwrap()).collect(),
                    _ => panic!("{at}: bad type"),
                };
                let ok = types.iter().any(|t| match *t {
                    "object" => value.is_object(),
                    "array" => value.is_array(),
                    "string" => value.is_string(),
                    "integer" => value.is_u64() || value.is_i64(),
                    "number" => value.is_number(),
                    "boolean" => value.is_boolean(),
                    "null" => value.is_null(),
                    other => panic!("{at}: unknown type {other}"),
                });
                if !ok {
                    problems.push(format!("{at}: {value} is not of type {types:?}"));
                }
            }
            "enum" => {
                if !rule.as_array().unwrap().contains(value) {
                    problems.push(format!("{at}: {value} is not one of {rule}"));
                }
            }
            "const" => {
                if value != rule {
                    problems.push(format!("{at}: {value} is not {rule}"));
                }
            }
            "minimum" | "maximum" => {
                if let Some(n) = value.as_f64() {
                    let bound = rule.as_f64().unwrap();
                    if (key == "minimum" && n < bound) || (key == "maximum" && n > bound) {
                        problems.push(format!("{at}: {n} is past the {key} {bound}"));
                    }
                }
            }
            "minItems" | "maxItems" => {
                if let Some(items) = value.as_array() {
                    let bound = rule.as_u64().unwrap() as usize;
                    if (key == "minItems" && items.len() < bound)
                        || (key == "maxItems" && items.len() > bound)
                    {
                        problems.push(format!(
                            "{at}: {} items, past the {key} {bound}",
                            items.len()
                        ));
                    }
                }
            }
            "pattern" => {
                // The patterns the schemas use: a state hash, a tile's value, a USB id.
                let ok = |s: &str| match rule.as_str().unwrap() {
                    "^[0-9a-f]{4}$" => {
                        s.len() == 4
                            && s.bytes()
                                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
                    }
                    "^[0-9a-f]{16}$" => {
                        s.len() == 16
                            && s.bytes()
                                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
                    }
                    "^[1-9][0-9]*$" => {
                        !s.starts_with('0')
                            && !s.is_empty()
                            && s.bytes().all(|b| b.is_ascii_digit())
                    }
                    other => panic!("{at}: unknown pattern {other}"),
                };
                if let Some(s) = value.as_str() {
                    if !ok(s) {
                        problems.push(format!("{at}: {s:?} does not match {rule}"));
                    }
                }
            }
            "items" => {
                if let Some(items) = value.as_array() {
                    for (i, item) in items.iter().enumerate() {
                        check(item, rule, top, &format!("{at}[{i}]"), problems);
                    }
                }
            }
            "properties" => {
                if let Some(object) = value.as_object() {
                    for (name, sub) in rule.as_object().unwrap() {
                        if let Some(v) = object.get(name) {
                            check(v, sub, top, &format!("{at}.{name}"), problems);
                        }
                    }
                }
            }
            "required" => {
                if let Some(object) = value.as_object() {
                    for name in rule.as_array().unwrap() {
                        if !object.contains_key(name.as_str().unwrap()) {
                            problems.push(format!("{at}: {name} is missing"));
                        }
                    }
                }
            }
            "additionalProperties" => {
                if let Some(object) = value.as_object() {
                    let none = serde_json::Map::new();
                    let known = schema["properties"].as_object().unwrap_or(&none);
                    for name in object.keys().filter(|n| !known.contains_key(*n)) {
                        if rule == &Value::Bool(false) {
                            problems.push(format!("{at}: {name} is not in the schema"));
                        } else {
                            assert!(rule.is_object(), "{at}: false or a schema");
                            check(&object[name], rule, top, &format!("{at}.{name}"), problems);
                        }
                    }
                }
            }
            "propertyNames" => {
                if let Some(object) = value.as_object() {
                    for name in object.keys() {
                        let key = Value::String(name.clone());
                        check(&key, rule, top, &format!("{at}.{name} (name)"), problems);
                    }
                }
            }
            "oneOf" => {
                let branches: Vec<Vec<String>> = rule
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| {
                        let mut p = Vec::new();
                        check(value, s, top, at, &mut p);
                        p
                    })
                    .collect();
                let matching = branches.iter().filter(|p| p.is_empty()).count();
                if matching != 1 {
                    problems.push(format!(
                        "{at}: matches {matching} of oneOf, not 1: {branches:?}"
                    ));
                }
            }
            other => panic!("{at}: the checker does not know {other:?}"),
        }
    }
}

fn assert_valid(name: &str, json: &str) {
    let value: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{name}: {e}\n{json}"));
    // docs/json.md: one pretty-printed document (two-space indents), then a newline.
    assert!(
        json.starts_with("{\n  \"") && json.ends_with("\n}\n"),
        "{name}: not one pretty-printed document:\n{json}"
    );
    // docs/json.md: version 1, except analyse's 3.
    let version = if name == "analyse" { 3 } else { 1 };
    assert_eq!(value["schema_version"], version, "{name}: {value}");
    let schema = schema(name);
    let mut problems = Vec::new();
    check(&value, &schema, &schema, "$", &mut problems);
    assert!(problems.is_empty(), "{name}:\n{}", problems.join("\n"));
}

/// Checks a JSON Lines output (`replay --json`): every line valid against the schema, the
/// head first (its schema version `version`), the verdict last, the states between in order
/// of their move numbers. Returns the parsed lines.
fn assert_valid_lines(name: &str, out: &str, version: u64) -> Vec<Value> {
    let schema = schema(name);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: {e}\n{l}")))
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let mut problems = Vec::new();
        check(
            line,
            &schema,
            &schema,
            &format!("line {}", i + 1),
            &mut problems,
        );
        assert!(problems.is_empty(), "{name}:\n{}", problems.join("\n"));
    }
    assert!(lines.len() >= 2, "{name}: a head and a verdict at least");
    assert_eq!(
        lines[0]["schema_version"], version,
        "{name}: the head first"
    );
    assert!(
        lines[lines.len() - 1].get("verdict").is_some(),
        "{name}: the verdict last"
    );
    let moves: Vec<u64> = lines[1..lines.len() - 1]
        .iter()
        .map(|s| {
            s["move"]
                .as_u64()
                .expect("a state between head and verdict")
        })
        .collect();
    assert!(
        moves.windows(2).all(|w| w[1] == w[0] + 1),
        "{name}: {moves:?}"
    );
    lines
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("t48-schema-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the binary in `dir`; returns (exit code, stdout).
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = support::output(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(args)
            .current_dir(dir),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn issue13_every_json_output_matches_its_schema() {
    let dir = scratch();
    let fixtures = root().join("fixtures");
    let games = fixtures.join("games");
    let f = |p: &Path| p.to_str().unwrap().to_string();
    let (code, out) = run(
        &dir,
        &[
            "record",
            "--seed",
            "42",
            "--moves",
            "LURDLLURUUUU",
            "-o",
            "a.t48",
            "--json",
        ],
    );
    assert_eq!(code, 0);
    assert_valid("record", &out);
    run(
        &dir,
        &[
            "record", "--seed", "42", "--moves", "LURDLLUR", "--rules", "arduino", "-o", "b.t48",
        ],
    );
    run(
        &dir,
        &["record", "--seed", "42", "--moves", "LURDLL", "-o", "c.t48"],
    );
    let small = "record --size 2 --win 16 --seed 1 --moves LURD -o small.t48";
    run(&dir, &small.split(' ').collect::<Vec<_>>());
    for game in [
        "a.t48",
        &f(&games.join("classic-greedy-2048-plays-on.t48")),
        &f(&games.join("custom-2x2.t48")),
    ] {
        let (_, out) = run(&dir, &["replay", game, "--json"]);
        assert_valid_lines("replay", &out, 2);
        let (_, out) = run(&dir, &["replay", game, "--json", "--final"]);
        assert_eq!(assert_valid_lines("replay", &out, 2).len(), 3);
        let (_, out) = run(&dir, &["inspect", game, "--json"]);
        assert_valid("inspect", &out);
    }
    // The win is reported once, on the move that reached it.
    let (_, out) = run(
        &dir,
        &[
            "replay",
            &f(&games.join("classic-greedy-2048-plays-on.t48")),
            "--json",
        ],
    );
    let lines = assert_valid_lines("replay", &out, 2);
    let wins: Vec<&Value> = lines.iter().filter(|s| s["reached_win"] == true).collect();
    assert_eq!(wins.len(), 1);
    assert_eq!(wins[0]["max_tile"], 2048);
    // analyse: a whole game, and one that stops at a problem (analysed up to there).
    let (code, out) = run(&dir, &["analyse", "a.t48", "--json", "--depth", "2"]);
    assert_eq!(code, 0);
    assert_valid("analyse", &out);
    let (code, out) = run(
        &dir,
        &[
            "analyse",
            &f(&fixtures.join("broken/illegal-move.t48")),
            "--json",
            "--depth",
            "1",
        ],
    );
    assert_eq!(code, 1);
    assert_valid("analyse", &out);
    // A replay that stops at a problem: its states up to there, then the verdict.
    let illegal = f(&fixtures.join("broken/illegal-move.t48"));
    let (code, out) = run(&dir, &["replay", &illegal, "--json"]);
    assert_eq!(code, 1);
    let lines = assert_valid_lines("replay", &out, 2);
    assert_eq!(lines.last().unwrap()["verdict"]["ok"], false);
    let (code, out) = run(
        &dir,
        &["verify", "--json", &f(&games), &f(&fixtures.join("broken"))],
    );
    assert_eq!(code, 2);
    assert_valid("verify", &out);
    // diff: identical, a parting state, a prefix, rules only, an invalid log.
    for (args, parting) in [
        (vec!["a.t48", "a.t48"], None),
        (vec!["a.t48", "b.t48"], Some("state")),
        (vec!["a.t48", "small.t48"], Some("state")),
        (vec!["a.t48", "c.t48"], Some("prefix")),
        (
            vec!["a.t48", "--rules", "console", "--win", "4096"],
            Some("rules"),
        ),
    ] {
        let mut all = vec!["diff", "--json"];
        all.extend(args);
        let (_, out) = run(&dir, &all);
        assert_valid("diff", &out);
        let doc: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["parting"].as_str(), parting, "{doc}");
    }
    let (code, out) = run(
        &dir,
        &[
            "diff",
            "--json",
            &f(&fixtures.join("broken/false-claim.t48")),
        ],
    );
    assert_eq!(code, 1);
    assert_valid("diff", &out);
    // recover: a journal of a game (the journal format is the tui crate's).
    let journal = dir.join("j.t48.journal");
    let mut j =
        twenty48_tui::Journal::create(&journal, twenty48_engine::Rules::CLASSIC, 5, 256).unwrap();
    let mut g = twenty48_engine::Game::new(twenty48_engine::Rules::CLASSIC, 5).unwrap();
    for d in twenty48_engine::Direction::ALL {
        if g.play(d).unwrap().moved {
            j.append(d).unwrap();
        }
    }
    drop(j);
    support::unlocked(&journal);
    let (code, out) = run(&dir, &["recover", "j.t48.journal", "--json"]);
    assert_eq!(code, 0, "{out}");
    assert_valid("recover", &out);
    // pull: the v1 capture of the QEMU firmware kept with devicelog's tests.
    let data = root().join("crates/devicelog/tests/data/v1");
    let (_, out) = run(
        &dir,
        &[
            "pull",
            "--elf",
            &f(&data.join("twenty48-qemu.elf")),
            "--capture",
            &f(&data.join("capture.bin")),
            "-o",
            "pulled",
            "--json",
        ],
    );
    assert_valid("pull", &out);
    // ports: the system's (whatever this machine has), and a list given for tests with a
    // board, a clone, a port with no USB and one with strings missing.
    let (code, out) = run(&dir, &["ports", "--json"]);
    assert_eq!(code, 0, "{out}");
    assert_valid("ports", &out);
    let list = dir.join("ports.json");
    std::fs::write(
        &list,
        r#"[{"path": "/dev/ttyACM0", "usb": {"vid": "2341", "pid": "0042", "serial": "8573",
             "manufacturer": "Arduino (www.arduino.cc)", "product": null}},
            {"path": "/dev/ttyUSB0", "usb": {"vid": "1a86", "pid": "7523"}},
            {"path": "/dev/ttyS0", "usb": null}]"#,
    )
    .unwrap();
    let out = support::output(
        Command::new(env!("CARGO_BIN_EXE_twenty48"))
            .args(["ports", "--json"])
            .env("TWENTY48_PORTS", &list),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_valid("ports", &String::from_utf8(out.stdout).unwrap());
    // stats: the fixture corpus (games that verify, fail and cannot be read) and one game.
    let (code, out) = run(&dir, &["stats", "--json", &f(&fixtures)]);
    assert_eq!(code, 2);
    assert_valid("stats", &out);
    let (code, out) = run(&dir, &["stats", "--json", "a.t48"]);
    assert_eq!(code, 0);
    assert_valid("stats", &out);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `--help` JSON shape, as written: `{name, name: value, ...}`.
#[derive(Debug)]
enum Shape {
    /// An object: its field names, each with the shape given for it (if any). `open`: the
    /// help lists only some (`...`); `map`: the names are examples of keys (`"2048": N`).
    Object {
        fields: Vec<(String, Option<Shape>)>,
        open: bool,
        map: bool,
    },
    /// A list of things of one shape.
    Array(Box<Shape>),
    /// Anything else (`N`, `[p, q]`, `values`): not compared.
    Other,
}

#[derive(Debug, PartialEq)]
enum Token {
    Punct(char),
    Name(String),
    Quoted(String),
    Ellipsis,
}

/// The tokens of a help shape; parenthesised remarks (`(a count)`, `("state" | "prefix")`)
/// are left out.
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0;
    while let Some(c) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth > 0 => {}
            '{' | '}' | '[' | ']' | ':' | ',' | '|' => out.push(Token::Punct(c)),
            '"' => {
                let s: String = chars.by_ref().take_while(|&c| c != '"').collect();
                out.push(Token::Quoted(s));
            }
            '.' => {
                while chars.peek() == Some(&'.') {
                    chars.next();
                }
                out.push(Token::Ellipsis);
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut s = c.to_string();
                while let Some(&n) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                    s.push(n);
                    chars.next();
                }
                out.push(Token::Name(s));
            }
            _ => {}
        }
    }
    out
}

/// Parses one value at `at`: an object, a list, or a word, with `| null` alternatives.
fn value(t: &[Token], at: &mut usize) -> Shape {
    let mut shape = Shape::Other;
    loop {
        match t.get(*at) {
            Some(Token::Punct('{')) => shape = object(t, at),
            Some(Token::Punct('[')) => {
                *at += 1;
                let inner = value(t, at);
                // `[p, q]`: a list of words.
                while t.get(*at) != Some(&Token::Punct(']')) {
                    *at += 1;
                }
                *at += 1;
                shape = Shape::Array(Box::new(inner));
            }
            Some(Token::Name(_) | Token::Quoted(_)) => *at += 1,
            _ => {}
        }
        if t.get(*at) == Some(&Token::Punct('|')) {
            *at += 1;
            continue;
        }
        return shape;
    }
}

/// Parses `{...}` at `at`.
fn object(t: &[Token], at: &mut usize) -> Shape {
    assert_eq!(t[*at], Token::Punct('{'));
    *at += 1;
    let (mut fields, mut open, mut map) = (Vec::new(), false, false);
    loop {
        match &t[*at] {
            Token::Punct('}') => {
                *at += 1;
                return Shape::Object { fields, open, map };
            }
            Token::Punct(',') => *at += 1,
            Token::Ellipsis => {
                open = true;
                *at += 1;
            }
            Token::Name(name) | Token::Quoted(name) => {
                map |= matches!(t[*at], Token::Quoted(_));
                *at += 1;
                let mut shape = None;
                if t[*at] == Token::Punct(':') {
                    *at += 1;
                    shape = Some(value(t, at));
                }
                // `win_tile|null`
                while t[*at] == Token::Punct('|') {
                    *at += 2;
                }
                fields.push((name.clone(), shape));
            }
            other => panic!("unexpected {other:?} in a shape"),
        }
    }
}

/// The alternatives a schema node allows, `$ref`s followed, nulls left out.
fn alternatives<'a>(node: &'a Value, top: &'a Value) -> Vec<&'a Value> {
    if let Some(r) = node["$ref"].as_str() {
        let name = r.strip_prefix("#/$defs/").unwrap();
        return alternatives(&top["$defs"][name], top);
    }
    if let Some(branches) = node["oneOf"].as_array() {
        return branches.iter().flat_map(|b| alternatives(b, top)).collect();
    }
    if node["type"] == "null" {
        return Vec::new();
    }
    vec![node]
}

/// Every property an object may have (over all its alternatives), with its schemas.
fn properties<'a>(nodes: &[&'a Value]) -> Vec<(&'a str, Vec<&'a Value>)> {
    let mut out: Vec<(&str, Vec<&Value>)> = Vec::new();
    for node in nodes {
        for (name, sub) in node["properties"].as_object().into_iter().flatten() {
            match out.iter_mut().find(|(n, _)| n == name) {
                Some((_, subs)) => subs.push(sub),
                None => out.push((name, vec![sub])),
            }
        }
    }
    out
}

/// What differs between a help shape and the schema nodes it describes.
fn compare(shape: &Shape, nodes: &[&Value], top: &Value, at: &str, problems: &mut Vec<String>) {
    let nodes: Vec<&Value> = nodes.iter().flat_map(|n| alternatives(n, top)).collect();
    match shape {
        Shape::Other => {}
        Shape::Array(inner) => {
            let items: Vec<&Value> = nodes.iter().filter_map(|n| n.get("items")).collect();
            if items.is_empty() {
                problems.push(format!("{at}: --help says a list, the schema does not"));
            }
            compare(inner, &items, top, &format!("{at}[]"), problems);
        }
        Shape::Object { map: true, .. } => {}
        Shape::Object { fields, open, .. } => {
            let known = properties(&nodes);
            for (name, sub) in fields {
                match known.iter().find(|(n, _)| n == name) {
                    None => {
                        problems.push(format!("{at}: --help names {name}, the schema does not"))
                    }
                    Some((_, subs)) => {
                        if let Some(sub) = sub {
                            compare(sub, subs, top, &format!("{at}.{name}"), problems);
                        }
                    }
                }
            }
            if !open {
                for (name, _) in &known {
                    if !fields.iter().any(|(n, _)| n == name) {
                        problems.push(format!("{at}: the schema has {name}, --help does not"));
                    }
                }
            }
        }
    }
}

/// The subcommands `twenty48 --help` lists.
fn subcommands() -> Vec<String> {
    let (_, help) = run(Path::new("."), &["--help"]);
    let list = help.split("Commands:\n").nth(1).unwrap();
    list.lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .filter(|c| c != "help")
        .collect()
}

/// Issue 28, item 4: the JSON shape every `--help` shows is the schema's: the same fields
/// at every level it spells out, for every command that takes `--json`, and every schema
/// in docs/schema/ is one such command's.
#[test]
fn issue28_every_help_json_shape_is_its_schema() {
    let mut with_json = Vec::new();
    let mut problems = Vec::new();
    for command in subcommands() {
        let (code, help) = run(Path::new("."), &[&command, "--help"]);
        assert_eq!(code, 0, "{command} --help");
        if !help.contains("\n      --json") {
            assert!(
                !help.contains("JSON shape"),
                "{command}: a shape without --json"
            );
            continue;
        }
        with_json.push(command.clone());
        let paragraph = help
            .split("\n\n")
            .find(|p| p.starts_with("JSON shape"))
            .unwrap_or_else(|| panic!("{command} --help has no JSON shape paragraph"));
        assert!(
            paragraph.contains(&format!("docs/schema/{command}.json")),
            "{command}: the shape names its schema:\n{paragraph}"
        );
        let t = tokens(paragraph);
        let mut groups = Vec::new();
        let mut at = 0;
        while at < t.len() {
            if t[at] == Token::Punct('{') {
                groups.push(object(&t, &mut at));
            } else {
                at += 1;
            }
        }
        let schema = schema(&command);
        let top = alternatives(&schema, &schema);
        match groups.len() {
            0 => problems.push(format!("{command}: --help gives no shape:\n{paragraph}")),
            // One shape for a document with alternatives (diff): all their fields.
            1 => compare(&groups[0], &top, &schema, &command, &mut problems),
            // One shape per alternative (replay's lines), in the schema's order.
            n => {
                if n != top.len() {
                    problems.push(format!(
                        "{command}: {n} shapes, {} in the schema",
                        top.len()
                    ));
                }
                for (i, (shape, node)) in groups.iter().zip(&top).enumerate() {
                    compare(
                        shape,
                        &[node],
                        &schema,
                        &format!("{command}#{i}"),
                        &mut problems,
                    );
                }
            }
        }
    }
    let mut schemas: Vec<String> = std::fs::read_dir(root().join("docs/schema"))
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".json").unwrap().to_string()
        })
        .collect();
    schemas.sort();
    with_json.sort();
    assert_eq!(schemas, with_json, "a schema for every command with --json");
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// Issue 28: the independent implementation (docs/independent/, written from the docs alone)
/// reads what the program prints as docs/json.md says: every fixture game's `replay --json`
/// lines state by state, `--final`, the win line, `inspect --json` field by field.
#[cfg(unix)] // the Python implementation runs on the host
#[test]
fn issue28_the_independent_implementation_agrees_with_the_programs_output() {
    let out = support::output(
        Command::new("python3")
            .arg("docs/independent/program.py")
            .arg(env!("CARGO_BIN_EXE_twenty48"))
            .current_dir(root()),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let failures: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("PASS ")).collect();
    assert!(
        out.status.success(),
        "{}\n{}",
        failures.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
}
