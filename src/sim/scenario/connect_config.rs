//! Connect worker configs (DistributedConfig, Kafka's names and defaults) and
//! the scenario's `connectClusters` section.

use crate::connect::{ConfigSnapshot, ConnectProtocolCompatibility};
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};

/// The group-related configs of a distributed worker (DistributedConfig L180-192, L314-327).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkerConfig {
    #[serde(rename = "session.timeout.ms")]
    pub session_timeout_ms: Millis,
    #[serde(rename = "heartbeat.interval.ms")]
    pub heartbeat_interval_ms: Millis,
    #[serde(rename = "rebalance.timeout.ms")]
    pub rebalance_timeout_ms: Millis,
    #[serde(rename = "connect.protocol")]
    pub connect_protocol: ConnectProtocolCompatibility,
    #[serde(rename = "scheduled.rebalance.max.delay.ms")]
    pub scheduled_rebalance_max_delay_ms: Millis,
    #[serde(rename = "retry.backoff.ms")]
    pub retry_backoff_ms: Millis,
    #[serde(rename = "retry.backoff.max.ms")]
    pub retry_backoff_max_ms: Millis,
    #[serde(rename = "request.timeout.ms")]
    pub request_timeout_ms: Millis,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        WorkerConfig {
            session_timeout_ms: 10_000,
            heartbeat_interval_ms: 3_000,
            rebalance_timeout_ms: 60_000,
            connect_protocol: ConnectProtocolCompatibility::SESSIONED,
            scheduled_rebalance_max_delay_ms: 300_000,
            retry_backoff_ms: 100,
            retry_backoff_max_ms: 1_000,
            request_timeout_ms: 40_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectorSpec {
    pub name: String,
    /// `tasks.max`, and the number of tasks the connector creates.
    pub tasks: u32,
}

/// One Connect cluster: a group of distributed workers running connectors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectClusterSpec {
    /// `group.id` of the workers.
    #[serde(rename = "groupId")]
    pub group_id: String,
    /// Number of workers started.
    pub workers: u32,
    #[serde(default)]
    pub connectors: Vec<ConnectorSpec>,
    #[serde(default)]
    pub config: WorkerConfig,
    /// `connect.protocol` of individual workers (the first ones), overriding `config`.
    #[serde(default, rename = "workerProtocols")]
    pub worker_protocols: Vec<ConnectProtocolCompatibility>,
    #[serde(default = "default_stagger", rename = "startStaggerMs")]
    pub start_stagger_ms: Millis,
}

fn default_stagger() -> Millis {
    300
}

/// Largest number of workers over all Connect clusters.
pub const MAX_WORKERS: u32 = 100;
/// Largest number of tasks of one connector.
pub const MAX_TASKS: u32 = 1_000;

impl ConnectClusterSpec {
    /// The config topic's content: one connector record and one record per task.
    pub fn config_snapshot(&self) -> ConfigSnapshot {
        let connectors = self.connectors.iter().map(|c| (c.name.clone(), c.tasks)).collect();
        let offset = self.connectors.iter().map(|c| 1 + i64::from(c.tasks)).sum();
        ConfigSnapshot { offset, connectors }
    }

    /// The worker config of the k-th worker (0-based).
    pub fn worker_config(&self, k: usize) -> WorkerConfig {
        let mut c = self.config.clone();
        if let Some(p) = self.worker_protocols.get(k) {
            c.connect_protocol = *p;
        }
        c
    }

    /// What DistributedConfig and the scenario format reject, naming the field
    /// by its path inside the cluster's entry (the caller adds `connectClusters[i]`).
    pub fn validate(&self) -> Result<(), String> {
        use crate::sim::scenario::limits::{in_range, kafka_int, name, MAX_NAME_LEN, MAX_SIM_DURATION_MS};
        let c = &self.config;
        // DistributedConfig: every one of these is an `int` config, except the backoffs (`long`).
        kafka_int("config.session.timeout.ms", c.session_timeout_ms, 1)?;
        kafka_int("config.heartbeat.interval.ms", c.heartbeat_interval_ms, 1)?;
        kafka_int("config.rebalance.timeout.ms", c.rebalance_timeout_ms, 1)?;
        kafka_int("config.scheduled.rebalance.max.delay.ms", c.scheduled_rebalance_max_delay_ms, 0)?;
        kafka_int("config.request.timeout.ms", c.request_timeout_ms, 1)?;
        in_range("config.retry.backoff.ms", c.retry_backoff_ms, 1, MAX_SIM_DURATION_MS, "a simulated day")?;
        in_range("config.retry.backoff.max.ms", c.retry_backoff_max_ms, 1, MAX_SIM_DURATION_MS, "a simulated day")?;
        in_range(
            "startStaggerMs",
            self.start_stagger_ms,
            0,
            MAX_SIM_DURATION_MS / u64::from(self.workers.max(1)),
            "all workers start within a simulated day",
        )?;
        if c.heartbeat_interval_ms >= c.session_timeout_ms {
            return Err(format!(
                "config.heartbeat.interval.ms: {} must be lower than session.timeout.ms ({})",
                c.heartbeat_interval_ms, c.session_timeout_ms
            ));
        }
        if self.worker_protocols.len() > self.workers as usize {
            return Err(format!(
                "workerProtocols: {} entries for {} workers",
                self.worker_protocols.len(),
                self.workers
            ));
        }
        let mut names = std::collections::BTreeSet::new();
        for (i, con) in self.connectors.iter().enumerate() {
            name(&format!("connectors[{i}].name"), &con.name, MAX_NAME_LEN)?;
            if !names.insert(con.name.as_str()) {
                return Err(format!("connectors[{i}].name: the connector name '{}' is repeated", con.name));
            }
            if con.tasks > MAX_TASKS {
                return Err(format!("connectors[{i}].tasks: {} is more than {MAX_TASKS}", con.tasks));
            }
        }
        Ok(())
    }
}
