//! Cluster metadata (which broker leads which partition), the replicated
//! `__consumer_offsets` logs, the topic logs consumers read, and run statistics.

pub mod broker;
pub mod broker_fetch;
pub mod record_key;
pub mod record_log;
pub mod share_fetch;
pub mod share_partition;
pub mod share_state;
pub mod stats;

pub use stats::{PerPartition, Stats};

use crate::assign::TopicPartition;
use crate::java;
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionMeta {
    pub leader: Option<u32>,
    pub replicas: Vec<u32>,
    /// The in-sync replicas: only they may become leader (unclean.leader.election.enable=false).
    #[serde(default)]
    pub isr: Vec<u32>,
    /// Eligible leader replicas (KIP-966, on by default for new clusters since 4.1).
    #[serde(default)]
    pub elr: Vec<u32>,
}

/// A member as a `GroupMetadataValue` record stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersistedMember {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub client_id: String,
    pub session_timeout_ms: Millis,
    pub rebalance_timeout_ms: Millis,
    pub protocols: Vec<crate::sim::message::JoinProtocol>,
    pub assignment: Vec<TopicPartition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect_assignment: Option<crate::connect::ConnectAssignment>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streams_assignment: Option<crate::sim::streams_message::StreamsAssignmentInfo>,
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
    OffsetCommit {
        group_id: String,
        partition: TopicPartition,
        offset: i64,
    },
    /// The records of a consumer group (KIP-848).
    ConsumerGroup(crate::sim::coordinator::consumer::records::ConsumerGroupRecord),
    /// The records of a share group (KIP-932).
    ShareGroup(crate::sim::coordinator::share::records::ShareGroupRecord),
    StreamsGroup(crate::sim::coordinator::streams::records::StreamsGroupRecord),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicPartitionState {
    pub leader: Option<u32>,
    pub replicas: Vec<u32>,
    #[serde(default)]
    pub isr: Vec<u32>,
    #[serde(default)]
    pub elr: Vec<u32>,
    /// Log end offset: the next offset a producer will write.
    pub end_offset: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Topic {
    pub partitions: Vec<TopicPartitionState>,
    /// Records appended to each partition per simulated second.
    pub records_per_sec: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cluster {
    pub broker_count: u32,
    /// Brokers the controller holds registered and unfenced: the metadata every
    /// broker answers from. A crashed broker stays here until its session times
    /// out (`broker.session.timeout.ms`).
    pub alive: BTreeSet<u32>,
    /// Brokers in controlled shutdown: they may not become leader.
    #[serde(default)]
    pub shutting_down: BTreeSet<u32>,
    pub offsets_partitions: Vec<PartitionMeta>,
    pub offsets_logs: Vec<crate::sim::cluster::record_log::RecordLog<CoordinatorRecord>>,
    pub topics: BTreeMap<String, Topic>,
    pub stats: Stats,
    /// `__share_group_state`: every share-partition's durable state (KIP-932).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub share_state: share_state::ShareStates,
    /// Share groups' dynamic configs (`GroupConfig`, kept in the cluster
    /// metadata), by group id; a group without an entry has the defaults.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub share_group_configs: BTreeMap<String, crate::sim::scenario::share_config::ShareGroupConfig>,
    /// Streams groups' dynamic configs, by group id (defaults: the brokers' `group.streams.*`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub streams_group_configs: BTreeMap<String, crate::sim::streams_message::StreamsGroupConfig>,
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
                PartitionMeta { leader: replicas.first().copied(), isr: replicas.clone(), elr: Vec::new(), replicas }
            })
            .collect::<Vec<_>>();
        Cluster {
            broker_count,
            alive: (0..broker_count).collect(),
            shutting_down: BTreeSet::new(),
            offsets_logs: vec![Default::default(); offsets_partitions.len()],
            offsets_partitions,
            topics: BTreeMap::new(),
            stats: Stats::default(),
            share_state: BTreeMap::new(),
            share_group_configs: BTreeMap::new(),
            streams_group_configs: BTreeMap::new(),
        }
    }

    /// A share group's configs: its own, or the brokers' defaults.
    pub fn share_group_config(&self, group_id: &str) -> crate::sim::scenario::share_config::ShareGroupConfig {
        self.share_group_configs.get(group_id).cloned().unwrap_or_default()
    }

    /// A streams group's configs: its own, or the brokers' defaults.
    pub fn streams_group_config(&self, group_id: &str) -> crate::sim::streams_message::StreamsGroupConfig {
        self.streams_group_configs.get(group_id).cloned().unwrap_or_default()
    }

    /// The leader of a data partition, if the topic and partition exist.
    pub fn partition_leader(&self, tp: &TopicPartition) -> Option<Option<u32>> {
        self.topics.get(tp.topic.as_str()).and_then(|t| t.partitions.get(tp.partition as usize)).map(|s| s.leader)
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
            let isr: Vec<u32> = replicas.iter().copied().filter(|r| alive.contains(r)).collect();
            t.partitions.push(TopicPartitionState {
                leader: isr.first().copied(),
                replicas,
                isr,
                elr: Vec::new(),
                end_offset: 0,
            });
        }
        true
    }

    /// `abs(javaHash(group.id)) % offsets.topic.num.partitions` (GroupCoordinatorService `partitionFor`).
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

    /// The leader of a topic partition (`None`: offline or unknown).
    pub fn leader_of(&self, tp: &TopicPartition) -> Option<u32> {
        self.topics.get(tp.topic.as_str()).and_then(|t| t.partitions.get(tp.partition as usize)).and_then(|p| p.leader)
    }

    pub fn end_offset(&self, tp: &TopicPartition) -> i64 {
        self.topics
            .get(tp.topic.as_str())
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

    /// The controller fences `broker` (its session timed out, it finished a
    /// controlled shutdown, or it re-registered after a restart): it leaves every
    /// ISR and the partitions it led elect new leaders (`handleBrokerFenced`).
    /// Returns the `__consumer_offsets` partitions whose leader changed.
    pub fn fence(&mut self, broker: u32) -> Vec<LeaderChange> {
        self.alive.remove(&broker);
        self.shutting_down.remove(&broker);
        self.for_each_partition(|mut r| r.remove_from_isr(broker));
        self.elect_leaders()
    }

    /// `handleBrokerInControlledShutdown`: the broker may no longer lead, so
    /// leadership moves to another in-sync replica first and the broker leaves
    /// the ISR; a partition with no other eligible replica keeps it as leader
    /// until it is fenced.
    pub fn begin_controlled_shutdown(&mut self, broker: u32) -> Vec<LeaderChange> {
        self.shutting_down.insert(broker);
        let usable = self.usable_brokers();
        self.for_each_partition(|mut r| {
            if r.isr.iter().any(|b| *b != broker && usable.contains(b)) {
                r.remove_from_isr(broker);
            }
        });
        self.elect_leaders()
    }

    /// The broker registered again and is unfenced: it catches up and rejoins
    /// the ISR of partitions that have a leader; offline partitions whose last
    /// in-sync replica it is elect it.
    pub fn unfence(&mut self, broker: u32) -> Vec<LeaderChange> {
        self.alive.insert(broker);
        self.elect_leaders()
    }

    /// Brokers that may lead: registered, unfenced and not in controlled
    /// shutdown (`ClusterControlManager.isActive`).
    fn usable_brokers(&self) -> BTreeSet<u32> {
        self.alive.difference(&self.shutting_down).copied().collect()
    }

    fn for_each_partition(&mut self, mut f: impl FnMut(Replication<'_>)) {
        for m in &mut self.offsets_partitions {
            f(Replication { leader: &mut m.leader, replicas: &m.replicas, isr: &mut m.isr, elr: &mut m.elr });
        }
        for p in self.topics.values_mut().flat_map(|t| t.partitions.iter_mut()) {
            f(Replication { leader: &mut p.leader, replicas: &p.replicas, isr: &mut p.isr, elr: &mut p.elr });
        }
    }

    /// Elects a leader for every partition whose leader is gone (fenced or
    /// shutting down), from the ISR, else from the ELR; live followers of a
    /// partition with a leader are back in its ISR (they catch up at once here).
    /// Returns the `__consumer_offsets` partitions whose leader changed.
    pub fn elect_leaders(&mut self) -> Vec<LeaderChange> {
        let usable = self.usable_brokers();
        let mut changed = Vec::new();
        for (p, m) in self.offsets_partitions.iter_mut().enumerate() {
            let from = m.leader;
            Replication { leader: &mut m.leader, replicas: &m.replicas, isr: &mut m.isr, elr: &mut m.elr }
                .elect(&usable);
            if m.leader != from {
                changed.push(LeaderChange { partition: p as u32, from, to: m.leader });
            }
        }
        for part in self.topics.values_mut().flat_map(|t| t.partitions.iter_mut()) {
            Replication { leader: &mut part.leader, replicas: &part.replicas, isr: &mut part.isr, elr: &mut part.elr }
                .elect(&usable);
        }
        changed
    }

    /// Whether some partition is led by another replica while its preferred
    /// one (the first of its replicas) could lead: what the controller's
    /// `imbalancedPartitions` set holds, narrowed to elections that would succeed.
    pub fn preferred_leader_electable(&self) -> bool {
        let usable = self.usable_brokers();
        let offsets = self.offsets_partitions.iter().map(|m| (m.leader, &m.replicas, &m.isr));
        let topics = self.topics.values().flat_map(|t| t.partitions.iter()).map(|p| (p.leader, &p.replicas, &p.isr));
        offsets
            .chain(topics)
            .any(|(leader, replicas, isr)| preferred_if_electable(leader, replicas, isr, &usable).is_some())
    }

    /// `ReplicationControlManager.maybeBalancePartitionLeaders`: every partition
    /// led by another replica than its preferred one is given to the preferred
    /// replica if it is in the ISR and may lead (`PartitionChangeBuilder.electPreferredLeader`);
    /// otherwise the current leader stays. Returns the `__consumer_offsets`
    /// partitions whose leader changed and, per broker that gained leadership,
    /// how many partitions it now leads again.
    pub fn elect_preferred_leaders(&mut self) -> (Vec<LeaderChange>, BTreeMap<u32, usize>) {
        let usable = self.usable_brokers();
        let mut changed = Vec::new();
        let mut moved = BTreeMap::new();
        for (p, m) in self.offsets_partitions.iter_mut().enumerate() {
            if let Some(to) = preferred_if_electable(m.leader, &m.replicas, &m.isr, &usable) {
                changed.push(LeaderChange { partition: p as u32, from: m.leader, to: Some(to) });
                m.leader = Some(to);
                *moved.entry(to).or_insert(0) += 1;
            }
        }
        for part in self.topics.values_mut().flat_map(|t| t.partitions.iter_mut()) {
            if let Some(to) = preferred_if_electable(part.leader, &part.replicas, &part.isr, &usable) {
                part.leader = Some(to);
                *moved.entry(to).or_insert(0) += 1;
            }
        }
        (changed, moved)
    }
}

/// The preferred replica of a partition that has a leader other than it, if
/// it may lead: in the ISR and registered, unfenced and not shutting down
/// (`PartitionChangeBuilder.isValidNewLeader`, `ClusterControlManager.isActive`).
/// A partition with no leader is left to the online election.
fn preferred_if_electable(leader: Option<u32>, replicas: &[u32], isr: &[u32], usable: &BTreeSet<u32>) -> Option<u32> {
    let preferred = *replicas.first()?;
    (leader.is_some() && leader != Some(preferred) && isr.contains(&preferred) && usable.contains(&preferred))
        .then_some(preferred)
}

/// A `__consumer_offsets` partition changed leader (`None`: offline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaderChange {
    pub partition: u32,
    pub from: Option<u32>,
    pub to: Option<u32>,
}

/// One partition's leader, ISR and ELR as the controller changes them
/// (ReplicationControlManager, PartitionChangeBuilder), with
/// `min.insync.replicas` = 1 and `unclean.leader.election.enable` = false.
struct Replication<'a> {
    leader: &'a mut Option<u32>,
    replicas: &'a [u32],
    isr: &'a mut Vec<u32>,
    elr: &'a mut Vec<u32>,
}

impl Replication<'_> {
    /// The broker leaves the ISR. The last in-sync replica cannot leave it
    /// empty-handed: with ELR (KIP-966) it moves to the ELR, so it may lead
    /// again when it returns; no other replica may.
    fn remove_from_isr(&mut self, broker: u32) {
        if !self.isr.contains(&broker) {
            return;
        }
        self.isr.retain(|b| *b != broker);
        if self.isr.is_empty() && !self.elr.contains(&broker) {
            self.elr.push(broker);
        }
    }

    /// Keeps a usable leader; otherwise the first usable ISR member, else the
    /// first usable ELR member (which becomes the ISR); else none (offline).
    fn elect(&mut self, usable: &BTreeSet<u32>) {
        if self.leader.is_some_and(|l| !usable.contains(&l)) {
            *self.leader = None;
        }
        if self.leader.is_none() {
            if let Some(l) = self.isr.iter().copied().find(|b| usable.contains(b)) {
                *self.leader = Some(l);
            } else if let Some(l) = self.elr.iter().copied().find(|b| usable.contains(b)) {
                *self.leader = Some(l);
                self.isr.push(l);
                self.elr.retain(|b| *b != l);
            }
        }
        if self.leader.is_some() {
            // Unfenced followers fetch from the leader and rejoin the ISR.
            let isr: Vec<u32> =
                self.replicas.iter().copied().filter(|r| self.isr.contains(r) || usable.contains(r)).collect();
            *self.isr = isr;
            self.elr.retain(|b| !usable.contains(b));
        }
    }
}
