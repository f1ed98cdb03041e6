//! Server-side assignors (KIP-848), mirroring
//! `org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor`:
//! the group coordinator computes the target assignment from a [`GroupSpec`]
//! and the subscribed topics' metadata.

use super::{Assignment, TopicPartition};
use crate::java::{compare_strings, int_set_order, uuid_hash_order, Uuid};
use crate::small_sort::StableSort;
use std::collections::{BTreeMap, BTreeSet};

pub mod range;
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
}

impl GroupSpec {
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

    /// Members sorted as `RangeAssignor.sortMemberIds`: static members first by
    /// instance id, then the rest by member id.
    pub(crate) fn sorted_members(&self) -> Vec<&MemberSpec> {
        let mut sorted: Vec<&MemberSpec> = self.members.iter().collect();
        let byte_order = |s: &str| s.bytes().all(|b| b < 0xEE);
        if self.members.iter().all(|m| m.instance_id.is_none() && byte_order(&m.member_id)) {
            // Java's String order is byte order here; ties only between equal ids
            sorted.sort_by(|a, b| a.member_id.as_bytes().cmp(b.member_id.as_bytes()));
            return sorted;
        }
        sorted.stable_sort_by(|a, b| match (&a.instance_id, &b.instance_id) {
            (Some(x), Some(y)) => compare_strings(x, y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => compare_strings(&a.member_id, &b.member_id),
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

    /// Converts a server assignment to topic names (partitions ascending).
    pub fn named(&self, assignment: &ServerAssignment) -> Assignment {
        assignment
            .iter()
            .map(|(member, topics)| {
                let mut list: Vec<TopicPartition> = topics
                    .iter()
                    .flat_map(|(id, ps)| {
                        let name = self.topics.get(id).map_or_else(|| id.to_string(), |t| t.name.clone());
                        ps.iter().map(move |p| TopicPartition::new(name.clone(), *p))
                    })
                    .collect();
                list.stable_sort();
                (member.clone(), list)
            })
            .collect()
    }
}

/// `GroupAssignment`: member id -> topic id -> partitions. Members absent from
/// the map get no entry (the uniform assignor returns none for an empty group).
pub type ServerAssignment = BTreeMap<String, BTreeMap<Uuid, BTreeSet<i32>>>;

/// Mirrors `ConsumerGroupPartitionAssignor`: run by the group coordinator.
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
