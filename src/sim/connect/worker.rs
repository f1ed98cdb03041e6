//! A Kafka Connect distributed worker (`WorkerGroupMember` with
//! `WorkerCoordinator` over AbstractCoordinator): coordinator discovery, the
//! join loop with protocol type "connect", heartbeats and session timeout, the
//! scheduled rebalance of an assignment's `delay`. Responses and the leader's
//! assignment are in `worker_responses.rs`; starting and stopping connectors
//! and tasks (the herder) in `herder.rs`. AbstractCoordinator's fields and loop
//! are shared with the classic consumer (`client/abstract_coordinator.rs`).

use crate::connect::incremental_assignor::IncrementalCooperativeAssignor;
use crate::connect::{
    ConfigSnapshot, ConnectAssignment, ConnectProtocolCompatibility, ConnectProtocolMetadata, ConnectorTaskId,
    ConnectorsAndTasks,
};
use crate::sim::client::abstract_coordinator::{
    AbstractCoordinator, GroupRebalanceConfig, MemberState, Membership, NO_GENERATION,
};
use crate::sim::client::coordinator_lookup;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, JoinProtocol, ProtocolMetadata, Request};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, ConnectTimer, Out, Retry};
use crate::sim::reason::ClientReason;
use crate::sim::scenario::connect_config::WorkerConfig;
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, Millis, NodeId};
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

/// `AbstractStatus.State` has no transition table: a status is written
/// whatever it was before.
impl crate::sim::state_machine::StateMachine for State {
    const MACHINE: &'static str = "AbstractStatus.State";
    crate::sim::state_machine::states!(State: UNASSIGNED, RUNNING, PAUSED, FAILED, DESTROYED, RESTARTING, STOPPED);

    fn valid_previous_states(self) -> &'static [State] {
        Self::ALL
    }
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
    pub fatal: Option<String>,
    /// AbstractCoordinator's fields (WorkerCoordinator extends it).
    #[serde(flatten)]
    pub membership: Membership,
    /// `currentConnectProtocol`: the configured mode until a generation chooses one.
    pub current_protocol: ConnectProtocolCompatibility,
    /// `assignmentSnapshot`: everything this worker is assigned (None = never joined or revoked).
    pub assignment_snapshot: Option<ConnectAssignment>,
    /// `lastCompletedGenerationId`.
    pub last_completed_generation: i32,
    /// The herder's `scheduledRebalance` (from the assignment's delay).
    pub scheduled_rebalance: Option<Millis>,
    /// Connector and task instances on this worker (RUNNING or FAILED), from start until stopped.
    pub connectors: BTreeMap<String, State>,
    pub tasks: BTreeMap<ConnectorTaskId, State>,
    /// The herder's `runningAssignment` (emptied after each start under eager).
    pub running_assignment: ConnectorsAndTasks,
    /// Instances running here that no assignment names: left running when an
    /// eager generation followed a cooperative one (see `start_work`). Not a
    /// Kafka field; the invariants need to tell them from a double assignment.
    #[serde(default)]
    pub stranded: ConnectorsAndTasks,
    /// The leader's assignor instance, kept across the rebalances this process leads.
    pub assignor: IncrementalCooperativeAssignor,
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
            fatal: None,
            membership: Membership::default(),
            assignment_snapshot: None,
            last_completed_generation: NO_GENERATION,
            scheduled_rebalance: None,
            connectors: BTreeMap::new(),
            tasks: BTreeMap::new(),
            running_assignment: ConnectorsAndTasks::default(),
            stranded: ConnectorsAndTasks::default(),
        }
    }

    pub fn node(&self) -> NodeId {
        NodeId::Client(self.idx)
    }

    pub fn is_leader(&self) -> bool {
        self.membership.is_leader()
    }

    pub(crate) fn note(&self, note: Note, out: &mut Out) {
        out.emit(EventKind::Note { node: self.node(), note });
    }

    /// The herder starts: it joins the group on its first tick.
    pub fn start(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.drive(ctx, out);
    }

    /// `rejoinNeededOrPending`: also true while the worker holds no usable assignment.
    fn rejoin_needed_or_pending(&self) -> bool {
        self.membership.rejoin_needed
            || self.membership.state == MemberState::UNJOINED
            || self.assignment_snapshot.as_ref().is_none_or(|a| a.failed())
    }

    /// One pass of the herder's tick: find the coordinator, (re)join when needed.
    fn tick(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.fatal.is_some() {
            return;
        }
        let Some(coordinator) = self.membership.coordinator else {
            return self.find_coordinator(ctx, out);
        };
        if !self.rejoin_needed_or_pending()
            || crate::sim::client::abstract_coordinator::rebalance_in_flight(&self.membership.in_flight)
        {
            return;
        }
        if ctx.now < self.membership.join_retry_at {
            return out.set_timer(ClientTimer::Backoff(Retry::JoinGroup), self.membership.join_retry_at);
        }
        if self.membership.needs_join_prepare {
            self.on_join_prepare(out);
        }
        self.send_join_group(ctx, coordinator, out);
    }

    /// `onJoinPrepare`: eager revokes everything; cooperative keeps it until told.
    fn on_join_prepare(&mut self, out: &mut Out) {
        self.membership.needs_join_prepare = false;
        if self.current_protocol.is_incremental() {
            return;
        }
        if let Some(a) = self.assignment_snapshot.clone().filter(|a| !a.failed()) {
            self.on_revoked(&a.connectors, &a.tasks, Trigger::EagerRebalanceStopsAll, out);
        }
    }

    /// FindCoordinator to the bootstrap brokers in turn (no reconnect backoff).
    fn find_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !self.membership.has_in_flight(ApiKey::FindCoordinator) {
            let Ok(broker) = coordinator_lookup::next_broker(None, &mut self.membership.bootstrap_cursor, ctx) else {
                return;
            };
            self.send(ctx, broker, Request::FindCoordinator { key: self.group_id.clone() }, false, out);
        }
    }

    /// WorkerCoordinator `metadata()`: one protocol per advertised Connect
    /// protocol (`ConnectProtocolCompatibility`), with this worker's URL, config
    /// offset and, for the incremental ones, its assignment.
    fn join_protocols(&self) -> Vec<JoinProtocol> {
        self.config
            .connect_protocol
            .advertised()
            .iter()
            .map(|mode| JoinProtocol {
                name: mode.protocol().into(),
                metadata: ProtocolMetadata {
                    topics: Vec::new(),
                    owned_partitions: Vec::new(),
                    generation_id: self.membership.generation,
                    rack_id: None,
                    connect: Some(ConnectProtocolMetadata {
                        url: self.url.clone(),
                        config_offset: self.config_snapshot.offset,
                        assignment: if mode.is_incremental() { self.assignment_snapshot.clone() } else { None },
                    }),
                    streams: None,
                },
            })
            .collect()
    }

    /// Discovery did not succeed within heartbeat.interval.ms (WC `poll`).
    pub(crate) fn coordinator_discovery_timeout(&mut self, out: &mut Out) {
        if self.membership.coordinator.is_some() {
            return;
        }
        if let Some(a) = self.assignment_snapshot.take().filter(|a| !a.failed()) {
            let why = Trigger::CoordinatorUnreachable { interval_ms: self.config.heartbeat_interval_ms };
            self.on_revoked(&a.connectors, &a.tasks, why, out);
        }
    }
}

/// WorkerCoordinator extends AbstractCoordinator.
impl AbstractCoordinator for ConnectWorker {
    fn membership(&self) -> &Membership {
        &self.membership
    }

    fn membership_mut(&mut self) -> &mut Membership {
        &mut self.membership
    }

    fn member_node(&self) -> NodeId {
        self.node()
    }

    /// A worker has no static membership (no group.instance.id).
    fn rebalance_config(&self) -> GroupRebalanceConfig<'_> {
        let c = &self.config;
        GroupRebalanceConfig {
            group_id: &self.group_id,
            client_id: &self.client_id,
            group_instance_id: None,
            session_timeout_ms: c.session_timeout_ms,
            rebalance_timeout_ms: c.rebalance_timeout_ms,
            heartbeat_interval_ms: c.heartbeat_interval_ms,
            retry_backoff_ms: c.retry_backoff_ms,
            retry_backoff_max_ms: c.retry_backoff_max_ms,
            request_timeout_ms: c.request_timeout_ms,
        }
    }

    fn protocol_type(&self) -> &'static str {
        "connect"
    }

    fn metadata(&self) -> Vec<JoinProtocol> {
        self.join_protocols()
    }

    /// The worker looks the coordinator up on its next tick.
    fn ensure_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.tick(ctx, out);
    }

    fn drive(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.tick(ctx, out);
    }

    /// WorkerCoordinator gives discovery one heartbeat.interval.ms before it
    /// revokes everything it runs (`poll`, `coordinatorDiscoveryTimeoutMs`).
    fn on_coordinator_unknown(&mut self, ctx: &Ctx, out: &mut Out) {
        out.set_timer(ConnectTimer::CoordinatorDiscovery, ctx.now + self.config.heartbeat_interval_ms);
    }

    /// The herder's tick goes on (`WorkerCoordinator.poll` runs in it).
    fn after_heartbeat(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.tick(ctx, out);
    }

    fn rejoins_on_next_poll(&self) -> bool {
        false
    }

    /// `WorkerCoordinator.poll` throws to the herder's tick, which stops.
    fn raise_fatal(&mut self, ctx: &Ctx, error: Errors, why: ClientReason, out: &mut Out) {
        self.fatal = Some(error.to_string());
        self.note(Note::FatalHerderStops { why: why.clone() }, out);
        self.transition_to(ctx, MemberState::UNJOINED, Trigger::Client(why), out);
    }
}
