//! `UniformHeterogeneousAssignmentBuilder`: the uniform assignor for groups
//! whose members subscribe to different topics.

use crate::small_sort::StableSort;
use super::{GroupSpec, ServerAssignment, TopicMetadata};
use crate::java::Uuid;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// `MAX_ITERATION_COUNT` of the balancing passes.
const MAX_ITERATION_COUNT: usize = 16;

struct Builder<'a> {
    group: &'a GroupSpec,
    topics: &'a TopicMetadata,
    /// topic -> subscriber member indices, in member order
    topic_subscribers: BTreeMap<Uuid, Vec<usize>>,
    /// topic -> partition -> owner member index (-1 = unassigned)
    owners: BTreeMap<Uuid, Vec<i64>>,
    sizes: Vec<i64>,
    target: Vec<BTreeMap<Uuid, BTreeSet<i32>>>,
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
        sorted.stable_sort_by(|a, b| sizes[*a].cmp(&sizes[*b]).then(a.cmp(b)));
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
    fn num_partitions(&self, id: &Uuid) -> i32 {
        self.topics.num_partitions(id)
    }

    /// `topicComparator`: partitions per subscriber descending, then subscriber
    /// count ascending, then topic id.
    fn sort_topic_ids(&self, ids: impl Iterator<Item = Uuid>) -> Vec<Uuid> {
        let mut sorted: Vec<Uuid> = ids.collect();
        let key = |id: &Uuid| {
            let subs = self.topic_subscribers[id].len();
            (f64::from(self.num_partitions(id)) / subs as f64, subs)
        };
        sorted.stable_sort_by(|a, b| {
            let ((ra, sa), (rb, sb)) = (key(a), key(b));
            rb.partial_cmp(&ra).unwrap_or(Ordering::Equal).then(sa.cmp(&sb)).then(a.cmp(b))
        });
        sorted
    }

    fn assign_partition(&mut self, topic: Uuid, partition: i32, member: usize) {
        let Some(owners) = self.owners.get_mut(&topic) else { return };
        let old = owners[partition as usize];
        owners[partition as usize] = member as i64;
        if old >= 0 {
            let old = old as usize;
            if let Some(set) = self.target[old].get_mut(&topic) {
                set.remove(&partition);
                if set.is_empty() {
                    self.target[old].remove(&topic);
                }
            }
            self.sizes[old] -= 1;
        }
        self.target[member].entry(topic).or_default().insert(partition);
        self.sizes[member] += 1;
    }

    fn maybe_revoke_partitions(&mut self) -> Result<(), String> {
        for (i, m) in self.group.members.iter().enumerate() {
            for (id, partitions) in &m.assignment {
                if !m.subscribed_topic_ids.contains(id) {
                    continue;
                }
                let owners = self.owners.get_mut(id).ok_or("subscribed topic without metadata")?;
                self.sizes[i] += partitions.len() as i64;
                for p in partitions {
                    let slot = usize::try_from(*p).ok().and_then(|p| owners.get_mut(p));
                    *slot.ok_or_else(|| format!("member {} owns nonexistent partition {id}:{p}", m.member_id))? =
                        i as i64;
                }
                self.target[i].entry(*id).or_default().extend(partitions.iter().copied());
            }
        }
        Ok(())
    }

    fn assign_remaining_partitions(&mut self) {
        let unassigned: Vec<(Uuid, Vec<i32>)> = self
            .owners
            .iter()
            .map(|(id, owners)| (*id, (0..owners.len() as i32).filter(|p| owners[*p as usize] == -1).collect::<Vec<_>>()))
            .filter(|(_, ps)| !ps.is_empty())
            .collect();
        let partitions: HashMap<Uuid, Vec<i32>> = unassigned.into_iter().collect();
        for id in self.sort_topic_ids(partitions.keys().copied()) {
            let mut balancer = MemberAssignmentBalancer::new(&self.topic_subscribers[&id], &self.sizes);
            for p in &partitions[&id] {
                let member = balancer.next_least_loaded_member(&self.sizes);
                self.assign_partition(id, *p, member);
            }
        }
    }

    fn balance(&mut self) {
        let eligible: Vec<Uuid> =
            self.topic_subscribers.iter().filter(|(_, subs)| subs.len() >= 2).map(|(id, _)| *id).collect();
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

    fn balance_topic(&mut self, id: Uuid) -> usize {
        let mut moved = 0;
        let mut balancer = MemberAssignmentBalancer::new(&self.topic_subscribers[&id], &self.sizes);
        if balancer.imbalance(&self.sizes) <= 1 {
            return 0;
        }
        let owners = self.owners[&id].clone();
        let mut partitions: Vec<i32> = (0..owners.len() as i32).collect();
        partitions.stable_sort_by_key(|p| (owners[*p as usize], *p));
        let mut start: HashMap<i64, usize> = HashMap::new();
        let mut end: HashMap<i64, usize> = HashMap::new();
        for (i, p) in partitions.iter().enumerate() {
            let owner = owners[*p as usize];
            start.entry(owner).or_insert(i);
            end.insert(owner, i + 1);
        }
        while !balancer.is_balanced() {
            let most_loaded = loop {
                let Some(m) = balancer.next_most_loaded_member(&self.sizes) else { break None };
                let key = m as i64;
                match (start.get(&key), end.get(&key)) {
                    (Some(s), Some(e)) if e > s => break Some(m),
                    _ => balancer.exclude_most_loaded_member(),
                }
            };
            let Some(most_loaded) = most_loaded else { break };
            let key = most_loaded as i64;
            let e = end[&key] - 1;
            end.insert(key, e);
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
    let mut topic_subscribers: BTreeMap<Uuid, Vec<usize>> = BTreeMap::new();
    let mut owners: BTreeMap<Uuid, Vec<i64>> = BTreeMap::new();
    for (i, m) in group.members.iter().enumerate() {
        for id in &m.subscribed_topic_ids {
            let n = topics.require(id)?;
            topic_subscribers.entry(*id).or_default().push(i);
            owners.entry(*id).or_insert_with(|| vec![-1; n.max(0) as usize]);
        }
    }
    if topic_subscribers.is_empty() {
        return Ok(ServerAssignment::new());
    }
    let mut builder = Builder {
        group,
        topics,
        topic_subscribers,
        owners,
        sizes: vec![0; group.members.len()],
        target: vec![BTreeMap::new(); group.members.len()],
    };
    builder.maybe_revoke_partitions()?;
    builder.assign_remaining_partitions();
    builder.balance();
    Ok(group.members.iter().zip(builder.target).map(|(m, t)| (m.member_id.clone(), t)).collect())
}
