//! The streams-group API (KIP-1071), with the fields that matter to the
//! simulation (names follow `clients/src/main/resources/common/message/`
//! `StreamsGroupHeartbeatRequest.json` and `StreamsGroupHeartbeatResponse.json`,
//! v1 in Kafka 4.4). A Kafka Streams topology, as the first heartbeat of a
//! member carries it, is also what a scenario gives (`streamsApps[].topology`).

use crate::sim::types::{Errors, Millis};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Tasks by subtopology id: the partitions of each (`TaskIds` of the
/// messages, Kafka's `Map<String, Set<Integer>>`).
pub type Tasks = BTreeMap<String, BTreeSet<i32>>;

/// Every task in `tasks`, as `subtopology_partition` (how Kafka Streams prints a `TaskId`: `0_3`).
pub fn task_names(tasks: &Tasks) -> Vec<String> {
    tasks.iter().flat_map(|(s, ps)| ps.iter().map(move |p| format!("{s}_{p}"))).collect()
}

/// `tasks` without those in `minus`.
pub fn tasks_minus(tasks: &Tasks, minus: &Tasks) -> Tasks {
    let mut left = Tasks::new();
    for (s, ps) in tasks {
        let kept: BTreeSet<i32> = ps.iter().filter(|p| !minus.get(s).is_some_and(|m| m.contains(p))).copied().collect();
        if !kept.is_empty() {
            left.insert(s.clone(), kept);
        }
    }
    left
}

/// Whether `tasks` holds task (`subtopology`, `partition`).
pub fn has_task(tasks: &Tasks, subtopology: &str, partition: i32) -> bool {
    tasks.get(subtopology).is_some_and(|ps| ps.contains(&partition))
}

/// The active, standby and warm-up tasks of a member (`TasksTuple`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TasksTuple {
    pub active: Tasks,
    pub standby: Tasks,
    pub warmup: Tasks,
}

impl TasksTuple {
    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.standby.is_empty() && self.warmup.is_empty()
    }

    /// The tasks of `self` that `other` does not hold in the same role.
    pub fn minus(&self, other: &TasksTuple) -> TasksTuple {
        TasksTuple {
            active: tasks_minus(&self.active, &other.active),
            standby: tasks_minus(&self.standby, &other.standby),
            warmup: tasks_minus(&self.warmup, &other.warmup),
        }
    }
}

/// A topic a subtopology names with a partition count (`TopicInfo`): a
/// changelog or repartition topic. No count = derived by the coordinator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicInfo {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partitions: Option<i32>,
}

/// One subtopology of a Kafka Streams topology (`Subtopology` of the request).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subtopology {
    /// `SubtopologyId`: deterministic, "0", "1", ...
    #[serde(rename = "subtopologyId")]
    pub subtopology_id: String,
    #[serde(default, rename = "sourceTopics", skip_serializing_if = "Vec::is_empty")]
    pub source_topics: Vec<String>,
    /// Topics this subtopology writes to that another one reads.
    #[serde(default, rename = "repartitionSinkTopics", skip_serializing_if = "Vec::is_empty")]
    pub repartition_sink_topics: Vec<String>,
    /// The changelog of each state store (the subtopology is stateful iff any).
    #[serde(default, rename = "stateChangelogTopics", skip_serializing_if = "Vec::is_empty")]
    pub state_changelog_topics: Vec<TopicInfo>,
    /// Internal topics this subtopology reads.
    #[serde(default, rename = "repartitionSourceTopics", skip_serializing_if = "Vec::is_empty")]
    pub repartition_source_topics: Vec<TopicInfo>,
    /// Sets of source topics that must have the same partition count.
    #[serde(default, rename = "copartitionGroups", skip_serializing_if = "Vec::is_empty")]
    pub copartition_groups: Vec<Vec<String>>,
}

impl Subtopology {
    /// `TopologyMetadata.isStateful`: it has state changelog topics.
    pub fn is_stateful(&self) -> bool {
        !self.state_changelog_topics.is_empty()
    }

    /// Every topic it reads: its source topics and its repartition sources.
    pub fn input_topics(&self) -> impl Iterator<Item = &str> {
        self.source_topics
            .iter()
            .map(String::as_str)
            .chain(self.repartition_source_topics.iter().map(|t| t.name.as_str()))
    }
}

/// The `Topology` field of a join: its epoch and subtopologies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamsTopology {
    #[serde(default)]
    pub epoch: i32,
    pub subtopologies: Vec<Subtopology>,
}

impl StreamsTopology {
    pub fn subtopology(&self, id: &str) -> Option<&Subtopology> {
        self.subtopologies.iter().find(|s| s.subtopology_id == id)
    }
}

/// `StreamsGroupHeartbeatRequest` (apiKey 88). Tasks: `None` = unchanged since the last heartbeat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsGroupHeartbeatRequest {
    pub group_id: String,
    /// Client-generated, kept for the process lifetime.
    pub member_id: String,
    /// The request header's `client.id` (the coordinator keeps it as the
    /// member's `clientId`); the simulation sends the thread's name, `c3`.
    pub client_id: String,
    /// 0 = join, −1 = leave, −2 = a static member leaving for a while.
    pub member_epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    /// −1 = unchanged; the client sends `max.poll.interval.ms`.
    pub rebalance_timeout_ms: i32,
    /// Only with epoch 0.
    pub topology: Option<StreamsTopology>,
    pub process_id: Option<String>,
    pub active_tasks: Option<Tasks>,
    pub standby_tasks: Option<Tasks>,
    pub warmup_tasks: Option<Tasks>,
    pub shutdown_application: bool,
}

/// `Status.StatusCode` of a streams heartbeat response.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StreamsStatus {
    STALE_TOPOLOGY,
    MISSING_SOURCE_TOPICS,
    INCORRECTLY_PARTITIONED_TOPICS,
    MISSING_INTERNAL_TOPICS,
    SHUTDOWN_APPLICATION,
    ASSIGNMENT_DELAYED,
}

impl StreamsStatus {
    /// The code on the wire (`StreamsGroupHeartbeatResponse.Status.StatusCode`).
    pub fn code(self) -> i8 {
        self as i8
    }

    pub fn name(self) -> &'static str {
        match self {
            StreamsStatus::STALE_TOPOLOGY => "STALE_TOPOLOGY",
            StreamsStatus::MISSING_SOURCE_TOPICS => "MISSING_SOURCE_TOPICS",
            StreamsStatus::INCORRECTLY_PARTITIONED_TOPICS => "INCORRECTLY_PARTITIONED_TOPICS",
            StreamsStatus::MISSING_INTERNAL_TOPICS => "MISSING_INTERNAL_TOPICS",
            StreamsStatus::SHUTDOWN_APPLICATION => "SHUTDOWN_APPLICATION",
            StreamsStatus::ASSIGNMENT_DELAYED => "ASSIGNMENT_DELAYED",
        }
    }
}

impl fmt::Display for StreamsStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One `Status` entry: its code and `StatusDetail`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Status {
    pub code: StreamsStatus,
    pub detail: String,
}

/// `StreamsGroupHeartbeatResponse`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsGroupHeartbeatResponse {
    pub error: Errors,
    pub error_message: Option<String>,
    pub member_id: Option<String>,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: i32,
    pub status: Vec<Status>,
    /// `None` = unchanged (sent on a join or a change).
    pub assignment: Option<TasksTuple>,
}

/// `group.streams.*` of a group in a scenario (defaults: the brokers').
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StreamsGroupConfig {
    #[serde(rename = "streams.session.timeout.ms")]
    pub session_timeout_ms: Millis,
    #[serde(rename = "streams.heartbeat.interval.ms")]
    pub heartbeat_interval_ms: Millis,
    #[serde(rename = "streams.num.standby.replicas")]
    pub num_standby_replicas: i32,
    #[serde(rename = "streams.initial.rebalance.delay.ms")]
    pub initial_rebalance_delay_ms: Millis,
    #[serde(rename = "streams.assignment.interval.ms")]
    pub assignment_interval_ms: Millis,
}

impl Default for StreamsGroupConfig {
    fn default() -> Self {
        StreamsGroupConfig {
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 5000,
            num_standby_replicas: 0,
            initial_rebalance_delay_ms: 3000,
            assignment_interval_ms: 1000,
        }
    }
}

impl StreamsGroupConfig {
    /// The bounds of Kafka 4.4 (GroupCoordinatorConfig L341-391, GroupConfig).
    pub fn validate(&self) -> Result<(), String> {
        let check = |name: &str, v: i64, lo: i64, hi: i64| {
            if v < lo || v > hi {
                Err(format!("{name} is {v}; Kafka 4.4 accepts {lo} to {hi} for a streams group"))
            } else {
                Ok(())
            }
        };
        check("streams.session.timeout.ms", self.session_timeout_ms as i64, 45_000, 60_000)?;
        check("streams.heartbeat.interval.ms", self.heartbeat_interval_ms as i64, 5000, 15_000)?;
        check("streams.num.standby.replicas", i64::from(self.num_standby_replicas), 0, 2)?;
        check("streams.initial.rebalance.delay.ms", self.initial_rebalance_delay_ms as i64, 0, 3_600_000)?;
        check("streams.assignment.interval.ms", self.assignment_interval_ms as i64, 0, 15_000)?;
        if self.heartbeat_interval_ms >= self.session_timeout_ms {
            return Err("streams.heartbeat.interval.ms must be lower than streams.session.timeout.ms".into());
        }
        Ok(())
    }
}

/// `group/streams/MemberState` (its own byte values: STABLE 1,
/// UNREVOKED_TASKS 2, UNRELEASED_TASKS 3, UNKNOWN 127).
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StreamsMemberState {
    #[default]
    STABLE,
    UNREVOKED_TASKS,
    UNRELEASED_TASKS,
    UNKNOWN,
}

impl StreamsMemberState {
    pub fn name(self) -> &'static str {
        match self {
            StreamsMemberState::STABLE => "STABLE",
            StreamsMemberState::UNREVOKED_TASKS => "UNREVOKED_TASKS",
            StreamsMemberState::UNRELEASED_TASKS => "UNRELEASED_TASKS",
            StreamsMemberState::UNKNOWN => "UNKNOWN",
        }
    }
}

/// Classic Kafka Streams rebalancing (`group.protocol=classic`): the
/// `SubscriptionInfo` a stream thread puts in its JoinGroup subscription's
/// user data. Kafka sends each task's changelog offset sum and the leader
/// subtracts it from the changelog end offsets (`ClientState.computeTaskLags`);
/// here the thread sends the lag itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsSubscriptionInfo {
    /// `processId`: the instance, shared by its threads.
    pub process_id: String,
    /// Each task the instance has state for, with its lag: −2
    /// (`Task.LATEST_OFFSET`) when this thread runs it as an active task,
    /// else the changelog records it lacks. Tasks it has no state for are absent.
    pub task_lags: Vec<(String, i32, i64)>,
    /// The standby tasks the thread holds (`prevStandbyTasks`).
    pub prev_standby: Tasks,
}

/// Classic Kafka Streams rebalancing: the `AssignmentInfo` the leader's
/// `StreamsPartitionAssignor` sends each thread as its assignment's user data.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsAssignmentInfo {
    /// `activeTasks`, one per assigned partition in Kafka; here by subtopology.
    pub active: Tasks,
    /// `standbyTasks`, warm-ups included (Kafka does not tell them apart).
    pub standby: Tasks,
    /// The standbys the leader placed as warm-ups: not part of Kafka's
    /// `AssignmentInfo`, kept so the page can say which they are.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub warmup: Tasks,
    /// `nextRebalanceMs`: 0 asks for a follow-up rebalance at once; a time is
    /// the next probing rebalance; `None` is `Long.MAX_VALUE` (none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_rebalance_ms: Option<Millis>,
}
