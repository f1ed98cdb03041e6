//! Streams-group task assignors (KIP-1071), mirroring
//! `org.apache.kafka.coordinator.group.api.streams.assignor.TaskAssignor`:
//! the group coordinator computes each member's active and standby tasks from
//! a [`StreamsGroupSpec`] (`GroupSpec`) and a [`TopologyDescriber`]. Kafka 4.4
//! has one built-in assignor, `StickyTaskAssignor` ([`sticky_assign`]).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub mod case;
pub mod high_availability;
mod process_state;
mod sticky_task;
mod task_id;

pub use process_state::ProcessState;
pub use sticky_task::{sticky_assign, sticky_assign_with_member_order, StickyTaskAssignor, MAX_TASKS};
pub use task_id::TaskId;

/// subtopology id -> partitions (Kafka's `Map<String, Set<Integer>>`).
pub type Tasks = BTreeMap<String, BTreeSet<i32>>;

/// One member of the group as the assignor sees it: Kafka's
/// `MemberAssignmentMetadata` and `MemberAssignmentState` (both implemented
/// by `MemberMetadataAndStateImpl`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsMemberSpec {
    /// `instanceId()`: `group.instance.id` (static membership).
    pub instance_id: Option<String>,
    /// `rackId()`.
    pub rack_id: Option<String>,
    /// `processId()`: the Kafka Streams instance the member belongs to.
    pub process_id: String,
    /// `clientTags()`.
    pub client_tags: BTreeMap<String, String>,
    /// `activeTasks()`: the tasks the member currently has (not its target).
    pub active_tasks: Tasks,
    /// `standbyTasks()`.
    pub standby_tasks: Tasks,
    /// `warmupTasks()`.
    pub warmup_tasks: Tasks,
    /// `taskOffsets()`: the last reported cumulative changelog offsets of
    /// assigned or dormant tasks, by subtopology and partition.
    pub task_offsets: BTreeMap<String, BTreeMap<i32, i64>>,
    /// `taskEndOffsets()`.
    pub task_end_offsets: BTreeMap<String, BTreeMap<i32, i64>>,
}

/// Kafka's `GroupSpec`: the members by member id, and the one assignment
/// config the built-in assignor reads (`AssignmentConfigs.numStandbyReplicas`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsGroupSpec {
    /// By member id. The assignor iterates them as Kafka's `memberIds()` does
    /// (see [`sticky_assign`]).
    pub members: BTreeMap<String, StreamsMemberSpec>,
    /// `num.standby.replicas`.
    pub num_standby_replicas: i32,
}

/// One subtopology of the [`TopologyDescriber`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subtopology {
    pub id: String,
    /// `maxNumInputPartitions(id)`: the number of tasks.
    pub num_tasks: i32,
    /// `isStateful(id)`: the subtopology has changelog topics (standbys apply).
    pub stateful: bool,
}

/// Kafka's `TopologyDescriber`: `subtopologies()` with each one's task count
/// and statefulness.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopologyDescriber {
    pub subtopologies: Vec<Subtopology>,
}

/// Kafka's `MemberAssignment`: the target tasks of one member. Kafka 4.4's
/// assignors leave `warmup_tasks` empty (warm-ups are not assigned in 4.4).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsMemberAssignment {
    pub active_tasks: Tasks,
    pub standby_tasks: Tasks,
    pub warmup_tasks: Tasks,
}

/// The name `StickyTaskAssignor` registers under (`group.streams.assignors`
/// defaults to `[sticky]`).
pub const STICKY_TASK_ASSIGNOR: &str = "sticky";
