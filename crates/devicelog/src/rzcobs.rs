//! rzCOBS, the framing defmt puts around each frame, decoded by hand; and the longest
//! frame the host takes.

/// The longest frame, in bytes on the line without its separator, that the decoder takes:
/// more is damage ([`DamageKind::Oversized`](crate::DamageKind::Oversized)), so a stream
/// without separators costs no memory. The largest frame of protocol v2 (the game start) is 48 bytes; the firmware's
/// other messages (a panic's file and message) stay under 300; a frame can never be larger
/// than the board's log ring (256 bytes on the AVR boards, 4,096 on the others). A later
/// protocol whose frames are larger raises this.
pub const MAX_FRAME_BYTES: usize = 4096;

/// rzCOBS is read from the end: each control byte says, for the bytes before it, which
/// are zeros (0x01..=0x7f: a bit per byte of a 7-byte group, set for a zero) or how many
/// non-zero bytes follow a zero (0x80..=0xfe: a zero and `(x & 0x7f) + 7` bytes; 0xff:
/// 134 bytes, no zero). defmt-decoder has the same algorithm but keeps it private, and
/// hands on only the frame, not what was left after it; decoding here lets the host see
/// two merged frames.
pub(crate) fn decode(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 7 + 1);
    let mut rest = data.iter().rev().copied();
    while let Some(x) = rest.next() {
        match x {
            0 => return None,
            0x01..=0x7f => {
                for i in 0..7 {
                    if x & (1 << (6 - i)) == 0 {
                        out.push(rest.next()?);
                    } else {
                        out.push(0);
                    }
                }
            }
            0x80..=0xfe => {
                out.push(0);
                for _ in 0..(x & 0x7f) + 7 {
                    out.push(rest.next()?);
                }
            }
            0xff => {
                for _ in 0..134 {
                    out.push(rest.next()?);
                }
            }
        }
    }
    out.reverse();
    Some(out)
}
