//! The root moves of one search spread over threads, one tree each.
//!
//! Thread `k` of `n` searches the root moves `k`, `k + n`, ... in order, with tree `k`. Each
//! root move's value depends on its board and the depth alone (its tree starts empty), so
//! the values are those of one thread searching them all.

use twenty48_engine::bitboard::Packed;

use super::tree::Tree;

/// Searches each `(direction code, board after)` of `roots` at `depth` into `values`.
pub(crate) fn search(
    trees: &mut [Tree],
    roots: &[(usize, Packed)],
    depth: u8,
    values: &mut [Option<i64>; 4],
) {
    let n = trees.len();
    let found: Vec<Vec<(usize, i64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = trees
            .iter_mut()
            .enumerate()
            .map(|(k, tree)| {
                s.spawn(move || {
                    roots
                        .iter()
                        .skip(k)
                        .step_by(n)
                        .map(|&(i, after)| (i, tree.root(after, depth)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .collect()
    });
    for (i, value) in found.into_iter().flatten() {
        values[i] = Some(value);
    }
}
