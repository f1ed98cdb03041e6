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
}

impl Default for StreamsInstanceConfig {
    fn default() -> Self {
        StreamsInstanceConfig {
            group_instance_id: None,
            max_poll_interval_ms: 300_000,
            on_tasks_revoked_ms: 20,
            changelog_records_per_task: 50_000,
            restore_records_per_second: 10_000,
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
        self.config.validate().map_err(|e| format!("{app}: {e}"))
    }
}
