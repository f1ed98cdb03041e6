//! Why a client resets its generation, forgets its coordinator, retries or
//! stops ([`ClientReason`]), and why the consumer group coordinator fences a
//! member ([`FenceReason`]): data inside notes and transition triggers.
//! English from `Display` (what the trace records), Chinese from
//! `crate::narrate_zh`, both from the variant.

use crate::sim::message::ApiKey;
use crate::sim::types::Errors;
use std::fmt;

/// What a classic consumer or a Connect worker (AbstractCoordinator) reacts
/// to: `markCoordinatorUnknown`'s cause, `resetStateAndRejoin`'s, the failed
/// join future's (`joinGroupIfNeeded`), `requestRejoin`'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientReason {
    /// The request got no answer (`RequestFutureListener.onFailure`, a
    /// disconnect or `request.timeout.ms`).
    RequestFailed { api: ApiKey, broker: u32 },
    /// The answer carried `error`.
    Answered { api: ApiKey, error: Errors },
    /// The answer carried `error`, which the member acts on (a reset, a rejoin, a fatal error).
    Response { api: ApiKey, error: Errors },
    /// The join future failed without an answer.
    ConnectionBroke { api: ApiKey },
    /// `sessionTimeoutExpired` in `HeartbeatThread.run`.
    NoHeartbeatResponse,
    /// `coordinatorNotAvailable` after JoinGroup: the SyncGroup cannot be sent.
    JoinAfterCoordinatorUnknown,
    /// `UnjoinedGroupException` in `JoinGroupResponseHandler`.
    JoinAfterLeft,
    /// JoinGroup answered MEMBER_ID_REQUIRED.
    MemberIdRequired,
    /// `SyncGroupResponseHandler` after `resetStateAndGeneration`.
    SyncAfterGenerationReset,
    /// `maybeLeaveGroup` on an expired poll timer (`pollTimer`).
    PollTimeoutExpired,
}

impl fmt::Display for ClientReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ClientReason::*;
        match self {
            RequestFailed { api, broker } => write!(f, "{api} to broker-{broker} failed"),
            Answered { api, error } => write!(f, "{api} answered {error}"),
            Response { api, error } => write!(f, "{api} → {error}"),
            ConnectionBroke { api } => write!(f, "{api} failed: the connection broke"),
            NoHeartbeatResponse => f.write_str("no heartbeat response within session.timeout.ms"),
            JoinAfterCoordinatorUnknown => f.write_str("JoinGroup answered after the coordinator was marked unknown"),
            JoinAfterLeft => {
                f.write_str("JoinGroup answered after this member had left: ignored (UnjoinedGroupException)")
            }
            MemberIdRequired => f.write_str("MEMBER_ID_REQUIRED"),
            SyncAfterGenerationReset => f.write_str("SyncGroup after a generation reset"),
            PollTimeoutExpired => f.write_str("poll timeout expired"),
        }
    }
}

/// Why `GroupMetadataManager` fences a consumer-group member (KIP-848).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenceReason {
    /// A ConsumerGroupHeartbeat with member epoch -1 (`consumerGroupLeave`).
    LeftGroup,
    /// `scheduleConsumerGroupSessionTimeout` fired.
    SessionExpired,
    /// `scheduleConsumerGroupRebalanceTimeout` fired: the member kept partitions
    /// it had to revoke at `epoch`.
    RevocationTimeout { epoch: i32 },
}

impl fmt::Display for FenceReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenceReason::LeftGroup => f.write_str("it left the group"),
            FenceReason::SessionExpired => f.write_str("the member session expired"),
            FenceReason::RevocationTimeout { epoch } => {
                write!(f, "it did not revoke its partitions within its rebalance timeout at epoch {epoch}")
            }
        }
    }
}
