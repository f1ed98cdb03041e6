//! One small stable sort shared by every call site. The standard library's
//! sort is fast but each comparator instantiates several kilobytes of code;
//! with two dozen call sites that was 170 KB of the page's wasm. Stable
//! sorts all give the same result, so this changes no output (Java's
//! `List.sort`, which the assignors mirror, is stable too).

use std::cmp::Ordering;

/// A stable bottom-up merge sort of the positions `0..n`; the only
/// non-generic part, so it exists once in the binary.
fn stable_order(n: usize, less_or_equal: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    let mut b = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                // Taking from the left run on ties keeps the sort stable.
                if less_or_equal(a[i], a[j]) {
                    b[k] = a[i];
                    i += 1;
                } else {
                    b[k] = a[j];
                    j += 1;
                }
                k += 1;
            }
            b[k..k + mid - i].copy_from_slice(&a[i..mid]);
            k += mid - i;
            b[k..k + end - j].copy_from_slice(&a[j..end]);
            start = end;
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

/// Puts `v` in the order `order` (result position i takes old position order[i]).
fn apply<T>(v: &mut [T], order: &[usize]) {
    let mut done = vec![false; v.len()];
    for start in 0..v.len() {
        if done[start] {
            continue;
        }
        let mut i = start;
        loop {
            done[i] = true;
            let from = order[i];
            if from == start {
                break;
            }
            v.swap(i, from);
            i = from;
        }
    }
}

pub trait StableSort<T> {
    fn stable_sort_by(&mut self, cmp: impl FnMut(&T, &T) -> Ordering);

    fn stable_sort_by_key<K: Ord>(&mut self, mut key: impl FnMut(&T) -> K) {
        self.stable_sort_by(|a, b| key(a).cmp(&key(b)))
    }

    fn stable_sort(&mut self)
    where
        T: Ord,
    {
        self.stable_sort_by(|a, b| a.cmp(b))
    }
}

impl<T> StableSort<T> for [T] {
    fn stable_sort_by(&mut self, mut cmp: impl FnMut(&T, &T) -> Ordering) {
        let order = {
            let v = &*self;
            stable_order(v.len(), &mut |a, b| cmp(&v[a], &v[b]) != Ordering::Greater)
        };
        apply(self, &order);
    }
}
