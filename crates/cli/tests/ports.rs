//! Issue 44, item 3: the board found by itself. `twenty48 ports` and `pull` without
//! `--port` are given port lists (`TWENTY48_PORTS`, the seam that replaces the system's):
//! one board, a clone, several boards, none. `pull` without `--port` and `--elf` against a
//! fake board on a pseudo-terminal (`twenty48_testkit::board`) listed as an Arduino Mega
//! 2560, the firmware found in a folder of ELFs (`TWENTY48_ELF_DIR`); a firmware given that
//! is not the board's is an error naming both. (The emulated boards: device.rs, QEMU;
//! avr_sim.rs, the Mega 2560's shipped image in simavr.)

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// A test's scratch directory, removed when the test ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("t48-ports-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A port of a `TWENTY48_PORTS` list: `id` is `"2341:0042"`, or `None` for no USB.
fn port(path: &str, id: Option<&str>) -> Value {
    match id {
        None => serde_json::json!({"path": path, "usb": null}),
        Some(id) => {
            let (vid, pid) = id.split_once(':').unwrap();
            serde_json::json!({"path": path, "usb": {"vid": vid, "pid": pid,
                "serial": "95032313", "manufacturer": "Arduino (www.arduino.cc)", "product": null}})
        }
    }
}

/// Runs `twenty48 ARGS` with the ports `list`, and `env`.
fn run(dir: &Path, list: &[Value], args: &[&str], env: &[(&str, &Path)]) -> Output {
    let file = dir.join("ports.json");
    std::fs::write(&file, Value::Array(list.to_vec()).to_string()).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twenty48"));
    cmd.args(args)
        .env("TWENTY48_PORTS", &file)
        .env_remove("TWENTY48_ELF_DIR");
    for (key, value) in env {
        cmd.env(key, value);
    }
    support::output(&mut cmd)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const MEGA: &str = "2341:0042";
const CH340: &str = "1a86:7523";

#[test]
fn ports_lists_and_chooses_one_board_a_clone_several_or_none() {
    let dir = scratch("list");
    let serial = port("/dev/ttyS0", None);
    let other = port("/dev/ttyUSB3", Some("046d:c52b"));
    for (list, chosen) in [
        (
            vec![serial.clone(), port("/dev/ttyACM0", Some(MEGA))],
            Some("/dev/ttyACM0"),
        ),
        (
            vec![port("/dev/ttyUSB0", Some(CH340)), other.clone()],
            Some("/dev/ttyUSB0"),
        ),
        (
            vec![
                port("/dev/ttyACM0", Some(MEGA)),
                port("/dev/ttyACM1", Some("2341:0043")),
            ],
            None,
        ),
        (vec![serial.clone(), other.clone()], None),
        (vec![], None),
    ] {
        let out = run(&dir.0, &list, &["ports", "--json"], &[]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let doc: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
        assert_eq!(doc["chosen"].as_str(), chosen, "{doc}");
        assert_eq!(doc["ports"].as_array().unwrap().len(), list.len());
        let out = run(&dir.0, &list, &["ports"], &[]);
        let shown = text(&out.stdout);
        match chosen {
            Some(path) => assert!(
                shown.contains(&format!("pull without --port talks to {path}")),
                "{shown}"
            ),
            None => assert!(shown.contains("pull without --port: "), "{shown}"),
        }
    }
    // What each board is called.
    let out = run(
        &dir.0,
        &[
            port("/dev/ttyACM0", Some(MEGA)),
            port("/dev/ttyACM1", Some("2341:0043")),
            port("/dev/ttyACM2", Some("2341:005e")),
            port("/dev/ttyUSB0", Some(CH340)),
        ],
        &["ports", "--json"],
        &[],
    );
    let doc: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let ids: Vec<&str> = doc["ports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["board"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["mega2560", "uno", "nano-rp2040", "ch340"]);
}

/// Several boards: named, and the pull stops (exit 2) before anything is written; none:
/// said, exit 2; a port list that is no list: an error naming the file, no panic.
#[test]
fn pull_without_port_stops_with_several_boards_or_none() {
    let dir = scratch("stop");
    let games = dir.0.join("games");
    let several = [
        port("/dev/ttyACM0", Some(MEGA)),
        port("/dev/ttyS0", None),
        port("/dev/ttyUSB0", Some(CH340)),
    ];
    let out = run(
        &dir.0,
        &several,
        &["pull", "-o", games.to_str().unwrap()],
        &[],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("2 boards attached: /dev/ttyACM0 (Arduino Mega 2560, 2341:0042, serial 95032313); /dev/ttyUSB0 (a clone with a CH340"),
        "{err}"
    );
    assert!(err.contains("give --port"), "{err}");
    assert!(!games.exists());
    for list in [vec![], vec![port("/dev/ttyS0", None)]] {
        let out = run(&dir.0, &list, &["pull", "-o", games.to_str().unwrap()], &[]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("no board attached"), "{err}");
        assert!(!games.exists());
    }
    for hostile in [
        "",
        "{",
        "[1]",
        "{\"path\": 1}",
        "[{\"path\": \"x\", \"usb\": {\"vid\": \"12\"}}]",
    ] {
        let file = dir.0.join("hostile.json");
        std::fs::write(&file, hostile).unwrap();
        let out = support::output(
            Command::new(env!("CARGO_BIN_EXE_twenty48"))
                .args(["ports"])
                .env("TWENTY48_PORTS", &file),
        );
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{hostile}: {err}");
        assert!(err.contains("hostile.json (TWENTY48_PORTS)"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// The fake board's tests: a pseudo-terminal (Unix).
#[cfg(unix)]
mod fake_board {
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};
    use std::process::Output;

    use twenty48_engine::Rules;
    use twenty48_testkit::board::{Board, Step};
    use twenty48_testkit::frames::{cycle, Frames};

    use super::{port, run, scratch, text, CH340, MEGA};

    const DEV: u64 = 0x7e57_0000_0000_0044;

    fn data(version: &str, file: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../devicelog/tests/data")
            .join(version)
            .join(file)
    }

    /// `twenty48 pull --port PORT -o GAMES` and `extra`, the ELFs of `elfs` to choose from.
    fn pull_on(dir: &Path, port: &str, games: &Path, extra: &[&str], elfs: &Path) -> Output {
        let mut args = vec!["pull", "--port", port, "-o", games.to_str().unwrap()];
        args.extend_from_slice(extra);
        run(dir, &[], &args, &[("TWENTY48_ELF_DIR", elfs)])
    }

    /// A folder of ELFs as `just firmware` names them: the fake board's (protocol v2) as the
    /// Mega 2560's, the v3 QEMU firmware (whose hello frame is the same as v2's: both read it),
    /// the v1 one, and a file that is no ELF.
    fn elf_folder(dir: &Path) -> PathBuf {
        let elfs = dir.join("elfs");
        std::fs::create_dir_all(&elfs).unwrap();
        std::fs::copy(
            data("v2", "twenty48-qemu.elf"),
            elfs.join("twenty48-mega2560.elf"),
        )
        .unwrap();
        std::fs::copy(data("v3", "twenty48-qemu.elf"), elfs.join("twenty48-qemu")).unwrap();
        std::fs::copy(data("v1", "twenty48-qemu.elf"), elfs.join("old.elf")).unwrap();
        std::fs::write(elfs.join("README.txt"), "not an ELF").unwrap();
        elfs
    }

    /// A fake board that answers `{hello}` and then `{pull}` with one stored game, and
    /// acknowledges it.
    fn fake_board() -> (Board, u32) {
        let f = Frames::new(
            &std::fs::read(data("v2", "twenty48-qemu.elf")).unwrap(),
            DEV,
        );
        let (game, check) = f.game(1, &Rules::CLASSIC, 44, &cycle(12), true);
        let mut reply = f.hello(2, 1, 1);
        reply.extend(f.begin(1));
        reply.extend(&game);
        reply.extend(f.done(1));
        let script = vec![
            Step::Await("{hello}"),
            Step::Send(f.hello(2, 1, 1)),
            Step::Await("{pull}"),
            Step::Send(reply),
            Step::Acks(BTreeMap::from([(1, check)])),
        ];
        (Board::start(script, f), check)
    }

    /// `pull -o DIR`, nothing else: the one board (a Mega 2560, or a CH340 clone) among other
    /// ports, its firmware found, said, and the game pulled, verified and acknowledged.
    #[test]
    fn pull_without_port_or_elf_finds_the_board_and_its_firmware() {
        for id in [MEGA, CH340] {
            let dir = scratch(&format!("find-{}", &id[..4]));
            let elfs = elf_folder(&dir.0);
            let (board, check) = fake_board();
            let games = dir.0.join("games");
            let list = [
                port("/dev/ttyS0", None),
                port(&board.path, Some(id)),
                port("/dev/ttyUSB7", Some("046d:c52b")),
            ];
            let out = run(
                &dir.0,
                &list,
                &["pull", "-o", games.to_str().unwrap(), "--timeout", "30"],
                &[("TWENTY48_ELF_DIR", &elfs)],
            );
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(0), "{id}: {err}");
            assert!(err.contains(&format!("board: {}", board.path)), "{err}");
            assert!(
            err.contains(&format!(
                "firmware: {}, the one of 3 ELFs in {} (TWENTY48_ELF_DIR) whose defmt table decodes the frames of {}",
                elfs.join("twenty48-mega2560.elf").display(),
                elfs.display(),
                board.path
            )),
            "{err}"
        );
            assert!(err.contains("1 verified"), "{err}");
            let written: Vec<String> = std::fs::read_dir(&games)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".t48"))
                .collect();
            // A stored game, interrupted: its verified moves, named partial.
            assert_eq!(
                written,
                [format!("{DEV:016x}-g000001.partial.t48")],
                "{err}"
            );
            assert_eq!(board.acks(), [(1, check)], "{err}");
        }
    }

    /// Without the board's identity to choose, two ELFs that both read the board's first
    /// frames and decode differently: an error naming both (exit 2), nothing written. With
    /// no ELF that reads them: an error naming the candidates.
    #[test]
    fn pull_without_elf_names_the_candidates_it_cannot_choose_between() {
        let dir = scratch("ambiguous");
        let elfs = elf_folder(&dir.0);
        let (board, _) = fake_board();
        let games = dir.0.join("games");
        let out = pull_on(&dir.0, &board.path, &games, &[], &elfs);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("2 firmware ELFs decode the frames of") && err.contains("give --elf"),
            "{err}"
        );
        assert!(!games.exists(), "{err}");
        drop(board);
        // Only the v1 firmware: it reads nothing of the board's.
        std::fs::remove_file(elfs.join("twenty48-mega2560.elf")).unwrap();
        std::fs::remove_file(elfs.join("twenty48-qemu")).unwrap();
        let (board, _) = fake_board();
        let out = pull_on(&dir.0, &board.path, &games, &["--timeout", "1"], &elfs);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("decoded with any firmware ELF tried"), "{err}");
    }

    /// A firmware given that decodes nothing of what the board sends, where another ELF does:
    /// an error that names both (exit 2).
    #[test]
    fn a_firmware_given_that_is_not_the_boards_is_an_error_naming_both() {
        let dir = scratch("mismatch");
        let elfs = elf_folder(&dir.0);
        std::fs::remove_file(elfs.join("twenty48-qemu")).unwrap();
        let (board, _) = fake_board();
        let games = dir.0.join("games");
        let wrong = data("v1", "twenty48-qemu.elf");
        let extra = ["--elf", wrong.to_str().unwrap(), "--timeout", "1"];
        let out = pull_on(&dir.0, &board.path, &games, &extra, &elfs);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "{} does not log with the firmware {}: its frames decode with {}",
                board.path,
                wrong.display(),
                elfs.join("twenty48-mega2560.elf").display()
            )),
            "{err}"
        );
    }
}
