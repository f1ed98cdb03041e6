//! The core's narration notes (`EventKind::Note`) as data: one variant per
//! sentence, its variable parts as fields. English comes from [`Note::en`]
//! (its `Display`), Chinese from `crate::narrate_zh::note`, both from the
//! fields; lessons and tests match on the variant.
//!
//! A note serializes as its English sentence (the `text` of `EventKind::Note`),
//! so traces, their hashes and `simulate`'s output are what they were when
//! notes were strings. The phrases inside a note are data too: a client's
//! reason (`ClientReason`), a fence reason, a commit exception, an exceeded
//! cap. What stays `String` is names (ids, topics, assignors, states) and the
//! assignors' own exception messages (`ServerAssignorFailed`, `AssignorFailed`).

use crate::assign::TopicPartition;
use crate::connect::protocol::ConnectAssignment;
use crate::sim::commit_exception::{CommitException, LocalRefusal};
use crate::sim::fault::cap::CapExceeded;
use crate::sim::message::ApiKey;
use crate::sim::reason::{ClientReason, FenceReason};
use crate::sim::types::{Errors, Millis, NodeId};
use serde::{Serialize, Serializer};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    // The classic group coordinator
    GroupCreated {
        group_id: String,
    },
    MemberAdded {
        member_id: String,
        group_id: String,
    },
    InitialRebalanceDelay {
        delay_ms: Millis,
    },
    InitialDelayExtended {
        wait_ms: Millis,
    },
    MemberDidNotRejoin {
        member_id: String,
    },
    LeaderOfGeneration {
        leader_id: String,
        generation: i32,
    },
    StaticMemberReplaced {
        instance_id: String,
        old_member_id: String,
        new_member_id: String,
    },
    PendingMemberDropped {
        member_id: String,
    },
    SessionTimeout {
        member_id: String,
        session_timeout_ms: Millis,
    },
    SyncGroupTimeout {
        member_id: String,
    },
    MemberRemovedGroupFull {
        member_id: String,
        max_size: u32,
    },
    GroupLoaded {
        group_id: String,
        state: String,
        generation: i32,
        members: usize,
    },
    // The consumer group coordinator (KIP-848)
    GroupEpochBumped {
        group_id: String,
        epoch: i32,
    },
    TargetAssignmentDeferred {
        group_id: String,
        until_ms: Millis,
    },
    ServerAssignorFailed {
        group_id: String,
        assignor: String,
        error: String,
    },
    TargetAssignmentComputed {
        group_id: String,
        assignor: String,
        epoch: i32,
        /// `c1=[orders-0, orders-1] ...`, the members whose target changed;
        /// None when none did.
        summary: Option<String>,
    },
    StaticMemberLeftTemporarily {
        member_id: String,
    },
    MemberFenced {
        member_id: String,
        group_id: String,
        reason: FenceReason,
        epoch: i32,
    },
    /// `state` is the group's ConsumerGroupState name.
    ConsumerGroupLoaded {
        group_id: String,
        state: String,
        group_epoch: i32,
        assignment_epoch: i32,
        members: usize,
    },
    // The world: processes, links, faults, brokers, Connect clusters
    Started {
        node: NodeId,
    },
    HeldOnLink {
        label: String,
        from: NodeId,
    },
    NoSuchTopic {
        topic: String,
    },
    FaultIgnoredUnknownNode {
        a: String,
        b: String,
    },
    FaultIgnored {
        reason: CapExceeded,
    },
    LeadershipMoved {
        partition: u32,
        leader: u32,
    },
    PartitionOffline {
        partition: u32,
    },
    BrokerStillAlive {
        broker: u32,
        session_timeout_ms: Millis,
    },
    BrokerFenced {
        broker: u32,
        session_timeout_ms: Millis,
    },
    ControlledShutdownDone {
        broker: u32,
    },
    /// The controller's `electPreferred` task gave `broker` back the
    /// leadership of `partitions` partitions whose first replica it is.
    PreferredLeadersElected {
        broker: u32,
        partitions: usize,
        interval_s: u64,
    },
    NoWorkerRunsTask {
        group: String,
        task: String,
    },
    TaskNotAssigned {
        task: String,
        group: String,
    },
    RestartMatchedNothing {
        target: String,
        group: String,
    },
    NoConnectCluster {
        group: String,
    },
    // Clients: classic consumer, consumer-protocol consumer, Connect worker
    RequestTimedOut,
    CoordinatorUnknown {
        broker: u32,
        reason: ClientReason,
    },
    CoordinatorFound {
        group_id: String,
        broker: u32,
    },
    /// `new_leader`: the leader the Fetch response names, if any.
    NotLeader {
        broker: u32,
        partitions: Vec<TopicPartition>,
        new_leader: Option<u32>,
    },
    FatalToApplication {
        error: Errors,
    },
    FatalHerderStops {
        why: ClientReason,
    },
    /// A static member was replaced in Stable (no rebalance) while it owed the
    /// follow-up rebalance of a cooperative one: the partitions it revoked, which
    /// the leader withheld from everyone, stay unassigned until the group next
    /// rebalances (`GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin`).
    FollowUpRebalanceLost {
        group_id: String,
        instance_id: String,
        generation: i32,
        partitions: Vec<TopicPartition>,
    },
    UnexpectedGroupError {
        api: ApiKey,
        error: Errors,
    },
    SyncAfterGenerationReset,
    SkipAssignment,
    RetryAfterBackoff {
        api: ApiKey,
        wait_ms: Millis,
        why: ClientReason,
    },
    JoinAnsweredNextPoll,
    SyncAnsweredNextPoll,
    MemberIdRequired,
    StaleHeartbeat {
        generation: i32,
        error: Errors,
    },
    UnknownAssignor {
        name: String,
    },
    LeaderRanAssignor {
        name: String,
        summary: String,
    },
    /// A Connect leader: `assignor` is the class (`EagerAssignor`...);
    /// `assignments` by worker, its member id shortened (`short_member`).
    ConnectLeaderRan {
        assignor: String,
        assignments: Vec<(String, ConnectAssignment)>,
    },
    AssignorFailed {
        name: String,
        error: String,
    },
    RevokedRejoining,
    /// `next_poll`: the classic consumer rejoins at its next `poll()`, a worker at once.
    HeartbeatRebalanceInProgress {
        next_poll: bool,
    },
    NewPartitionsRejoin {
        topics: Vec<String>,
    },
    SubscriptionChangedNextPoll,
    SubscriptionChangedNextHeartbeat,
    PollTimeoutLeaving {
        max_poll_interval_ms: Millis,
    },
    PollTimeoutCoordinatorUnknown {
        max_poll_interval_ms: Millis,
    },
    RejoinOnNextPoll {
        why: ClientReason,
    },
    ScheduledRebalanceElapsed,
    AssignmentConfigMismatch,
    StoppedRevoked,
    /// An eager generation followed a cooperative one: this worker revoked
    /// nothing before it (it was cooperative) and the eager assignment does not
    /// name these instances, so they keep running here, outside any assignment.
    KeptRunningAfterDowngrade {
        instances: Vec<String>,
    },
    RevokeCommitTimedOut,
    // Offset commits
    CommitAsyncCoordinatorUnknown,
    CommitAsyncNotStable {
        exception: LocalRefusal,
    },
    CommitAsyncFailed {
        exception: CommitException,
    },
    CommitSyncFailed {
        exception: CommitException,
    },
    CommitSyncRetry {
        exception: CommitException,
        wait_ms: Millis,
    },
    JoinPrepareCommitRetry {
        exception: CommitException,
        wait_ms: Millis,
    },
    JoinPrepareCommitFailed {
        exception: CommitException,
    },
    AutoCommitFailed {
        exception: CommitException,
    },
    CommitFailed {
        error: Errors,
    },
    // Share groups (KIP-932): their leaders, share state and applications
    Share(crate::sim::share_note::ShareNote),
    // Streams groups (KIP-1071) and Kafka Streams threads
    Streams(crate::sim::streams_note::StreamsNote),
}

impl Note {
    /// The English sentence, as the trace and the English page show it.
    pub fn en(&self) -> String {
        self.to_string()
    }

    /// The variant's name (`"CoordinatorFound"`): what a lesson's `note`
    /// condition names as its `kind`.
    pub fn kind(&self) -> &'static str {
        use Note::*;
        match self {
            GroupCreated { .. } => "GroupCreated",
            MemberAdded { .. } => "MemberAdded",
            InitialRebalanceDelay { .. } => "InitialRebalanceDelay",
            InitialDelayExtended { .. } => "InitialDelayExtended",
            MemberDidNotRejoin { .. } => "MemberDidNotRejoin",
            LeaderOfGeneration { .. } => "LeaderOfGeneration",
            StaticMemberReplaced { .. } => "StaticMemberReplaced",
            PendingMemberDropped { .. } => "PendingMemberDropped",
            SessionTimeout { .. } => "SessionTimeout",
            SyncGroupTimeout { .. } => "SyncGroupTimeout",
            MemberRemovedGroupFull { .. } => "MemberRemovedGroupFull",
            GroupLoaded { .. } => "GroupLoaded",
            GroupEpochBumped { .. } => "GroupEpochBumped",
            TargetAssignmentDeferred { .. } => "TargetAssignmentDeferred",
            ServerAssignorFailed { .. } => "ServerAssignorFailed",
            TargetAssignmentComputed { .. } => "TargetAssignmentComputed",
            StaticMemberLeftTemporarily { .. } => "StaticMemberLeftTemporarily",
            MemberFenced { .. } => "MemberFenced",
            ConsumerGroupLoaded { .. } => "ConsumerGroupLoaded",
            Started { .. } => "Started",
            HeldOnLink { .. } => "HeldOnLink",
            NoSuchTopic { .. } => "NoSuchTopic",
            FaultIgnoredUnknownNode { .. } => "FaultIgnoredUnknownNode",
            FaultIgnored { .. } => "FaultIgnored",
            LeadershipMoved { .. } => "LeadershipMoved",
            PartitionOffline { .. } => "PartitionOffline",
            BrokerStillAlive { .. } => "BrokerStillAlive",
            BrokerFenced { .. } => "BrokerFenced",
            ControlledShutdownDone { .. } => "ControlledShutdownDone",
            PreferredLeadersElected { .. } => "PreferredLeadersElected",
            NoWorkerRunsTask { .. } => "NoWorkerRunsTask",
            TaskNotAssigned { .. } => "TaskNotAssigned",
            RestartMatchedNothing { .. } => "RestartMatchedNothing",
            NoConnectCluster { .. } => "NoConnectCluster",
            RequestTimedOut => "RequestTimedOut",
            CoordinatorUnknown { .. } => "CoordinatorUnknown",
            CoordinatorFound { .. } => "CoordinatorFound",
            NotLeader { .. } => "NotLeader",
            FatalToApplication { .. } => "FatalToApplication",
            FatalHerderStops { .. } => "FatalHerderStops",
            FollowUpRebalanceLost { .. } => "FollowUpRebalanceLost",
            UnexpectedGroupError { .. } => "UnexpectedGroupError",
            SyncAfterGenerationReset => "SyncAfterGenerationReset",
            SkipAssignment => "SkipAssignment",
            RetryAfterBackoff { .. } => "RetryAfterBackoff",
            JoinAnsweredNextPoll => "JoinAnsweredNextPoll",
            SyncAnsweredNextPoll => "SyncAnsweredNextPoll",
            MemberIdRequired => "MemberIdRequired",
            StaleHeartbeat { .. } => "StaleHeartbeat",
            UnknownAssignor { .. } => "UnknownAssignor",
            LeaderRanAssignor { .. } => "LeaderRanAssignor",
            ConnectLeaderRan { .. } => "ConnectLeaderRan",
            AssignorFailed { .. } => "AssignorFailed",
            RevokedRejoining => "RevokedRejoining",
            HeartbeatRebalanceInProgress { .. } => "HeartbeatRebalanceInProgress",
            NewPartitionsRejoin { .. } => "NewPartitionsRejoin",
            SubscriptionChangedNextPoll => "SubscriptionChangedNextPoll",
            SubscriptionChangedNextHeartbeat => "SubscriptionChangedNextHeartbeat",
            PollTimeoutLeaving { .. } => "PollTimeoutLeaving",
            PollTimeoutCoordinatorUnknown { .. } => "PollTimeoutCoordinatorUnknown",
            RejoinOnNextPoll { .. } => "RejoinOnNextPoll",
            ScheduledRebalanceElapsed => "ScheduledRebalanceElapsed",
            AssignmentConfigMismatch => "AssignmentConfigMismatch",
            StoppedRevoked => "StoppedRevoked",
            KeptRunningAfterDowngrade { .. } => "KeptRunningAfterDowngrade",
            RevokeCommitTimedOut => "RevokeCommitTimedOut",
            CommitAsyncCoordinatorUnknown => "CommitAsyncCoordinatorUnknown",
            CommitAsyncNotStable { .. } => "CommitAsyncNotStable",
            CommitAsyncFailed { .. } => "CommitAsyncFailed",
            CommitSyncFailed { .. } => "CommitSyncFailed",
            CommitSyncRetry { .. } => "CommitSyncRetry",
            JoinPrepareCommitRetry { .. } => "JoinPrepareCommitRetry",
            JoinPrepareCommitFailed { .. } => "JoinPrepareCommitFailed",
            AutoCommitFailed { .. } => "AutoCommitFailed",
            CommitFailed { .. } => "CommitFailed",
            Share(n) => n.kind(),
            Streams(n) => n.kind(),
        }
    }

    /// Whether `kind` names a kind of note (`KINDS` or a share group's).
    pub fn is_kind(kind: &str) -> bool {
        Self::KINDS.contains(&kind)
            || crate::sim::share_note::ShareNote::KINDS.contains(&kind)
            || crate::sim::streams_note::StreamsNote::KINDS.contains(&kind)
    }

    /// Every kind but the share groups' (`ShareNote::KINDS`), for validating a lesson's `note` condition.
    pub const KINDS: &'static [&'static str] = &[
        "GroupCreated",
        "MemberAdded",
        "InitialRebalanceDelay",
        "InitialDelayExtended",
        "MemberDidNotRejoin",
        "LeaderOfGeneration",
        "StaticMemberReplaced",
        "PendingMemberDropped",
        "SessionTimeout",
        "SyncGroupTimeout",
        "MemberRemovedGroupFull",
        "GroupLoaded",
        "GroupEpochBumped",
        "TargetAssignmentDeferred",
        "ServerAssignorFailed",
        "TargetAssignmentComputed",
        "StaticMemberLeftTemporarily",
        "MemberFenced",
        "ConsumerGroupLoaded",
        "Started",
        "HeldOnLink",
        "NoSuchTopic",
        "FaultIgnoredUnknownNode",
        "FaultIgnored",
        "LeadershipMoved",
        "PartitionOffline",
        "BrokerStillAlive",
        "BrokerFenced",
        "ControlledShutdownDone",
        "PreferredLeadersElected",
        "NoWorkerRunsTask",
        "TaskNotAssigned",
        "RestartMatchedNothing",
        "NoConnectCluster",
        "RequestTimedOut",
        "CoordinatorUnknown",
        "CoordinatorFound",
        "NotLeader",
        "FatalToApplication",
        "FatalHerderStops",
        "FollowUpRebalanceLost",
        "UnexpectedGroupError",
        "SyncAfterGenerationReset",
        "SkipAssignment",
        "RetryAfterBackoff",
        "JoinAnsweredNextPoll",
        "SyncAnsweredNextPoll",
        "MemberIdRequired",
        "StaleHeartbeat",
        "UnknownAssignor",
        "LeaderRanAssignor",
        "ConnectLeaderRan",
        "AssignorFailed",
        "RevokedRejoining",
        "HeartbeatRebalanceInProgress",
        "NewPartitionsRejoin",
        "SubscriptionChangedNextPoll",
        "SubscriptionChangedNextHeartbeat",
        "PollTimeoutLeaving",
        "PollTimeoutCoordinatorUnknown",
        "RejoinOnNextPoll",
        "ScheduledRebalanceElapsed",
        "AssignmentConfigMismatch",
        "StoppedRevoked",
        "KeptRunningAfterDowngrade",
        "RevokeCommitTimedOut",
        "CommitAsyncCoordinatorUnknown",
        "CommitAsyncNotStable",
        "CommitAsyncFailed",
        "CommitSyncFailed",
        "CommitSyncRetry",
        "JoinPrepareCommitRetry",
        "JoinPrepareCommitFailed",
        "AutoCommitFailed",
        "CommitFailed",
    ];
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Note::*;
        match self {
            GroupCreated { group_id } => write!(f, "created group {group_id} (Empty)"),
            MemberAdded { member_id, group_id } => write!(f, "added member {member_id} to group {group_id}"),
            InitialRebalanceDelay { delay_ms } => write!(
                f,
                "initial rebalance: waiting group.initial.rebalance.delay.ms = {delay_ms} ms for more members"
            ),
            InitialDelayExtended { wait_ms } => {
                write!(f, "new members joined during the initial delay: waiting another {wait_ms} ms")
            }
            MemberDidNotRejoin { member_id } => write!(f, "member {member_id} did not rejoin in time and was removed"),
            LeaderOfGeneration { leader_id, generation } => {
                write!(f, "{leader_id} is the leader of generation {generation}; only it receives the member list")
            }
            StaticMemberReplaced { instance_id, old_member_id, new_member_id } => write!(
                f,
                "static member {instance_id} rejoined: {old_member_id} replaced by {new_member_id}, assignment kept"
            ),
            PendingMemberDropped { member_id } => write!(f, "pending member {member_id} never rejoined; dropped"),
            SessionTimeout { member_id, session_timeout_ms } => write!(
                f,
                "no heartbeat from {member_id} for session.timeout.ms = {session_timeout_ms} ms: removing it"
            ),
            SyncGroupTimeout { member_id } => {
                write!(f, "{member_id} did not send SyncGroup within the rebalance timeout; removed")
            }
            MemberRemovedGroupFull { member_id, max_size } => write!(
                f,
                "group.max.size = {max_size} reached while rebalancing: {member_id}, which had not rejoined yet, \
                 is removed from the group"
            ),
            GroupLoaded { group_id, state, generation, members } => {
                write!(f, "loaded group {group_id} as {state} at generation {generation} with {members} members")
            }
            GroupEpochBumped { group_id, epoch } => write!(f, "group {group_id}: group epoch bumped to {epoch}"),
            TargetAssignmentDeferred { group_id, until_ms } => write!(
                f,
                "group {group_id}: new target assignment deferred until {until_ms} ms (group.consumer.assignment.interval.ms), on the first heartbeat after it"
            ),
            ServerAssignorFailed { group_id, assignor, error } => {
                write!(f, "group {group_id}: the {assignor} assignor failed: {error}")
            }
            TargetAssignmentComputed { group_id, assignor, epoch, summary } => {
                let summary = summary.as_deref().unwrap_or("no member's target changed");
                write!(f, "group {group_id}: {assignor} assignor computed the target for epoch {epoch}: {summary}")
            }
            StaticMemberLeftTemporarily { member_id } => {
                write!(f, "static member {member_id} left temporarily (epoch -2); its partitions stay assigned")
            }
            MemberFenced { member_id, group_id, reason, epoch } => {
                write!(f, "member {member_id} fenced from {group_id} because {reason}; group epoch bumped to {epoch}")
            }
            ConsumerGroupLoaded { group_id, state, group_epoch, assignment_epoch, members } => write!(
                f,
                "loaded consumer group {group_id} as {state} at group epoch {group_epoch} (target epoch {assignment_epoch}) with {members} members"
            ),
            Started { node } => write!(f, "{node} started"),
            HeldOnLink { label, from } => write!(f, "{label} from {from} is held on the link"),
            NoSuchTopic { topic } => write!(f, "no topic named {topic}"),
            FaultIgnoredUnknownNode { a, b } => {
                write!(f, "fault ignored: unknown node in '{a}' / '{b}' (use c<n> or broker-<n>)")
            }
            FaultIgnored { reason } => write!(f, "fault ignored: {reason}"),
            LeadershipMoved { partition, leader } => {
                write!(f, "__consumer_offsets-{partition}: leadership moved to broker-{leader}")
            }
            PartitionOffline { partition } => write!(
                f,
                "__consumer_offsets-{partition}: no eligible replica (in-sync or ELR), the partition is offline"
            ),
            BrokerStillAlive { broker, session_timeout_ms } => write!(
                f,
                "the controller still sees broker-{broker} as alive: it fences it after broker.session.timeout.ms = {session_timeout_ms} ms without a heartbeat"
            ),
            BrokerFenced { broker, session_timeout_ms } => write!(
                f,
                "controller: no heartbeat from broker-{broker} for broker.session.timeout.ms = {session_timeout_ms} ms, fenced"
            ),
            ControlledShutdownDone { broker } => {
                write!(f, "broker-{broker} finished its controlled shutdown and stopped")
            }
            PreferredLeadersElected { broker, partitions, interval_s } => write!(
                f,
                "controller: preferred leader election (leader.imbalance.check.interval.seconds = {interval_s}): broker-{broker} leads its {partitions} preferred partitions again"
            ),
            NoWorkerRunsTask { group, task } => write!(f, "no worker of {group} runs task {task}: nothing fails"),
            TaskNotAssigned { task, group } => {
                write!(f, "task {task} is not assigned to any worker of {group} (NotAssignedException)")
            }
            RestartMatchedNothing { target, group } => write!(f, "restart of {target} in {group}: nothing matched"),
            NoConnectCluster { group } => write!(f, "no Connect cluster named {group}"),
            RequestTimedOut => f.write_str("request timed out (request.timeout.ms)"),
            CoordinatorUnknown { broker, reason } => write!(f, "coordinator broker-{broker} marked unknown: {reason}"),
            CoordinatorFound { group_id, broker } => write!(f, "coordinator of {group_id} is broker-{broker}"),
            NotLeader { broker, partitions, new_leader } => {
                let names = join(partitions);
                match new_leader {
                    Some(l) => write!(
                        f,
                        "broker-{broker} no longer leads {names}: fetching from broker-{l}, the leader it names"
                    ),
                    None => write!(f, "broker-{broker} no longer leads {names}: refreshing metadata"),
                }
            }
            FatalToApplication { error } => {
                write!(f, "fatal error {error}: the consumer raises it to the application")
            }
            FatalHerderStops { why } => write!(f, "fatal error {why}: the worker's herder stops"),
            FollowUpRebalanceLost { group_id, instance_id, generation, partitions } => write!(
                f,
                "static member {instance_id} came back before its follow-up rebalance: {group_id} stays at generation \
                 {generation} and nobody owns {} until the next rebalance",
                join(partitions)
            ),
            UnexpectedGroupError { api, error } => write!(
                f,
                "{api} answered {error}, an error its response handler does not expect: a KafkaException, \
                 not retriable, is raised out of poll()"
            ),
            SyncAfterGenerationReset => {
                f.write_str("SyncGroup answered after the generation was reset: ignored, rejoining")
            }
            SkipAssignment => {
                f.write_str("returning static leader: SkipAssignment, the group keeps its assignment (KIP-814)")
            }
            RetryAfterBackoff { api, wait_ms, why } => {
                write!(f, "{api} again in retry.backoff.ms = {wait_ms} ms ({why})")
            }
            JoinAnsweredNextPoll => f.write_str("JoinGroup answered: handled at the application's next poll()"),
            SyncAnsweredNextPoll => {
                f.write_str("SyncGroup answered: the assignment is applied at the application's next poll()")
            }
            MemberIdRequired => f.write_str("MEMBER_ID_REQUIRED: rejoining with the given member id"),
            StaleHeartbeat { generation, error } => {
                write!(f, "Heartbeat of generation {generation} → {error}: ignored, the generation has changed since")
            }
            UnknownAssignor { name } => write!(f, "unknown assignor {name}"),
            LeaderRanAssignor { name, summary } => write!(f, "leader ran the {name} assignor: {summary}"),
            ConnectLeaderRan { assignor, assignments } => {
                let each: Vec<String> = assignments.iter().map(|(w, a)| format!("{w}={}", a.summary())).collect();
                write!(f, "leader ran the {assignor}: {}", each.join(" "))
            }
            AssignorFailed { name, error } => write!(f, "assignor {name} failed: {error}"),
            RevokedRejoining => f.write_str("revoked partitions: rejoining for the follow-up rebalance"),
            HeartbeatRebalanceInProgress { next_poll: true } => {
                f.write_str("heartbeat says REBALANCE_IN_PROGRESS: rejoin on next poll()")
            }
            HeartbeatRebalanceInProgress { next_poll: false } => {
                f.write_str("heartbeat says REBALANCE_IN_PROGRESS: rejoining")
            }
            NewPartitionsRejoin { topics } => {
                write!(f, "the leader sees new partitions of {}: rejoining to reassign", topics.join(", "))
            }
            SubscriptionChangedNextPoll => f.write_str("subscription changed: the next poll() rejoins"),
            SubscriptionChangedNextHeartbeat => f.write_str("subscription changed: the next heartbeat sends it"),
            PollTimeoutLeaving { max_poll_interval_ms } => {
                write!(f, "no poll() for max.poll.interval.ms = {max_poll_interval_ms} ms: leaving the group")
            }
            PollTimeoutCoordinatorUnknown { max_poll_interval_ms } => write!(
                f,
                "no poll() for max.poll.interval.ms = {max_poll_interval_ms} ms, but the coordinator is unknown: no leave yet"
            ),
            RejoinOnNextPoll { why } => write!(f, "{why}: rejoin on next poll()"),
            ScheduledRebalanceElapsed => f.write_str("scheduled rebalance delay elapsed: rejoining"),
            AssignmentConfigMismatch => f.write_str("assignment failed (config mismatch): rejoining"),
            StoppedRevoked => f.write_str("stopped revoked connectors and tasks: rejoining for the follow-up rebalance"),
            KeptRunningAfterDowngrade { instances } => write!(
                f,
                "the group switched to eager, which this worker did not revoke for: {} keep running here, though no assignment names them",
                instances.join(", ")
            ),
            RevokeCommitTimedOut => f.write_str(
                "the commit before revoking did not succeed within the rebalance timeout; revoking anyway",
            ),
            CommitAsyncCoordinatorUnknown => f.write_str(
                "commitAsync() failed: coordinator unknown (RetriableCommitFailedException to the callback)",
            ),
            CommitAsyncNotStable { exception } => {
                write!(f, "commitAsync() failed: {exception}, the member is not in a stable generation")
            }
            CommitAsyncFailed { exception } => {
                write!(f, "commitAsync() failed: {exception}; passed to the callback, not retried")
            }
            CommitSyncFailed { exception } => {
                write!(f, "commitSync() failed: {exception}; the application logs it and polls again")
            }
            CommitSyncRetry { exception, wait_ms } => write!(f, "commitSync(): {exception}, retrying in {wait_ms} ms"),
            JoinPrepareCommitRetry { exception, wait_ms } => {
                write!(f, "onJoinPrepare commit failed: {exception}; retrying in {wait_ms} ms")
            }
            JoinPrepareCommitFailed { exception } => write!(f, "onJoinPrepare commit failed: {exception}; joining anyway"),
            AutoCommitFailed { exception } => write!(f, "auto-commit failed: {exception}"),
            CommitFailed { error } => write!(f, "commit failed: {error}"),
            Share(n) => n.fmt(f),
            Streams(n) => n.fmt(f),
        }
    }
}

/// `orders-0, orders-1`.
pub fn join(partitions: &[TopicPartition]) -> String {
    partitions.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
}

/// A note is written as its English sentence (what `text` held before notes
/// were typed). Nothing reads a trace back, so events are not deserialized.
impl Serialize for Note {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
