//! The triggers of state transitions (`EventKind::StateChanged::trigger`) as
//! data: one variant per sentence, its variable parts as fields. English comes
//! from `Display` (what the trace records), Chinese from
//! `crate::narrate_zh::trigger`, one arm per variant, so a new trigger does
//! not compile until it has its Chinese.
//!
//! A trigger serializes as its English sentence, so traces and their hashes
//! are what they were when triggers were strings.

use crate::assign::TopicPartition;
use crate::sim::message::partition_list;
use crate::sim::reason::{ClientReason, FenceReason};
use crate::sim::types::{Errors, Millis};
use serde::{Serialize, Serializer};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trigger {
    // A coordinator context (CoordinatorRuntime `CoordinatorContext.transitionTo`)
    BecameLeader,
    LeadershipMovedAway,
    /// The context replayed the partition's `records` records (`CoordinatorLoaderImpl`).
    Replayed {
        records: usize,
    },
    // The classic group coordinator (GroupMetadataManager, ClassicGroup)
    /// `completeClassicGroupJoin`: the new generation and its chosen protocol
    /// (empty when none was chosen).
    JoinPhaseComplete {
        generation: i32,
        protocol: String,
    },
    JoinPhaseNoMembers,
    LeaderAssignmentStored {
        generation: i32,
    },
    MemberExpired {
        member_id: String,
    },
    MemberJoined {
        member_id: String,
    },
    MemberRejoined {
        member_id: String,
    },
    /// `count` members left through LeaveGroup.
    MembersLeft {
        count: usize,
    },
    StaticMemberNewProtocols {
        instance_id: String,
    },
    StaticMemberRejoinedCompleting {
        instance_id: String,
    },
    PendingSyncExpired,
    // The consumer group coordinator (KIP-848)
    /// `updateConsumerGroupState` after a ConsumerGroupHeartbeat.
    ConsumerGroupHeartbeat,
    /// `maybeUpdateGroupState` after a ShareGroupHeartbeat (KIP-932).
    ShareGroupHeartbeat,
    /// `maybeUpdateGroupState` after a StreamsGroupHeartbeat (KIP-1071).
    StreamsGroupHeartbeat,
    /// After the member was fenced, for this reason.
    Fenced(FenceReason),
    // The classic consumer and the Connect worker (AbstractCoordinator)
    SentJoinGroup,
    JoinedGeneration {
        generation: i32,
    },
    SyncGroupDone {
        generation: i32,
    },
    /// A reset (`resetStateAndRejoin`) or a fatal error, for this reason.
    Client(ClientReason),
    /// `error` is fatal: raised to the application (or the KIP-848 member is FATAL).
    Fatal {
        error: Errors,
    },
    // The consumer-protocol consumer (ConsumerMembershipManager)
    LeaveNotSent,
    AcknowledgedAssignment,
    NewerTargetWaiting,
    LeftGroup,
    NewTargetAssignment {
        partitions: Vec<TopicPartition>,
    },
    TargetAlreadyReconciled,
    HeartbeatErrorWhileLeaving {
        error: Errors,
    },
    HeartbeatError {
        error: Errors,
    },
    RejoiningAfterFenced,
    PollAfterPollTimerExpired,
    SubscribeThenPoll,
    TargetEqualsCurrent,
    ReconciledNewAssignment,
    PollTimerExpired,
    SendingLeaveHeartbeat,
    Close,
    LeftAfterPollTimerExpired,
    // A Connect worker's herder (DistributedHerder)
    AssignedInGeneration {
        generation: i32,
    },
    TaskThrew,
    /// `POST /connectors/{connector}/tasks/{task}/restart`.
    RestartTask {
        connector: String,
        task: i32,
    },
    /// `POST /connectors/{name}/restart?includeTasks=&onlyFailed=` (KIP-745).
    RestartConnector {
        name: String,
        include_tasks: bool,
        only_failed: bool,
    },
    RevokedByLeader,
    EagerRebalanceStopsAll,
    /// No coordinator within heartbeat.interval.ms = `interval_ms` (WorkerCoordinator `poll`).
    CoordinatorUnreachable {
        interval_ms: Millis,
    },
}

impl fmt::Display for Trigger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Trigger::*;
        match self {
            BecameLeader => f.write_str("became leader of the partition"),
            LeadershipMovedAway => f.write_str("leadership of the partition moved away"),
            Replayed { records } => write!(f, "replayed {records} records"),
            JoinPhaseComplete { generation, protocol } => {
                write!(f, "join phase complete: generation {generation}, protocol {protocol}")
            }
            JoinPhaseNoMembers => f.write_str("join phase completed with no members"),
            LeaderAssignmentStored { generation } => {
                write!(f, "leader's assignment for generation {generation} stored")
            }
            MemberExpired { member_id } => write!(f, "member {member_id} expired (session timeout)"),
            MemberJoined { member_id } => write!(f, "member {member_id} joined"),
            MemberRejoined { member_id } => write!(f, "member {member_id} rejoined"),
            MembersLeft { count } => write!(f, "{count} member(s) left the group (LeaveGroup)"),
            StaticMemberNewProtocols { instance_id } => {
                write!(f, "static member {instance_id} rejoined with new protocols")
            }
            StaticMemberRejoinedCompleting { instance_id } => {
                write!(f, "static member {instance_id} rejoined during CompletingRebalance")
            }
            PendingSyncExpired => f.write_str("pending SyncGroup expired"),
            ConsumerGroupHeartbeat => f.write_str("ConsumerGroupHeartbeat"),
            ShareGroupHeartbeat => f.write_str("ShareGroupHeartbeat"),
            StreamsGroupHeartbeat => f.write_str("StreamsGroupHeartbeat"),
            Fenced(reason) => write!(f, "{reason}"),
            SentJoinGroup => f.write_str("sent JoinGroup"),
            JoinedGeneration { generation } => write!(f, "joined generation {generation}"),
            SyncGroupDone { generation } => write!(f, "SyncGroup done, generation {generation}"),
            Client(reason) => write!(f, "{reason}"),
            Fatal { error } => write!(f, "fatal {error}"),
            LeaveNotSent => f.write_str("the leave heartbeat cannot be sent: coordinator unknown"),
            AcknowledgedAssignment => f.write_str("acknowledged the assignment"),
            NewerTargetWaiting => f.write_str("a newer target is waiting"),
            LeftGroup => f.write_str("left the group"),
            NewTargetAssignment { partitions } => write!(f, "new target assignment {}", partition_list(partitions)),
            TargetAlreadyReconciled => f.write_str("the target is already reconciled"),
            HeartbeatErrorWhileLeaving { error } => write!(f, "heartbeat → {error} while leaving"),
            HeartbeatError { error } => write!(f, "heartbeat → {error}"),
            RejoiningAfterFenced => f.write_str("rejoining after being fenced"),
            PollAfterPollTimerExpired => f.write_str("poll() after the poll timer expired: rejoining"),
            SubscribeThenPoll => f.write_str("subscribe() then poll()"),
            TargetEqualsCurrent => f.write_str("target equals the current assignment"),
            ReconciledNewAssignment => f.write_str("reconciled the new assignment"),
            PollTimerExpired => f.write_str("poll timer expired"),
            SendingLeaveHeartbeat => f.write_str("sending the leave heartbeat"),
            Close => f.write_str("close()"),
            LeftAfterPollTimerExpired => f.write_str("left the group after the poll timer expired"),
            AssignedInGeneration { generation } => write!(f, "assigned in generation {generation}"),
            TaskThrew => f.write_str("the task threw an exception"),
            RestartTask { connector, task } => write!(f, "POST /connectors/{connector}/tasks/{task}/restart"),
            RestartConnector { name, include_tasks, only_failed } => {
                write!(f, "POST /connectors/{name}/restart?includeTasks={include_tasks}&onlyFailed={only_failed}")
            }
            RevokedByLeader => f.write_str("revoked by the leader"),
            EagerRebalanceStopsAll => f.write_str("eager rebalance: everything stops"),
            CoordinatorUnreachable { interval_ms } => write!(
                f,
                "coordinator unreachable for {interval_ms} ms: revoking to avoid running work outside the group"
            ),
        }
    }
}

/// A trigger is written as its English sentence (what `trigger` held before
/// triggers were typed). Nothing reads a trace back, so events are not deserialized.
impl Serialize for Trigger {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
