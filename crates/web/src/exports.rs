//! The WebAssembly exports the page's JavaScript calls (web/js/engine.js): plain `extern "C"`
//! functions over one input and one output buffer in the module's memory, no generated glue.
//!
//! The page writes a call's input (a file's bytes, a link's fragment, "preset seed") into the
//! buffer [`t48_input`] returns, calls the function, and reads the answer (JSON text, or a
//! file's bytes) from [`t48_output`], whose length the call returned. No export takes an
//! address from the page, and none aborts on what it is given: a length past the limit gets
//! a null address and an error answer (src/buffers.rs), a number that names no game an
//! error answer. One thread: the state lives in thread-locals.

use std::cell::RefCell;

use crate::buffers::Buffers;
use crate::host::Host;

thread_local! {
    static HOST: RefCell<Host> = RefCell::new(Host::new());
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::new());
}

/// A buffer of `len` bytes for the next call's input: its address, or 0 when the engine
/// does not take that many (the next call answers with an error).
#[no_mangle]
pub extern "C" fn t48_input(len: u32) -> *mut u8 {
    BUFFERS.with_borrow_mut(|b| b.input(u64::from(len)))
}

/// The address of the last answer.
#[no_mangle]
pub extern "C" fn t48_output() -> *const u8 {
    BUFFERS.with_borrow(|b| b.output())
}

/// Keeps `answer` as the output; its length.
fn reply(answer: Vec<u8>) -> u32 {
    BUFFERS.with_borrow_mut(|b| b.reply(answer))
}

/// Answers with what `call` makes of the input, or with the error that there is none.
fn with_input(call: impl FnOnce(&mut Host, Vec<u8>) -> String) -> u32 {
    let answer = match BUFFERS.with_borrow_mut(Buffers::take_input) {
        Ok(input) => HOST.with_borrow_mut(|h| call(h, input)),
        Err(e) => crate::host::error(e),
    };
    reply(answer.into_bytes())
}

fn with_host<T>(f: impl FnOnce(&mut Host) -> T) -> T {
    HOST.with_borrow_mut(f)
}

/// Opens the file in the input ([`Host::open`]).
#[no_mangle]
pub extern "C" fn t48_open() -> u32 {
    with_input(|h, bytes| h.open(&bytes))
}

/// Opens the game in the link fragment in the input ([`Host::open_link`]).
#[no_mangle]
pub extern "C" fn t48_open_link() -> u32 {
    with_input(|h, text| h.open_link(&String::from_utf8_lossy(&text)))
}

/// Viewer `id` at move `n`, with move `n`'s events when `animate` is 1 ([`Host::show`]).
#[no_mangle]
pub extern "C" fn t48_show(id: u32, n: u32, animate: u32) -> u32 {
    reply(with_host(|h| h.show(id, n, animate == 1)).into_bytes())
}

/// Rates viewer `id`'s next `count` moves at largest depth `depth` ([`Host::analyse`]).
#[no_mangle]
pub extern "C" fn t48_analyse(id: u32, count: u32, depth: u32) -> u32 {
    let depth = u8::try_from(depth).unwrap_or(u8::MAX);
    reply(with_host(|h| h.analyse(id, count, depth)).into_bytes())
}

/// The bot's line from viewer `id`'s board after move `n`: up to `plies` of its moves at
/// largest depth `depth`, each followed by the likeliest spawn ([`Host::line`]).
#[no_mangle]
pub extern "C" fn t48_line(id: u32, n: u32, plies: u32, depth: u32) -> u32 {
    let depth = u8::try_from(depth).unwrap_or(u8::MAX);
    reply(with_host(|h| h.line(id, n, plies, depth)).into_bytes())
}

/// Closes viewer `id` (one closed already, or never opened, is let be).
#[no_mangle]
pub extern "C" fn t48_close(id: u32) {
    with_host(|h| h.close(id));
}

/// What `twenty48 diff` says of viewers `a` and `b` ([`Host::diff`]); the input is their
/// names with a NUL between.
#[no_mangle]
pub extern "C" fn t48_diff(a: u32, b: u32) -> u32 {
    with_input(|h, names| {
        let names = String::from_utf8_lossy(&names);
        let (first, second) = names.split_once('\0').unwrap_or((&names, ""));
        h.diff(a, b, [first, second])
    })
}

/// Replays viewer `id`'s game up to `times` times ([`Host::replay_all`]); the moves played
/// (a float: JavaScript's number).
#[no_mangle]
pub extern "C" fn t48_replay(id: u32, times: u32) -> f64 {
    with_host(|h| h.replay_all(id, times)) as f64
}

/// Starts a new game; the input is the preset's name and the seed, with a space between.
#[no_mangle]
pub extern "C" fn t48_new() -> u32 {
    with_input(|h, text| {
        let text = String::from_utf8_lossy(&text);
        let (preset, seed) = text.split_once(' ').unwrap_or((&text, ""));
        h.new_game(preset, seed)
    })
}

/// Resumes the saved game in the input ([`Host::resume`]).
#[no_mangle]
pub extern "C" fn t48_resume() -> u32 {
    with_input(|h, bytes| h.resume(&bytes))
}

/// Plays direction `code` in the game being played ([`Host::play`]).
#[no_mangle]
pub extern "C" fn t48_play(code: u32) -> u32 {
    let code = u8::try_from(code).unwrap_or(u8::MAX);
    reply(with_host(|h| h.play(code)).into_bytes())
}

/// The game being played as a `.t48` file (nothing when none is).
#[no_mangle]
pub extern "C" fn t48_saved() -> u32 {
    reply(with_host(|h| h.saved()))
}

/// The link fragment of the game being played (nothing when none is).
#[no_mangle]
pub extern "C" fn t48_fragment() -> u32 {
    reply(with_host(|h| h.session_fragment()).into_bytes())
}

/// The move `twenty48 play --hint` gives for the game being played ([`Host::hint`]).
#[no_mangle]
pub extern "C" fn t48_hint() -> u32 {
    reply(with_host(|h| h.hint()).into_bytes())
}

/// The fragment of a link to the file in the input ([`Host::link`]; empty past 1 MiB).
#[no_mangle]
pub extern "C" fn t48_link() -> u32 {
    with_input(|h, bytes| h.link(&bytes))
}

/// The largest file the page opens, in bytes ([`crate::MAX_FILE_BYTES`]): the page refuses
/// larger ones before reading them.
#[no_mangle]
pub extern "C" fn t48_max_file_bytes() -> u32 {
    crate::limits::MAX_FILE_BYTES as u32
}
