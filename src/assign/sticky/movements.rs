//! `AbstractStickyAssignor.PartitionMovements`: the record of moves made while
//! balancing, used to move back a partition of a reverse move instead of a new one.
//!
//! Which partition that is depends on `HashSet<TopicPartition>` iteration
//! order, emulated here: the first element is the one in the lowest bucket of
//! the set's current table, earliest inserted within the bucket.

use super::{Ctx, Tp};
use crate::assign::dense::FxMap as HashMap;

/// A `java.util.HashSet<TopicPartition>` reduced to what is asked of it.
#[derive(Default)]
struct JavaTpSet {
    /// (partition, spread hash, insertion sequence)
    entries: Vec<(Tp, u32, u64)>,
    capacity: usize,
}

impl JavaTpSet {
    fn insert(&mut self, tp: Tp, hash: i32, seq: u64) {
        if self.capacity == 0 {
            self.capacity = 16;
        }
        if self.entries.iter().any(|(p, _, _)| *p == tp) {
            return;
        }
        let h = hash as u32;
        self.entries.push((tp, h ^ (h >> 16), seq));
        if self.entries.len() * 4 > self.capacity * 3 {
            self.capacity *= 2;
        }
    }

    fn remove(&mut self, tp: Tp) {
        self.entries.retain(|(p, _, _)| *p != tp);
    }

    fn first(&self) -> Option<Tp> {
        let mask = self.capacity as u32 - 1;
        self.entries.iter().min_by_key(|(_, h, seq)| (h & mask, *seq)).map(|(tp, _, _)| *tp)
    }
}

/// `ConsumerPair`: (source member, destination member).
type ConsumerPair = (usize, usize);

#[derive(Default)]
pub(crate) struct PartitionMovements {
    by_topic: HashMap<u32, HashMap<ConsumerPair, JavaTpSet>>,
    movements: HashMap<Tp, ConsumerPair>,
    seq: u64,
}

impl PartitionMovements {
    fn remove_movement_record(&mut self, tp: Tp) -> Option<ConsumerPair> {
        let pair = self.movements.remove(&tp)?;
        if let Some(topic) = self.by_topic.get_mut(&tp.topic) {
            if let Some(set) = topic.get_mut(&pair) {
                set.remove(tp);
                if set.entries.is_empty() {
                    topic.remove(&pair);
                }
            }
            if topic.is_empty() {
                self.by_topic.remove(&tp.topic);
            }
        }
        Some(pair)
    }

    fn add_movement_record(&mut self, ctx: &Ctx, tp: Tp, pair: ConsumerPair) {
        self.movements.insert(tp, pair);
        self.seq += 1;
        self.by_topic.entry(tp.topic).or_default().entry(pair).or_default().insert(tp, ctx.java_hash(tp), self.seq);
    }

    /// `movePartition`.
    pub fn move_partition(&mut self, ctx: &Ctx, tp: Tp, old: usize, new: usize) {
        if self.movements.contains_key(&tp) {
            if let Some((src, _)) = self.remove_movement_record(tp) {
                if src != new {
                    self.add_movement_record(ctx, tp, (src, new));
                }
            }
        } else {
            self.add_movement_record(ctx, tp, (old, new));
        }
    }

    /// `getTheActualPartitionToBeMoved`.
    pub fn actual_partition_to_be_moved(&self, tp: Tp, old: usize, new: usize) -> Tp {
        let Some(topic) = self.by_topic.get(&tp.topic) else { return tp };
        let old = self.movements.get(&tp).map_or(old, |(src, _)| *src);
        topic.get(&(new, old)).and_then(JavaTpSet::first).unwrap_or(tp)
    }
}
