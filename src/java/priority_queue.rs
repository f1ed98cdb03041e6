//! `java.util.PriorityQueue`: a binary heap whose ties are broken by where
//! the elements sit in its array, so results that depend on which of two
//! equal elements `poll` returns need the same array and the same sifts.
//!
//! The comparator is passed to each call (Kafka's comparators read state that
//! lives outside the queue, such as a `ProcessState`'s load).

use std::cmp::Ordering;

/// The heap array of a `PriorityQueue<T>` built with a comparator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriorityQueue<T> {
    queue: Vec<T>,
}

impl<T> Default for PriorityQueue<T> {
    fn default() -> Self {
        PriorityQueue { queue: Vec::new() }
    }
}

impl<T> PriorityQueue<T> {
    /// `new PriorityQueue<>(comparator)`.
    pub fn new() -> Self {
        PriorityQueue::default()
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// `add` / `offer`: append, then `siftUpUsingComparator`.
    pub fn add(&mut self, x: T, mut cmp: impl FnMut(&T, &T) -> Ordering) {
        self.queue.push(x);
        let mut k = self.queue.len() - 1;
        while k > 0 {
            let parent = (k - 1) >> 1;
            if cmp(&self.queue[k], &self.queue[parent]) != Ordering::Less {
                break;
            }
            self.queue.swap(k, parent);
            k = parent;
        }
    }

    /// `addAll(collection)` (`AbstractQueue.addAll`): `add` each in turn.
    pub fn add_all(&mut self, items: impl IntoIterator<Item = T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
        for x in items {
            self.add(x, &mut cmp);
        }
    }

    /// `poll`: the head; the last element moves to the root and
    /// `siftDownUsingComparator` takes the smaller child, the left one on a tie.
    pub fn poll(&mut self, mut cmp: impl FnMut(&T, &T) -> Ordering) -> Option<T> {
        let n = self.queue.len().checked_sub(1)?;
        let head = self.queue.swap_remove(0);
        let half = n >> 1;
        let mut k = 0;
        while k < half {
            let mut child = (k << 1) + 1;
            let right = child + 1;
            if right < n && cmp(&self.queue[child], &self.queue[right]) == Ordering::Greater {
                child = right;
            }
            if cmp(&self.queue[k], &self.queue[child]) != Ordering::Greater {
                break;
            }
            self.queue.swap(k, child);
            k = child;
        }
        Some(head)
    }

    /// The elements in array order (`iterator()`).
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.queue.iter()
    }

    /// Mutable access in array order, for state the comparator does not read.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.queue.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_key(a: &(i32, char), b: &(i32, char)) -> Ordering {
        a.0.cmp(&b.0)
    }

    #[test]
    fn polls_in_comparator_order_and_breaks_ties_by_heap_position() {
        let mut q = PriorityQueue::new();
        q.add_all([(1, 'a'), (0, 'b'), (1, 'c'), (0, 'd'), (1, 'e')], by_key);
        // array after the adds, as java.util.PriorityQueue leaves it
        assert_eq!(q.iter().copied().collect::<Vec<_>>(), vec![(0, 'b'), (0, 'd'), (1, 'c'), (1, 'a'), (1, 'e')]);
        let order: Vec<char> = std::iter::from_fn(|| q.poll(by_key)).map(|(_, c)| c).collect();
        // equal keys come out in heap order, not insertion order
        assert_eq!(order, vec!['b', 'd', 'a', 'c', 'e']);
        assert!(q.poll(by_key).is_none());
    }
}
