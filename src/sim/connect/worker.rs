//! A Kafka Connect distributed worker (`WorkerGroupMember` with
//! `WorkerCoordinator` over AbstractCoordinator): coordinator discovery, the
//! join loop with protocol type "connect", heartbeats and session timeout, the
//! scheduled rebalance of an assignment's `delay`. Responses and the leader's
//! assignment are in `connect_worker_responses.rs`; starting and stopping
//! connectors and tasks (the herder) in `connect_herder.rs`. Facts B, G, J.

use crate::connect::incremental_assignor::IncrementalCooperativeAssignor;
use crate::connect::{
    ConfigSnapshot, ConnectAssignment, ConnectProtocolCompatibility, ConnectProtocolMetadata, ConnectorTaskId,
    ConnectorsAndTasks,
};
use crate::sim::client::abstract_coordinator::{InFlight, MemberState, NO_GENERATION};
use crate::sim::client::member_transition::check_transition;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, Body, JoinGroupRequest, JoinProtocol, ProtocolMetadata, Request};
use crate::sim::out::{Out, Retry, TimerKey};
use crate::sim::scenario::connect_config::WorkerConfig;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::types::{Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `AbstractStatus.State`: the status of a connector or task instance.
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum State {
    UNASSIGNED,
    RUNNING,
    PAUSED,
    FAILED,
    DESTROYED,
    RESTARTING,
    STOPPED,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectWorker {
    pub idx: u32,
    pub client_id: String,
    pub group_id: String,
    /// `rest.advertised.*`: the URL other workers forward REST requests to.
    pub url: String,
    pub config: WorkerConfig,
    /// The config topic as this worker has read it.
    pub config_snapshot: ConfigSnapshot,
    pub alive: bool,
    pub fatal: Option<String>,
    pub coordinator: Option<u32>,
    pub state: MemberState,
    /// `currentConnectProtocol`: the configured mode until a generation chooses one.
    pub current_protocol: ConnectProtocolCompatibility,
    pub member_id: String,
    pub generation: i32,
    /// `assignmentSnapshot`: everything this worker is assigned (None = never joined or revoked).
    pub assignment_snapshot: Option<ConnectAssignment>,
    /// `lastCompletedGenerationId`.
    pub last_completed_generation: i32,
    pub leader_id: Option<String>,
    pub protocol_name: Option<String>,
    pub rejoin_needed: bool,
    /// The herder's `scheduledRebalance` (from the assignment's delay).
    pub scheduled_rebalance: Option<Millis>,
    pub needs_join_prepare: bool,
    /// Connector and task instances on this worker (RUNNING or FAILED), from start until stopped.
    pub connectors: BTreeMap<String, State>,
    pub tasks: BTreeMap<ConnectorTaskId, State>,
    /// The herder's `runningAssignment` (emptied after each start under eager).
    pub running_assignment: ConnectorsAndTasks,
    /// The leader's assignor instance, kept across the rebalances this process leads.
    pub assignor: IncrementalCooperativeAssignor,
    pub in_flight: BTreeMap<u64, InFlight>,
    pub next_correlation: u64,
    pub last_heartbeat_ok: Millis,
    pub bootstrap_cursor: u32,
    pub backoff_attempts: u32,
    /// A failed JoinGroup or SyncGroup is retried from here on (retry.backoff.ms).
    #[serde(default)]
    pub join_retry_at: Millis,
    /// `heartbeatAttempts` of the heartbeat's retry backoff.
    #[serde(default)]
    pub heartbeat_attempts: u32,
}

impl ConnectWorker {
    pub fn new(idx: u32, group_id: &str, config: WorkerConfig, config_snapshot: ConfigSnapshot) -> ConnectWorker {
        ConnectWorker {
            idx,
            client_id: format!("connect-{idx}"),
            group_id: group_id.to_string(),
            url: format!("http://worker-{idx}:8083/"),
            current_protocol: config.connect_protocol,
            assignor: IncrementalCooperativeAssignor::new(config.scheduled_rebalance_max_delay_ms),
            config,
            config_snapshot,
            alive: true,
            fatal: None,
            coordinator: None,
            state: MemberState::UNJOINED,
            member_id: String::new(),
            generation: NO_GENERATION,
            assignment_snapshot: None,
            last_completed_generation: NO_GENERATION,
            leader_id: None,
            protocol_name: None,
            rejoin_needed: true,
            scheduled_rebalance: None,
            needs_join_prepare: true,
            connectors: BTreeMap::new(),
            tasks: BTreeMap::new(),
            running_assignment: ConnectorsAndTasks::default(),
            in_flight: BTreeMap::new(),
            next_correlation: 0,
            last_heartbeat_ok: 0,
            bootstrap_cursor: 0,
            backoff_attempts: 0,
            join_retry_at: 0,
            heartbeat_attempts: 0,
        }
    }

    pub fn node(&self) -> NodeId {
        NodeId::Client(self.idx)
    }

    pub fn is_leader(&self) -> bool {
        !self.member_id.is_empty() && self.leader_id.as_deref() == Some(self.member_id.as_str())
    }

    pub(crate) fn note(&self, text: String, out: &mut Out) {
        out.emit(EventKind::Note { node: self.node(), text });
    }

    /// The herder starts: it joins the group on its first tick.
    pub fn start(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.drive(ctx, out);
    }

    /// Every change of AbstractCoordinator's `state`, checked against
    /// `MemberState::valid_previous_states`.
    pub(crate) fn set_state(&mut self, ctx: &Ctx, to: MemberState, trigger: &str, out: &mut Out) {
        if self.state == to {
            return;
        }
        check_transition(self.node(), self.state, to, to.valid_previous_states(), out);
        let from = std::mem::replace(&mut self.state, to);
        out.emit(EventKind::StateChanged {
            node: self.node(),
            machine: Machine::Member,
            from: format!("{from:?}"),
            to: format!("{to:?}"),
            trigger: trigger.into(),
        });
        let beats = |s| matches!(s, MemberState::COMPLETING_REBALANCE | MemberState::STABLE);
        match (beats(from), beats(to)) {
            (false, true) => {
                self.last_heartbeat_ok = ctx.now;
                out.set_timer(TimerKey::Heartbeat, ctx.now + self.config.heartbeat_interval_ms);
            }
            (_, false) => out.cancel_timer(TimerKey::Heartbeat),
            _ => {}
        }
    }

    pub(crate) fn send(&mut self, ctx: &Ctx, broker: u32, request: Request, out: &mut Out) {
        self.next_correlation += 1;
        let correlation = self.next_correlation;
        let rebalance_wait = self.config.rebalance_timeout_ms + 5_000;
        let timeout = if matches!(request, Request::JoinGroup(_)) {
            self.config.request_timeout_ms.max(rebalance_wait)
        } else {
            self.config.request_timeout_ms
        };
        let f = InFlight { broker, api: request.api_key(), generation: self.generation, for_join_prepare: false };
        self.in_flight.insert(correlation, f);
        out.set_timer(TimerKey::RequestTimeout { correlation }, ctx.now + timeout);
        out.send(NodeId::Broker(broker), Body::Request { correlation, request });
    }

    /// `rejoinNeededOrPending`: also true while the worker holds no usable assignment.
    fn rejoin_needed_or_pending(&self) -> bool {
        self.rejoin_needed
            || self.state == MemberState::UNJOINED
            || self.assignment_snapshot.as_ref().is_none_or(|a| a.failed())
    }

    /// One pass of the herder's tick: find the coordinator, (re)join when needed.
    pub(crate) fn drive(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !self.alive || self.fatal.is_some() {
            return;
        }
        let Some(coordinator) = self.coordinator else {
            if !self.in_flight.values().any(|f| f.api == ApiKey::FindCoordinator) {
                let broker = self.bootstrap_cursor % ctx.cluster.broker_count.max(1);
                self.bootstrap_cursor += 1;
                self.send(ctx, broker, Request::FindCoordinator { key: self.group_id.clone() }, out);
            }
            return;
        };
        if !self.rejoin_needed_or_pending()
            || crate::sim::client::abstract_coordinator::rebalance_in_flight(&self.in_flight)
        {
            return;
        }
        if ctx.now < self.join_retry_at {
            return out.set_timer(TimerKey::Backoff(Retry::JoinGroup), self.join_retry_at);
        }
        if self.needs_join_prepare {
            self.on_join_prepare(out);
        }
        self.send_join_group(ctx, coordinator, out);
    }

    /// `onJoinPrepare`: eager revokes everything; cooperative keeps it until told.
    fn on_join_prepare(&mut self, out: &mut Out) {
        self.needs_join_prepare = false;
        if self.current_protocol.is_incremental() {
            return;
        }
        if let Some(a) = self.assignment_snapshot.clone().filter(|a| !a.failed()) {
            self.on_revoked(&a.connectors, &a.tasks, "eager rebalance: everything stops", out);
        }
    }

    fn send_join_group(&mut self, ctx: &mut Ctx, coordinator: u32, out: &mut Out) {
        let protocols = self
            .config
            .connect_protocol
            .advertised()
            .iter()
            .map(|mode| JoinProtocol {
                name: mode.protocol().into(),
                metadata: ProtocolMetadata {
                    topics: Vec::new(),
                    owned_partitions: Vec::new(),
                    generation_id: self.generation,
                    rack_id: None,
                    connect: Some(ConnectProtocolMetadata {
                        url: self.url.clone(),
                        config_offset: self.config_snapshot.offset,
                        assignment: if mode.is_incremental() { self.assignment_snapshot.clone() } else { None },
                    }),
                },
            })
            .collect();
        let request = Request::JoinGroup(JoinGroupRequest {
            group_id: self.group_id.clone(),
            session_timeout_ms: self.config.session_timeout_ms,
            rebalance_timeout_ms: self.config.rebalance_timeout_ms,
            member_id: self.member_id.clone(),
            group_instance_id: None,
            protocol_type: "connect".into(),
            protocols,
            client_id: self.client_id.clone(),
        });
        self.send(ctx, coordinator, request, out);
        self.set_state(ctx, MemberState::PREPARING_REBALANCE, "sent JoinGroup", out);
    }

    /// The heartbeat thread: one Heartbeat per interval; no answer within the
    /// session timeout makes the coordinator unknown.
    pub fn heartbeat_tick(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !matches!(self.state, MemberState::COMPLETING_REBALANCE | MemberState::STABLE) {
            return;
        }
        out.set_timer(TimerKey::Heartbeat, ctx.now + self.config.heartbeat_interval_ms);
        if ctx.now.saturating_sub(self.last_heartbeat_ok) > self.config.session_timeout_ms {
            self.mark_coordinator_unknown(ctx, "no heartbeat response within session.timeout.ms", out);
        }
        let Some(coordinator) = self.coordinator else { return self.drive(ctx, out) };
        let request = Request::Heartbeat {
            group_id: self.group_id.clone(),
            generation_id: self.generation,
            member_id: self.member_id.clone(),
            group_instance_id: None,
        };
        self.send(ctx, coordinator, request, out);
    }

    /// `markCoordinatorUnknown`. WorkerCoordinator gives discovery one
    /// heartbeat.interval.ms before it revokes everything it runs.
    pub(crate) fn mark_coordinator_unknown(&mut self, ctx: &Ctx, reason: &str, out: &mut Out) {
        if let Some(c) = self.coordinator.take() {
            self.note(format!("coordinator broker-{c} marked unknown: {reason}"), out);
            out.set_timer(TimerKey::ConnectCoordinatorDiscovery, ctx.now + self.config.heartbeat_interval_ms);
        }
    }

    /// Discovery did not succeed within heartbeat.interval.ms (WC `poll`).
    pub(crate) fn coordinator_discovery_timeout(&mut self, out: &mut Out) {
        if self.coordinator.is_some() {
            return;
        }
        if let Some(a) = self.assignment_snapshot.take().filter(|a| !a.failed()) {
            let why = format!(
                "coordinator unreachable for {} ms: revoking to avoid running work outside the group",
                self.config.heartbeat_interval_ms
            );
            self.on_revoked(&a.connectors, &a.tasks, &why, out);
        }
    }

    /// AC `resetStateAndRejoin`.
    pub(crate) fn reset_generation(&mut self, ctx: &Ctx, keep_member_id: bool, why: &str, out: &mut Out) {
        self.generation = NO_GENERATION;
        if !keep_member_id {
            self.member_id.clear();
        }
        self.rejoin_needed = true;
        self.needs_join_prepare = true;
        self.set_state(ctx, MemberState::UNJOINED, why, out);
    }

    pub(crate) fn backoff_ms(&mut self) -> Millis {
        let ms = self.config.retry_backoff_ms.saturating_mul(1 << self.backoff_attempts.min(10));
        self.backoff_attempts += 1;
        ms.min(self.config.retry_backoff_max_ms)
    }
}
