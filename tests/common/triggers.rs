//! One transition trigger of each kind, and one of each phrase the core puts
//! inside notes (a client's reason, a fence reason, a commit exception, an
//! exceeded cap), for the checks that read their English and Chinese
//! (tests/glossary.rs, tests/narration_page.rs). Values look like the core's.

use groupscope::assign::TopicPartition;
use groupscope::sim::commit_exception::{CommitException, LocalRefusal};
use groupscope::sim::fault::cap::CapExceeded;
use groupscope::sim::message::ApiKey;
use groupscope::sim::reason::{ClientReason, FenceReason};
use groupscope::sim::trigger::Trigger;
use groupscope::sim::Errors;
use std::collections::BTreeSet;

/// How many kinds of trigger there are.
pub const KINDS: usize = 46;

/// Names every kind: fails to compile when `Trigger` gains one, until it is
/// added here and to `one_of_each`.
fn known(t: &Trigger) {
    use Trigger::*;
    match t {
        AcknowledgedAssignment
        | AssignedInGeneration { .. }
        | BecameLeader
        | Client(_)
        | Close
        | ConsumerGroupHeartbeat
        | ShareGroupHeartbeat
        | StreamsGroupHeartbeat
        | CoordinatorUnreachable { .. }
        | EagerRebalanceStopsAll
        | Fatal { .. }
        | Fenced(_)
        | HeartbeatError { .. }
        | HeartbeatErrorWhileLeaving { .. }
        | JoinPhaseComplete { .. }
        | JoinPhaseNoMembers
        | JoinedGeneration { .. }
        | LeaderAssignmentStored { .. }
        | LeadershipMovedAway
        | LeaveNotSent
        | LeftAfterPollTimerExpired
        | LeftGroup
        | MemberExpired { .. }
        | MemberJoined { .. }
        | MemberRejoined { .. }
        | MembersLeft { .. }
        | NewTargetAssignment { .. }
        | NewerTargetWaiting
        | PendingSyncExpired
        | PollAfterPollTimerExpired
        | PollTimerExpired
        | ReconciledNewAssignment
        | RejoiningAfterFenced
        | Replayed { .. }
        | RestartConnector { .. }
        | RestartTask { .. }
        | RevokedByLeader
        | SendingLeaveHeartbeat
        | SentJoinGroup
        | StaticMemberNewProtocols { .. }
        | StaticMemberRejoinedCompleting { .. }
        | SubscribeThenPoll
        | SyncGroupDone { .. }
        | TargetAlreadyReconciled
        | TargetEqualsCurrent
        | TaskThrew => {}
    }
}

/// The kinds among `triggers` (their discriminants).
pub fn kinds<'a>(triggers: impl IntoIterator<Item = &'a Trigger>) -> BTreeSet<String> {
    triggers
        .into_iter()
        .map(|t| {
            known(t);
            format!("{:?}", std::mem::discriminant(t))
        })
        .collect()
}

/// Every client reason (the match is exhaustive: a new one fails to compile here).
pub fn client_reasons() -> Vec<ClientReason> {
    use ClientReason::*;
    let all = vec![
        Answered { api: ApiKey::OffsetCommit, error: Errors::NOT_COORDINATOR },
        ConnectionBroke { api: ApiKey::SyncGroup },
        JoinAfterCoordinatorUnknown,
        JoinAfterLeft,
        MemberIdRequired,
        NoHeartbeatResponse,
        PollTimeoutExpired,
        RequestFailed { api: ApiKey::Heartbeat, broker: 2 },
        Response { api: ApiKey::JoinGroup, error: Errors::UNKNOWN_MEMBER_ID },
        SyncAfterGenerationReset,
    ];
    for r in &all {
        match r {
            Answered { .. }
            | ConnectionBroke { .. }
            | JoinAfterCoordinatorUnknown
            | JoinAfterLeft
            | MemberIdRequired
            | NoHeartbeatResponse
            | PollTimeoutExpired
            | RequestFailed { .. }
            | Response { .. }
            | SyncAfterGenerationReset => {}
        }
    }
    all
}

/// Every fence reason.
pub fn fence_reasons() -> Vec<FenceReason> {
    let all = vec![FenceReason::LeftGroup, FenceReason::SessionExpired, FenceReason::RevocationTimeout { epoch: 6 }];
    for r in &all {
        match r {
            FenceReason::LeftGroup | FenceReason::SessionExpired | FenceReason::RevocationTimeout { .. } => {}
        }
    }
    all
}

/// Every commit exception.
pub fn commit_exceptions() -> Vec<CommitException> {
    use CommitException::*;
    let all = vec![
        Retriable(None),
        Retriable(Some(Errors::COORDINATOR_LOAD_IN_PROGRESS)),
        RejoinRequested,
        AlreadyRejoining(Errors::ILLEGAL_GENERATION),
        Failed(Errors::STALE_MEMBER_EPOCH),
        FencedOldGeneration { rejoining: true },
        FencedOldGeneration { rejoining: false },
        Raised(Some(Errors::UNKNOWN_SERVER_ERROR)),
        TimedOut { default_api_timeout_ms: 60_000 },
        NoLongerOwned,
        NotStable(LocalRefusal::RebalanceInProgress),
        NotStable(LocalRefusal::CommitFailed),
        RetriableCommitFailed(Box::new(Retriable(None))),
    ];
    for e in &all {
        match e {
            Retriable(_)
            | RejoinRequested
            | AlreadyRejoining(_)
            | Failed(_)
            | FencedOldGeneration { .. }
            | Raised(_)
            | TimedOut { .. }
            | NoLongerOwned
            | NotStable(_)
            | RetriableCommitFailed(_) => {}
        }
    }
    all
}

/// Every cap a fault can exceed.
pub fn caps() -> Vec<CapExceeded> {
    vec![
        CapExceeded::Partitions { count: 20_000, max: 10_000 },
        CapExceeded::Consumers { max: 500 },
        CapExceeded::Workers { max: 100 },
    ]
}

/// One trigger of each kind (in the order of their names), then one `Client`
/// per client reason and one `Fenced` per fence reason.
pub fn one_of_each() -> Vec<Trigger> {
    use Trigger::*;
    let s = |x: &str| x.to_string();
    let mut triggers = vec![
        AcknowledgedAssignment,
        AssignedInGeneration { generation: 2 },
        BecameLeader,
        Client(ClientReason::PollTimeoutExpired),
        Close,
        ConsumerGroupHeartbeat,
        ShareGroupHeartbeat,
        StreamsGroupHeartbeat,
        CoordinatorUnreachable { interval_ms: 3_000 },
        EagerRebalanceStopsAll,
        Fatal { error: Errors::FENCED_INSTANCE_ID },
        Fenced(FenceReason::SessionExpired),
        HeartbeatError { error: Errors::FENCED_MEMBER_EPOCH },
        HeartbeatErrorWhileLeaving { error: Errors::UNKNOWN_MEMBER_ID },
        JoinPhaseComplete { generation: 3, protocol: s("range") },
        JoinPhaseNoMembers,
        JoinedGeneration { generation: 4 },
        LeaderAssignmentStored { generation: 3 },
        LeadershipMovedAway,
        LeaveNotSent,
        LeftAfterPollTimerExpired,
        LeftGroup,
        MemberExpired { member_id: s("consumer-demo-2-77c1") },
        MemberJoined { member_id: s("consumer-demo-1-4f2a") },
        MemberRejoined { member_id: s("consumer-demo-1-4f2a") },
        MembersLeft { count: 2 },
        NewTargetAssignment { partitions: vec![TopicPartition::new("orders", 0), TopicPartition::new("orders", 3)] },
        NewerTargetWaiting,
        PendingSyncExpired,
        PollAfterPollTimerExpired,
        PollTimerExpired,
        ReconciledNewAssignment,
        RejoiningAfterFenced,
        Replayed { records: 42 },
        RestartConnector { name: s("sink"), include_tasks: true, only_failed: false },
        RestartTask { connector: s("sink"), task: 0 },
        RevokedByLeader,
        SendingLeaveHeartbeat,
        SentJoinGroup,
        StaticMemberNewProtocols { instance_id: s("instance-1") },
        StaticMemberRejoinedCompleting { instance_id: s("instance-1") },
        SubscribeThenPoll,
        SyncGroupDone { generation: 4 },
        TargetAlreadyReconciled,
        TargetEqualsCurrent,
        TaskThrew,
    ];
    assert_eq!((triggers.len(), kinds(&triggers).len()), (KINDS, KINDS), "one trigger of each kind");
    triggers.extend(client_reasons().into_iter().map(Client));
    triggers.extend(fence_reasons().into_iter().map(Fenced));
    triggers
}

/// Each sample above in English and in Chinese (`narrate_zh`): one trigger of
/// each kind, every commit exception and every cap (the reasons come inside
/// the triggers).
pub fn texts() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        one_of_each().iter().map(|t| (t.to_string(), groupscope::narrate_zh::trigger(t))).collect();
    out.extend(commit_exceptions().iter().map(|e| (e.to_string(), groupscope::narrate_zh::commit_exception(e))));
    out.extend(caps().iter().map(|c| (c.to_string(), groupscope::narrate_zh::cap_exceeded(c))));
    out
}
