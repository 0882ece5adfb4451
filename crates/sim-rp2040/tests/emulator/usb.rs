//! The board's USB serial link on the emulator: bytes from the host (issue 24: any byte froze
//! the board), enumeration, the log.

use std::time::Duration;

use crate::support::{booted, decoded};
use twenty48_devicelog::DeviceFact;
use twenty48_sim_rp2040::{Button, Options};

fn hellos(bytes: &[u8]) -> usize {
    decoded(bytes)
        .facts
        .iter()
        .filter(|f| matches!(f, DeviceFact::Hello { .. }))
        .count()
}

/// Issue 24: after the first byte from the host the USB interrupt re-entered forever
/// (usbd-serial's OUT data was read only from the main loop, and the buffer-full status kept
/// the interrupt raised), so the board froze. It must answer and go on playing.
#[test]
fn issue_24_bytes_from_the_host_do_not_freeze_the_board() {
    let mut nano = booted(Options::default());
    assert_eq!(hellos(nano.seen().usb.as_slice()), 1, "the boot hello");
    nano.send(b"{hello}").unwrap();
    nano.run(Duration::from_millis(50)).unwrap();
    assert_eq!(hellos(&nano.seen().usb), 2, "the board answered {{hello}}");
    // And it still plays: up starts a game (a start frame), then moves.
    nano.tap(Button::Up).unwrap();
    for b in [Button::Left, Button::Down, Button::Right, Button::Up] {
        nano.tap(b).unwrap();
    }
    nano.run(Duration::from_millis(100)).unwrap();
    let capture = decoded(&nano.seen().usb);
    assert_eq!(capture.games.len(), 1, "{:?}", capture.messages);
    assert!(!capture.games[0].moves.is_empty());
    crate::support::assert_known_notes(&nano);
}
