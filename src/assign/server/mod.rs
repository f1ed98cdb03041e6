//! Server-side assignors (KIP-848), mirroring
//! `org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor`:
//! the group coordinator computes the target assignment from a [`GroupSpec`]
//! and the subscribed topics' metadata.

use super::{Assignment, TopicPartition};
use crate::java::{compare_strings, int_set_order, uuid_hash_order, Uuid};
use crate::small_sort::StableSort;
use std::collections::{BTreeMap, BTreeSet};

pub mod range;
pub mod simple;
mod simple_heterogeneous;
mod simple_shared;
pub mod uniform;
pub mod uniform_heterogeneous;

/// `SubscriptionType`: HOMOGENEOUS when every member subscribes to the same topics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SubscriptionType {
    #[default]
    Homogeneous,
    Heterogeneous,
}

/// One member of the `GroupSpec`: its `MemberSubscription` and its current
/// (previous target) assignment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberSpec {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub rack: Option<String>,
    /// `subscribedTopicIds()` (a set; the order given here is the insertion order).
    pub subscribed_topic_ids: Vec<Uuid>,
    /// `memberAssignment(memberId).partitions()`: topic id -> partitions, in the
    /// iteration order of the Java map and sets holding them. Use
    /// [`MemberSpec::java_assignment_order`] to get a `HashMap<Uuid, HashSet<Integer>>`'s order.
    pub assignment: Vec<(Uuid, Vec<i32>)>,
}

impl MemberSpec {
    /// Orders an assignment as a `HashMap<Uuid, Set<Integer>>` (default capacity)
    /// holding `HashSet<Integer>`s iterates it.
    pub fn java_assignment_order(assignment: &BTreeMap<Uuid, BTreeSet<i32>>) -> Vec<(Uuid, Vec<i32>)> {
        let ids: Vec<Uuid> = assignment.keys().copied().collect();
        uuid_hash_order(&ids, None)
            .into_iter()
            .map(|id| {
                let parts: Vec<i32> = assignment[&id].iter().copied().collect();
                (id, int_set_order(&parts))
            })
            .collect()
    }
}

/// `GroupSpec`: the members in `memberIds()` iteration order (the coordinator's
/// `TargetAssignmentBuilder` uses a `java.util.HashMap`, see
/// [`crate::java::member_map_order`]) and the subscription type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupSpec {
    pub members: Vec<MemberSpec>,
    pub subscription_type: SubscriptionType,
    /// Test-only: `isPartitionAssigned` answers false for every partition, as
    /// with Kafka's tests that build the spec without the inverted assignment.
    /// The coordinator always provides it (false here).
    pub without_inverted_assignment: bool,
    /// `GroupSpecImpl`'s `topicPartitionAllowedMap`: the partitions a share
    /// group may be assigned (those whose share state is initialized), by
    /// topic id. `None` (Kafka's `Optional.empty()`, and every consumer group)
    /// allows every partition. Only the share assignor `simple` asks.
    pub assignable_partitions: Option<BTreeMap<Uuid, BTreeSet<i32>>>,
}

impl GroupSpec {
    /// `isPartitionAssignable(topicId, partitionId)`.
    pub fn is_partition_assignable(&self, topic: &Uuid, partition: i32) -> bool {
        self.assignable_partitions
            .as_ref()
            .is_none_or(|allowed| allowed.get(topic).is_some_and(|ps| ps.contains(&partition)))
    }

    /// `ModernGroup.subscriptionType`: HOMOGENEOUS if every subscribed topic is
    /// subscribed by every member (or nothing is subscribed).
    pub fn subscription_type_of(members: &[MemberSpec]) -> SubscriptionType {
        let mut counts: BTreeMap<Uuid, usize> = BTreeMap::new();
        for m in members {
            for id in m.subscribed_topic_ids.iter().collect::<BTreeSet<_>>() {
                *counts.entry(*id).or_default() += 1;
            }
        }
        if counts.values().all(|n| *n == members.len()) {
            SubscriptionType::Homogeneous
        } else {
            SubscriptionType::Heterogeneous
        }
    }

    /// Member positions sorted as `RangeAssignor.sortMemberIds`: static members
    /// first by instance id, then the rest by member id.
    pub(crate) fn sorted_member_positions(&self) -> Vec<usize> {
        let byte_order = |s: &str| s.bytes().all(|b| b < 0xEE);
        if self.members.iter().all(|m| m.instance_id.is_none() && byte_order(&m.member_id)) {
            // Java's String order is byte order here
            return crate::assign::dense::byte_sorted(self.members.len(), |i| self.members[i].member_id.as_bytes());
        }
        let mut sorted: Vec<usize> = (0..self.members.len()).collect();
        sorted.stable_sort_by(|a, b| {
            let (a, b) = (&self.members[*a], &self.members[*b]);
            match (&a.instance_id, &b.instance_id) {
                (Some(x), Some(y)) => compare_strings(x, y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => compare_strings(&a.member_id, &b.member_id),
            }
        });
        sorted
    }
}

/// One topic of the `SubscribedTopicDescriber`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopicInfo {
    pub name: String,
    pub partitions: i32,
}

/// The `SubscribedTopicDescriber`: topic id -> name and partition count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopicMetadata {
    pub topics: BTreeMap<Uuid, TopicInfo>,
}

impl TopicMetadata {
    /// `numPartitions(topicId)`: -1 for an unknown topic.
    pub fn num_partitions(&self, id: &Uuid) -> i32 {
        self.topics.get(id).map_or(-1, |t| t.partitions)
    }

    /// The `numPartitions` of a topic the assignor requires to exist.
    pub(crate) fn require(&self, id: &Uuid) -> Result<i32, String> {
        match self.num_partitions(id) {
            -1 => Err(format!("Members are subscribed to topic {id} which doesn't exist in the topic metadata.")),
            n => Ok(n),
        }
    }

    /// Converts the assignment of `group`'s members to topic names (partitions ascending).
    pub fn named(&self, group: &GroupSpec, assignment: &ServerAssignment) -> Assignment {
        assignment
            .members(group)
            .map(|(member, target)| {
                let mut list: Vec<TopicPartition> = Vec::with_capacity(target.len());
                for (id, ps) in target.topics() {
                    let name = self.topics.get(&id).map_or_else(|| id.to_string(), |t| t.name.clone());
                    list.extend(ps.map(|p| TopicPartition::new(name.clone(), p)));
                }
                list.stable_sort();
                (member.to_string(), list)
            })
            .collect()
    }
}

/// `GroupAssignment`: each member's [`MemberAssignment`], by the member's
/// position in [`GroupSpec::members`] (the spec's members are the dense member
/// ids, so the result needs no map, no sort and no copy of a member id), or
/// no entry at all, as when Kafka's assignors return an empty map (the
/// uniform assignor for an empty group or an empty subscription).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerAssignment {
    targets: Vec<MemberAssignment>,
}

impl ServerAssignment {
    /// The empty `GroupAssignment`: no member has an entry.
    pub fn new() -> Self {
        ServerAssignment::default()
    }

    /// One target per member of the spec, in the spec's order.
    pub(crate) fn of_members(group: &GroupSpec, targets: Vec<MemberAssignment>) -> Self {
        debug_assert_eq!(targets.len(), group.members.len());
        ServerAssignment { targets }
    }

    /// (member id, its assignment), in the spec's member order.
    pub fn members<'a>(&'a self, group: &'a GroupSpec) -> impl Iterator<Item = (&'a str, &'a MemberAssignment)> {
        group.members.iter().map(|m| m.member_id.as_str()).zip(&self.targets)
    }
}

/// `MemberAssignment.partitions()` (topic id -> set of partitions), held as one
/// list of (topic id, partition) pairs ascending, without duplicates: one
/// allocation per member instead of a map node and a set per topic, which is
/// most of what building the result cost. A topic with no partitions has no
/// entry (Kafka's assignors may leave an empty set; it assigns nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberAssignment {
    pairs: Vec<(Uuid, i32)>,
}

impl MemberAssignment {
    /// From pairs the caller produced ascending and distinct.
    pub(crate) fn from_sorted(pairs: Vec<(Uuid, i32)>) -> Self {
        debug_assert!(pairs.windows(2).all(|w| w[0] < w[1]), "pairs not ascending");
        MemberAssignment { pairs }
    }

    /// From a topic id -> partitions map.
    pub fn from_sets(sets: &BTreeMap<Uuid, BTreeSet<i32>>) -> Self {
        Self::from_sorted(sets.iter().flat_map(|(id, ps)| ps.iter().map(move |p| (*id, *p))).collect())
    }

    /// Each topic id with its partitions, ascending.
    pub fn topics(&self) -> impl Iterator<Item = (Uuid, impl Iterator<Item = i32> + '_)> + '_ {
        self.pairs.chunk_by(|a, b| a.0 == b.0).map(|run| (run[0].0, run.iter().map(|(_, p)| *p)))
    }

    /// The partitions of one topic, ascending (none if it has no entry).
    pub fn partitions(&self, topic: Uuid) -> impl Iterator<Item = i32> + '_ {
        let start = self.pairs.partition_point(|(id, _)| *id < topic);
        self.pairs[start..].iter().take_while(move |(id, _)| *id == topic).map(|(_, p)| *p)
    }

    /// How many partitions, over every topic.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

/// Mirrors `ConsumerGroupPartitionAssignor` (and `ShareGroupPartitionAssignor`):
/// run by the group coordinator. A consumer assignor gives each partition to
/// at most one member; a share assignor ([`share_assignor`]) may give one
/// partition to several members, which [`ServerAssignment`] allows.
pub trait ServerAssignor {
    /// The name members select with `group.remote.assignor` (`uniform`, `range`).
    fn name(&self) -> &'static str;
    /// One call of Kafka's `assign`; errors are `PartitionAssignorException`s.
    fn assign(&self, group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String>;
}

/// The server assignor the coordinator registers under `name`, if any
/// (`group.consumer.assignors` defaults to [uniform, range]).
pub fn server_assignor(name: &str) -> Option<Box<dyn ServerAssignor>> {
    match name {
        "uniform" => Some(Box::new(uniform::UniformAssignor)),
        "range" => Some(Box::new(range::RangeAssignor)),
        _ => None,
    }
}

/// The share-group assignor the coordinator registers under `name`, if any
/// (`group.share.assignors` defaults to [simple], the only built-in one). Kept
/// apart from [`server_assignor`]: `group.consumer.assignors` takes only
/// `ConsumerGroupPartitionAssignor`s, and `simple` shares partitions.
pub fn share_assignor(name: &str) -> Option<Box<dyn ServerAssignor>> {
    match name {
        "simple" => Some(Box::new(simple::SimpleAssignor)),
        _ => None,
    }
}
