//! The defmt global logger and the RAM ring buffer it writes into.
//!
//! Frames are rzCOBS-encoded by [`defmt::Encoder`] straight into the ring. A frame that does
//! not fit whole is dropped whole (the write position goes back to where the frame began), so
//! the stream never holds half a frame: the host sees a gap in the move sequence numbers,
//! never a corrupted value. [`drain`] hands committed bytes to the board.
//!
//! With the `direct-log` feature (the Arduino Uno) there is no ring: the logger hands each
//! encoded byte to the board's blocking link at once (`twenty48_log_write`, which the board
//! crate defines), so no frame is ever dropped, and [`drain`] has nothing to send.

#[cfg(feature = "direct-log")]
mod direct;
#[cfg(feature = "direct-log")]
pub use direct::{drain, dropped_frames, frame, free_bytes, pending_bytes, LOG_CAPACITY};
#[cfg(not(feature = "direct-log"))]
pub use ring::{drain, dropped_frames, frame, free_bytes, pending_bytes, LOG_CAPACITY};

#[cfg(not(feature = "direct-log"))]
mod ring;
