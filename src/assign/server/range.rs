//! Server-side `org.apache.kafka.coordinator.group.assignor.RangeAssignor`
//! ("range"): not sticky; contiguous ranges per topic over sorted members.

use super::{GroupSpec, ServerAssignment, ServerAssignor, SubscriptionType, TopicMetadata};
use crate::assign::dense::UuidIndex;
use crate::java::Uuid;
use std::collections::{BTreeMap, BTreeSet};

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
        let members = group.sorted_members();
        let Some(first) = members.first() else { return Ok(ServerAssignment::new()) };
        let homogeneous = group.subscription_type == SubscriptionType::Homogeneous;
        // topic ids -> dense index: the first member's for a homogeneous group
        let mut ids: Vec<Uuid> = Vec::new();
        if homogeneous {
            ids.extend(first.subscribed_topic_ids.iter().copied());
        } else {
            let mut seen = std::collections::BTreeSet::new();
            for m in &members {
                ids.extend(m.subscribed_topic_ids.iter().copied().filter(|id| seen.insert(*id)));
            }
        }
        let index = UuidIndex::new(&ids);
        let mut ranges: Vec<Option<TopicRange>> = Vec::with_capacity(ids.len());
        for id in &ids {
            let n = topics.num_partitions(id);
            if n == -1 {
                return Err("Member is subscribed to a non-existent topic".to_string());
            }
            // a topic listed twice by the first member keeps its first range state
            let first_time = index.get(id) == Some(ranges.len());
            ranges.push(first_time.then(|| TopicRange::new(n, if homogeneous { members.len() as i32 } else { 0 })));
        }
        if !homogeneous {
            for m in &members {
                for id in &m.subscribed_topic_ids {
                    if let Some(Some(range)) = index.get(id).map(|i| ranges[i].as_mut()) {
                        range.num_members += 1;
                    }
                }
            }
        }
        let mut out: Vec<(String, BTreeMap<Uuid, BTreeSet<i32>>)> = Vec::with_capacity(members.len());
        for m in &members {
            let mut entry = BTreeMap::new();
            let subscribed = if homogeneous { first } else { m };
            for id in &subscribed.subscribed_topic_ids {
                if let Some(Some(range)) = index.get(id).map(|i| ranges[i].as_mut()) {
                    let r = range.next();
                    if !r.is_empty() {
                        entry.entry(*id).or_insert_with(BTreeSet::new).extend(r);
                    }
                }
            }
            out.push((m.member_id.clone(), entry));
        }
        Ok(out.into_iter().collect())
    }
}
