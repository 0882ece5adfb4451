//! The WebAssembly exports the page's JavaScript calls (web/js/engine.js): plain `extern "C"`
//! functions over one input and one output buffer in the module's memory, no generated glue.
//!
//! The page writes a call's input (a file's bytes, a link's fragment, "preset seed") into the
//! buffer [`t48_input`] returns, calls the function, and reads the answer (JSON text, or a
//! file's bytes) from [`t48_output`], whose length the call returned. One thread: the state
//! lives in thread-locals.

use std::cell::RefCell;

use crate::host::Host;

thread_local! {
    static HOST: RefCell<Host> = RefCell::new(Host::new());
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the next call's input; its address.
#[no_mangle]
pub extern "C" fn t48_input(len: u32) -> *mut u8 {
    INPUT.with_borrow_mut(|input| {
        input.clear();
        input.resize(len as usize, 0);
        input.as_mut_ptr()
    })
}

/// The address of the last answer.
#[no_mangle]
pub extern "C" fn t48_output() -> *const u8 {
    OUTPUT.with_borrow(|output| output.as_ptr())
}

/// Keeps `answer` as the output; its length.
fn reply(answer: Vec<u8>) -> u32 {
    OUTPUT.with_borrow_mut(|output| {
        *output = answer;
        output.len() as u32
    })
}

fn input() -> Vec<u8> {
    INPUT.with_borrow_mut(std::mem::take)
}

fn with_host<T>(f: impl FnOnce(&mut Host) -> T) -> T {
    HOST.with_borrow_mut(f)
}

/// Opens the file in the input ([`Host::open`]).
#[no_mangle]
pub extern "C" fn t48_open() -> u32 {
    let bytes = input();
    reply(with_host(|h| h.open(&bytes)).into_bytes())
}

/// Opens the game in the link fragment in the input ([`Host::open_link`]).
#[no_mangle]
pub extern "C" fn t48_open_link() -> u32 {
    let text = String::from_utf8_lossy(&input()).into_owned();
    reply(with_host(|h| h.open_link(&text)).into_bytes())
}

/// Viewer `id` at move `n`, with move `n`'s events when `animate` is 1 ([`Host::show`]).
#[no_mangle]
pub extern "C" fn t48_show(id: u32, n: u32, animate: u32) -> u32 {
    reply(with_host(|h| h.show(id, n, animate == 1)).into_bytes())
}

/// Closes viewer `id`.
#[no_mangle]
pub extern "C" fn t48_close(id: u32) {
    with_host(|h| h.close(id));
}

/// Where viewers `a` and `b` part ([`Host::diff`]).
#[no_mangle]
pub extern "C" fn t48_diff(a: u32, b: u32) -> u32 {
    reply(with_host(|h| h.diff(a, b)).into_bytes())
}

/// Replays viewer `id`'s game `times` times; the moves played (a float: JavaScript's number).
#[no_mangle]
pub extern "C" fn t48_replay(id: u32, times: u32) -> f64 {
    with_host(|h| h.replay_all(id, times)) as f64
}

/// Starts a new game; the input is the preset's name and the seed, with a space between.
#[no_mangle]
pub extern "C" fn t48_new() -> u32 {
    let text = String::from_utf8_lossy(&input()).into_owned();
    let (preset, seed) = text.split_once(' ').unwrap_or((&text, ""));
    reply(with_host(|h| h.new_game(preset, seed)).into_bytes())
}

/// Resumes the saved game in the input ([`Host::resume`]).
#[no_mangle]
pub extern "C" fn t48_resume() -> u32 {
    let bytes = input();
    reply(with_host(|h| h.resume(&bytes)).into_bytes())
}

/// Plays direction `code` in the game being played ([`Host::play`]).
#[no_mangle]
pub extern "C" fn t48_play(code: u32) -> u32 {
    let code = u8::try_from(code).unwrap_or(u8::MAX);
    reply(with_host(|h| h.play(code)).into_bytes())
}

/// The game being played as a `.t48` file.
#[no_mangle]
pub extern "C" fn t48_saved() -> u32 {
    reply(with_host(|h| h.saved()))
}

/// The link fragment of the game being played.
#[no_mangle]
pub extern "C" fn t48_fragment() -> u32 {
    reply(with_host(|h| h.session_fragment()).into_bytes())
}
