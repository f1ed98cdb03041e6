//! Kafka's `AbstractCoordinator`, which the classic consumer (`ConsumerCoordinator`)
//! and the Connect worker (`WorkerCoordinator`) both extend: its fields
//! ([`Membership`], embedded in both), its `MemberState`, the in-flight books,
//! what the join loop does after a failed JoinGroup or SyncGroup
//! ([`join_failure`]), the heartbeat thread's retry backoff, and the loop itself
//! as the [`AbstractCoordinator`] trait: its required methods are what Kafka's
//! subclasses supply (`protocolType`, `metadata`, `onJoinPrepare`, ...), its
//! provided ones are AbstractCoordinator's own methods.

use crate::sim::client::member_transition::check_transition;
use crate::sim::client::poll_loop::exponential_backoff_ms;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, Body, JoinGroupRequest, JoinGroupResponse, JoinProtocol, Request, SyncGroupRequest};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out, Retry};
use crate::sim::reason::ClientReason;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// AbstractCoordinator's fields: the coordinator (`coordinator`), `state`,
/// `generation` (`Generation`: generation id, member id, protocol name), the
/// leader (JoinGroup's `leader`), `rejoinNeeded`, `needsJoinPrepare`, the
/// requests in flight, the coordinator lookup's and the join loop's backoff,
/// and the heartbeat thread's `Heartbeat` bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Membership {
    pub coordinator: Option<u32>,
    pub state: MemberState,
    pub member_id: String,
    pub generation: i32,
    pub protocol_name: Option<String>,
    pub leader_id: Option<String>,
    pub rejoin_needed: bool,
    pub needs_join_prepare: bool,
    pub in_flight: BTreeMap<u64, InFlight>,
    pub next_correlation: u64,
    /// `Heartbeat.lastHeartbeatReceive`.
    pub last_heartbeat_ok: Millis,
    /// Next bootstrap broker asked for the coordinator.
    pub bootstrap_cursor: u32,
    /// Attempts of the coordinator lookup's exponential backoff.
    pub backoff_attempts: u32,
    /// A failed JoinGroup or SyncGroup is retried from here on (`joinGroupIfNeeded`
    /// sleeps retry.backoff.ms).
    #[serde(default)]
    pub join_retry_at: Millis,
    /// `heartbeatAttempts` of the heartbeat's retry backoff.
    #[serde(default)]
    pub heartbeat_attempts: u32,
}

impl Default for Membership {
    /// A new member: UNJOINED, no generation, no member id, a join needed.
    fn default() -> Membership {
        Membership {
            coordinator: None,
            state: MemberState::UNJOINED,
            member_id: String::new(),
            generation: NO_GENERATION,
            protocol_name: None,
            leader_id: None,
            rejoin_needed: true,
            needs_join_prepare: true,
            in_flight: BTreeMap::new(),
            next_correlation: 0,
            last_heartbeat_ok: 0,
            bootstrap_cursor: 0,
            backoff_attempts: 0,
            join_retry_at: 0,
            heartbeat_attempts: 0,
        }
    }
}

impl Membership {
    /// JoinGroup's `leader` is this member.
    pub fn is_leader(&self) -> bool {
        !self.member_id.is_empty() && self.leader_id.as_deref() == Some(self.member_id.as_str())
    }

    /// A request of `api` is in flight.
    pub fn has_in_flight(&self, api: ApiKey) -> bool {
        self.in_flight.values().any(|f| f.api == api)
    }
}

/// AbstractCoordinator's `MemberState`.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MemberState {
    UNJOINED,
    PREPARING_REBALANCE,
    COMPLETING_REBALANCE,
    STABLE,
}

impl crate::sim::state_machine::StateMachine for MemberState {
    const MACHINE: &'static str = "MemberState";
    crate::sim::state_machine::states!(MemberState: UNJOINED, PREPARING_REBALANCE, COMPLETING_REBALANCE, STABLE);

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
    fn valid_previous_states(self) -> &'static [MemberState] {
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
    out.cancel_timer(ClientTimer::RequestTimeout { correlation });
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
    /// Any other retriable failure (COORDINATOR_LOAD_IN_PROGRESS answering a
    /// JoinGroup, a broken connection): `timer.sleep(retry.backoff.ms)`, then rejoin.
    Backoff,
    /// Raised to the application.
    Fatal,
    /// An error the response handler does not expect: it raises a
    /// `KafkaException` ("Unexpected error in join group response", "Unexpected
    /// error from SyncGroup"), which is not retriable, so `joinGroupIfNeeded`
    /// throws it to the application too.
    Unexpected,
}

/// How `joinGroupIfNeeded` ends after `api` (JoinGroup or SyncGroup) failed with
/// `error`: the errors `JoinGroupResponseHandler` and `SyncGroupResponseHandler`
/// name, each its own way; any other is `Unexpected`. SyncGroup names fewer:
/// COORDINATOR_LOAD_IN_PROGRESS, retried after a JoinGroup, is unexpected there.
pub(crate) fn join_failure(api: ApiKey, error: Errors) -> JoinFailure {
    let sync = api == ApiKey::SyncGroup;
    match error {
        Errors::UNKNOWN_MEMBER_ID => JoinFailure::Reset { keep_member_id: false },
        Errors::ILLEGAL_GENERATION if sync => JoinFailure::Reset { keep_member_id: true },
        Errors::REBALANCE_IN_PROGRESS => JoinFailure::RejoinNow,
        Errors::MEMBER_ID_REQUIRED if !sync => JoinFailure::RejoinNow,
        Errors::NOT_COORDINATOR | Errors::COORDINATOR_NOT_AVAILABLE => JoinFailure::Rediscover,
        Errors::COORDINATOR_LOAD_IN_PROGRESS if !sync => JoinFailure::Backoff,
        Errors::GROUP_AUTHORIZATION_FAILED | Errors::FENCED_INSTANCE_ID => JoinFailure::Fatal,
        e if !sync && e.is_fatal_for_classic_client() => JoinFailure::Fatal,
        _ => JoinFailure::Unexpected,
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

/// Kafka's `GroupRebalanceConfig` (plus the client's request timeout and the
/// lookup's reconnect backoff): what AbstractCoordinator reads from its
/// subclass's configuration.
pub(crate) struct GroupRebalanceConfig<'a> {
    pub group_id: &'a str,
    pub client_id: &'a str,
    pub group_instance_id: Option<&'a String>,
    pub session_timeout_ms: Millis,
    pub rebalance_timeout_ms: Millis,
    pub heartbeat_interval_ms: Millis,
    pub retry_backoff_ms: Millis,
    pub retry_backoff_max_ms: Millis,
    pub request_timeout_ms: Millis,
}

/// `abstract class AbstractCoordinator`. The required methods are the fields'
/// accessors and what its subclasses (`ConsumerCoordinator`, `WorkerCoordinator`)
/// supply: `protocolType()`, `metadata()`, `ensureCoordinatorReady`'s lookup,
/// the loop's next pass and `markCoordinatorUnknown`'s subclass reaction. The
/// provided methods are AbstractCoordinator's own.
pub(crate) trait AbstractCoordinator {
    fn membership(&self) -> &Membership;
    fn membership_mut(&mut self) -> &mut Membership;
    /// The client node the trace names.
    fn member_node(&self) -> NodeId;
    fn rebalance_config(&self) -> GroupRebalanceConfig<'_>;
    /// `protocolType()`: "consumer" or "connect".
    fn protocol_type(&self) -> &'static str;
    /// `metadata()`: the protocols this member supports, with their metadata.
    fn metadata(&self) -> Vec<JoinProtocol>;
    /// `ensureCoordinatorReady`: FindCoordinator when none is known or in flight.
    fn ensure_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out);
    /// The next pass of the loop that calls `ensureActiveGroup` (the consumer's
    /// `poll()`, the herder's tick).
    fn drive(&mut self, ctx: &mut Ctx, out: &mut Out);
    /// What the subclass does when the coordinator becomes unknown (nothing by default).
    fn on_coordinator_unknown(&mut self, _ctx: &Ctx, _out: &mut Out) {}
    /// A fatal error out of the join loop: `ensureActiveGroup` throws it; the
    /// consumer raises it to the application, the worker's herder stops.
    fn raise_fatal(&mut self, ctx: &Ctx, error: Errors, why: ClientReason, out: &mut Out);
    /// What follows a heartbeat answer on the thread that handled it: the
    /// consumer's heartbeat thread leaves the loop to the application's
    /// `poll()` (it goes on only inside one), the worker's herder ticks on.
    fn after_heartbeat(&mut self, ctx: &mut Ctx, out: &mut Out);
    /// Whether a rejoin the coordinator asks for waits for the application's
    /// next `poll()` (the classic consumer) or starts at once (a Connect worker).
    fn rejoins_on_next_poll(&self) -> bool;

    /// Every change of AbstractCoordinator's `state`, checked against
    /// `MemberState::valid_previous_states`. The heartbeat thread runs while
    /// COMPLETING_REBALANCE or STABLE (`HeartbeatThread.run` disables itself
    /// when `state.hasNotJoinedGroup()`); entering those states starts it.
    fn transition_to(&mut self, ctx: &Ctx, to: MemberState, trigger: Trigger, out: &mut Out) {
        let node = self.member_node();
        let interval = self.rebalance_config().heartbeat_interval_ms;
        let m = self.membership_mut();
        if m.state == to {
            return;
        }
        check_transition(node, m.state, to, out);
        let from = std::mem::replace(&mut m.state, to);
        out.emit(EventKind::StateChanged {
            node,
            machine: Machine::Member,
            from: crate::sim::state_machine::StateName::of(from),
            to: crate::sim::state_machine::StateName::of(to),
            trigger,
        });
        let beats = |s| matches!(s, MemberState::COMPLETING_REBALANCE | MemberState::STABLE);
        match (beats(from), beats(to)) {
            (false, true) => {
                m.last_heartbeat_ok = ctx.now;
                out.set_timer(ClientTimer::Heartbeat, ctx.now + interval);
            }
            (_, false) => out.cancel_timer(ClientTimer::Heartbeat),
            _ => {}
        }
    }

    /// `ConsumerNetworkClient.send` to the coordinator (or a bootstrap broker):
    /// the request goes on the in-flight books with its request timeout; a
    /// JoinGroup waits up to the rebalance timeout (`joinGroupTimeoutMs`:
    /// `max(requestTimeoutMs, rebalanceTimeoutMs + 5000)`).
    fn send(&mut self, ctx: &Ctx, broker: u32, request: Request, for_join_prepare: bool, out: &mut Out) -> u64 {
        let c = self.rebalance_config();
        let timeout = match &request {
            Request::JoinGroup(_) => c.request_timeout_ms.max(c.rebalance_timeout_ms + 5000),
            _ => c.request_timeout_ms,
        };
        let m = self.membership_mut();
        m.next_correlation += 1;
        let correlation = m.next_correlation;
        let f = InFlight { broker, api: request.api_key(), generation: m.generation, for_join_prepare };
        m.in_flight.insert(correlation, f);
        out.set_timer(ClientTimer::RequestTimeout { correlation }, ctx.now + timeout);
        out.send(NodeId::Broker(broker), Body::Request { correlation, request });
        correlation
    }

    /// `markCoordinatorUnknown`: forget it; the next pass rediscovers it.
    fn mark_coordinator_unknown(&mut self, ctx: &Ctx, reason: ClientReason, out: &mut Out) {
        let node = self.member_node();
        if let Some(c) = self.membership_mut().coordinator.take() {
            out.emit(EventKind::Note { node, note: Note::CoordinatorUnknown { broker: c, reason } });
            self.on_coordinator_unknown(ctx, out);
        }
    }

    /// `resetStateAndRejoin` (`resetStateAndGeneration` then `rejoinNeeded = true`):
    /// resets the generation (and the member id unless kept) and asks for a
    /// fresh `onJoinPrepare`, so the next join treats what this member still
    /// holds as lost.
    fn reset_generation(&mut self, ctx: &Ctx, keep_member_id: bool, why: ClientReason, out: &mut Out) {
        let m = self.membership_mut();
        m.generation = NO_GENERATION;
        if !keep_member_id {
            m.member_id.clear();
        }
        m.rejoin_needed = true;
        m.needs_join_prepare = true;
        self.transition_to(ctx, MemberState::UNJOINED, Trigger::Client(why), out);
    }

    /// The coordinator lookup's backoff: `retry.backoff.ms` doubling per failed
    /// attempt up to `retry.backoff.max.ms`; a success resets the attempts.
    fn backoff_ms(&mut self) -> Millis {
        let (base, max) = {
            let c = self.rebalance_config();
            (c.retry_backoff_ms, c.retry_backoff_max_ms)
        };
        exponential_backoff_ms(base, max, &mut self.membership_mut().backoff_attempts)
    }

    /// `sendJoinGroupRequest`: JoinGroup with `protocolType()` and `metadata()`;
    /// the member is PREPARING_REBALANCE until the answer.
    fn send_join_group(&mut self, ctx: &mut Ctx, coordinator: u32, out: &mut Out) {
        let protocols = self.metadata();
        let protocol_type = self.protocol_type().into();
        let c = self.rebalance_config();
        let request = Request::JoinGroup(JoinGroupRequest {
            group_id: c.group_id.to_string(),
            session_timeout_ms: c.session_timeout_ms,
            rebalance_timeout_ms: c.rebalance_timeout_ms,
            member_id: self.membership().member_id.clone(),
            group_instance_id: c.group_instance_id.cloned(),
            protocol_type,
            protocols,
            client_id: c.client_id.to_string(),
        });
        self.send(ctx, coordinator, request, false, out);
        self.transition_to(ctx, MemberState::PREPARING_REBALANCE, Trigger::SentJoinGroup, out);
    }

    /// `JoinGroupResponseHandler` on success: the member takes the generation,
    /// its member id, the chosen protocol and the leader, and is
    /// COMPLETING_REBALANCE until SyncGroup answers.
    fn joined(&mut self, ctx: &Ctx, r: &JoinGroupResponse, out: &mut Out) {
        let m = self.membership_mut();
        m.generation = r.generation_id;
        m.member_id = r.member_id.clone();
        m.protocol_name = r.protocol_name.clone();
        m.leader_id = Some(r.leader.clone());
        let why = Trigger::JoinedGeneration { generation: r.generation_id };
        self.transition_to(ctx, MemberState::COMPLETING_REBALANCE, why, out);
    }

    /// `SyncGroupResponseHandler` on success: STABLE, no rejoin needed, true (the
    /// subclass's `onJoinComplete` follows). When the generation was reset
    /// meanwhile (or the member is no longer COMPLETING_REBALANCE) the answer is
    /// ignored and the member rejoins at once, as after ILLEGAL_GENERATION: false.
    fn synced(&mut self, ctx: &mut Ctx, out: &mut Out) -> bool {
        let m = self.membership();
        if m.state != MemberState::COMPLETING_REBALANCE || m.generation == NO_GENERATION {
            out.emit(EventKind::Note { node: self.member_node(), note: Note::SyncAfterGenerationReset });
            self.reset_generation(ctx, true, ClientReason::SyncAfterGenerationReset, out);
            self.drive(ctx, out);
            return false;
        }
        self.membership_mut().rejoin_needed = false;
        let why = Trigger::SyncGroupDone { generation: self.membership().generation };
        self.transition_to(ctx, MemberState::STABLE, why, out);
        true
    }

    /// `sendSyncGroupRequest` after JoinGroup: the leader's assignments
    /// (`onLeaderElected`), empty from a follower.
    fn send_sync_group(
        &mut self,
        ctx: &Ctx,
        coordinator: u32,
        assignments: Vec<(String, Vec<crate::assign::TopicPartition>)>,
        connect_assignments: Vec<(String, crate::connect::ConnectAssignment)>,
        streams_assignments: Vec<(String, crate::sim::streams_message::StreamsAssignmentInfo)>,
        out: &mut Out,
    ) {
        let c = self.rebalance_config();
        let m = self.membership();
        let request = Request::SyncGroup(SyncGroupRequest {
            group_id: c.group_id.to_string(),
            generation_id: m.generation,
            member_id: m.member_id.clone(),
            group_instance_id: c.group_instance_id.cloned(),
            protocol_name: m.protocol_name.clone(),
            assignments,
            connect_assignments,
            streams_assignments,
        });
        self.send(ctx, coordinator, request, false, out);
    }

    /// The heartbeat thread wakes up (`HeartbeatThread.run`): one Heartbeat per
    /// interval, even if one is still in flight; no answer within the session
    /// timeout makes the coordinator unknown (`sessionTimeoutExpired`).
    fn heartbeat_tick(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !matches!(self.membership().state, MemberState::COMPLETING_REBALANCE | MemberState::STABLE) {
            return;
        }
        let (interval, session) = {
            let c = self.rebalance_config();
            (c.heartbeat_interval_ms, c.session_timeout_ms)
        };
        out.set_timer(ClientTimer::Heartbeat, ctx.now + interval);
        if ctx.now.saturating_sub(self.membership().last_heartbeat_ok) > session {
            self.mark_coordinator_unknown(ctx, ClientReason::NoHeartbeatResponse, out);
        }
        let Some(coordinator) = self.membership().coordinator else {
            return self.ensure_coordinator(ctx, out);
        };
        let c = self.rebalance_config();
        let m = self.membership();
        let request = Request::Heartbeat {
            group_id: c.group_id.to_string(),
            generation_id: m.generation,
            member_id: m.member_id.clone(),
            group_instance_id: c.group_instance_id.cloned(),
        };
        self.send(ctx, coordinator, request, false, out);
    }

    /// `Heartbeat.receiveHeartbeat`.
    fn heartbeat_received(&mut self, ctx: &Ctx) {
        let m = self.membership_mut();
        m.last_heartbeat_ok = ctx.now;
        m.heartbeat_attempts = 0;
    }

    /// `HeartbeatResponseHandler.handle`, then the heartbeat thread's listener:
    /// success and REBALANCE_IN_PROGRESS count as a received heartbeat
    /// (`receiveHeartbeat`; REBALANCE_IN_PROGRESS `requestRejoin`s when
    /// STABLE); NOT_COORDINATOR / COORDINATOR_NOT_AVAILABLE
    /// `markCoordinatorUnknown`; ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID and
    /// FENCED_INSTANCE_ID are acted on only `if (generationUnchanged())`
    /// (`resetStateOnResponseError`) and ignored for an older generation
    /// ("Ignoring heartbeat response with error ..."); FENCED_INSTANCE_ID is
    /// then fatal (`setFailureCause`); other failures `failHeartbeat`.
    fn heartbeat_answered(&mut self, ctx: &mut Ctx, error: Errors, sent_generation: i32, out: &mut Out) {
        let node = self.member_node();
        match error {
            Errors::NONE => self.heartbeat_received(ctx),
            Errors::REBALANCE_IN_PROGRESS => {
                self.heartbeat_received(ctx);
                let next_poll = self.rejoins_on_next_poll();
                let m = self.membership_mut();
                if m.state == MemberState::STABLE && !m.rejoin_needed {
                    m.rejoin_needed = true;
                    out.emit(EventKind::Note { node, note: Note::HeartbeatRebalanceInProgress { next_poll } });
                }
            }
            Errors::ILLEGAL_GENERATION | Errors::UNKNOWN_MEMBER_ID | Errors::FENCED_INSTANCE_ID
                if sent_generation == self.membership().generation =>
            {
                let why = ClientReason::Response { api: ApiKey::Heartbeat, error };
                self.reset_generation(ctx, error == Errors::ILLEGAL_GENERATION, why.clone(), out);
                if error == Errors::FENCED_INSTANCE_ID {
                    self.raise_fatal(ctx, error, why, out);
                }
            }
            Errors::ILLEGAL_GENERATION | Errors::UNKNOWN_MEMBER_ID | Errors::FENCED_INSTANCE_ID => {
                let note = Note::StaleHeartbeat { generation: sent_generation, error };
                out.emit(EventKind::Note { node, note });
            }
            Errors::NOT_COORDINATOR | Errors::COORDINATOR_NOT_AVAILABLE => {
                self.mark_coordinator_unknown(ctx, ClientReason::Response { api: ApiKey::Heartbeat, error }, out);
                self.heartbeat_failed(ctx, out);
            }
            _ => self.heartbeat_failed(ctx, out),
        }
        self.after_heartbeat(ctx, out);
    }

    /// `Heartbeat.failHeartbeat`: the next heartbeat goes out after the
    /// exponential retry backoff instead of a full heartbeat.interval.ms.
    fn heartbeat_failed(&mut self, ctx: &Ctx, out: &mut Out) {
        if !matches!(self.membership().state, MemberState::COMPLETING_REBALANCE | MemberState::STABLE) {
            return;
        }
        let (base, max) = {
            let c = self.rebalance_config();
            (c.retry_backoff_ms, c.retry_backoff_max_ms)
        };
        let wait = heartbeat_retry_ms(base, max, &mut self.membership_mut().heartbeat_attempts);
        out.set_timer(ClientTimer::Heartbeat, ctx.now + wait);
    }

    /// `JoinGroupResponseHandler.handle`, up to `onJoinLeader`/`onJoinFollower`:
    /// on success the member takes the generation (`joined`) and the coordinator
    /// to send SyncGroup to comes back; otherwise the join future fails
    /// (`join_failed`) and None comes back. An answer that finds the member no
    /// longer PREPARING_REBALANCE (it left meanwhile) raises
    /// `UnjoinedGroupException`, a `RetriableException`: `joinGroupIfNeeded`
    /// sleeps retry.backoff.ms. So does one that finds the coordinator unknown
    /// (the SyncGroup could not be sent: `coordinatorNotAvailable`, retriable).
    fn join_answered(&mut self, ctx: &mut Ctx, r: &JoinGroupResponse, out: &mut Out) -> Option<u32> {
        let Some(coordinator) = self.membership().coordinator else {
            let why = ClientReason::JoinAfterCoordinatorUnknown;
            self.join_failed(ctx, ApiKey::JoinGroup, None, why, out);
            return None;
        };
        match r.error {
            Errors::NONE if self.membership().state != MemberState::PREPARING_REBALANCE => {
                let why = ClientReason::JoinAfterLeft;
                self.join_failed(ctx, ApiKey::JoinGroup, None, why, out);
                None
            }
            Errors::NONE => {
                self.joined(ctx, r, out);
                Some(coordinator)
            }
            Errors::MEMBER_ID_REQUIRED => {
                // The member keeps PREPARING_REBALANCE and rejoins at once with the id.
                self.membership_mut().member_id = r.member_id.clone();
                out.emit(EventKind::Note { node: self.member_node(), note: Note::MemberIdRequired });
                let why = ClientReason::MemberIdRequired;
                self.join_failed(ctx, ApiKey::JoinGroup, Some(Errors::MEMBER_ID_REQUIRED), why, out);
                None
            }
            e => {
                let why = ClientReason::Response { api: ApiKey::JoinGroup, error: e };
                self.join_failed(ctx, ApiKey::JoinGroup, Some(e), why, out);
                None
            }
        }
    }

    /// The join future failed (`error` None: the connection broke):
    /// `joinGroupIfNeeded`'s reaction (`JoinFailure`). The member state changes
    /// only on a reset; otherwise the next pass of the loop sends JoinGroup
    /// again, at once or after retry.backoff.ms ("Attempt to join group failed
    /// due to ...").
    fn join_failed(&mut self, ctx: &mut Ctx, api: ApiKey, error: Option<Errors>, why: ClientReason, out: &mut Out) {
        let failure = error.map_or(JoinFailure::Backoff, |e| join_failure(api, e));
        self.membership_mut().rejoin_needed = true;
        match failure {
            JoinFailure::Reset { keep_member_id } => self.reset_generation(ctx, keep_member_id, why, out),
            JoinFailure::RejoinNow => {}
            JoinFailure::Rediscover | JoinFailure::Backoff => {
                if failure == JoinFailure::Rediscover {
                    self.mark_coordinator_unknown(ctx, why.clone(), out);
                }
                self.retry_join_after_backoff(ctx, out);
                let wait = self.rebalance_config().retry_backoff_ms;
                let note = Note::RetryAfterBackoff { api, wait_ms: wait, why };
                out.emit(EventKind::Note { node: self.member_node(), note });
                return;
            }
            JoinFailure::Fatal | JoinFailure::Unexpected => {
                let error = error.unwrap_or(Errors::UNKNOWN_SERVER_ERROR);
                if failure == JoinFailure::Unexpected {
                    let note = Note::UnexpectedGroupError { api, error };
                    out.emit(EventKind::Note { node: self.member_node(), note });
                }
                return self.raise_fatal(ctx, error, why, out);
            }
        }
        self.drive(ctx, out);
    }

    /// A request failed: its connection broke or it timed out (the
    /// handlers' `onFailure`). A coordinator lookup backs off; anything sent
    /// to the coordinator makes it unknown; a JoinGroup or SyncGroup fails
    /// the join future with a retriable `DisconnectException` (the loop
    /// sleeps retry.backoff.ms); a heartbeat backs off. The classic
    /// consumer has its own (its commits and connection backoff).
    fn request_failed(&mut self, ctx: &mut Ctx, correlation: u64, out: &mut Out) {
        let Some(f) = take_in_flight(&mut self.membership_mut().in_flight, correlation, out) else { return };
        if f.api == ApiKey::FindCoordinator {
            let wait = self.backoff_ms();
            return out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), ctx.now + wait);
        }
        self.mark_coordinator_unknown(ctx, ClientReason::RequestFailed { api: f.api, broker: f.broker }, out);
        if f.api.is_join_or_sync() {
            return self.join_failed(ctx, f.api, None, ClientReason::ConnectionBroke { api: f.api }, out);
        }
        if f.api == ApiKey::Heartbeat {
            self.heartbeat_failed(ctx, out);
        }
        self.drive(ctx, out);
    }

    /// `joinGroupIfNeeded` after a retriable failure: `timer.sleep(retryBackoffMs)`,
    /// a fixed backoff, before the next JoinGroup.
    fn retry_join_after_backoff(&mut self, ctx: &Ctx, out: &mut Out) {
        let wait = self.rebalance_config().retry_backoff_ms;
        let m = self.membership_mut();
        m.join_retry_at = ctx.now + wait;
        out.set_timer(ClientTimer::Backoff(Retry::JoinGroup), m.join_retry_at);
    }
}
