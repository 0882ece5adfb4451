//! The debounce and the queue, driven by pin traces as a logic analyser would record them at
//! one sample a millisecond (what the firmware's timer interrupt feeds in). A trace is a
//! list of `(milliseconds, pins)` steps; a main loop that is busy (redrawing the screen)
//! takes no releases until it is done.

use twenty48_buttons::{Buttons, DEBOUNCE_SAMPLES, QUEUE_LEN};

/// Plays `trace` into fresh buttons; the main loop takes releases at the end of each step
/// whose flag is set (`true`: idle loop, taking releases every millisecond; `false`: busy).
fn play(trace: &[(u32, u8, bool)]) -> (Vec<u8>, Buttons<4>) {
    let mut b = Buttons::<4>::new();
    let mut got = Vec::new();
    for &(ms, pins, idle) in trace {
        for _ in 0..ms {
            b.sample(pins);
            if idle {
                got.extend(std::iter::from_fn(|| b.pop()));
            }
        }
    }
    got.extend(std::iter::from_fn(|| b.pop()));
    (got, b)
}

fn idle(ms: u32, pins: u8) -> (u32, u8, bool) {
    (ms, pins, true)
}

fn busy(ms: u32, pins: u8) -> (u32, u8, bool) {
    (ms, pins, false)
}

#[test]
fn bounces_on_press_and_release_give_one_move() {
    // Contact bounce: 1-3 ms flickers for the first 6 ms of each edge.
    let trace = [
        idle(50, 0),
        idle(1, 0b1),
        idle(2, 0),
        idle(1, 0b1),
        idle(1, 0),
        idle(3, 0b1),
        idle(1, 0),
        idle(80, 0b1),
        idle(2, 0),
        idle(1, 0b1),
        idle(3, 0),
        idle(1, 0b1),
        idle(100, 0),
    ];
    assert_eq!(play(&trace).0, vec![0]);
}

#[test]
fn a_glitch_shorter_than_the_debounce_is_nothing() {
    let short = DEBOUNCE_SAMPLES as u32 - 1;
    let trace = [idle(30, 0), idle(short, 0b10), idle(30, 0)];
    assert_eq!(play(&trace).0, Vec::<u8>::new());
    // Nor is a release glitch while held: still one move, at the real release.
    let trace = [idle(30, 0b10), idle(short, 0), idle(30, 0b10), idle(30, 0)];
    assert_eq!(play(&trace).0, vec![1]);
}

#[test]
fn two_buttons_at_once() {
    // Overlapping presses, released one after the other: both, in release order.
    let trace = [
        idle(10, 0),
        idle(40, 0b0001),
        idle(40, 0b1001),
        idle(30, 0b1000),
        idle(40, 0),
    ];
    assert_eq!(play(&trace).0, vec![0, 3]);
    // Pressed and released in the same millisecond: both, in button order.
    let trace = [idle(10, 0), idle(50, 0b0110), idle(40, 0)];
    assert_eq!(play(&trace).0, vec![1, 2]);
}

#[test]
fn presses_during_a_60_ms_redraw_are_kept_in_order() {
    // The main loop is busy for 60 ms after each move (a full redraw); meanwhile the player
    // taps three buttons quickly (15 ms down, 15 ms up).
    let mut trace = vec![idle(20, 0), idle(30, 0b0001), idle(20, 0)];
    trace.push(busy(5, 0));
    for pins in [0b0010, 0b0100, 0b1000] {
        trace.push(busy(15, pins));
        trace.push(busy(15, 0));
    }
    trace.push(busy(5, 0));
    trace.push(idle(20, 0));
    let (got, b) = play(&trace);
    assert_eq!(got, vec![0, 1, 2, 3]);
    assert_eq!(b.dropped(), 0);
}

#[test]
fn a_button_held_for_seconds_is_one_move_on_release() {
    let mut b = Buttons::<4>::new();
    for _ in 0..5_000 {
        b.sample(0b0100);
        assert_eq!(b.pop(), None, "no move while held, no repeat");
    }
    assert_eq!(b.held(), 0b0100);
    for _ in 0..DEBOUNCE_SAMPLES {
        b.sample(0);
    }
    assert_eq!(b.pop(), Some(2));
    assert_eq!(b.pop(), None);
    assert_eq!(b.held(), 0);
}

#[test]
fn a_full_queue_keeps_the_oldest_and_counts_the_rest() {
    let mut trace = Vec::new();
    for i in 0..QUEUE_LEN + 3 {
        trace.push(busy(12, 1 << (i % 4)));
        trace.push(busy(12, 0));
    }
    let (got, b) = play(&trace);
    let expected: Vec<u8> = (0..QUEUE_LEN).map(|i| (i % 4) as u8).collect();
    assert_eq!(got, expected);
    assert_eq!(b.dropped(), 3);
}

#[test]
fn releases_cleared_are_counted_as_dropped() {
    let mut b = Buttons::<4>::new();
    for button in [0u8, 1, 2] {
        for pins in [1 << button, 0] {
            for _ in 0..DEBOUNCE_SAMPLES {
                b.sample(pins);
            }
        }
    }
    assert_eq!(b.len(), 3);
    b.clear();
    assert!(b.is_empty());
    assert_eq!(b.pop(), None);
    assert_eq!(b.dropped(), 3, "the three releases cleared, counted");
    b.clear();
    assert_eq!(b.dropped(), 3, "an empty queue cleared drops nothing");
}
