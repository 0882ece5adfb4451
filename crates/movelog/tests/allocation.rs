//! Decoding allocates no more than the input justifies: a header claiming u32::MAX moves
//! in a tiny file is an error before any large allocation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use twenty48_movelog::{DecodeError, MoveLog};

struct Counting;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::SeqCst);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::SeqCst);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_header_claiming_u32_max_moves_allocates_nothing_large() {
    let mut b = vec![
        0x54, 0x34, 0x38, 0x1a, 0x01, 0x00, // magic, version
        0x04, 0x01, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, // size, four chance
        0x02, 0x00, 0x00, // opening
        0x01, 0x0b, 0x00, 0x00, // win, scoring
        0x01, 0, 0, 0, 0, 0, 0, 0, // seed
        0x07, b'c', b'h', b'a', b'c', b'h', b'a', b'8', // RNG
        0x01, 0x00, 0x00, 0x00, // K = 1: a checkpoint per move
    ];
    b.extend_from_slice(&u32::MAX.to_le_bytes()); // move count
    b.extend_from_slice(&[0; 19]); // rest of the claims
    b.extend_from_slice(&[0; 4]);
    LARGEST.store(0, Ordering::SeqCst);
    let err = MoveLog::decode(&b).unwrap_err();
    let largest = LARGEST.load(Ordering::SeqCst);
    assert!(
        matches!(err, DecodeError::Truncated { offset: 65, .. }),
        "{err}"
    );
    assert!(largest < 1024, "decode allocated {largest} bytes at once");
}
