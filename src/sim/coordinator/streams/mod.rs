//! A streams group (KIP-1071) as the group coordinator holds it: Kafka's
//! `StreamsGroup` and `StreamsGroupMember` (group-coordinator/.../streams/).
//! Pure data, changed only by replaying its records (`records.rs`); the
//! handlers are `impl Shard` blocks in `heartbeat.rs` and `leave.rs`, the
//! topology's validation is `topology.rs` (`InternalTopicManager`), the
//! per-member reconciliation `reconcile.rs` (`CurrentAssignmentBuilder`) and
//! the target `target.rs` (`TargetAssignmentBuilder` with the `sticky`
//! task assignor).
//!
//! What sets it apart from a consumer group (facts-share-streams §2): the
//! member is a Kafka Streams thread, several of which make one process
//! (a `KafkaStreams` instance); the unit of work is a task (subtopology,
//! partition), active or standby; the first member's topology is the
//! group's; the group is NotReady while its topics are missing; the target
//! waits for an initial rebalance delay of 3 s after the first join.

pub mod heartbeat;
pub mod leave;
pub mod reconcile;
pub mod records;
pub mod target;
pub mod topology;

use crate::sim::coordinator::streams::topology::ConfiguredTopology;
use crate::sim::out::GroupTimer;
use crate::sim::streams_message::{StreamsTopology, Tasks, TasksTuple};
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `StreamsGroup.StreamsGroupState`, computed by `maybeUpdateGroupState`
/// (STG L1208-1227) in this order: Empty without members; NotReady while the
/// topology is missing or not validated; Assigning while the group epoch is
/// ahead of the target's; Reconciling while a member is not at the target
/// epoch; Stable.
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StreamsGroupState {
    Empty,
    NotReady,
    Assigning,
    Reconciling,
    Stable,
    Dead,
}

impl crate::sim::state_machine::StateMachine for StreamsGroupState {
    const MACHINE: &'static str = "StreamsGroupState";
    crate::sim::state_machine::states!(StreamsGroupState: Empty, NotReady, Assigning, Reconciling, Stable, Dead);

    /// `maybeUpdateGroupState` may move between any two of the live states;
    /// Dead is declared for describe and metrics and never entered.
    fn valid_previous_states(self) -> &'static [StreamsGroupState] {
        use StreamsGroupState::*;
        match self {
            Empty => &[NotReady, Assigning, Reconciling, Stable],
            NotReady => &[Empty, Assigning, Reconciling, Stable],
            Assigning => &[Empty, NotReady, Reconciling, Stable],
            Reconciling => &[Empty, NotReady, Assigning, Stable],
            Stable => &[Empty, NotReady, Assigning, Reconciling],
            Dead => &[],
        }
    }
}

pub use crate::sim::streams_message::StreamsMemberState;

/// `StreamsGroupMember`: its metadata and its current assignment.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsGroupMember {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    /// The `KafkaStreams` instance the member (a stream thread) belongs to.
    pub process_id: String,
    pub topology_epoch: i32,
    pub rebalance_timeout_ms: i32,
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub state: StreamsMemberState,
    /// What the member may run now (`assignedTasks`).
    pub assigned: TasksTuple,
    /// What it must give up before it moves on (`tasksPendingRevocation`).
    pub pending_revocation: TasksTuple,
    /// A static member that left with epoch −2: it keeps its tasks until it
    /// rejoins or its session expires (`streamsGroupStaticMemberGroupLeave`).
    pub left_temporarily: bool,
}

/// The group as the coordinator holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsGroup {
    pub group_id: String,
    pub state: StreamsGroupState,
    /// Starts at 1 (Kafka 4.3+, KAFKA-20268), so a first member's epoch is 2.
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    /// When the target was last computed (KIP-1263 batching; 0 = never).
    pub assignment_timestamp: Millis,
    pub members: BTreeMap<String, StreamsGroupMember>,
    /// The first member's topology (`StreamsGroupTopology` record).
    pub topology: Option<StreamsTopology>,
    /// Partition counts of every topic the topology names that exists (the
    /// metadata hash of KIP-1101, kept as the counts it hashes).
    pub metadata: BTreeMap<String, i32>,
    /// `streams.num.standby.replicas` the last target was computed with.
    pub num_standby_replicas: i32,
    /// The topology as configured against the cluster's topics (not persisted;
    /// recomputed from `topology` and `metadata`, as `StreamsGroup.setConfiguredTopology`).
    #[serde(skip)]
    pub configured: Option<ConfiguredTopology>,
    pub target_assignment: BTreeMap<String, TasksTuple>,
    /// The initial rebalance delay runs until then (`streamsInitialRebalanceKey`).
    pub initial_delay_until: Option<Millis>,
    /// The member that asked every member to shut the application down.
    pub shutdown_requested_by: Option<String>,
    /// The member epoch each armed rebalance timeout was set for (in memory
    /// only, as the epoch `scheduleStreamsGroupRebalanceTimeout` captures):
    /// the timeout fences the member only if it is still at that epoch.
    #[serde(skip)]
    pub rebalance_timeouts: BTreeMap<String, i32>,
}

impl StreamsGroup {
    /// `StreamsGroup` constructor: epochs start at 1 since Kafka 4.3.
    pub const INITIAL_EPOCH: i32 = 1;

    pub fn new(group_id: &str) -> StreamsGroup {
        StreamsGroup {
            group_id: group_id.to_string(),
            state: StreamsGroupState::Empty,
            group_epoch: Self::INITIAL_EPOCH,
            assignment_epoch: Self::INITIAL_EPOCH,
            assignment_timestamp: 0,
            members: BTreeMap::new(),
            topology: None,
            metadata: BTreeMap::new(),
            num_standby_replicas: 0,
            configured: None,
            target_assignment: BTreeMap::new(),
            initial_delay_until: None,
            shutdown_requested_by: None,
            rebalance_timeouts: BTreeMap::new(),
        }
    }

    /// `maybeUpdateGroupState` (STG L1208-1227).
    pub fn compute_state(&self) -> StreamsGroupState {
        if self.members.is_empty() {
            StreamsGroupState::Empty
        } else if !self.configured.as_ref().is_some_and(ConfiguredTopology::is_ready) {
            StreamsGroupState::NotReady
        } else if self.group_epoch > self.assignment_epoch {
            StreamsGroupState::Assigning
        } else if self
            .members
            .values()
            .any(|m| m.member_epoch != self.assignment_epoch || m.state != StreamsMemberState::STABLE)
        {
            StreamsGroupState::Reconciling
        } else {
            StreamsGroupState::Stable
        }
    }

    /// The process running each active task now: the members' assigned and
    /// pending-revocation active tasks (`currentActiveTaskProcessId`).
    pub fn active_owners(&self) -> BTreeMap<(String, i32), (&str, &str)> {
        let mut owners = BTreeMap::new();
        for m in self.members.values() {
            for tasks in [&m.assigned.active, &m.pending_revocation.active] {
                for (s, ps) in tasks {
                    for p in ps {
                        owners.insert((s.clone(), *p), (m.process_id.as_str(), m.member_id.as_str()));
                    }
                }
            }
        }
        owners
    }

    /// The members of `process` other than `except` holding the task in `role`.
    pub fn held_on_process(
        &self,
        process: &str,
        except: &str,
        role: fn(&TasksTuple) -> &Tasks,
        s: &str,
        p: i32,
    ) -> bool {
        self.members.values().any(|m| {
            m.member_id != except
                && m.process_id == process
                && [&m.assigned, &m.pending_revocation]
                    .iter()
                    .any(|t| crate::sim::streams_message::has_task(role(t), s, p))
        })
    }
}

/// The session-timeout timer of one member (`streamsGroupSessionTimeoutKey`).
pub fn session_key(group_id: &str, member_id: &str) -> GroupTimer {
    GroupTimer::StreamsGroupSessionTimeout { group_id: group_id.into(), member_id: member_id.into() }
}

/// The rebalance-timeout timer of a member revoking tasks (`streamsGroupRebalanceTimeoutKey`).
pub fn rebalance_key(group_id: &str, member_id: &str) -> GroupTimer {
    GroupTimer::StreamsGroupRebalanceTimeout { group_id: group_id.into(), member_id: member_id.into() }
}

/// The initial rebalance delay (`streamsInitialRebalanceKey`).
pub fn initial_delay_key(group_id: &str) -> GroupTimer {
    GroupTimer::StreamsGroupInitialRebalance { group_id: group_id.into() }
}
