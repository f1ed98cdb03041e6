//! Server-side `org.apache.kafka.coordinator.group.assignor.RangeAssignor`
//! ("range"): not sticky; contiguous ranges per topic over sorted members.

use super::{GroupSpec, ServerAssignment, ServerAssignor, SubscriptionType, TopicMetadata};
use crate::java::Uuid;
use std::collections::BTreeMap;

pub struct RangeAssignor;

/// `RangeAssignor.TopicMetadata`: quota state and the next range's start.
struct TopicRange {
    num_partitions: i32,
    num_members: i32,
    min_quota: i32,
    extra_partitions: i32,
    next_range: i32,
}

impl TopicRange {
    fn new(num_partitions: i32, num_members: i32) -> Self {
        TopicRange { num_partitions, num_members, min_quota: -1, extra_partitions: -1, next_range: 0 }
    }

    /// `maybeComputeQuota` then `addPartitionsToAssignment`: the member's range.
    fn next(&mut self) -> std::ops::Range<i32> {
        if self.min_quota == -1 {
            self.min_quota = self.num_partitions / self.num_members;
            self.extra_partitions = self.num_partitions % self.num_members;
        }
        let start = self.next_range;
        let mut quota = self.min_quota;
        if self.extra_partitions > 0 {
            quota += 1;
            self.extra_partitions -= 1;
        }
        let end = (start + quota).min(self.num_partitions);
        self.next_range = end;
        start..end
    }
}

impl ServerAssignor for RangeAssignor {
    fn name(&self) -> &'static str {
        "range"
    }

    fn assign(&self, group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String> {
        let mut out = ServerAssignment::new();
        let members = group.sorted_members();
        let Some(first) = members.first() else { return Ok(out) };
        let mut ranges: BTreeMap<Uuid, TopicRange> = BTreeMap::new();
        let nonexistent = || "Member is subscribed to a non-existent topic".to_string();
        if group.subscription_type == SubscriptionType::Homogeneous {
            for id in &first.subscribed_topic_ids {
                let n = topics.num_partitions(id);
                if n == -1 {
                    return Err(nonexistent());
                }
                ranges.insert(*id, TopicRange::new(n, members.len() as i32));
            }
        } else {
            for m in &members {
                for id in &m.subscribed_topic_ids {
                    let n = topics.num_partitions(id);
                    if n == -1 {
                        return Err(nonexistent());
                    }
                    ranges.entry(*id).or_insert_with(|| TopicRange::new(n, 0)).num_members += 1;
                }
            }
        }
        for m in &members {
            let entry = out.entry(m.member_id.clone()).or_default();
            let subscribed = if group.subscription_type == SubscriptionType::Homogeneous { first } else { m };
            for id in &subscribed.subscribed_topic_ids {
                if let Some(range) = ranges.get_mut(id) {
                    let r = range.next();
                    if !r.is_empty() {
                        entry.entry(*id).or_default().extend(r);
                    }
                }
            }
        }
        Ok(out)
    }
}
