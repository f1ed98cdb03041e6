//! One note of each kind, for the checks that read every note's English and
//! Chinese (tests/glossary.rs, tests/narration.rs). Values look like the
//! core's: ids and Kafka's names, and reasons the core really writes.

use groupscope::assign::TopicPartition;
use groupscope::connect::protocol::{ConnectAssignment, ConnectorTaskId};
use groupscope::sim::commit_exception::{CommitException, LocalRefusal};
use groupscope::sim::fault::cap::CapExceeded;
use groupscope::sim::message::ApiKey;
use groupscope::sim::note::Note;
use groupscope::sim::reason::{ClientReason, FenceReason};
use groupscope::sim::{Errors, NodeId};

/// Which kind a note is, by its place in `one_of_each`: the match is
/// exhaustive, so a new kind fails to compile here until it is added.
pub fn kind(n: &Note) -> usize {
    use Note::*;
    match n {
        GroupCreated { .. } => 0,
        MemberAdded { .. } => 1,
        InitialRebalanceDelay { .. } => 2,
        InitialDelayExtended { .. } => 3,
        MemberDidNotRejoin { .. } => 4,
        LeaderOfGeneration { .. } => 5,
        StaticMemberReplaced { .. } => 6,
        PendingMemberDropped { .. } => 7,
        SessionTimeout { .. } => 8,
        SyncGroupTimeout { .. } => 9,
        GroupLoaded { .. } => 10,
        GroupEpochBumped { .. } => 11,
        TargetAssignmentDeferred { .. } => 12,
        ServerAssignorFailed { .. } => 13,
        TargetAssignmentComputed { .. } => 14,
        StaticMemberLeftTemporarily { .. } => 15,
        MemberFenced { .. } => 16,
        ConsumerGroupLoaded { .. } => 17,
        Started { .. } => 18,
        HeldOnLink { .. } => 19,
        NoSuchTopic { .. } => 20,
        FaultIgnoredUnknownNode { .. } => 21,
        FaultIgnored { .. } => 22,
        LeadershipMoved { .. } => 23,
        PartitionOffline { .. } => 24,
        BrokerStillAlive { .. } => 25,
        BrokerFenced { .. } => 26,
        ControlledShutdownDone { .. } => 27,
        NoWorkerRunsTask { .. } => 28,
        TaskNotAssigned { .. } => 29,
        RestartMatchedNothing { .. } => 30,
        NoConnectCluster { .. } => 31,
        RequestTimedOut => 32,
        CoordinatorUnknown { .. } => 33,
        CoordinatorFound { .. } => 34,
        NotLeader { new_leader: Some(_), .. } => 35,
        NotLeader { new_leader: None, .. } => 36,
        FatalToApplication { .. } => 37,
        FatalHerderStops { .. } => 38,
        SyncAfterGenerationReset => 39,
        SkipAssignment => 40,
        RetryAfterBackoff { .. } => 41,
        JoinAnsweredNextPoll => 42,
        SyncAnsweredNextPoll => 43,
        MemberIdRequired => 44,
        StaleHeartbeat { .. } => 45,
        UnknownAssignor { .. } => 46,
        LeaderRanAssignor { .. } => 47,
        ConnectLeaderRan { .. } => 48,
        AssignorFailed { .. } => 49,
        RevokedRejoining => 50,
        HeartbeatRebalanceInProgress { next_poll: true } => 51,
        HeartbeatRebalanceInProgress { next_poll: false } => 52,
        NewPartitionsRejoin { .. } => 53,
        SubscriptionChangedNextPoll => 54,
        SubscriptionChangedNextHeartbeat => 55,
        PollTimeoutLeaving { .. } => 56,
        PollTimeoutCoordinatorUnknown { .. } => 57,
        RejoinOnNextPoll { .. } => 58,
        ScheduledRebalanceElapsed => 59,
        AssignmentConfigMismatch => 60,
        StoppedRevoked => 61,
        RevokeCommitTimedOut => 62,
        CommitAsyncCoordinatorUnknown => 63,
        CommitAsyncNotStable { .. } => 64,
        CommitAsyncFailed { .. } => 65,
        CommitSyncFailed { .. } => 66,
        CommitSyncRetry { .. } => 67,
        JoinPrepareCommitRetry { .. } => 68,
        JoinPrepareCommitFailed { .. } => 69,
        AutoCommitFailed { .. } => 70,
        CommitFailed { .. } => 71,
        PreferredLeadersElected { .. } => 72,
    }
}

pub const KINDS: usize = 73;

/// One note of each kind (of each sentence: a variant with two sentences twice).
pub fn one_of_each() -> Vec<Note> {
    use Note::*;
    let s = |x: &str| x.to_string();
    let tp = |t: &str, p: i32| TopicPartition::new(t, p);
    let notes = vec![
        GroupCreated { group_id: s("demo") },
        MemberAdded { member_id: s("consumer-demo-1-4f2a"), group_id: s("demo") },
        InitialRebalanceDelay { delay_ms: 3000 },
        InitialDelayExtended { wait_ms: 3000 },
        MemberDidNotRejoin { member_id: s("consumer-demo-2-77c1") },
        LeaderOfGeneration { leader_id: s("consumer-demo-1-4f2a"), generation: 3 },
        StaticMemberReplaced {
            instance_id: s("c1-instance"),
            old_member_id: s("c1-instance-0a1b"),
            new_member_id: s("c1-instance-9f8e"),
        },
        PendingMemberDropped { member_id: s("consumer-demo-3-1d2e") },
        SessionTimeout { member_id: s("consumer-demo-2-77c1"), session_timeout_ms: 10_000 },
        SyncGroupTimeout { member_id: s("consumer-demo-1-4f2a") },
        GroupLoaded { group_id: s("demo"), state: s("Stable"), generation: 4, members: 3 },
        GroupEpochBumped { group_id: s("demo"), epoch: 7 },
        TargetAssignmentDeferred { group_id: s("demo"), until_ms: 12_000 },
        ServerAssignorFailed { group_id: s("demo"), assignor: s("uniform"), error: s("UNKNOWN_SERVER_ERROR") },
        TargetAssignmentComputed {
            group_id: s("demo"),
            assignor: s("range"),
            epoch: 5,
            summary: Some(s("c1=orders-0 c2=orders-1")),
        },
        StaticMemberLeftTemporarily { member_id: s("m-1") },
        MemberFenced { member_id: s("m-1"), group_id: s("demo"), reason: FenceReason::SessionExpired, epoch: 8 },
        ConsumerGroupLoaded {
            group_id: s("demo"),
            state: s("Stable"),
            group_epoch: 7,
            assignment_epoch: 7,
            members: 3,
        },
        Started { node: NodeId::Client(1) },
        HeldOnLink { label: s("JoinGroup"), from: NodeId::Client(2) },
        NoSuchTopic { topic: s("payments-v2") },
        FaultIgnoredUnknownNode { a: s("c9"), b: s("broker-7") },
        FaultIgnored { reason: CapExceeded::Consumers { max: 500 } },
        LeadershipMoved { partition: 12, leader: 2 },
        PartitionOffline { partition: 12 },
        BrokerStillAlive { broker: 1, session_timeout_ms: 9000 },
        BrokerFenced { broker: 1, session_timeout_ms: 9000 },
        ControlledShutdownDone { broker: 1 },
        NoWorkerRunsTask { group: s("connect-cluster"), task: s("sink-0") },
        TaskNotAssigned { task: s("sink-3"), group: s("connect-cluster") },
        RestartMatchedNothing { target: s("sink"), group: s("connect-cluster") },
        NoConnectCluster { group: s("connect-cluster-2") },
        RequestTimedOut,
        CoordinatorUnknown { broker: 2, reason: ClientReason::RequestFailed { api: ApiKey::Heartbeat, broker: 2 } },
        CoordinatorFound { group_id: s("demo"), broker: 2 },
        NotLeader { broker: 1, partitions: vec![tp("orders", 0), tp("orders", 3)], new_leader: Some(2) },
        NotLeader { broker: 1, partitions: vec![tp("orders", 0)], new_leader: None },
        FatalToApplication { error: Errors::FENCED_INSTANCE_ID },
        FatalHerderStops { why: ClientReason::Response { api: ApiKey::Heartbeat, error: Errors::FENCED_INSTANCE_ID } },
        SyncAfterGenerationReset,
        SkipAssignment,
        RetryAfterBackoff {
            api: ApiKey::JoinGroup,
            wait_ms: 100,
            why: ClientReason::ConnectionBroke { api: ApiKey::JoinGroup },
        },
        JoinAnsweredNextPoll,
        SyncAnsweredNextPoll,
        MemberIdRequired,
        StaleHeartbeat { generation: 2, error: Errors::ILLEGAL_GENERATION },
        UnknownAssignor { name: s("fancy") },
        LeaderRanAssignor { name: s("range"), summary: s("c1=orders-0 c2=orders-1") },
        ConnectLeaderRan {
            assignor: s("IncrementalCooperativeAssignor"),
            assignments: vec![(
                s("e2e9"),
                ConnectAssignment {
                    version: 1,
                    error: 0,
                    leader: s("connect-1-e2e9"),
                    leader_url: s("http://w1:8083"),
                    config_offset: 3,
                    connectors: vec![s("sink")],
                    tasks: vec![ConnectorTaskId { connector: s("sink"), task: 0 }],
                    revoked_connectors: vec![],
                    revoked_tasks: vec![ConnectorTaskId { connector: s("sink"), task: 1 }],
                    delay: 20_000,
                },
            )],
        },
        AssignorFailed { name: s("sticky"), error: s("UNKNOWN_SERVER_ERROR") },
        RevokedRejoining,
        HeartbeatRebalanceInProgress { next_poll: true },
        HeartbeatRebalanceInProgress { next_poll: false },
        NewPartitionsRejoin { topics: vec![s("orders"), s("payments")] },
        SubscriptionChangedNextPoll,
        SubscriptionChangedNextHeartbeat,
        PollTimeoutLeaving { max_poll_interval_ms: 300_000 },
        PollTimeoutCoordinatorUnknown { max_poll_interval_ms: 300_000 },
        RejoinOnNextPoll {
            why: ClientReason::Answered { api: ApiKey::OffsetCommit, error: Errors::REBALANCE_IN_PROGRESS },
        },
        ScheduledRebalanceElapsed,
        AssignmentConfigMismatch,
        StoppedRevoked,
        RevokeCommitTimedOut,
        CommitAsyncCoordinatorUnknown,
        CommitAsyncNotStable { exception: LocalRefusal::RebalanceInProgress },
        CommitAsyncFailed {
            exception: CommitException::RetriableCommitFailed(Box::new(CommitException::Retriable(None))),
        },
        CommitSyncFailed { exception: CommitException::Failed(Errors::ILLEGAL_GENERATION) },
        CommitSyncRetry {
            exception: CommitException::Retriable(Some(Errors::COORDINATOR_NOT_AVAILABLE)),
            wait_ms: 100,
        },
        JoinPrepareCommitRetry { exception: CommitException::Retriable(None), wait_ms: 100 },
        JoinPrepareCommitFailed { exception: CommitException::Failed(Errors::ILLEGAL_GENERATION) },
        AutoCommitFailed { exception: CommitException::Failed(Errors::ILLEGAL_GENERATION) },
        CommitFailed { error: Errors::STALE_MEMBER_EPOCH },
        PreferredLeadersElected { broker: 1, partitions: 17, interval_s: 300 },
    ];
    let kinds: Vec<usize> = notes.iter().map(kind).collect();
    assert_eq!(kinds, (0..KINDS).collect::<Vec<_>>(), "one note of each kind, in order");
    notes
}
