//! `UniformHeterogeneousAssignmentBuilder`: the uniform assignor for groups
//! whose members subscribe to different topics.

use super::{GroupSpec, MemberAssignment, ServerAssignment, TopicMetadata};
use crate::assign::dense::UuidIndex;
use crate::java::Uuid;
use crate::small_sort::StableSort;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// `MAX_ITERATION_COUNT` of the balancing passes.
const MAX_ITERATION_COUNT: usize = 16;

/// Topics are dense indices into `ids` (subscribed topic ids, ascending).
struct Builder<'a> {
    group: &'a GroupSpec,
    ids: Vec<Uuid>,
    index: UuidIndex,
    counts: Vec<i32>,
    /// topic -> subscriber member indices, in member order
    topic_subscribers: Vec<Vec<usize>>,
    /// topic -> partition -> owner member index (-1 = unassigned)
    owners: Vec<Vec<i64>>,
    sizes: Vec<i64>,
    /// Kept up to date only when the previous assignment has two owners of
    /// a partition or an empty partition set (then it is not `owners` read
    /// back); `None` otherwise.
    target: Option<Vec<BTreeMap<Uuid, BTreeSet<i32>>>>,
}

/// `MemberAssignmentBalancer`: hands out least-loaded members level by level
/// and most-loaded members from the top, over one topic's subscribers.
struct MemberAssignmentBalancer {
    sorted: Vec<usize>,
    least_loaded_range_end: usize,
    least_loaded_range_partition_count: i64,
    next_least_loaded: usize,
    most_loaded_range_start: usize,
    most_loaded_range_end: usize,
    most_loaded_range_partition_count: i64,
    next_most_loaded: i64,
}

impl MemberAssignmentBalancer {
    fn new(members: &[usize], sizes: &[i64]) -> Self {
        let mut sorted = members.to_vec();
        // the member index breaks ties, so this unstable sort is stable
        sorted.sort_unstable_by_key(|m| (sizes[*m], *m));
        let (first, last) = (sizes[sorted[0]], sizes[sorted[sorted.len() - 1]]);
        MemberAssignmentBalancer {
            least_loaded_range_end: 0,
            least_loaded_range_partition_count: first - 1,
            next_least_loaded: 0,
            most_loaded_range_start: sorted.len(),
            most_loaded_range_end: sorted.len(),
            most_loaded_range_partition_count: last + 1,
            next_most_loaded: sorted.len() as i64 - 1,
            sorted,
        }
    }

    fn imbalance(&self, sizes: &[i64]) -> i64 {
        sizes[self.sorted[self.sorted.len() - 1]] - sizes[self.sorted[0]]
    }

    fn next_least_loaded_member(&mut self, sizes: &[i64]) -> usize {
        if self.next_least_loaded >= self.least_loaded_range_end {
            self.least_loaded_range_partition_count += 1;
            while self.least_loaded_range_end < self.sorted.len()
                && sizes[self.sorted[self.least_loaded_range_end]] == self.least_loaded_range_partition_count
            {
                self.least_loaded_range_end += 1;
            }
            self.next_least_loaded = 0;
        }
        let member = self.sorted[self.next_least_loaded];
        self.next_least_loaded += 1;
        member
    }

    fn next_most_loaded_member(&mut self, sizes: &[i64]) -> Option<usize> {
        if self.next_most_loaded < self.most_loaded_range_start as i64 {
            if self.most_loaded_range_end <= self.most_loaded_range_start && self.most_loaded_range_start > 0 {
                self.most_loaded_range_partition_count = sizes[self.sorted[self.most_loaded_range_start - 1]];
            } else {
                self.most_loaded_range_partition_count -= 1;
            }
            while self.most_loaded_range_start > 0
                && sizes[self.sorted[self.most_loaded_range_start - 1]] == self.most_loaded_range_partition_count
            {
                self.most_loaded_range_start -= 1;
            }
            self.next_most_loaded = self.most_loaded_range_end as i64 - 1;
        }
        if self.next_most_loaded < 0 {
            return None;
        }
        let member = self.sorted[self.next_most_loaded as usize];
        self.next_most_loaded -= 1;
        Some(member)
    }

    fn exclude_most_loaded_member(&mut self) {
        let i = (self.next_most_loaded + 1) as usize;
        self.sorted.swap(i, self.most_loaded_range_end - 1);
        self.most_loaded_range_end -= 1;
    }

    fn is_balanced(&self) -> bool {
        self.most_loaded_range_partition_count - self.least_loaded_range_partition_count <= 1
    }
}

impl<'a> Builder<'a> {
    /// `topicComparator`: partitions per subscriber descending, then subscriber
    /// count ascending, then topic id (the index, as `ids` ascend).
    fn sort_topic_ids(&self, topics: impl Iterator<Item = usize>) -> Vec<usize> {
        let mut sorted: Vec<usize> = topics.collect();
        let key = |t: usize| {
            let subs = self.topic_subscribers[t].len();
            (f64::from(self.counts[t]) / subs as f64, subs)
        };
        sorted.stable_sort_by(|a, b| {
            let ((ra, sa), (rb, sb)) = (key(*a), key(*b));
            rb.partial_cmp(&ra).unwrap_or(Ordering::Equal).then(sa.cmp(&sb)).then(a.cmp(b))
        });
        sorted
    }

    fn assign_partition(&mut self, topic: usize, partition: i32, member: usize) {
        let owners = &mut self.owners[topic];
        let old = owners[partition as usize];
        owners[partition as usize] = member as i64;
        let id = self.ids[topic];
        if old >= 0 {
            let old = old as usize;
            if let Some(target) = self.target.as_mut() {
                if let Some(set) = target[old].get_mut(&id) {
                    set.remove(&partition);
                    if set.is_empty() {
                        target[old].remove(&id);
                    }
                }
            }
            self.sizes[old] -= 1;
        }
        if let Some(target) = self.target.as_mut() {
            target[member].entry(id).or_default().insert(partition);
        }
        self.sizes[member] += 1;
    }

    fn maybe_revoke_partitions(&mut self) -> Result<(), String> {
        let mut plain = true;
        for (i, m) in self.group.members.iter().enumerate() {
            for (id, partitions) in &m.assignment {
                if !m.subscribed_topic_ids.contains(id) {
                    continue;
                }
                let t = self.index.get(id).ok_or("subscribed topic without metadata")?;
                let owners = &mut self.owners[t];
                self.sizes[i] += partitions.len() as i64;
                plain &= !partitions.is_empty();
                for p in partitions {
                    let slot = usize::try_from(*p).ok().and_then(|p| owners.get_mut(p));
                    let slot =
                        slot.ok_or_else(|| format!("member {} owns nonexistent partition {id}:{p}", m.member_id))?;
                    plain &= *slot == -1;
                    *slot = i as i64;
                }
            }
        }
        if !plain {
            let mut target = vec![BTreeMap::<Uuid, BTreeSet<i32>>::new(); self.group.members.len()];
            for (i, m) in self.group.members.iter().enumerate() {
                for (id, partitions) in m.assignment.iter().filter(|(id, _)| m.subscribed_topic_ids.contains(id)) {
                    target[i].entry(*id).or_default().extend(partitions.iter().copied());
                }
            }
            self.target = Some(target);
        }
        Ok(())
    }

    /// The target assignment: `owners` read back, unless it is kept.
    fn into_target(self) -> Vec<MemberAssignment> {
        if let Some(target) = self.target {
            return target.iter().map(MemberAssignment::from_sets).collect();
        }
        // topics ascend by id and partitions by number: each member's pairs ascend
        let mut pairs: Vec<Vec<(Uuid, i32)>> =
            self.sizes.iter().map(|n| Vec::with_capacity((*n).max(0) as usize)).collect();
        for (t, owners) in self.owners.iter().enumerate() {
            for (p, owner) in owners.iter().enumerate() {
                if *owner >= 0 {
                    pairs[*owner as usize].push((self.ids[t], p as i32));
                }
            }
        }
        pairs.into_iter().map(MemberAssignment::from_sorted).collect()
    }

    fn assign_remaining_partitions(&mut self) {
        let partitions: Vec<Vec<i32>> = self
            .owners
            .iter()
            .map(|owners| (0..owners.len() as i32).filter(|p| owners[*p as usize] == -1).collect::<Vec<_>>())
            .collect();
        for t in self.sort_topic_ids((0..partitions.len()).filter(|t| !partitions[*t].is_empty())) {
            let mut balancer = MemberAssignmentBalancer::new(&self.topic_subscribers[t], &self.sizes);
            for p in &partitions[t] {
                let member = balancer.next_least_loaded_member(&self.sizes);
                self.assign_partition(t, *p, member);
            }
        }
    }

    fn balance(&mut self) {
        let eligible: Vec<usize> = (0..self.ids.len()).filter(|t| self.topic_subscribers[*t].len() >= 2).collect();
        if eligible.is_empty() {
            return;
        }
        let sorted = self.sort_topic_ids(eligible.into_iter());
        let mut last_rebalance_topic: Option<usize> = None;
        for _ in 0..MAX_ITERATION_COUNT {
            for (index, id) in sorted.iter().enumerate() {
                if last_rebalance_topic == Some(index) {
                    return;
                }
                if self.balance_topic(*id) > 0 || last_rebalance_topic.is_none() {
                    last_rebalance_topic = Some(index);
                }
            }
        }
    }

    fn balance_topic(&mut self, id: usize) -> usize {
        let mut moved = 0;
        let mut balancer = MemberAssignmentBalancer::new(&self.topic_subscribers[id], &self.sizes);
        if balancer.imbalance(&self.sizes) <= 1 {
            return 0;
        }
        let owners = &self.owners[id];
        let mut partitions: Vec<i32> = (0..owners.len() as i32).collect();
        // (owner, partition) keys are distinct: this unstable sort is stable
        partitions.sort_unstable_by_key(|p| (owners[*p as usize], *p));
        // per owner (index owner + 1, so -1 fits): its run in `partitions`
        let mut start: Vec<usize> = vec![usize::MAX; self.sizes.len() + 1];
        let mut end: Vec<usize> = vec![0; self.sizes.len() + 1];
        for (i, p) in partitions.iter().enumerate() {
            let owner = (owners[*p as usize] + 1) as usize;
            if start[owner] == usize::MAX {
                start[owner] = i;
            }
            end[owner] = i + 1;
        }
        while !balancer.is_balanced() {
            let most_loaded = loop {
                let Some(m) = balancer.next_most_loaded_member(&self.sizes) else { break None };
                let key = m + 1;
                if start[key] != usize::MAX && end[key] > start[key] {
                    break Some(m);
                }
                balancer.exclude_most_loaded_member();
            };
            let Some(most_loaded) = most_loaded else { break };
            let key = most_loaded + 1;
            end[key] -= 1;
            let e = end[key];
            let partition = partitions[e];
            let least_loaded = balancer.next_least_loaded_member(&self.sizes);
            if balancer.is_balanced() {
                break;
            }
            self.assign_partition(id, partition, least_loaded);
            moved += 1;
        }
        moved
    }
}

/// `UniformHeterogeneousAssignmentBuilder.build`.
pub fn build(group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String> {
    let mut ids: Vec<Uuid> = Vec::new();
    {
        let mut seen = BTreeSet::new();
        for m in &group.members {
            for id in &m.subscribed_topic_ids {
                topics.require(id)?;
                if seen.insert(*id) {
                    ids.push(*id);
                }
            }
        }
    }
    if ids.is_empty() {
        return Ok(ServerAssignment::new());
    }
    ids.sort_unstable();
    let index = UuidIndex::new(&ids);
    let mut topic_subscribers: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    for (i, m) in group.members.iter().enumerate() {
        for id in &m.subscribed_topic_ids {
            topic_subscribers[index.get(id).unwrap_or_default()].push(i);
        }
    }
    let counts: Vec<i32> = ids.iter().map(|id| topics.num_partitions(id)).collect();
    let owners = counts.iter().map(|n| vec![-1; (*n).max(0) as usize]).collect();
    let mut builder = Builder {
        group,
        ids,
        index,
        counts,
        topic_subscribers,
        owners,
        sizes: vec![0; group.members.len()],
        target: None,
    };
    builder.maybe_revoke_partitions()?;
    builder.assign_remaining_partitions();
    builder.balance();
    Ok(ServerAssignment::of_members(group, builder.into_target()))
}
