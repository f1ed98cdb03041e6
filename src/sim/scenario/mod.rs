//! Scenarios as data: the cluster, topics, groups and a fault script (serde JSON).

pub mod config;
pub mod connect_config;
pub mod limits;
pub mod share_config;
pub mod streams_config;
pub mod validate;

use crate::sim::fault::Fault;
use crate::sim::scenario::config::{BrokerConfig, ConsumerConfig, NetworkConfig};
use crate::sim::types::Millis;
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
    pub connect_clusters: Vec<crate::sim::scenario::connect_config::ConnectClusterSpec>,
    /// Share groups (KIP-932) and their share consumers.
    #[serde(default, rename = "shareGroups", skip_serializing_if = "Vec::is_empty")]
    pub share_groups: Vec<crate::sim::scenario::share_config::ShareGroupSpec>,
    /// Kafka Streams applications in streams groups (KIP-1071).
    #[serde(default, rename = "streamsApps", skip_serializing_if = "Vec::is_empty")]
    pub streams_apps: Vec<crate::sim::scenario::streams_config::StreamsAppSpec>,
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
            auto_offset_reset: crate::sim::scenario::config::AutoOffsetReset::Earliest,
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
            share_groups: Vec::new(),
            streams_apps: Vec::new(),
        }
    }

    /// Every group's id: the consumer groups, the share groups, then the Connect clusters.
    pub fn group_ids(&self) -> impl Iterator<Item = &String> + '_ {
        self.groups
            .iter()
            .map(|g| &g.group_id)
            .chain(self.share_groups.iter().map(|g| &g.group_id))
            .chain(self.streams_app_ids())
            .chain(self.connect_clusters.iter().map(|c| &c.group_id))
    }

    /// Each Streams application's id once (several entries may share one).
    pub fn streams_app_ids(&self) -> impl Iterator<Item = &String> + '_ {
        self.streams_apps
            .iter()
            .enumerate()
            .filter(|(i, a)| !self.streams_apps[..*i].iter().any(|b| b.application_id == a.application_id))
            .map(|(_, a)| &a.application_id)
    }

    /// Reads a scenario's JSON (an object; an error names the field's path) and validates it.
    pub fn from_json(text: &str) -> Result<Scenario, String> {
        let s: Scenario = crate::json::from_str_object(text).map_err(|e| format!("scenario JSON: {e}"))?;
        s.validate()?;
        Ok(s)
    }
}
