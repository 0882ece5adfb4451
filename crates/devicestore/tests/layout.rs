//! The store's layouts: a store written by the first firmware (layout 1, sector magic
//! `"T48S"`, END records of 16 bytes without the device's score and hash) is read, never
//! misread, and never written in that layout again.

mod common;

use common::*;
use twenty48_devicestore::{crc32, Closing, MemFlash, Store};

/// Turns sector `s` of `bytes` (layout 2, one ended game) into layout 1: the old magic, and
/// its END record rewritten as layout 1's 16 bytes (`'E'`, game, moves, result, two 0xFF,
/// CRC-32 of bytes 0..12), erased after.
fn to_layout_1<const S: usize>(bytes: &mut [u8], s: usize, end_at: usize) {
    let h = &mut bytes[s * S..s * S + 16];
    h[..4].copy_from_slice(b"T48S");
    let crc = crc32(&h[..12]);
    h[12..].copy_from_slice(&crc.to_le_bytes());
    let at = s * S + end_at;
    assert_eq!(bytes[at], b'E');
    bytes[at + 10..at + 32].fill(0xFF);
    let crc = crc32(&bytes[at..at + 12]);
    bytes[at + 12..at + 16].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_layout_1_store_reads_its_games_without_claims_and_is_not_written_in_it() {
    let mut store = open_blank::<4096>(4);
    let moves = Rng(5).dirs(10);
    play(&mut store, &mut Vec::new(), start(1), &moves, 2);
    let mut bytes = store.into_flash().into_inner();
    // GAME at 16, one chunk, END at 16 + 32 + 24.
    to_layout_1::<4096>(&mut bytes, 0, 72);
    let mut store = Store::open(MemFlash::new(bytes).strict()).unwrap();
    let listed = read_all(&mut store);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].1, moves);
    assert_eq!(
        listed[0].0.closing,
        Closing::Ended {
            result: 2,
            claims: None
        },
        "a layout-1 END has no claims"
    );
    // A new game goes to a fresh sector of layout 2, not after the layout-1 records.
    let more = Rng(6).dirs(5);
    play(&mut store, &mut Vec::new(), start(2), &more, 1);
    let bytes = store.flash().bytes().to_vec();
    assert!(
        bytes[88..4096].iter().all(|&b| b == 0xFF),
        "layout 1 untouched"
    );
    assert_eq!(&bytes[4096..4100], b"T48\x02");
    let mut store = reopen(store);
    let listed = read_all(&mut store);
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[1].1, more);
    assert_eq!(listed[1].0.closing, ended(1));
    assert_lookups(&mut store);
}

/// A layout-1 sector's END read as layout 2 would take 16 bytes of whatever follows as the
/// score and hash: the layout is the sector's, so a layout-2 END of 32 bytes in a layout-1
/// sector is not a record (its CRC is not where layout 1 has it).
#[test]
fn a_layout_2_end_in_a_layout_1_sector_is_not_read_as_one() {
    let mut store = open_blank::<4096>(4);
    play(&mut store, &mut Vec::new(), start(1), &Rng(5).dirs(10), 2);
    let mut bytes = store.into_flash().into_inner();
    let h = &mut bytes[..16];
    h[..4].copy_from_slice(b"T48S");
    let crc = crc32(&h[..12]);
    h[12..].copy_from_slice(&crc.to_le_bytes());
    let mut store = Store::open(MemFlash::new(bytes).strict()).unwrap();
    let listed = read_all(&mut store);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0.closing, Closing::Interrupted);
}
