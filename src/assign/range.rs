//! `org.apache.kafka.clients.consumer.RangeAssignor` ("range"), including the
//! KIP-881 rack-aware variant with co-partitioned topics.

use super::dense::{member_info_sorted, MemberTopics, Slots, TopicIds};
use super::rack::{consumer_rack, partition_racks, use_rack_aware_assignment};
use super::{
    topic_partition_order, Assignment, ClientAssignor, ClusterMetadata, Subscription, TopicName, TopicPartition,
};
use crate::java::{hashmap_order, java_hash_order, string_hash};
use crate::small_sort::StableSort;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Kept here for callers of the original path.
pub use super::member_info_order;

#[derive(Default)]
pub struct RangeAssignor {
    pub prefer_rack_aware_logic: bool,
}

/// The topics `AbstractPartitionAssignor.assign` hands on, in the iteration
/// order of its `partitionsPerTopic` HashMap: subscribed topics (collected in a
/// `HashSet` in member order) that exist with at least one partition.
pub fn partitions_per_topic_order(cluster: &ClusterMetadata, members: &[Subscription]) -> Vec<String> {
    // putting a present key again changes nothing, so only first occurrences matter
    let mut seen = HashSet::new();
    let firsts = members.iter().flat_map(|m| m.topics.iter().map(String::as_str)).filter(|t| seen.insert(*t));
    let subscribed = hashmap_order(firsts, None);
    let existing = subscribed.iter().filter(|t| cluster.partitions.get(*t).is_some_and(|n| *n > 0));
    hashmap_order(existing.map(String::as_str), None)
}

/// [`partitions_per_topic_order`] over dense topic ids (`ids` in first-subscribed order).
fn topic_order(cluster: &ClusterMetadata, ids: &TopicIds) -> Vec<u32> {
    let hashes: Vec<i32> = ids.names.iter().map(|t| string_hash(t)).collect();
    let existing: Vec<usize> = java_hash_order(&hashes, 16)
        .into_iter()
        .filter(|t| cluster.partitions.get(ids.names[*t]).is_some_and(|n| *n > 0))
        .collect();
    let rehashed: Vec<i32> = existing.iter().map(|t| hashes[*t]).collect();
    java_hash_order(&rehashed, 16).into_iter().map(|k| existing[k] as u32).collect()
}

/// `assign` when no member has a rack (so no topic needs rack-aware
/// assignment): `assignRanges` over each topic's subscribers in `MemberInfo`
/// order, which with nothing assigned yet hands out contiguous ranges.
fn assign_without_racks(cluster: &ClusterMetadata, members: &[Subscription]) -> Assignment {
    let slots = Slots::new(members);
    let mut ids = TopicIds::default();
    let member_topics = MemberTopics::new(members, &mut ids);
    let mut rank = vec![0u32; members.len()];
    for (r, m) in member_info_sorted(members).into_iter().enumerate() {
        rank[m] = r as u32;
    }
    let mut subscribers: Vec<Vec<u32>> = vec![Vec::new(); ids.len()];
    for m in 0..members.len() {
        for t in member_topics.of(m) {
            subscribers[*t as usize].push(m as u32);
        }
    }
    let mut lists: Vec<Vec<TopicPartition>> = vec![Vec::new(); slots.len()];
    let mut seen_in_topic = vec![u32::MAX; slots.len()];
    let mut consumers: Vec<usize> = Vec::with_capacity(slots.len());
    for t in topic_order(cluster, &ids) {
        let (name, count) = (ids.names[t as usize], cluster.partitions[ids.names[t as usize]]);
        let subs = &mut subscribers[t as usize];
        subs.sort_unstable_by_key(|m| rank[*m as usize]);
        consumers.clear();
        for m in subs.iter() {
            let slot = slots.of_member[*m as usize];
            if seen_in_topic[slot] != t {
                seen_in_topic[slot] = t;
                consumers.push(slot);
            }
        }
        if consumers.is_empty() {
            continue;
        }
        let n = consumers.len() as i32;
        let (per_consumer, mut with_extra) = (count / n, count % n);
        let mut next = 0;
        let shared = TopicName::from(name);
        for slot in &consumers {
            if next >= count {
                break;
            }
            let end = (next + per_consumer + i32::from(with_extra > 0)).min(count);
            if end - next > per_consumer {
                with_extra -= 1;
            }
            lists[*slot].extend((next..end).map(|p| TopicPartition::new(&shared, p)));
            next = end;
        }
    }
    slots.assignment_from(members, lists)
}

/// `RangeAssignor.TopicAssignmentState`.
struct TopicAssignmentState<'a> {
    /// The topic, shared by the partitions handed out.
    name: TopicName,
    /// Subscribers in `MemberInfo` order with their racks.
    consumers: Vec<(&'a str, Option<&'a str>)>,
    needs_rack_aware_assignment: bool,
    /// Per partition index: replica racks (empty when no subscriber has a rack).
    partition_racks: Vec<BTreeSet<&'a str>>,
    unassigned: BTreeSet<i32>,
    num_assigned: Vec<i32>,
    num_partitions_per_consumer: i32,
    remaining_consumers_with_extra_partition: i32,
}

impl<'a> TopicAssignmentState<'a> {
    fn new(
        topic: &'a str,
        num_partitions: i32,
        members: &[&'a Subscription],
        cluster: &'a ClusterMetadata,
        prefer: bool,
    ) -> Self {
        let mut sorted: Vec<&Subscription> = members.to_vec();
        sorted.stable_sort_by(|a, b| member_info_order(a, b));
        let mut seen = HashSet::new();
        let consumers: Vec<(&str, Option<&str>)> = sorted
            .into_iter()
            .filter(|m| seen.insert(m.member_id.as_str()))
            .map(|m| (m.member_id.as_str(), consumer_rack(m)))
            .collect();
        let n = consumers.len() as i32;
        let consumer_racks: BTreeSet<&str> = consumers.iter().filter_map(|(_, r)| *r).collect();
        let partition_racks: Vec<BTreeSet<&str>> = if consumer_racks.is_empty() {
            Vec::new()
        } else {
            (0..num_partitions).map(|p| partition_racks(cluster, topic, p)).collect()
        };
        let all_partition_racks: BTreeSet<&str> = partition_racks.iter().flatten().copied().collect();
        let needs_rack_aware_assignment =
            use_rack_aware_assignment(&consumer_racks, &all_partition_racks, partition_racks.iter(), prefer);
        TopicAssignmentState {
            name: TopicName::from(topic),
            num_assigned: vec![0; consumers.len()],
            consumers,
            needs_rack_aware_assignment,
            partition_racks,
            unassigned: (0..num_partitions).collect(),
            num_partitions_per_consumer: if n == 0 { 0 } else { num_partitions / n },
            remaining_consumers_with_extra_partition: if n == 0 { 0 } else { num_partitions % n },
        }
    }

    fn index_of(&self, consumer: &str) -> Option<usize> {
        self.consumers.iter().position(|(id, _)| *id == consumer)
    }

    fn racks_match(&self, consumer: usize, partition: i32) -> bool {
        match self.consumers[consumer].1 {
            None => true,
            Some(rack) => usize::try_from(partition)
                .ok()
                .and_then(|p| self.partition_racks.get(p))
                .is_some_and(|racks| racks.contains(rack)),
        }
    }

    fn max_assignable(&self, consumer: usize) -> usize {
        let extra = i32::from(self.remaining_consumers_with_extra_partition > 0);
        (self.num_partitions_per_consumer + extra - self.num_assigned[consumer]).max(0) as usize
    }

    fn on_assigned(&mut self, consumer: usize, partitions: &[i32]) {
        self.num_assigned[consumer] += partitions.len() as i32;
        if self.num_assigned[consumer] > self.num_partitions_per_consumer {
            self.remaining_consumers_with_extra_partition -= 1;
        }
        for p in partitions {
            self.unassigned.remove(p);
        }
    }
}

fn assign(state: &mut TopicAssignmentState, consumer: usize, partitions: Vec<i32>, out: &mut Assignment) {
    if let Some(list) = out.get_mut(state.consumers[consumer].0) {
        list.extend(partitions.iter().map(|p| TopicPartition::new(&state.name, *p)));
    }
    state.on_assigned(consumer, &partitions);
}

/// `assignRanges`: each consumer in order takes the first unassigned
/// partitions it may take, up to its quota.
fn assign_ranges(state: &mut TopicAssignmentState, rack_filter: bool, out: &mut Assignment) {
    for c in 0..state.consumers.len() {
        if state.unassigned.is_empty() {
            break;
        }
        let take: Vec<i32> = state
            .unassigned
            .iter()
            .copied()
            .filter(|p| !rack_filter || state.racks_match(c, *p))
            .take(state.max_assignable(c))
            .collect();
        if !take.is_empty() {
            assign(state, c, take, out);
        }
    }
}

/// `assignCoPartitionedWithRackMatching`: partition i of every topic of the
/// group goes to the first remaining consumer matching all of their racks.
fn assign_co_partitioned(states: &mut [&mut TopicAssignmentState], num_partitions: usize, out: &mut Assignment) {
    let mut remaining: Vec<&str> = states[0].consumers.iter().map(|(id, _)| *id).collect();
    for p in 0..num_partitions as i32 {
        let matching = remaining.iter().copied().find(|c| {
            states.iter().all(|t| t.index_of(c).is_some_and(|i| t.racks_match(i, p) && t.max_assignable(i) > 0))
        });
        let Some(consumer) = matching else { continue };
        for t in states.iter_mut() {
            if let Some(i) = t.index_of(consumer) {
                assign(t, i, vec![p], out);
            }
        }
        if states.iter().all(|t| t.index_of(consumer).is_none_or(|i| t.max_assignable(i) == 0)) {
            remaining.retain(|c| *c != consumer);
            if remaining.is_empty() {
                break;
            }
        }
    }
}

/// `assignWithRackMatching`: topics with the same subscribers and partition
/// count are co-partitioned; lone topics are range-assigned among rack matches.
fn assign_with_rack_matching(states: &mut [TopicAssignmentState], out: &mut Assignment) {
    type Key<'k> = (Vec<(&'k str, Option<&'k str>)>, usize);
    let mut groups: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
    for (i, s) in states.iter().enumerate() {
        groups.entry((s.consumers.clone(), s.partition_racks.len())).or_default().push(i);
    }
    for ((_, num_partitions), members) in groups {
        if members.len() > 1 {
            let mut group: Vec<&mut TopicAssignmentState> =
                states.iter_mut().enumerate().filter(|(i, _)| members.contains(i)).map(|(_, s)| s).collect();
            assign_co_partitioned(&mut group, num_partitions, out);
        } else {
            let state = &mut states[members[0]];
            if state.needs_rack_aware_assignment {
                assign_ranges(state, true, out);
            }
        }
    }
}

impl ClientAssignor for RangeAssignor {
    fn name(&self) -> &'static str {
        "range"
    }

    fn set_prefer_rack_aware_logic(&mut self, prefer: bool) {
        self.prefer_rack_aware_logic = prefer;
    }

    fn assign(&mut self, cluster: &ClusterMetadata, members: &[Subscription]) -> Result<Assignment, String> {
        if members.iter().all(|m| consumer_rack(m).is_none()) {
            return Ok(assign_without_racks(cluster, members));
        }
        let mut out: Assignment = members.iter().map(|m| (m.member_id.clone(), Vec::new())).collect();
        let topics = partitions_per_topic_order(cluster, members);
        let mut subscribers: HashMap<&str, Vec<&Subscription>> = HashMap::new();
        for m in members {
            for t in &m.topics {
                subscribers.entry(t.as_str()).or_default().push(m);
            }
        }
        let mut states: Vec<TopicAssignmentState> = topics
            .iter()
            .map(|t| {
                let subs = subscribers.get(t.as_str()).map(Vec::as_slice).unwrap_or_default();
                TopicAssignmentState::new(t, cluster.partitions[t], subs, cluster, self.prefer_rack_aware_logic)
            })
            .collect();
        let rack_aware = states.iter().any(|s| s.needs_rack_aware_assignment);
        if rack_aware {
            assign_with_rack_matching(&mut states, &mut out);
        }
        for state in &mut states {
            assign_ranges(state, false, &mut out);
        }
        if rack_aware {
            out.values_mut().for_each(|list| list.stable_sort_by(topic_partition_order));
        }
        Ok(out)
    }
}
