//! Scenarios as data: the cluster, topics, groups and a fault script (serde JSON).

use super::config::{BrokerConfig, ConsumerConfig, NetworkConfig};
use super::fault::Fault;
use super::types::Millis;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    pub name: String,
    pub partitions: u32,
    /// Records produced to each partition per simulated second.
    #[serde(default = "default_rate", rename = "recordsPerSec")]
    pub records_per_sec: u64,
}

fn default_rate() -> u64 {
    10
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    #[serde(rename = "groupId")]
    pub group_id: String,
    /// Number of consumers started in this group.
    pub consumers: u32,
    /// Config shared by the group's consumers.
    #[serde(default)]
    pub config: ConsumerConfig,
    /// Give each consumer `group.instance.id` = `<groupId>-<n>` (static membership).
    #[serde(default, rename = "staticMembers")]
    pub static_members: bool,
    /// Consumers start this many ms apart.
    #[serde(default = "default_stagger", rename = "startStaggerMs")]
    pub start_stagger_ms: Millis,
}

fn default_stagger() -> Millis {
    300
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduledFault {
    pub at: Millis,
    pub fault: Fault,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub seed: u64,
    #[serde(default = "default_brokers")]
    pub brokers: u32,
    #[serde(default)]
    pub broker: BrokerConfig,
    #[serde(default)]
    pub network: NetworkConfig,
    #[serde(default)]
    pub topics: Vec<TopicSpec>,
    #[serde(default)]
    pub groups: Vec<GroupSpec>,
    #[serde(default)]
    pub faults: Vec<ScheduledFault>,
    /// Kafka Connect clusters (distributed workers in groups of protocol type "connect").
    #[serde(default, rename = "connectClusters", skip_serializing_if = "Vec::is_empty")]
    pub connect_clusters: Vec<super::connect_config::ConnectClusterSpec>,
}

fn default_brokers() -> u32 {
    3
}

/// Largest total number of consumers a scenario may start (the UI stays usable).
pub const MAX_CONSUMERS: u32 = 500;
/// Largest number of partitions over all topics.
pub const MAX_PARTITIONS: u32 = 10_000;

impl Scenario {
    /// The scenario the page opens with: 3 brokers, `orders` with 6 partitions,
    /// 3 consumers in group `demo`, with a short session timeout for the demo.
    pub fn demo() -> Scenario {
        let config = ConsumerConfig {
            session_timeout_ms: 6000,
            heartbeat_interval_ms: 2000,
            topics: vec!["orders".into()],
            auto_offset_reset: super::config::AutoOffsetReset::Earliest,
            ..ConsumerConfig::default()
        };
        Scenario {
            name: "demo".into(),
            seed: 1,
            brokers: 3,
            broker: BrokerConfig::default(),
            network: NetworkConfig::default(),
            topics: vec![TopicSpec { name: "orders".into(), partitions: 6, records_per_sec: 10 }],
            groups: vec![GroupSpec {
                group_id: "demo".into(),
                consumers: 3,
                config,
                static_members: false,
                start_stagger_ms: 300,
            }],
            faults: Vec::new(),
            connect_clusters: Vec::new(),
        }
    }

    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let s: Scenario = serde_json::from_str(text).map_err(|e| format!("scenario JSON: {e}"))?;
        s.validate()?;
        Ok(s)
    }

    /// Rejects what Kafka itself rejects at construction, and what the simulator
    /// cannot show; each message names the field and why.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=9).contains(&self.brokers) {
            return Err(format!("brokers: {} is outside 1..=9", self.brokers));
        }
        let np = self.broker.offsets_topic_num_partitions;
        if !(1..=1000).contains(&np) {
            return Err(format!("broker.offsets.topic.num.partitions: {np} is outside 1..=1000"));
        }
        self.broker.validate_consumer_group()?;
        if let Some(a) = self.broker.consumer_group_assignors.iter().find(|a| crate::assign::server_assignor(a).is_none()) {
            return Err(format!("broker.group.consumer.assignors: unknown server assignor '{a}' (uniform, range)"));
        }
        let mut total_partitions = 0u32;
        for t in &self.topics {
            if t.name.is_empty() || t.name.starts_with("__") {
                return Err(format!("topics: invalid topic name '{}'", t.name));
            }
            if t.partitions == 0 {
                return Err(format!("topics.{}.partitions: must be at least 1", t.name));
            }
            total_partitions = total_partitions.saturating_add(t.partitions);
        }
        if total_partitions > MAX_PARTITIONS {
            return Err(format!("topics: {total_partitions} partitions in all; the simulator shows at most {MAX_PARTITIONS}"));
        }
        let total: u32 = self.groups.iter().map(|g| g.consumers).fold(0, u32::saturating_add);
        if total > MAX_CONSUMERS {
            return Err(format!("groups: {total} consumers in all; the simulator runs at most {MAX_CONSUMERS}"));
        }
        for g in &self.groups {
            let c = &g.config;
            if c.heartbeat_interval_ms >= c.session_timeout_ms {
                return Err(format!(
                    "groups.{}.config: heartbeat.interval.ms ({}) must be lower than session.timeout.ms ({}), as Kafka's Heartbeat requires",
                    g.group_id, c.heartbeat_interval_ms, c.session_timeout_ms
                ));
            }
            if c.heartbeat_interval_ms == 0 || c.max_poll_interval_ms == 0 || c.max_poll_records == 0 {
                return Err(format!("groups.{}.config: intervals and max.poll.records must be positive", g.group_id));
            }
            if c.assignors.is_empty() {
                return Err(format!("groups.{}.config: partition.assignment.strategy is empty", g.group_id));
            }
            for a in &c.assignors {
                if !crate::assign::is_known_client_assignor(a) {
                    return Err(format!("groups.{}.config: unknown assignor '{a}'", g.group_id));
                }
            }
        }
        let workers: u32 = self.connect_clusters.iter().map(|c| c.workers).fold(0, u32::saturating_add);
        if workers > super::connect_config::MAX_WORKERS {
            return Err(format!("connectClusters: {workers} workers in all; the simulator runs at most {}", super::connect_config::MAX_WORKERS));
        }
        let mut ids: std::collections::BTreeSet<&str> = self.groups.iter().map(|g| g.group_id.as_str()).collect();
        for c in &self.connect_clusters {
            if !ids.insert(c.group_id.as_str()) {
                return Err(format!("connectClusters.{}: the group id is already used by another group", c.group_id));
            }
            c.validate()?;
        }
        Ok(())
    }
}
