//! The stream thread's group membership: coordinator discovery, then
//! StreamsGroupHeartbeat every `streams.heartbeat.interval.ms` as the
//! coordinator says (`StreamsGroupHeartbeatRequestManager`,
//! `StreamsMembershipManager`): the topology on join, the owned tasks when
//! they changed, the shutdown request; statuses and new assignments on the
//! answer.

use super::{StreamsThread, RETRY_BACKOFF_MS};
use crate::sim::client::consumer::MemberState;
use crate::sim::client::coordinator_lookup::{found, next_broker};
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, Request};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out};
use crate::sim::reason::ClientReason;
use crate::sim::streams_message::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, StreamsStatus};
use crate::sim::streams_note::StreamsNote;
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, Millis};

impl StreamsThread {
    /// The heartbeat timer: find the coordinator, or send the next heartbeat.
    pub(crate) fn heartbeat_tick(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.fatal.is_some() || self.closing {
            return;
        }
        match self.coordinator {
            None => {
                if !self.has_in_flight(ApiKey::FindCoordinator) {
                    if let Ok(b) = next_broker(None, &mut self.bootstrap_cursor, ctx) {
                        self.send(ctx.now, b, Request::FindCoordinator { key: self.group_id.clone() }, out);
                    }
                }
            }
            Some(b) => {
                if !self.has_in_flight(ApiKey::StreamsGroupHeartbeat) {
                    let epoch = if self.state == MemberState::JOINING { 0 } else { self.member_epoch };
                    self.send_heartbeat(ctx.now, b, epoch, out);
                    if self.state == MemberState::ACKNOWLEDGING {
                        self.transition_to(MemberState::STABLE, Trigger::AcknowledgedAssignment, out);
                    }
                }
            }
        }
    }

    /// `StreamsGroupHeartbeatRequestManager.buildRequestData`: a join carries
    /// the topology, the process id, the rebalance timeout and empty task
    /// lists; later heartbeats carry the owned tasks when they changed.
    pub(crate) fn send_heartbeat(&mut self, now: Millis, broker: u32, epoch: i32, out: &mut Out) {
        let join = epoch == 0;
        let report = join || (epoch > 0 && self.reported.as_ref() != Some(&self.owned));
        let tasks = if join { Default::default() } else { self.owned.clone() };
        let req = StreamsGroupHeartbeatRequest {
            group_id: self.group_id.clone(),
            member_id: self.member_id.clone(),
            client_id: self.name(),
            member_epoch: epoch,
            instance_id: self.instance_id(),
            rack_id: None,
            rebalance_timeout_ms: if join { self.config.max_poll_interval_ms as i32 } else { -1 },
            topology: join.then(|| self.topology.clone()),
            process_id: join.then(|| self.process_id.clone()),
            active_tasks: report.then(|| tasks.active.clone()),
            standby_tasks: report.then(|| tasks.standby.clone()),
            warmup_tasks: report.then(|| tasks.warmup.clone()),
            shutdown_application: self.shutdown_request,
        };
        if report && epoch >= 0 {
            self.reported = Some(tasks);
        }
        self.send(now, broker, Request::StreamsGroupHeartbeat(Box::new(req)), out);
    }

    pub(crate) fn on_find_coordinator(&mut self, ctx: &mut Ctx, error: Errors, node: Option<u32>, out: &mut Out) {
        match (error, node) {
            (Errors::NONE, Some(b)) => {
                let me = self.node();
                found(&mut self.coordinator, me, &self.group_id, b, out);
                out.set_timer(ClientTimer::Heartbeat, ctx.now);
            }
            _ => out.set_timer(ClientTimer::Heartbeat, ctx.now + RETRY_BACKOFF_MS),
        }
    }

    /// `StreamsGroupHeartbeatRequestManager.onResponse` / `onErrorResponse`.
    pub(crate) fn on_heartbeat(&mut self, ctx: &mut Ctx, r: StreamsGroupHeartbeatResponse, out: &mut Out) {
        if self.closing {
            return;
        }
        if r.error != Errors::NONE {
            self.reported = None;
        }
        match r.error {
            Errors::NONE => {
                self.member_epoch = r.member_epoch;
                self.heartbeat_interval_ms = r.heartbeat_interval_ms.max(0) as u64;
                let statuses: Vec<StreamsStatus> = r.status.iter().map(|s| s.code).collect();
                if statuses != self.statuses {
                    self.statuses = statuses.clone();
                    self.note(StreamsNote::StatusReceived { client: self.name(), statuses }, out);
                }
                if self.statuses.contains(&StreamsStatus::SHUTDOWN_APPLICATION) {
                    // The whole application shuts down: this thread closes and leaves.
                    self.note(StreamsNote::ShuttingDown { client: self.name() }, out);
                    self.close(ctx, out);
                    return;
                }
                let mut next = ctx.now + self.heartbeat_interval_ms;
                if let Some(a) = r.assignment {
                    if a != self.owned || self.state == MemberState::JOINING {
                        self.new_assignment(ctx, a, out);
                        next = ctx.now;
                    }
                }
                // An assignment reconciled, or tasks released since the last
                // report: acknowledge at once rather than at the next interval.
                if self.state == MemberState::ACKNOWLEDGING || self.reported.as_ref() != Some(&self.owned) {
                    next = ctx.now;
                }
                out.set_timer(ClientTimer::Heartbeat, next);
            }
            Errors::NOT_COORDINATOR | Errors::COORDINATOR_NOT_AVAILABLE => {
                if let Some(broker) = self.coordinator.take() {
                    let reason = ClientReason::Answered { api: ApiKey::StreamsGroupHeartbeat, error: r.error };
                    out.emit(EventKind::Note { node: self.node(), note: Note::CoordinatorUnknown { broker, reason } });
                }
                out.set_timer(ClientTimer::Heartbeat, ctx.now + RETRY_BACKOFF_MS);
            }
            Errors::COORDINATOR_LOAD_IN_PROGRESS => out.set_timer(ClientTimer::Heartbeat, ctx.now + RETRY_BACKOFF_MS),
            Errors::FENCED_MEMBER_EPOCH | Errors::UNKNOWN_MEMBER_ID => {
                // transitionToFenced: onAllTasksLost, then a rejoin at epoch 0.
                self.transition_to(MemberState::FENCED, Trigger::HeartbeatError { error: r.error }, out);
                let lost = super::tasks::names_of(&self.owned);
                if !lost.is_empty() {
                    self.note(StreamsNote::AllTasksLost { client: self.name(), tasks: lost }, out);
                }
                self.clear_tasks();
                self.member_epoch = 0;
                self.transition_to(MemberState::JOINING, Trigger::RejoiningAfterFenced, out);
                out.set_timer(ClientTimer::Heartbeat, ctx.now);
            }
            error => {
                // INVALID_REQUEST (a topology update), GROUP_ID_NOT_FOUND,
                // UNRELEASED_INSTANCE_ID...: raised to the application, which stops.
                self.transition_to(MemberState::FATAL, Trigger::Fatal { error }, out);
                self.fatal =
                    Some(r.error_message.clone().map_or_else(|| error.to_string(), |m| format!("{error}: {m}")));
                self.clear_tasks();
                out.emit(EventKind::Note { node: self.node(), note: Note::FatalToApplication { error } });
            }
        }
    }
}
