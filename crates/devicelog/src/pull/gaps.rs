//! Gaps in a device's game numbers, found in time proportional to the numbers received and
//! the files in the directory, never to the numbers they name: one hello announcing game
//! 4,294,967,295 is one range, not four billion look-ups.

use std::collections::BTreeSet;
use std::path::Path;

use super::files::parse_v2_name;

/// The device and game numbers of the whole and interrupted v2 games in `dir` (at their own
/// names or free names after them), read from one listing of the directory.
pub(super) fn on_disk(dir: &Path) -> BTreeSet<(u64, u32)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeSet::new();
    };
    entries
        .filter_map(|e| parse_v2_name(e.ok()?.file_name().to_str()?))
        .collect()
}

/// The runs of numbers in `lo..=hi` that are not in `present`, in order: time proportional
/// to the numbers of `present` in that range.
pub(super) fn missing_runs(lo: u32, hi: u32, present: &BTreeSet<u32>) -> Vec<(u32, u32)> {
    let mut runs = Vec::new();
    if lo > hi {
        return runs;
    }
    let mut next = Some(lo);
    for &n in present.range(lo..=hi) {
        if let Some(from) = next {
            if n > from {
                runs.push((from, n - 1));
            }
        }
        next = n.checked_add(1);
    }
    if let Some(from) = next {
        if from <= hi {
            runs.push((from, hi));
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_runs_are_the_holes_between_the_numbers_present() {
        let set = |v: &[u32]| v.iter().copied().collect::<BTreeSet<u32>>();
        assert_eq!(missing_runs(1, 5, &set(&[1, 2, 3, 4, 5])), []);
        assert_eq!(missing_runs(1, 5, &set(&[])), [(1, 5)]);
        assert_eq!(missing_runs(1, 9, &set(&[1, 4, 5, 9])), [(2, 3), (6, 8)]);
        assert_eq!(missing_runs(3, 7, &set(&[1, 9])), [(3, 7)]);
        assert_eq!(missing_runs(5, 4, &set(&[])), []);
        assert_eq!(
            missing_runs(2, u32::MAX, &set(&[u32::MAX])),
            [(2, u32::MAX - 1)]
        );
        assert_eq!(
            missing_runs(0, u32::MAX, &set(&[0, u32::MAX])),
            [(1, u32::MAX - 1)]
        );
    }
}
