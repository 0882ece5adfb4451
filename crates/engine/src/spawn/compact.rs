//! ChaCha8's block function, written small (a loop of quarter rounds, one 16-word block at a
//! time) for targets where `rand_chacha`'s four-block code does not fit (the Arduino Uno's
//! 32 KB of flash). The key is the seed as two little-endian words followed by six zero
//! words, the stream number is 0 and the block counter counts blocks from 0: the keystream of
//! `rand_chacha::ChaCha8Rng`, word for word (tested in `spawn.rs`, across block boundaries).

/// "expand 32-byte k".
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// The quarter rounds of a double round: four columns, then four diagonals.
const QUARTERS: [[u8; 4]; 8] = [
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [1, 6, 11, 12],
    [2, 7, 8, 13],
    [3, 4, 9, 14],
];

/// Block `counter` of the keystream of `seed`.
pub(crate) fn block(seed: u64, counter: u64, out: &mut [u32; 16]) {
    let mut init = [0u32; 16];
    init[..4].copy_from_slice(&SIGMA);
    init[4] = seed as u32;
    init[5] = (seed >> 32) as u32;
    init[12] = counter as u32;
    init[13] = (counter >> 32) as u32;
    let mut x = init;
    for _ in 0..4 {
        for [a, b, c, d] in QUARTERS.map(|q| q.map(usize::from)) {
            x[a] = x[a].wrapping_add(x[b]);
            x[d] = (x[d] ^ x[a]).rotate_left(16);
            x[c] = x[c].wrapping_add(x[d]);
            x[b] = (x[b] ^ x[c]).rotate_left(12);
            x[a] = x[a].wrapping_add(x[b]);
            x[d] = (x[d] ^ x[a]).rotate_left(8);
            x[c] = x[c].wrapping_add(x[d]);
            x[b] = (x[b] ^ x[c]).rotate_left(7);
        }
    }
    for (o, (x, i)) in out.iter_mut().zip(x.iter().zip(init.iter())) {
        *o = x.wrapping_add(*i);
    }
}
