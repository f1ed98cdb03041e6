//! Server-side `org.apache.kafka.coordinator.group.assignor.RangeAssignor`
//! ("range"): not sticky; contiguous ranges per topic over sorted members.

use super::{
    GroupSpec, MemberAssignment, MemberSpec, ServerAssignment, ServerAssignor, SubscriptionType, TopicMetadata,
};
use crate::assign::dense::{FxSet, UuidIndex};
use crate::java::Uuid;

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
        let positions = group.sorted_member_positions();
        let members: Vec<&MemberSpec> = positions.iter().map(|i| &group.members[*i]).collect();
        let Some(first) = members.first().copied() else { return Ok(ServerAssignment::new()) };
        let homogeneous = group.subscription_type == SubscriptionType::Homogeneous;
        // topic ids -> dense index: the first member's for a homogeneous group
        let mut ids: Vec<Uuid> = Vec::new();
        if homogeneous {
            ids.extend(first.subscribed_topic_ids.iter().copied());
        } else {
            let mut seen: FxSet<Uuid> = FxSet::default();
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
        // each topic (once) ranked by id: a member visiting its topics by rank
        // (a topic listed twice stays adjacent) produces its pairs ascending
        let mut by_rank: Vec<usize> = (0..ids.len()).filter(|t| ranges[*t].is_some()).collect();
        by_rank.sort_unstable_by_key(|t| ids[*t]);
        let mut rank = vec![0u32; ids.len()];
        for (r, t) in by_rank.iter().enumerate() {
            rank[*t] = r as u32;
        }
        let ranks_of = |m: &MemberSpec, into: &mut Vec<u32>| {
            let start = into.len();
            into.extend(m.subscribed_topic_ids.iter().filter_map(|id| index.get(id)).map(|t| rank[t]));
            into[start..].sort_unstable();
        };
        // every member's ranks, member after member (`ranks[ends[i-1]..ends[i]]`);
        // a homogeneous group visits the first member's topics for everyone
        let mut ranks: Vec<u32> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(members.len());
        if homogeneous {
            ranks_of(first, &mut ranks);
        } else {
            for m in &members {
                ranks_of(m, &mut ranks);
                ends.push(ranks.len());
            }
            for r in &ranks {
                if let Some(range) = ranges[by_rank[*r as usize]].as_mut() {
                    range.num_members += 1;
                }
            }
        }
        let mut pairs: Vec<(Uuid, i32)> = Vec::new();
        let mut out: Vec<MemberAssignment> = vec![MemberAssignment::default(); members.len()];
        for (i, position) in positions.iter().enumerate() {
            let visits = match homogeneous {
                true => &ranks[..],
                false => &ranks[if i == 0 { 0 } else { ends[i - 1] }..ends[i]],
            };
            pairs.clear();
            for r in visits {
                let t = by_rank[*r as usize];
                if let Some(range) = ranges[t].as_mut() {
                    pairs.extend(range.next().map(|p| (ids[t], p)));
                }
            }
            out[*position] = MemberAssignment::from_sorted(pairs.as_slice().to_vec());
        }
        Ok(ServerAssignment::of_members(group, out))
    }
}
