//! How a Connect worker reacts to responses, request failures and timers
//! (AC's response handlers as WorkerCoordinator inherits them), and the leader's assignment (WorkerCoordinator `onLeaderElected`).

use crate::connect::incremental_assignor::WorkerLoad;
use crate::connect::{eager_assignor, ConnectAssignment, ConnectProtocolCompatibility, ConnectorsAndTasks};
use crate::java;
use crate::sim::client::abstract_coordinator::AbstractCoordinator;
use crate::sim::client::abstract_coordinator::{requests_to, take_in_flight};
use crate::sim::client::coordinator_lookup;
use crate::sim::connect::worker::ConnectWorker;
use crate::sim::ctx::Ctx;
use crate::sim::message::{JoinGroupResponse, Response};
use crate::sim::node::{Handled, Misrouted};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, ConnectTimer, Out, Retry, TimerKey};
use crate::sim::reason::ClientReason;
use crate::sim::types::Errors;

impl ConnectWorker {
    /// The membership's client timers and the herder's own; a consumer's
    /// poll timers, a broker's or a group's here are misrouted.
    pub fn handle_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) -> Handled {
        match key {
            TimerKey::Client(ClientTimer::Heartbeat) => self.heartbeat_tick(ctx, out),
            TimerKey::Client(ClientTimer::Backoff(_)) => self.drive(ctx, out),
            TimerKey::Connect(ConnectTimer::CoordinatorDiscovery) => self.coordinator_discovery_timeout(out),
            TimerKey::Connect(ConnectTimer::ScheduledRebalance) => {
                self.scheduled_rebalance = None;
                self.membership.rejoin_needed = true;
                self.note(Note::ScheduledRebalanceElapsed, out);
                self.drive(ctx, out);
            }
            TimerKey::Client(ClientTimer::RequestTimeout { correlation }) => {
                if self.membership.in_flight.contains_key(correlation) {
                    self.note(Note::RequestTimedOut, out);
                    self.request_failed(ctx, *correlation, out);
                }
            }
            TimerKey::Client(ClientTimer::Poll | ClientTimer::PollTimeout)
            | TimerKey::Broker(_)
            | TimerKey::Group(_) => return Err(Misrouted::timer(key)),
        }
        Ok(())
    }

    pub fn handle_disconnect(&mut self, ctx: &mut Ctx, correlation: u64, out: &mut Out) {
        self.request_failed(ctx, correlation, out);
    }

    /// Every in-flight request to `broker` fails (the broker went down).
    pub fn connection_lost(&mut self, ctx: &mut Ctx, broker: u32, out: &mut Out) {
        for c in requests_to(&self.membership.in_flight, broker) {
            self.request_failed(ctx, c, out);
        }
    }

    pub fn handle_response(&mut self, ctx: &mut Ctx, correlation: u64, response: Response, out: &mut Out) {
        let Some(f) = take_in_flight(&mut self.membership.in_flight, correlation, out) else { return };
        let error = response.error();
        if error == Errors::NONE {
            self.membership.backoff_attempts = 0;
        }
        match response {
            Response::FindCoordinator { error: Errors::NONE, node_id: Some(n) } => {
                let me = self.node();
                coordinator_lookup::found(&mut self.membership.coordinator, me, &self.group_id, n, out);
                self.membership.last_heartbeat_ok = ctx.now;
                out.cancel_timer(ConnectTimer::CoordinatorDiscovery);
                self.drive(ctx, out);
            }
            Response::FindCoordinator { .. } => {
                let wait = self.backoff_ms();
                out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), ctx.now + wait);
            }
            Response::JoinGroup(r) => self.on_joined(ctx, r, out),
            Response::SyncGroup { error: Errors::NONE, connect_assignment, .. } => {
                self.on_synced(ctx, connect_assignment, out)
            }
            Response::Heartbeat { error } => self.heartbeat_answered(ctx, error, f.generation, out),
            Response::LeaveGroup { .. }
            | Response::OffsetCommit { .. }
            | Response::OffsetFetch { .. }
            | Response::ConsumerGroupHeartbeat(_)
            | Response::Fetch { .. }
            | Response::ShareGroupHeartbeat(_)
            | Response::StreamsGroupHeartbeat(_)
            | Response::ShareFetch(_)
            | Response::ShareAcknowledge(_) => {}
            Response::SyncGroup { .. } => {
                self.join_failed(ctx, f.api, Some(error), ClientReason::Response { api: f.api, error }, out)
            }
        }
    }

    fn on_joined(&mut self, ctx: &mut Ctx, r: JoinGroupResponse, out: &mut Out) {
        let Some(coordinator) = self.join_answered(ctx, &r, out) else { return };
        let connect_assignments = if self.is_leader() { self.perform_assignment(ctx, &r, out) } else { Vec::new() };
        self.send_sync_group(ctx, coordinator, Vec::new(), connect_assignments, Vec::new(), out);
    }

    /// WC `onLeaderElected`: the eager or the incremental cooperative assignor,
    /// by the protocol the group chose.
    fn perform_assignment(
        &mut self,
        ctx: &Ctx,
        r: &JoinGroupResponse,
        out: &mut Out,
    ) -> Vec<(String, ConnectAssignment)> {
        let mode = r
            .protocol_name
            .as_deref()
            .and_then(ConnectProtocolCompatibility::from_protocol)
            .unwrap_or(ConnectProtocolCompatibility::EAGER);
        // The leader's HashMap<memberId, ExtendedWorkerState>.
        let order = java::member_map_order(r.members.iter().map(|m| m.member_id.as_str()));
        let metadata = |id: &str| r.members.iter().find(|m| m.member_id == id).and_then(|m| m.metadata.connect.clone());
        let max_offset = order.iter().filter_map(|id| metadata(id)).map(|m| m.config_offset).max().unwrap_or(0);
        let leader_url = metadata(&self.membership.member_id).map(|m| m.url).unwrap_or_default();
        let base = ConnectAssignment {
            version: mode.protocol_version(),
            error: crate::connect::protocol::NO_ERROR,
            leader: self.membership.member_id.clone(),
            leader_url,
            config_offset: max_offset,
            connectors: Vec::new(),
            tasks: Vec::new(),
            revoked_connectors: Vec::new(),
            revoked_tasks: Vec::new(),
            delay: 0,
        };
        let assignments: Vec<(String, ConnectAssignment)> = if mode.is_incremental() {
            let loads: Vec<WorkerLoad> = order
                .iter()
                .map(|id| {
                    let a = metadata(id).and_then(|m| m.assignment).unwrap_or_else(|| base.clone());
                    WorkerLoad {
                        worker: id.clone(),
                        load: ConnectorsAndTasks { connectors: a.connectors, tasks: a.tasks },
                    }
                })
                .collect();
            self.assignor.max_delay = self.config.scheduled_rebalance_max_delay_ms;
            let c = self.assignor.perform_task_assignment(
                ctx.now,
                &self.config_snapshot,
                self.last_completed_generation,
                self.membership.generation,
                &loads,
            );
            order
                .iter()
                .map(|id| {
                    let (new, revoked) = (
                        c.newly_assigned.get(id).cloned().unwrap_or_default(),
                        c.newly_revoked.get(id).cloned().unwrap_or_default(),
                    );
                    let a = ConnectAssignment {
                        connectors: new.connectors,
                        tasks: new.tasks,
                        revoked_connectors: revoked.connectors,
                        revoked_tasks: revoked.tasks,
                        delay: self.assignor.delay,
                        ..base.clone()
                    };
                    (id.clone(), a)
                })
                .collect()
        } else {
            let e = eager_assignor::perform_task_assignment(&self.config_snapshot, &order);
            order
                .iter()
                .map(|id| {
                    (
                        id.clone(),
                        ConnectAssignment {
                            connectors: e[id].connectors.clone(),
                            tasks: e[id].tasks.clone(),
                            ..base.clone()
                        },
                    )
                })
                .collect()
        };
        let shown = assignments.iter().map(|(m, a)| (crate::sim::message::short_member(m), a.clone())).collect();
        let name = if mode.is_incremental() { "IncrementalCooperativeAssignor" } else { "EagerAssignor" };
        self.note(Note::ConnectLeaderRan { assignor: name.to_string(), assignments: shown }, out);
        assignments
    }

    fn on_synced(&mut self, ctx: &mut Ctx, assignment: Option<ConnectAssignment>, out: &mut Out) {
        if !self.synced(ctx, out) {
            return;
        }
        let a = assignment.unwrap_or_else(|| ConnectAssignment {
            version: 0,
            error: crate::connect::protocol::CONFIG_MISMATCH,
            leader: String::new(),
            leader_url: String::new(),
            config_offset: -1,
            connectors: Vec::new(),
            tasks: Vec::new(),
            revoked_connectors: Vec::new(),
            revoked_tasks: Vec::new(),
            delay: 0,
        });
        self.on_join_complete(ctx, a, out);
        self.drive(ctx, out);
    }
}

crate::sim::node::client_node!(ConnectWorker);
