//! Ordering: how many records a group processed for the first time after it
//! had already processed a record with a higher offset of the same partition.
//!
//! A consumer group processes each partition in offset order: one member owns
//! it and its fetch position only moves forward, except when it goes back to
//! the committed offset (records processed again: duplicates, not disorder).
//! A share group gives no such order (KIP-932): members sharing a partition
//! acquire different batches and finish them at their own pace, and records
//! released by one member are delivered to another after later offsets.

use crate::assign::TopicPartition;
use std::collections::BTreeMap;

/// Offsets processed so far, per partition: `[from, to)` ranges, merged.
#[derive(Clone, Debug, Default)]
pub struct Order {
    processed: BTreeMap<TopicPartition, BTreeMap<i64, i64>>,
}

impl Order {
    /// The group processed `[from, to)` of `tp` (in offset order within the
    /// batch): how many of these offsets are processed for the first time
    /// while a higher offset of `tp` was processed before.
    pub fn processed(&mut self, tp: &TopicPartition, from: i64, to: i64) -> i64 {
        if to <= from {
            return 0;
        }
        let ranges = self.processed.entry(tp.clone()).or_default();
        // Nothing processed yet: nothing is below (the batch starts the partition).
        let highest = ranges.iter().next_back().map_or(from, |(_, e)| *e);
        // Offsets of [from, to) that no range holds, below `highest`.
        let mut late = 0;
        let mut cursor = from;
        for (s, e) in ranges.range(..to).map(|(s, e)| (*s, *e)).filter(|(_, e)| *e > from) {
            late += gap_below(cursor, s.min(to), highest);
            cursor = cursor.max(e);
        }
        late += gap_below(cursor, to, highest);
        // Merge [from, to) with the ranges it overlaps or touches.
        let (mut lo, mut hi) = (from, to);
        let touching: Vec<(i64, i64)> =
            ranges.range(..=to).rev().take_while(|(_, e)| **e >= from).map(|(s, e)| (*s, *e)).collect();
        for (s, e) in touching {
            lo = lo.min(s);
            hi = hi.max(e);
            ranges.remove(&s);
        }
        ranges.insert(lo, hi);
        late
    }
}

/// Offsets of `[a, b)` below `highest`.
fn gap_below(a: i64, b: i64, highest: i64) -> i64 {
    (b.min(highest) - a).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_first_processing_below_a_higher_processed_offset_is_out_of_order() {
        let tp = TopicPartition::new("t", 0);
        let mut o = Order::default();
        assert_eq!(o.processed(&tp, 0, 10), 0);
        assert_eq!(o.processed(&tp, 10, 20), 0, "in order");
        assert_eq!(o.processed(&tp, 5, 20), 0, "processed again: a duplicate, not disorder");
        assert_eq!(o.processed(&tp, 30, 40), 0, "a jump forward is in order");
        assert_eq!(o.processed(&tp, 20, 30), 10, "the gap filled after 39");
        assert_eq!(o.processed(&tp, 50, 60), 0);
        assert_eq!(o.processed(&tp, 35, 55), 10, "40..50 is new and below 59; 35..40 and 50..55 were processed");
    }
}
