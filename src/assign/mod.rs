//! Partition assignors, bit-identical to Kafka's own.
//!
//! Client-side assignors (classic protocol) run in the group leader and mirror
//! `org.apache.kafka.clients.consumer.ConsumerPartitionAssignor`; server-side
//! assignors (KIP-848) run in the coordinator and mirror
//! `org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

pub mod range;

/// A topic partition, printed and parsed as Kafka prints it: `topic-partition`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TopicPartition {
    pub topic: String,
    pub partition: i32,
}

impl TopicPartition {
    pub fn new(topic: impl Into<String>, partition: i32) -> Self {
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
        let (topic, p) = s
            .rsplit_once('-')
            .ok_or_else(|| format!("'{s}' is not a topic-partition (expected e.g. orders-3)"))?;
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
}

/// The names of Kafka's built-in client assignors (`partition.assignment.strategy`).
pub const CLIENT_ASSIGNORS: [&str; 4] = ["range", "roundrobin", "sticky", "cooperative-sticky"];

/// The client assignor Kafka registers under `name`, if any.
pub fn client_assignor(name: &str) -> Option<Box<dyn ClientAssignor>> {
    match name {
        "range" => Some(Box::new(range::RangeAssignor)),
        _ => None,
    }
}
