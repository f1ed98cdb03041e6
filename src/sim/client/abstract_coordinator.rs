//! The pieces of AbstractCoordinator that the classic consumer
//! (ConsumerCoordinator) and the Connect worker (WorkerCoordinator) share: what
//! the join loop does after a failed JoinGroup or SyncGroup, whether a rebalance
//! request is in flight, and the heartbeat thread's retry backoff.

use crate::sim::message::ApiKey;
use crate::sim::out::{Out, TimerKey};
use crate::sim::types::{Errors, Millis};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// AbstractCoordinator's `MemberState`.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MemberState {
    UNJOINED,
    PREPARING_REBALANCE,
    COMPLETING_REBALANCE,
    STABLE,
}

impl MemberState {
    pub const ALL: [MemberState; 4] = [
        MemberState::UNJOINED,
        MemberState::PREPARING_REBALANCE,
        MemberState::COMPLETING_REBALANCE,
        MemberState::STABLE,
    ];

    /// The states this one may be entered from. Kafka has no table here (the
    /// state is assigned directly); this one is read off AbstractCoordinator's
    /// assignments, and the clients check it as the consumer protocol's
    /// `AbstractMembershipManager.transitionTo` checks its own:
    /// - PREPARING_REBALANCE: `initiateJoinGroup` sets it whenever no join is in
    ///   flight, from any state: UNJOINED (first join, after a reset), STABLE
    ///   (`rejoinNeededOrPending`), COMPLETING_REBALANCE (a SyncGroup failed with
    ///   REBALANCE_IN_PROGRESS: `joinGroupIfNeeded` loops without a reset).
    /// - COMPLETING_REBALANCE: only from PREPARING_REBALANCE
    ///   (`JoinGroupResponseHandler` raises `UnjoinedGroupException` otherwise).
    /// - STABLE: only from COMPLETING_REBALANCE (`SyncGroupResponseHandler`
    ///   checks `state == COMPLETING_REBALANCE` and an unreset generation).
    /// - UNJOINED: `resetStateAndGeneration`, reached from any state through
    ///   `resetStateOnResponseError` (JoinGroup, SyncGroup, Heartbeat),
    ///   `resetGenerationOnLeaveGroup` (`maybeLeaveGroup`, `onLeavePrepare`) and
    ///   `resetStateAndRejoin` in `joinGroupIfNeeded`.
    pub fn valid_previous_states(self) -> &'static [MemberState] {
        use MemberState::*;
        match self {
            UNJOINED | PREPARING_REBALANCE => &[UNJOINED, PREPARING_REBALANCE, COMPLETING_REBALANCE, STABLE],
            COMPLETING_REBALANCE => &[PREPARING_REBALANCE],
            STABLE => &[COMPLETING_REBALANCE],
        }
    }
}

/// A request waiting for its response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InFlight {
    pub broker: u32,
    pub api: ApiKey,
    /// Generation the request was sent with (heartbeat error handling).
    pub generation: i32,
    /// An OffsetCommit sent by `onJoinPrepare`, which the join waits for.
    pub for_join_prepare: bool,
}

/// Correlations of the in-flight requests to `broker` (they fail when it goes down).
pub(crate) fn requests_to(in_flight: &BTreeMap<u64, InFlight>, broker: u32) -> Vec<u64> {
    in_flight.iter().filter(|(_, f)| f.broker == broker).map(|(c, _)| *c).collect()
}

/// Takes a request off the in-flight books and cancels its request timeout.
pub(crate) fn take_in_flight(
    in_flight: &mut BTreeMap<u64, InFlight>,
    correlation: u64,
    out: &mut Out,
) -> Option<InFlight> {
    let f = in_flight.remove(&correlation)?;
    out.cancel_timer(TimerKey::RequestTimeout { correlation });
    Some(f)
}

/// No generation (`Generation.NO_GENERATION`).
pub const NO_GENERATION: i32 = -1;

/// What `joinGroupIfNeeded` does after the join future failed with an error
/// (AC `JoinGroupResponseHandler`, `SyncGroupResponseHandler`, then the loop).
/// None of these except `Reset` changes the member state: a member whose
/// JoinGroup or SyncGroup failed stays PREPARING_REBALANCE or
/// COMPLETING_REBALANCE until it sends the next JoinGroup (`initiateJoinGroup`);
/// only `resetStateAndGeneration` sets UNJOINED.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JoinFailure {
    /// UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION: `resetStateOnResponseError`
    /// (the member id is kept for ILLEGAL_GENERATION), then rejoin at once.
    Reset { keep_member_id: bool },
    /// REBALANCE_IN_PROGRESS (MEMBER_ID_REQUIRED too, after storing the id):
    /// the loop `continue`s and rejoins at once.
    RejoinNow,
    /// NOT_COORDINATOR / COORDINATOR_NOT_AVAILABLE: `markCoordinatorUnknown`,
    /// then, being retriable, `timer.sleep(retry.backoff.ms)` before the next pass.
    Rediscover,
    /// Any other retriable failure (COORDINATOR_LOAD_IN_PROGRESS, a broken
    /// connection): `timer.sleep(retry.backoff.ms)`, then rejoin.
    Backoff,
    /// Raised to the application.
    Fatal,
}

pub(crate) fn join_failure(error: Errors) -> JoinFailure {
    match error {
        Errors::UNKNOWN_MEMBER_ID => JoinFailure::Reset { keep_member_id: false },
        Errors::ILLEGAL_GENERATION => JoinFailure::Reset { keep_member_id: true },
        Errors::REBALANCE_IN_PROGRESS | Errors::MEMBER_ID_REQUIRED => JoinFailure::RejoinNow,
        Errors::NOT_COORDINATOR | Errors::COORDINATOR_NOT_AVAILABLE => JoinFailure::Rediscover,
        e if e.is_fatal_for_classic_client() => JoinFailure::Fatal,
        _ => JoinFailure::Backoff,
    }
}

/// `joinFuture != null`: a JoinGroup, or the SyncGroup chained to it, is in flight.
pub(crate) fn rebalance_in_flight(in_flight: &BTreeMap<u64, InFlight>) -> bool {
    in_flight.values().any(|f| f.api.is_join_or_sync())
}

/// `Heartbeat.failHeartbeat`: the next heartbeat after a failed one waits
/// `retryBackoff.backoff(heartbeatAttempts++)`: `retry.backoff.ms` doubling up to
/// `retry.backoff.max.ms` (Kafka adds 20% jitter; none here). `receiveHeartbeat`
/// resets the attempts.
pub(crate) fn heartbeat_retry_ms(retry_backoff_ms: Millis, retry_backoff_max_ms: Millis, attempts: &mut u32) -> Millis {
    let ms = retry_backoff_ms.saturating_mul(1 << (*attempts).min(20));
    *attempts += 1;
    ms.min(retry_backoff_max_ms.max(retry_backoff_ms))
}
