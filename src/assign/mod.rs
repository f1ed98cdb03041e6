//! Partition assignors, bit-identical to Kafka's own.
//!
//! Client-side assignors (classic protocol) run in the group leader and mirror
//! `org.apache.kafka.clients.consumer.ConsumerPartitionAssignor`; server-side
//! assignors (KIP-848) run in the coordinator and mirror
//! `org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor`.

use crate::small_sort::StableSort;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub mod case;
mod dense;
pub mod lab;
pub mod rack;
pub mod range;
pub mod roundrobin;
pub mod server;
pub mod sticky;
pub mod streams;
mod topic_name;
pub mod unsafe_duplicate;

pub use topic_name::TopicName;

pub use server::{
    server_assignor, share_assignor, GroupSpec, MemberSpec, ServerAssignment, ServerAssignor, SubscriptionType,
    TopicMetadata,
};

/// A topic partition, printed and parsed as Kafka prints it: `topic-partition`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TopicPartition {
    pub topic: TopicName,
    pub partition: i32,
}

impl TopicPartition {
    pub fn new(topic: impl Into<TopicName>, partition: i32) -> Self {
        TopicPartition { topic: topic.into(), partition }
    }
}

impl fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

impl FromStr for TopicPartition {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (topic, p) =
            s.rsplit_once('-').ok_or_else(|| format!("'{s}' is not a topic-partition (expected e.g. orders-3)"))?;
        let partition = p
            .parse::<i32>()
            .ok()
            .filter(|p| *p >= 0 && !topic.is_empty())
            .ok_or_else(|| format!("'{s}' is not a topic-partition (expected e.g. orders-3)"))?;
        Ok(TopicPartition::new(topic, partition))
    }
}

impl Serialize for TopicPartition {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TopicPartition {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Kafka's `RebalanceProtocol` (KIP-429).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RebalanceProtocol {
    EAGER,
    COOPERATIVE,
}

/// One member's `ConsumerPartitionAssignor.Subscription` as the leader sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscription {
    pub member_id: String,
    /// `group.instance.id` (static membership).
    pub instance_id: Option<String>,
    pub topics: Vec<String>,
    /// `ownedPartitions` (protocol v1+), or what sticky userData carries.
    pub owned: Vec<TopicPartition>,
    /// `generationId` (protocol v2+ or sticky userData); `None` = never assigned.
    pub generation: Option<i32>,
    /// `client.rack` (KIP-881).
    pub rack: Option<String>,
    /// Which places of the JoinGroup metadata carry `owned` and `generation`;
    /// this decides what the sticky assignors can see. The default (v2+, the
    /// format of every current client) carries both everywhere.
    pub format: SubscriptionFormat,
}

/// How a member's `Subscription` carries its previous assignment and generation.
///
/// `StickyAssignor` reads both from its userData only; `CooperativeStickyAssignor`
/// reads `ownedPartitions` from the protocol field and the generation from the
/// `generationId` field (v2+) or its userData; conflict resolution between two
/// owners of one partition compares the `generationId` *fields* (absent = -1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SubscriptionFormat {
    /// ConsumerProtocol v2+: `ownedPartitions` and `generationId` fields set, and
    /// the assignor's userData carries the same.
    #[default]
    V2,
    /// v1: `ownedPartitions` field, no `generationId` field; generation in userData.
    V1,
    /// v0: neither field; sticky userData carries owned partitions and generation,
    /// cooperative-sticky userData only the generation.
    V0,
    /// No userData, no `ownedPartitions`, no generation.
    Plain,
    /// `ownedPartitions` field only; no `generationId`, no userData.
    Raw,
}

impl SubscriptionFormat {
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "v2" => Ok(Self::V2),
            "v1" => Ok(Self::V1),
            "v0" => Ok(Self::V0),
            "plain" => Ok(Self::Plain),
            "raw" => Ok(Self::Raw),
            _ => Err(format!("unknown subscriptionFormat '{s}' (expected v0, v1, v2, plain or raw)")),
        }
    }
}

/// The leader's view of the cluster: partition counts, and for rack-aware
/// assignment the racks of each partition's replicas.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterMetadata {
    pub partitions: BTreeMap<String, i32>,
    /// topic -> partition index -> rack of each replica (`None` = no rack).
    pub replica_racks: BTreeMap<String, Vec<Vec<Option<String>>>>,
}

impl ClusterMetadata {
    pub fn from_counts<I: IntoIterator<Item = (S, i32)>, S: Into<String>>(counts: I) -> Self {
        ClusterMetadata {
            partitions: counts.into_iter().map(|(t, n)| (t.into(), n)).collect(),
            replica_racks: BTreeMap::new(),
        }
    }
}

/// member id -> assigned partitions, in the order the assignor produced them.
pub type Assignment = BTreeMap<String, Vec<TopicPartition>>;

/// Mirrors `ConsumerPartitionAssignor`: run by the classic group's leader.
///
/// `members` is given in the iteration order of the Java map the caller built
/// (the leader uses a `java.util.HashMap`; see [`crate::java`]). Assignors whose
/// output depends on that order use it as given.
pub trait ClientAssignor {
    /// The protocol name sent in JoinGroup (`range`, `roundrobin`, ...).
    fn name(&self) -> &'static str;
    /// `supportedProtocols()`: EAGER only, except cooperative-sticky.
    fn supported_protocols(&self) -> &'static [RebalanceProtocol] {
        &[RebalanceProtocol::EAGER]
    }
    /// One call of Kafka's `assign` for this group.
    fn assign(&mut self, cluster: &ClusterMetadata, members: &[Subscription]) -> Result<Assignment, String>;
    /// Kafka's test-only `preferRackAwareLogic` switch (AbstractPartitionAssignor):
    /// use the rack-aware path even when every partition has the same racks.
    fn set_prefer_rack_aware_logic(&mut self, _prefer: bool) {}
    /// The sticky assignors' `partitionsTransferringOwnership` after the last
    /// call (partition -> new owner); `None` where Kafka's field is null.
    fn partitions_transferring_ownership(&self) -> Option<BTreeMap<TopicPartition, String>> {
        None
    }
    /// State an instance keeps between calls in one leader process: the sticky
    /// assignors' never-reset `maxGeneration`; `None` for stateless assignors.
    fn max_generation(&self) -> Option<i32> {
        None
    }
}

/// Orders members as the classic leader's `java.util.HashMap<String, Subscription>`
/// iterates them (`ConsumerCoordinator.onLeaderElected`), ready for
/// [`ClientAssignor::assign`].
pub fn leader_member_order(mut members: Vec<Subscription>) -> Vec<Subscription> {
    let order = crate::java::member_map_order(members.iter().map(|m| m.member_id.as_str()));
    let rank: std::collections::HashMap<&str, usize> =
        order.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect();
    let mut keyed: Vec<(usize, Subscription)> =
        members.drain(..).map(|m| (rank.get(m.member_id.as_str()).copied().unwrap_or(usize::MAX), m)).collect();
    keyed.stable_sort_by_key(|(r, _)| *r);
    keyed.into_iter().map(|(_, m)| m).collect()
}

/// `AbstractPartitionAssignor.MemberInfo` order: static members first by
/// instance id, then dynamic members by member id (Java `String.compareTo`).
/// Two members with the same instance id compare equal (callers sort stably).
pub fn member_info_order(a: &Subscription, b: &Subscription) -> std::cmp::Ordering {
    use crate::java::compare_strings;
    match (&a.instance_id, &b.instance_id) {
        (Some(x), Some(y)) => compare_strings(x, y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => compare_strings(&a.member_id, &b.member_id),
    }
}

/// Java's `TopicPartitionComparator`: topic (`String.compareTo`), then partition.
pub fn topic_partition_order(a: &TopicPartition, b: &TopicPartition) -> std::cmp::Ordering {
    crate::java::compare_strings(&a.topic, &b.topic).then(a.partition.cmp(&b.partition))
}

/// The names of Kafka's built-in client assignors (`partition.assignment.strategy`).
pub const CLIENT_ASSIGNORS: [&str; 4] = ["range", "roundrobin", "sticky", "cooperative-sticky"];

/// Assignors a scenario may name: Kafka's, plus the deliberately wrong one
/// that demonstrates the invariant monitor.
pub fn is_known_client_assignor(name: &str) -> bool {
    CLIENT_ASSIGNORS.contains(&name) || name == unsafe_duplicate::NAME
}

/// The assignor under `name` as a leader that already ran it holds it: sticky
/// assignors resume from `max_generation` (what `max_generation()` returned).
pub fn client_assignor_resuming(name: &str, max_generation: i32) -> Option<Box<dyn ClientAssignor>> {
    match name {
        "sticky" => Some(Box::new(sticky::StickyAssignor::sticky().resuming(max_generation))),
        "cooperative-sticky" => Some(Box::new(sticky::StickyAssignor::cooperative().resuming(max_generation))),
        other => client_assignor(other),
    }
}

/// The client assignor Kafka registers under `name`, if any.
pub fn client_assignor(name: &str) -> Option<Box<dyn ClientAssignor>> {
    match name {
        "range" => Some(Box::new(range::RangeAssignor::default())),
        "roundrobin" => Some(Box::new(roundrobin::RoundRobinAssignor)),
        "sticky" => Some(Box::new(sticky::StickyAssignor::sticky())),
        "cooperative-sticky" => Some(Box::new(sticky::StickyAssignor::cooperative())),
        unsafe_duplicate::NAME => Some(Box::new(unsafe_duplicate::UnsafeDuplicateAssignor)),
        _ => None,
    }
}
