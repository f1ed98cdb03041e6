//! The shared stable sort agrees with the standard library's stable sort.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::small_sort::StableSort;
use proptest::prelude::*;

proptest! {
    #[test]
    fn sorts_exactly_like_std_stable_sort(v in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
        // Compare on the key only, so ties show whether the order of equals is kept.
        let mut ours = v.clone();
        ours.stable_sort_by_key(|p| p.0);
        let mut std_sorted = v.clone();
        std_sorted.sort_by_key(|p| p.0);
        prop_assert_eq!(&ours, &std_sorted);
        let mut rev = v;
        rev.stable_sort_by(|a, b| b.cmp(a));
        let mut std_rev = ours.clone();
        std_rev.sort_by(|a, b| b.cmp(a));
        prop_assert_eq!(rev, std_rev);
    }
}
