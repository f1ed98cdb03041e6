//! What the invariant checks report (`Violation`) and what the incremental
//! monitor remembers between checks (`Monitor`); the checks themselves are in
//! `mod.rs`.

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub invariant: &'static str,
    pub detail: String,
}

/// The invariants checked step after step: the `__consumer_offsets` logs' end
/// offsets only grow (compaction removes records but never renumbers them), so
/// the generation and offset checks read each record once (after a
/// minute a large group has tens of thousands of records; rereading them after
/// every step made the page crawl). A fresh monitor checks everything.
#[derive(Clone, Debug, Default)]
pub struct Monitor {
    /// Per offsets-log partition: the offset read up to, last generation per
    /// group and last committed offset per (group, partition).
    pub(super) read: Vec<i64>,
    pub(super) generations: BTreeMap<(usize, String), i32>,
    /// By log, then group, then partition: a commit looks its group up by
    /// `&str`, and the player's checkpoints copy one group id per group, not
    /// one per committed partition.
    pub(super) offsets: Vec<BTreeMap<String, BTreeMap<crate::assign::TopicPartition, i64>>>,
    /// KIP-848: last group epoch and target assignment epoch per group.
    pub(super) epochs: BTreeMap<(usize, String, &'static str), i32>,
    /// Highest generation persisted per (log, group) (Connect's check).
    pub(super) max_generation: BTreeMap<(usize, String), i32>,
    /// Share groups: the last persisted start offset (SPSO) of each
    /// share-partition, by group then partition.
    pub(super) share_spso: BTreeMap<String, BTreeMap<crate::assign::TopicPartition, i64>>,
}
