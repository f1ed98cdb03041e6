//! Run statistics: what each group processed, processed again and skipped,
//! per partition (the ownership table, lessons and comparisons read them).

use crate::assign::TopicPartition;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A count per group and partition: by group, then by partition, so that a
/// lookup takes the group id as a `&str` (no `String` made for every batch a
/// member processes) and a checkpoint's copy copies one group id per group,
/// not one per partition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerPartition(BTreeMap<String, BTreeMap<TopicPartition, i64>>);

impl PerPartition {
    /// The count of `tp` in `group` (0 if none).
    pub fn get(&self, group: &str, tp: &TopicPartition) -> i64 {
        self.0.get(group).and_then(|g| g.get(tp)).copied().unwrap_or(0)
    }

    /// The sum over the group's partitions.
    pub fn group_total(&self, group: &str) -> i64 {
        self.0.get(group).map_or(0, |g| g.values().sum())
    }

    /// The sum over every group and partition.
    pub fn total(&self) -> i64 {
        self.0.values().flat_map(|g| g.values()).sum()
    }

    /// Every (group, partition, count), ordered by group, then partition.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &TopicPartition, i64)> {
        self.0.iter().flat_map(|(g, ps)| ps.iter().map(move |(tp, n)| (g.as_str(), tp, *n)))
    }

    /// The count of `tp` in `group`, 0 when first seen (copying `tp` copies a
    /// pointer; the group id is copied once per group).
    fn entry(&mut self, group: &str, tp: &TopicPartition) -> &mut i64 {
        if !self.0.contains_key(group) {
            self.0.insert(group.to_string(), BTreeMap::new());
        }
        let partitions = self.0.get_mut(group).expect("inserted above");
        partitions.entry(tp.clone()).or_insert(0)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Highest offset (exclusive) processed so far per (group, partition).
    pub processed_until: PerPartition,
    /// Records processed more than once per (group, partition).
    pub redelivered: PerPartition,
    /// Records the group's processing jumped over, never processed, per
    /// (group, partition): its position started past them (a commit made
    /// before processing, then a crash; or `auto.offset.reset=latest`).
    #[serde(default)]
    pub skipped: PerPartition,
    /// Share groups: every offset processed, as ranges `[from, to)` by group
    /// then partition. Members of a share group process records of one
    /// partition out of order, so a record counts as processed again only if
    /// this very offset was processed before.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub processed_ranges: BTreeMap<String, BTreeMap<TopicPartition, BTreeMap<i64, i64>>>,
}

impl Stats {
    /// A share-group member processed `[from, to)`: how many of those offsets
    /// some member of the group had processed before.
    pub fn record_processed_exactly(&mut self, group: &str, tp: &TopicPartition, from: i64, to: i64) -> i64 {
        if to <= from {
            return 0;
        }
        let ranges = self.processed_ranges.entry(group.to_string()).or_default().entry(tp.clone()).or_default();
        let mut again = 0;
        let (mut lo, mut hi) = (from, to);
        // Ranges overlapping or touching [from, to) merge into one.
        let touching: Vec<(i64, i64)> =
            ranges.range(..=to).rev().take_while(|(_, e)| **e >= from).map(|(s, e)| (*s, *e)).collect();
        for (s, e) in touching {
            again += (e.min(to) - s.max(from)).max(0);
            lo = lo.min(s);
            hi = hi.max(e);
            ranges.remove(&s);
        }
        ranges.insert(lo, hi);
        let until = self.processed_until.entry(group, tp);
        *until = (*until).max(to);
        if again > 0 {
            *self.redelivered.entry(group, tp) += again;
        }
        again
    }

    /// Records that `group` processed offsets [from, to) of `tp`; returns how
    /// many of them had already been processed before (redeliveries).
    pub fn record_processed(&mut self, group: &str, tp: &TopicPartition, from: i64, to: i64) -> i64 {
        let until = self.processed_until.entry(group, tp);
        let again = (to.min(*until) - from).max(0);
        let jumped = from - *until;
        *until = (*until).max(to);
        if jumped > 0 {
            *self.skipped.entry(group, tp) += jumped;
        }
        if again > 0 {
            *self.redelivered.entry(group, tp) += again;
        }
        again
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_group_counts_an_offset_again_only_if_that_offset_was_processed_before() {
        let mut s = Stats::default();
        let a = TopicPartition::new("t", 0);
        // Two members of a share group process one partition out of order.
        assert_eq!(s.record_processed_exactly("q", &a, 20, 30), 0);
        assert_eq!(s.record_processed_exactly("q", &a, 0, 10), 0);
        assert_eq!(s.record_processed_exactly("q", &a, 10, 20), 0, "a gap filled later is not a redelivery");
        assert_eq!(s.record_processed_exactly("q", &a, 5, 25), 20, "5..25 again");
        assert_eq!(s.processed_ranges["q"][&a].len(), 1, "merged into one range");
        assert_eq!(s.redelivered.get("q", &a), 20);
        assert_eq!(s.processed_until.get("q", &a), 30);
    }

    #[test]
    fn processing_again_counts_redeliveries_and_jumping_ahead_counts_skips() {
        let mut s = Stats::default();
        let (a, b) = (TopicPartition::new("t", 0), TopicPartition::new("t", 1));
        assert_eq!(s.record_processed("g", &a, 0, 10), 0);
        assert_eq!(s.record_processed("g", &a, 5, 15), 5, "5..10 again");
        assert_eq!(s.record_processed("g", &b, 3, 4), 0);
        assert_eq!(s.record_processed("h", &a, 0, 2), 0, "another group's count is its own");
        assert_eq!((s.processed_until.get("g", &a), s.redelivered.get("g", &a)), (15, 5));
        assert_eq!((s.skipped.get("g", &b), s.skipped.group_total("g"), s.skipped.total()), (3, 3, 3));
        assert_eq!(s.redelivered.get("h", &a), 0);
        let all: Vec<(&str, i32, i64)> = s.processed_until.iter().map(|(g, tp, n)| (g, tp.partition, n)).collect();
        assert_eq!(all, vec![("g", 0, 15), ("g", 1, 4), ("h", 0, 2)]);
    }
}
