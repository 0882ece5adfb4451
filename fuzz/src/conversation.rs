//! The pull conversation's fuzz target: the input is a script for a fake board (frames with
//! valid checks, crafted frames, noise, cut frames, names planted in the directory); the
//! host's conversation (`twenty48_devicelog::pull::Conversation`, as `twenty48 pull` drives
//! it: a port's, or a capture's) reads the frames, writes files and sends its
//! acknowledgements; then the promises of issue 26 are checked as assertions:
//! - a port's conversation sends its request first, then only acknowledgements, each of a
//!   copy pulled that asked for it, at most `ACKS_IN_FLIGHT` unanswered at once; a
//!   capture's sends nothing;
//! - the pull writes only through its folder (`twenty48_testkit::folder::Memory`, names
//!   planted in it as files and links): no entry already there is replaced or changed;
//! - no acknowledgement is for a game not in the folder: each names the closing frame's
//!   check of a copy received whose every move is in a file there (the copy, or a longer
//!   verified copy it begins), never another check;
//! - what the pull holds stays within its caps: at most `MAX_OPEN_GAMES` games open, the
//!   copies waiting for a deferred decision within `DEFER_BYTES`, every list of the report
//!   within `LISTED` entries and a line counting the rest.

use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use twenty48_devicelog::pull::{
    Conversation, Outcome, PortOptions, Progress, Pulled, ACKS_IN_FLIGHT, DEFER_BYTES, LISTED,
};
use twenty48_devicelog::MAX_OPEN_GAMES;
use twenty48_deviceproto::{Ack, Request};
use twenty48_engine::{Direction, Preset, Rules};
use twenty48_movelog::MoveLog;

use twenty48_testkit::folder::{Entry, Memory};
use twenty48_testkit::frames::Frames;

const DEV: u64 = 0x7e57_0000_0000_0001;

fn v2_elf() -> &'static [u8] {
    static ELF: OnceLock<Vec<u8>> = OnceLock::new();
    ELF.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../crates/devicelog/tests/data/v2/twenty48-qemu.elf");
        fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
    })
}

fn board() -> &'static Frames {
    static FRAMES: OnceLock<Frames> = OnceLock::new();
    FRAMES.get_or_init(|| Frames::new(v2_elf(), DEV))
}

/// The input, read a byte at a time (zeros once it runs out).
struct Script<'a>(&'a [u8]);

impl Script<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }
    fn u32(&mut self) -> u32 {
        match self.byte() % 4 {
            0 => u32::from(self.byte() % 8),
            1 => u32::MAX - u32::from(self.byte() % 4),
            _ => u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()]),
        }
    }
    fn u64(&mut self) -> u64 {
        u64::from(self.u32()) << 32 | u64::from(self.u32())
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The moves of variant `v` of a game: `n` moves of one of four patterns, so that two
/// copies of one game are often the same game cut at different lengths, and sometimes part.
fn moves(v: u8, n: usize) -> Vec<Direction> {
    use Direction::*;
    let pattern: &[Direction] = match v % 4 {
        0 => &[Left, Down, Right, Up],
        1 => &[Left, Down, Right, Up, Up, Left],
        2 => &[Up, Right, Down, Left],
        _ => &[Down, Down, Left, Right, Up],
    };
    pattern.iter().copied().cycle().take(n).collect()
}

/// What the script plants in the folder before the pull: (name, contents, or a link to a
/// file outside it).
enum Plant {
    File(String, Vec<u8>),
    Link(String),
}

/// Builds the board's bytes and the planted names from the script.
fn stream(s: &mut Script) -> (Vec<u8>, Vec<Plant>) {
    let f = board();
    let mut out = Vec::new();
    let mut plants = Vec::new();
    let rules = [Rules::CLASSIC, Rules::ARDUINO, Preset::Console.rules()];
    while !s.is_empty() && out.len() < 1 << 16 {
        match s.byte() % 14 {
            0 => out.extend(f.hello(s.u32(), s.u32(), s.u32())),
            1 => out.extend(f.begin(u32::from(s.byte() % 6))),
            2 => out.extend(f.done(u32::from(s.byte() % 6))),
            3..=5 => {
                let (number, r, seed) = (u32::from(s.byte() % 5), s.byte(), s.byte() % 3);
                let (variant, n, partial) =
                    (s.byte(), usize::from(s.byte() % 48), s.byte() & 1 == 1);
                let rules = rules[usize::from(r) % rules.len()];
                let (bytes, _) =
                    f.game(number, &rules, u64::from(seed), &moves(variant, n), partial);
                // Sometimes cut short (a link that went down mid-game).
                let keep = match s.byte() % 4 {
                    0 => usize::from(s.byte()) * bytes.len() / 256,
                    _ => bytes.len(),
                };
                out.extend(&bytes[..keep]);
            }
            6 => out.extend(f.start(s.u32(), &Rules::CLASSIC, s.u64()).0),
            7 => {
                let (game, seq, dir) = (s.u32(), s.u32(), s.byte() % 5);
                out.extend(f.moved(game, seq, dir, s.u64(), s.u64()));
            }
            8 => {
                let (game, result, score, moves, hash, start) =
                    (s.u32(), s.byte() % 4, s.u64(), s.u32(), s.u64(), s.u32());
                if s.byte() & 1 == 0 {
                    out.extend(f.end(game, result, score, moves, hash, start).0);
                } else {
                    out.extend(f.partial(game, moves, score, hash, start).0);
                }
            }
            9 => out.extend(f.lost(s.u32(), s.u32(), s.u32())),
            10 => {
                let n = usize::from(s.byte() % 16);
                for _ in 0..n {
                    out.push(s.byte());
                }
            }
            11 => out.push(0),
            12 => out.extend(f.acked(s.u32())),
            _ => {
                let number = u32::from(s.byte() % 5);
                let kind = match s.byte() % 3 {
                    0 => "",
                    1 => ".partial",
                    _ => "-2",
                };
                let name = format!("{DEV:016x}-g{number:06}{kind}.t48");
                if s.byte() & 1 == 0 {
                    plants.push(Plant::Link(name));
                } else {
                    let (_, v, n) = (s.byte(), s.byte(), usize::from(s.byte() % 30));
                    let bytes =
                        MoveLog::from_moves(Rules::CLASSIC, u64::from(v % 3), &moves(v, n), 256)
                            .map(|l| l.encode())
                            .unwrap_or_else(|_| vec![v; n]);
                    plants.push(Plant::File(name, bytes));
                }
            }
        }
    }
    (out, plants)
}

/// The acknowledgements in bytes the conversation sent: every request in them must be an
/// `{ack N C}` (the request itself was taken before).
fn requests(bytes: &[u8]) -> Vec<Ack> {
    let text = std::str::from_utf8(bytes).expect("requests are text");
    text.split_terminator('}')
        .map(|r| {
            let inner = r.strip_prefix('{').expect("a request starts with a brace");
            match Request::parse(inner.as_bytes()) {
                Ok(Request::Ack { game, check }) => Ack { game, check },
                other => panic!("{r}}} sent mid-pull: {other:?}"),
            }
        })
        .collect()
}

/// The fuzz target: a fake board's stream into a pull, then the promises.
pub fn pull_conversation(data: &[u8]) {
    let mut s = Script(data);
    let mode = s.byte();
    let keep_partial = mode & 1 == 1;
    // As `twenty48 pull` does: a port's conversation writes games as they close and
    // acknowledges them; a capture's decides when the bytes end and acknowledges nothing.
    let port = mode & 2 == 0;
    let (bytes, plants) = stream(&mut s);
    let folder = Memory::new();
    for plant in &plants {
        match plant {
            Plant::File(name, bytes) => folder.plant(name, Entry::File(bytes.clone())),
            Plant::Link(name) => folder.plant(name, Entry::Link("../beside".to_string())),
        }
    }
    let before = folder.entries();
    let elf = v2_elf();
    let mut talk = if port {
        let options = PortOptions {
            all: mode & 0x80 != 0,
            keep_partial,
        };
        Conversation::port(elf, Box::new(folder.clone()), options, 0)
    } else {
        Conversation::capture(elf, Box::new(folder.clone()), keep_partial)
    }
    .expect("the v2 ELF");
    let mut sent = talk.outgoing();
    if port {
        let asked = if mode & 0x80 != 0 {
            "{hello}{pull all}"
        } else {
            "{hello}{pull}"
        };
        assert_eq!(sent, asked.as_bytes(), "the request comes first");
    } else {
        assert!(sent.is_empty(), "a capture has no one to talk to");
    }
    sent.clear();
    let mut pulled: Vec<Pulled> = Vec::new();
    let mut offered: Vec<twenty48_deviceproto::Ack> = Vec::new();
    let mut answered = 0usize;
    let (mut no_store, mut forgotten) = (false, 0usize);
    let chunk = usize::from(mode >> 2 & 0x1f).max(1);
    let mut progress = Vec::new();
    for (now, piece) in (0u64..).zip(bytes.chunks(chunk)) {
        let steps = talk.feed(piece, now).expect("writes in memory");
        for step in &steps {
            match step {
                Progress::Pulled(p) => offered.extend(p.ack),
                Progress::Acked(_) => answered += 1,
                _ => {}
            }
        }
        progress.extend(steps);
        let out = talk.outgoing();
        // Every byte sent is an acknowledgement of a copy pulled and offered for it.
        for ack in requests(&out) {
            assert!(
                offered.contains(&ack),
                "{ack:?} sent, but no copy pulled asked for it"
            );
            sent.push(0);
        }
        let refused = talk.acks().refusals().total();
        if talk.no_store() && !no_store {
            // A device without a store: the acks out are forgotten, never answered.
            no_store = true;
            forgotten = sent.len() - answered - refused;
        }
        let in_flight = sent.len() - answered - refused - forgotten;
        assert!(
            in_flight <= ACKS_IN_FLIGHT,
            "{in_flight} acknowledgements unanswered at once"
        );
        let (waiting, open) = talk.in_flight();
        assert!(open <= MAX_OPEN_GAMES, "{open} games open");
        assert!(waiting <= DEFER_BYTES, "{waiting} bytes of copies waiting");
    }
    progress.extend(talk.finish().expect("writes in memory"));
    assert!(talk.outgoing().is_empty(), "nothing sent after the end");
    assert_eq!(
        talk.in_flight(),
        (0, 0),
        "nothing held once the pull is done"
    );
    for p in progress {
        if let Progress::Pulled(p) = p {
            if p.outcome != Outcome::Deferred {
                pulled.push(*p);
            }
        }
    }
    let summary = talk.summary();
    for list in [
        &summary.failed,
        &summary.lost,
        &summary.notes,
        &summary.damage,
    ] {
        // Each source of lines keeps its first LISTED and counts the rest in one line.
        assert!(list.len() <= 8 * (LISTED + 1), "{} lines", list.len());
    }
    assert!(summary.duplicates.len() <= LISTED && summary.conflicts.len() <= LISTED);
    assert!(summary.gaps.len() <= LISTED);

    // Nothing in the folder replaced or changed.
    let after = folder.entries();
    for (name, entry) in &before {
        assert_eq!(
            after.get(name),
            Some(entry),
            "{name} was replaced or changed"
        );
    }
    // Every ack names a copy whose moves are in a file in the folder.
    let logs: Vec<MoveLog> = folder
        .files()
        .values()
        .filter_map(|bytes| MoveLog::decode(bytes).ok())
        .collect();
    for p in &pulled {
        let Some(Ack { game, check }) = p.ack else {
            continue;
        };
        assert_eq!(game, p.game.number, "an ack names its own game");
        assert_eq!(
            Some(check),
            p.game.end.and_then(|e| e.check),
            "an ack names the copy's own closing frame"
        );
        assert!(
            p.check.is_verified(),
            "only a verified copy is acknowledged"
        );
        let moves: Vec<Direction> = p.game.verified_moves().collect();
        let kept = logs.iter().any(|log| {
            log.rules == p.game.rules
                && log.seed == p.game.seed
                && log.moves.len() >= moves.len()
                && log.moves[..moves.len()] == moves[..]
                && (p.game.is_partial() || (log.complete && log.moves.len() == moves.len()))
        });
        assert!(
            kept,
            "game {game} acknowledged ({check}) with no file holding it"
        );
    }
}
