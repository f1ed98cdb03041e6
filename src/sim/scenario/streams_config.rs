//! Kafka Streams applications in a scenario (KIP-1071 streams groups,
//! `group.protocol=streams`): the application's instances (`KafkaStreams`,
//! one process id each) and their stream threads (one group member each),
//! the topology every instance sends on join, the group's own configs
//! (`streams.*` group configs, defaulting to the brokers' `group.streams.*`),
//! and what the simulated instances do: how long a revoked task takes to
//! commit and close, and how fast a state store restores from its changelog.

use crate::sim::streams_message::{StreamsGroupConfig, StreamsTopology};
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};

/// One Kafka Streams application (its `application.id` is the group id)
/// and the instances this entry starts. Two entries with the same
/// `applicationId` are one group (a redeploy with another topology is one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamsAppSpec {
    #[serde(rename = "applicationId")]
    pub application_id: String,
    /// `KafkaStreams` instances started by this entry.
    pub instances: u32,
    /// `num.stream.threads`: members per instance.
    #[serde(default = "one", rename = "threadsPerInstance")]
    pub threads_per_instance: u32,
    pub topology: StreamsTopology,
    /// The group's configs (`kafka-configs.sh --entity-type groups`); give them once per application.
    #[serde(default)]
    pub config: StreamsGroupConfig,
    #[serde(default)]
    pub instance: StreamsInstanceConfig,
    /// When the first instance starts.
    #[serde(default, rename = "startAtMs")]
    pub start_at_ms: Millis,
    /// Instances start this many ms apart.
    #[serde(default = "default_stagger", rename = "startStaggerMs")]
    pub start_stagger_ms: Millis,
}

fn one() -> u32 {
    1
}

fn default_stagger() -> Millis {
    300
}

/// An instance's configuration (`StreamsConfig`) and its simulated work.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StreamsInstanceConfig {
    /// `group.instance.id` (static membership, Kafka 4.4 for streams
    /// groups): thread n of instance i uses `<id>-<i>-<n>`.
    #[serde(rename = "group.instance.id", skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
    /// Sent as the member's rebalance timeout.
    #[serde(rename = "max.poll.interval.ms")]
    pub max_poll_interval_ms: Millis,
    /// How long `onTasksRevoked` takes: committing and closing the revoked tasks.
    #[serde(rename = "onTasksRevokedMs")]
    pub on_tasks_revoked_ms: Millis,
    /// Records in each task's changelog: what a task without local state restores.
    #[serde(rename = "changelogRecordsPerTask")]
    pub changelog_records_per_task: i64,
    /// Restoration speed.
    #[serde(rename = "restoreRecordsPerSecond")]
    pub restore_records_per_second: i64,
    /// `group.protocol`: `streams` (a KIP-1071 streams group, this format's
    /// default) or `classic` (Kafka Streams' own default: JoinGroup/SyncGroup
    /// with the leader's `StreamsPartitionAssignor`). The configs below are
    /// read only under `classic` (a streams group ignores them, as Kafka does).
    #[serde(rename = "group.protocol", skip_serializing_if = "is_default")]
    pub group_protocol: StreamsGroupProtocol,
    /// `num.standby.replicas` (classic; a streams group takes the group config).
    #[serde(rename = "num.standby.replicas", skip_serializing_if = "is_default")]
    pub num_standby_replicas: i32,
    /// `acceptable.recovery.lag`: a client this close to a task's changelog end is caught up.
    #[serde(rename = "acceptable.recovery.lag", skip_serializing_if = "is_default_recovery_lag")]
    pub acceptable_recovery_lag: i64,
    /// `max.warmup.replicas`: warm-up standbys at once, in the whole application.
    #[serde(rename = "max.warmup.replicas", skip_serializing_if = "is_default_warmups")]
    pub max_warmup_replicas: i32,
    /// `probing.rebalance.interval.ms` (at least 60000).
    #[serde(rename = "probing.rebalance.interval.ms", skip_serializing_if = "is_default_probing")]
    pub probing_rebalance_interval_ms: Millis,
    /// The thread's consumer's `session.timeout.ms` (classic).
    #[serde(rename = "session.timeout.ms", skip_serializing_if = "is_default_session")]
    pub session_timeout_ms: Millis,
    /// The thread's consumer's `heartbeat.interval.ms` (classic).
    #[serde(rename = "heartbeat.interval.ms", skip_serializing_if = "is_default_heartbeat")]
    pub heartbeat_interval_ms: Millis,
}

/// `StreamsConfig.GROUP_PROTOCOL_CONFIG`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StreamsGroupProtocol {
    #[default]
    Streams,
    Classic,
}

/// `acceptable.recovery.lag`'s default.
pub const ACCEPTABLE_RECOVERY_LAG: i64 = 10_000;
/// `max.warmup.replicas`'s default.
pub const MAX_WARMUP_REPLICAS: i32 = 2;
/// `probing.rebalance.interval.ms`'s default (10 minutes) and its least value.
pub const PROBING_REBALANCE_INTERVAL_MS: Millis = 600_000;
pub const MIN_PROBING_REBALANCE_INTERVAL_MS: Millis = 60_000;
/// The consumer's `session.timeout.ms` and `heartbeat.interval.ms` defaults.
pub const CLASSIC_SESSION_TIMEOUT_MS: Millis = 45_000;
pub const CLASSIC_HEARTBEAT_INTERVAL_MS: Millis = 3_000;

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
fn is_default_recovery_lag(v: &i64) -> bool {
    *v == ACCEPTABLE_RECOVERY_LAG
}
fn is_default_warmups(v: &i32) -> bool {
    *v == MAX_WARMUP_REPLICAS
}
fn is_default_probing(v: &Millis) -> bool {
    *v == PROBING_REBALANCE_INTERVAL_MS
}
fn is_default_session(v: &Millis) -> bool {
    *v == CLASSIC_SESSION_TIMEOUT_MS
}
fn is_default_heartbeat(v: &Millis) -> bool {
    *v == CLASSIC_HEARTBEAT_INTERVAL_MS
}

impl Default for StreamsInstanceConfig {
    fn default() -> Self {
        StreamsInstanceConfig {
            group_instance_id: None,
            max_poll_interval_ms: 300_000,
            on_tasks_revoked_ms: 20,
            changelog_records_per_task: 50_000,
            restore_records_per_second: 10_000,
            group_protocol: StreamsGroupProtocol::Streams,
            num_standby_replicas: 0,
            acceptable_recovery_lag: ACCEPTABLE_RECOVERY_LAG,
            max_warmup_replicas: MAX_WARMUP_REPLICAS,
            probing_rebalance_interval_ms: PROBING_REBALANCE_INTERVAL_MS,
            session_timeout_ms: CLASSIC_SESSION_TIMEOUT_MS,
            heartbeat_interval_ms: CLASSIC_HEARTBEAT_INTERVAL_MS,
        }
    }
}

impl StreamsAppSpec {
    /// The entry's own checks: counts, ids and the topology's shape.
    pub fn validate(&self) -> Result<(), String> {
        let app = &self.application_id;
        if app.is_empty() {
            return Err("a Streams application needs an applicationId".into());
        }
        if self.threads_per_instance == 0 || self.threads_per_instance > 32 {
            return Err(format!("{app}: threadsPerInstance is {}; give 1 to 32", self.threads_per_instance));
        }
        if self.topology.subtopologies.is_empty() {
            return Err(format!("{app}: the topology has no subtopology"));
        }
        let mut ids = std::collections::BTreeSet::new();
        for s in &self.topology.subtopologies {
            if !ids.insert(&s.subtopology_id) {
                return Err(format!("{app}: subtopology {} appears twice", s.subtopology_id));
            }
            if s.source_topics.is_empty() && s.repartition_source_topics.is_empty() {
                return Err(format!("{app}: subtopology {} reads no topic", s.subtopology_id));
            }
        }
        if self.instance.restore_records_per_second <= 0 || self.instance.changelog_records_per_task < 0 {
            return Err(format!(
                "{app}: restoreRecordsPerSecond must be positive and changelogRecordsPerTask not negative"
            ));
        }
        self.instance.validate_classic().map_err(|e| format!("{app}: {e}"))?;
        self.config.validate().map_err(|e| format!("{app}: {e}"))
    }
}

impl StreamsInstanceConfig {
    /// `StreamsConfig`'s bounds on the classic rebalancing configs.
    fn validate_classic(&self) -> Result<(), String> {
        if self.group_protocol != StreamsGroupProtocol::Classic {
            return Ok(());
        }
        if self.probing_rebalance_interval_ms < MIN_PROBING_REBALANCE_INTERVAL_MS {
            return Err(format!(
                "probing.rebalance.interval.ms is {}; Kafka Streams needs at least {MIN_PROBING_REBALANCE_INTERVAL_MS}",
                self.probing_rebalance_interval_ms
            ));
        }
        if self.max_warmup_replicas < 1 || self.num_standby_replicas < 0 || self.acceptable_recovery_lag < 0 {
            return Err(
                "max.warmup.replicas must be at least 1, num.standby.replicas and acceptable.recovery.lag not negative"
                    .into(),
            );
        }
        if self.heartbeat_interval_ms == 0 || self.heartbeat_interval_ms >= self.session_timeout_ms {
            return Err(format!(
                "heartbeat.interval.ms ({}) must be positive and below session.timeout.ms ({})",
                self.heartbeat_interval_ms, self.session_timeout_ms
            ));
        }
        Ok(())
    }
}
