//! Cluster metadata (which broker leads which partition), the replicated
//! `__consumer_offsets` logs, the topic logs consumers read, and run statistics.

use super::types::Millis;
use crate::assign::TopicPartition;
use crate::java;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionMeta {
    pub leader: Option<u32>,
    pub replicas: Vec<u32>,
}

/// A member as a `GroupMetadataValue` record stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersistedMember {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub client_id: String,
    pub session_timeout_ms: Millis,
    pub rebalance_timeout_ms: Millis,
    pub protocols: Vec<super::message::JoinProtocol>,
    pub assignment: Vec<TopicPartition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect_assignment: Option<crate::connect::ConnectAssignment>,
}

/// Records of a `__consumer_offsets` partition (classic groups and offsets).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoordinatorRecord {
    GroupMetadata {
        group_id: String,
        generation_id: i32,
        protocol_type: Option<String>,
        protocol_name: Option<String>,
        leader: Option<String>,
        members: Vec<PersistedMember>,
    },
    OffsetCommit { group_id: String, partition: TopicPartition, offset: i64 },
    /// The records of a consumer group (KIP-848).
    ConsumerGroup(super::consumer_group_records::ConsumerGroupRecord),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicPartitionState {
    pub leader: Option<u32>,
    pub replicas: Vec<u32>,
    /// Log end offset: the next offset a producer will write.
    pub end_offset: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Topic {
    pub partitions: Vec<TopicPartitionState>,
    /// Records appended to each partition per simulated second.
    pub records_per_sec: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Highest offset (exclusive) processed so far per (group, partition).
    pub processed_until: BTreeMap<(String, TopicPartition), i64>,
    /// Records processed more than once per (group, partition).
    pub redelivered: BTreeMap<(String, TopicPartition), i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cluster {
    pub broker_count: u32,
    pub alive: BTreeSet<u32>,
    pub offsets_partitions: Vec<PartitionMeta>,
    pub offsets_logs: Vec<super::record_log::RecordLog<CoordinatorRecord>>,
    pub topics: BTreeMap<String, Topic>,
    pub stats: Stats,
}

/// Replica placement: partition p of a topic starts at broker (p + offset) mod n
/// (Kafka randomises the start; a fixed start keeps pictures stable).
fn replicas_for(p: u32, offset: u32, brokers: u32, rf: u32) -> Vec<u32> {
    (0..rf.min(brokers).max(1)).map(|i| (p + offset + i) % brokers).collect()
}

impl Cluster {
    pub fn new(broker_count: u32, offsets_partitions: u32, rf: u32) -> Cluster {
        let offsets_partitions = (0..offsets_partitions)
            .map(|p| {
                let replicas = replicas_for(p, 0, broker_count, rf);
                PartitionMeta { leader: replicas.first().copied(), replicas }
            })
            .collect::<Vec<_>>();
        Cluster {
            broker_count,
            alive: (0..broker_count).collect(),
            offsets_logs: vec![Default::default(); offsets_partitions.len()],
            offsets_partitions,
            topics: BTreeMap::new(),
            stats: Stats::default(),
        }
    }

    pub fn add_topic(&mut self, name: &str, partitions: u32, records_per_sec: u64) {
        self.topics.insert(name.to_string(), Topic { partitions: Vec::new(), records_per_sec });
        self.add_partitions(name, partitions);
    }

    /// Grows `topic` to `count` partitions (new ones led by their first live
    /// replica); false if there is no such topic.
    pub fn add_partitions(&mut self, topic: &str, count: u32) -> bool {
        let (n, alive) = (self.broker_count, &self.alive);
        let offset = java::kafka_abs(java::string_hash(topic)) as u32;
        let Some(t) = self.topics.get_mut(topic) else { return false };
        for p in t.partitions.len() as u32..count {
            let replicas = replicas_for(p, offset, n, 3);
            let leader = replicas.iter().copied().find(|r| alive.contains(r));
            t.partitions.push(TopicPartitionState { leader, replicas, end_offset: 0 });
        }
        true
    }

    /// `abs(javaHash(group.id)) % offsets.topic.num.partitions` (A1).
    pub fn offsets_partition_for(&self, group_id: &str) -> u32 {
        (java::kafka_abs(java::string_hash(group_id)) as u32) % self.offsets_partitions.len() as u32
    }

    /// The broker that coordinates `group_id`: the leader of its offsets partition.
    pub fn coordinator_for(&self, group_id: &str) -> Option<u32> {
        self.offsets_partitions[self.offsets_partition_for(group_id) as usize].leader
    }

    pub fn partition_count(&self, topic: &str) -> i32 {
        self.topics.get(topic).map_or(0, |t| t.partitions.len() as i32)
    }

    pub fn end_offset(&self, tp: &TopicPartition) -> i64 {
        self.topics
            .get(&tp.topic)
            .and_then(|t| t.partitions.get(tp.partition as usize))
            .map_or(0, |p| p.end_offset)
    }

    /// The producers append `records_per_sec` to every partition, spread evenly.
    pub fn produce(&mut self, from: Millis, to: Millis) {
        for topic in self.topics.values_mut() {
            let r = topic.records_per_sec;
            let added = (to * r / 1000) as i64 - (from * r / 1000) as i64;
            for p in &mut topic.partitions {
                p.end_offset += added;
            }
        }
    }

    /// Moves leadership of every partition led by a dead broker to its first
    /// live replica. Returns the `__consumer_offsets` partitions that changed leader.
    pub fn elect_leaders(&mut self) -> Vec<(u32, Option<u32>)> {
        let alive = self.alive.clone();
        // A live leader keeps its partition; otherwise the first live replica takes it.
        let elect = |leader: Option<u32>, replicas: &[u32]| {
            leader.filter(|l| alive.contains(l)).or_else(|| replicas.iter().copied().find(|r| alive.contains(r)))
        };
        let mut changed = Vec::new();
        for (p, meta) in self.offsets_partitions.iter_mut().enumerate() {
            let new = elect(meta.leader, &meta.replicas);
            if new != meta.leader {
                meta.leader = new;
                changed.push((p as u32, new));
            }
        }
        for part in self.topics.values_mut().flat_map(|t| t.partitions.iter_mut()) {
            part.leader = elect(part.leader, &part.replicas);
        }
        changed
    }

    /// Records that `group` processed offsets [from, to) of `tp`; returns how
    /// many of them had already been processed before (redeliveries).
    pub fn record_processed(&mut self, group: &str, tp: &TopicPartition, from: i64, to: i64) -> i64 {
        let key = (group.to_string(), tp.clone());
        let until = self.stats.processed_until.entry(key.clone()).or_insert(0);
        let again = (to.min(*until) - from).max(0);
        *until = (*until).max(to);
        if again > 0 {
            *self.stats.redelivered.entry(key).or_insert(0) += again;
        }
        again
    }
}
