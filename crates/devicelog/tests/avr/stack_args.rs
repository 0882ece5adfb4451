//! Finds AVR functions that read arguments passed on the stack, in `avr-objdump -d` output
//! (runs on the host).
//!
//! Why: the LLVM of the pinned nightly lays out incoming stack arguments as if every return
//! address were 2 bytes; the ATmega2560 pushes 3, so such a function reads its stack
//! arguments one byte off and plays wrong games (docs/firmware.md, "stack arguments"). The
//! firmware therefore passes at most the 18 bytes of argument registers to any function it
//! does not inline, and this scan keeps it so.
//!
//! How: a function that addresses its frame has the prologue `push`..., `in r28, 0x3d`,
//! `in r29, 0x3e`, then optionally lowers Y by its frame size F (`sbiw r28, F` or
//! `subi r28, lo` + `sbci r29, hi`). With P registers pushed, Y+1..Y+F are its locals and
//! Y+F+1..Y+F+P the saved registers; everything above (the return address, then the
//! caller's stack arguments) is never touched by correct code except to read stack
//! arguments. The scan follows Y through the body (`adiw`/`sbiw`/`subi`+`sbci` on r28
//! between `in r0, 0x3f` and `out 0x3f, r0`, where LLVM reaches slots past Y+63) and flags every `ldd`/`std`/`ld`/`st` through Y
//! and every address taken from Y (`movw rN, r28` then an add) that lands above Y+F+P.
//! A function with no such prologue that writes back into SP a value it read from SP
//! (`in rN, 0x3d` ... `out 0x3d, rN`) is flagged too: that is a caller making room for stack
//! arguments without a frame pointer.

/// One instruction: its mnemonic and its operands (the disassembler's comment removed).
struct Insn<'a> {
    op: &'a str,
    args: &'a str,
}

/// A function that reads (or passes) arguments on the stack, and the instruction that shows it.
#[derive(Debug)]
pub struct Finding {
    pub function: String,
    pub instruction: String,
}

/// Every function of `disassembly` (`avr-objdump -d` text) that touches stack arguments.
pub fn stack_argument_uses(disassembly: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut name: Option<&str> = None;
    let mut body: Vec<Insn> = Vec::new();
    for line in disassembly.lines().chain(std::iter::once("0 <end>:")) {
        if let Some(label) = line.strip_suffix(">:") {
            if let Some(function) = name {
                if let Some(insn) = scan(&body) {
                    findings.push(Finding {
                        function: function.to_string(),
                        instruction: insn,
                    });
                }
            }
            name = label.split_once(" <").map(|(_, n)| n);
            body.clear();
        } else if let Some(insn) = parse(line) {
            body.push(insn);
        }
    }
    findings
}

/// `   11ece:\t2f 92       \tpush\tr2` (with or without the raw bytes) as an instruction.
fn parse(line: &str) -> Option<Insn<'_>> {
    let (addr, rest) = line.split_once(":\t")?;
    if addr.trim().is_empty() || !addr.trim().chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let fields: Vec<&str> = rest.split('\t').collect();
    // The raw bytes column, when present, is hex pairs and spaces.
    let is_bytes = |f: &str| {
        f.split_whitespace()
            .all(|b| b.len() == 2 && u8::from_str_radix(b, 16).is_ok())
    };
    let start = usize::from(fields.len() > 1 && is_bytes(fields[0]));
    let op = fields.get(start)?.trim();
    let args = fields
        .get(start + 1)
        .map_or("", |a| a.split(';').next().unwrap_or("").trim());
    Some(Insn { op, args })
}

fn number(s: &str) -> Option<i32> {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(hex) => i32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The immediate of `op reg, K` when the instruction is `op` on `reg`.
fn imm(insn: &Insn, op: &str, reg: &str) -> Option<i32> {
    let (r, k) = insn.args.split_once(',')?;
    (insn.op == op && r.trim() == reg)
        .then(|| number(k))
        .flatten()
}

/// The 16-bit immediate of `subi lo, a` + `sbci hi, b` (what they subtract), if `at` is one.
fn sub_pair(body: &[Insn], at: usize, lo: &str, hi: &str) -> Option<i32> {
    let a = imm(body.get(at)?, "subi", lo)?;
    let b = imm(body.get(at + 1)?, "sbci", hi)?;
    let k = (a & 0xff) | ((b & 0xff) << 8);
    Some(if k >= 0x8000 { k - 0x10000 } else { k })
}

/// The first instruction of `body` that touches the stack above its saved registers.
fn scan(body: &[Insn]) -> Option<String> {
    let show = |i: &Insn| format!("{} {}", i.op, i.args);
    let mut i = 0;
    let mut pushed = 0;
    while let Some(insn) = body.get(i) {
        match (insn.op, insn.args) {
            ("push", _) => pushed += 1,
            // An interrupt handler's prologue: SREG, RAMPZ, EIND through r0, r1 cleared.
            ("in", "r0, 0x3f" | "r0, 0x3b" | "r0, 0x3c") | ("eor", "r1, r1") | ("clr", "r1") => {}
            _ => break,
        }
        i += 1;
    }
    let has_fp = matches!(
        (body.get(i), body.get(i + 1)),
        (Some(a), Some(b)) if show(a) == "in r28, 0x3d" && show(b) == "in r29, 0x3e"
    );
    if !has_fp {
        // SP read into a register, lowered, written back: room for outgoing arguments.
        // (Start-up code loads SP from a constant; reading SP alone is harmless.)
        let mut from_sp: Vec<&str> = Vec::new();
        for insn in body {
            if let Some((reg, port)) = insn.args.split_once(", ") {
                if insn.op == "in" && port == "0x3d" {
                    from_sp.push(reg);
                }
            }
            if let Some((port, reg)) = insn.args.split_once(", ") {
                if insn.op == "out" && port == "0x3d" && from_sp.contains(&reg) {
                    return Some(show(insn));
                }
            }
        }
        return None;
    }
    i += 2;
    let mut frame = 0;
    if let Some(k) = body.get(i).and_then(|insn| imm(insn, "sbiw", "r28")) {
        frame = k;
        i += 1;
    } else if let Some(k) = sub_pair(body, i, "r28", "r29") {
        frame = k;
        i += 2;
    }
    let top = frame + pushed;
    // How far Y is above its value after the prologue. LLVM moves Y only to reach a slot past
    // Y+63, always between `in r0, 0x3f` and `out 0x3f, r0` (SREG kept), and may move the
    // restoring half behind a jump: Y counts as back at its base after either.
    let mut dy = 0;
    let mut saving_sreg = false;
    while i < body.len() {
        let insn = &body[i];
        if show(insn) == "in r0, 0x3f" {
            saving_sreg = true;
        } else if show(insn) == "out 0x3f, r0" || is_jump(insn.op) {
            saving_sreg = false;
            dy = 0;
        } else if !saving_sreg {
            // The epilogue's own move of Y (before it writes SP) reads nothing.
        } else if let Some(k) = imm(insn, "adiw", "r28") {
            dy += k;
        } else if let Some(k) = imm(insn, "sbiw", "r28") {
            dy -= k;
        } else if let Some(k) = sub_pair(body, i, "r28", "r29") {
            dy -= k;
            i += 1;
        }
        if matches!(insn.op, "ldd" | "std" | "ld" | "st") {
            let offset = insn.args.split(',').map(str::trim).find_map(|a| match a {
                "Y" | "Y+" | "-Y" => Some(0),
                _ => a.strip_prefix("Y+").and_then(number),
            });
            if let Some(q) = offset {
                if q + dy > top {
                    return Some(show(insn));
                }
            }
        }
        if insn.op == "movw" && insn.args.ends_with(", r28") {
            let dest = insn.args.split(',').next().unwrap_or("").trim();
            let hi = format!(
                "r{}",
                dest.trim_start_matches('r').parse::<u8>().unwrap_or(0) + 1
            );
            let k = body
                .get(i + 1)
                .and_then(|n| imm(n, "adiw", dest))
                .or_else(|| sub_pair(body, i + 1, dest, &hi).map(|k| -k));
            if let Some(k) = k {
                if k + dy > top {
                    return Some(format!("{} ; {}", show(insn), show(&body[i + 1])));
                }
            }
        }
        i += 1;
    }
    None
}

/// Whether control may leave the straight line here.
fn is_jump(op: &str) -> bool {
    op.starts_with("br")
        || matches!(
            op,
            "rjmp"
                | "jmp"
                | "ijmp"
                | "eijmp"
                | "ret"
                | "reti"
                | "rcall"
                | "call"
                | "icall"
                | "eicall"
        )
}
