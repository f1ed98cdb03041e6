//! The share consumer's group membership: coordinator discovery, then
//! ShareGroupHeartbeat every `share.heartbeat.interval.ms`
//! (`ShareHeartbeatRequestManager`, `ShareMembershipManager`). A new
//! assignment is taken as it comes (no revocation, no callbacks): RECONCILING,
//! ACKNOWLEDGING, and STABLE once the next heartbeat acknowledges it.

use super::{ShareConsumer, RETRY_BACKOFF_MS};
use crate::sim::client::consumer::MemberState;
use crate::sim::client::coordinator_lookup::{found, next_broker};
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, Request};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out};
use crate::sim::reason::ClientReason;
use crate::sim::share_message::{ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse};
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, Millis};

impl ShareConsumer {
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
                if !self.has_in_flight(ApiKey::ShareGroupHeartbeat) {
                    let epoch = if self.state == MemberState::JOINING { 0 } else { self.member_epoch };
                    self.send_heartbeat(ctx.now, b, epoch, out);
                    if self.state == MemberState::ACKNOWLEDGING {
                        self.transition_to(MemberState::STABLE, Trigger::AcknowledgedAssignment, out);
                    }
                }
            }
        }
    }

    /// `ShareHeartbeatRequestManager.HeartbeatState.buildRequestData`: the
    /// subscription goes with a join (epoch 0, JOINING) and with the first
    /// heartbeat after a failure reset the sent fields — a full request,
    /// which the coordinator answers with the member's whole assignment
    /// (`GroupMetadataManager.shareGroupHeartbeat`). The leave (epoch −1)
    /// names no topics.
    pub(crate) fn send_heartbeat(&mut self, now: Millis, broker: u32, epoch: i32, out: &mut Out) {
        let full = epoch == 0 || (epoch > 0 && !self.sent_subscription);
        if full {
            self.sent_subscription = true;
        }
        let req = ShareGroupHeartbeatRequest {
            group_id: self.group_id.clone(),
            member_id: self.member_id.clone(),
            member_epoch: epoch,
            rack_id: None,
            subscribed_topic_names: full.then(|| self.topics.clone()),
        };
        self.send(now, broker, Request::ShareGroupHeartbeat(req), out);
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

    /// `ShareHeartbeatRequestManager.onResponse` / `onErrorResponse`.
    pub(crate) fn on_heartbeat(&mut self, ctx: &mut Ctx, r: ShareGroupHeartbeatResponse, out: &mut Out) {
        if self.closing {
            return;
        }
        if r.error != Errors::NONE {
            // `AbstractHeartbeatRequestManager.onErrorResponse` resets the
            // heartbeat state first, whatever the error.
            self.sent_subscription = false;
        }
        match r.error {
            Errors::NONE => {
                self.member_epoch = r.member_epoch;
                self.heartbeat_interval_ms = r.heartbeat_interval_ms.max(0) as u64;
                let mut next = ctx.now + self.heartbeat_interval_ms;
                if let Some(mut a) = r.assignment {
                    a.sort();
                    if a != self.assignment || self.state == MemberState::JOINING {
                        self.transition_to(
                            MemberState::RECONCILING,
                            Trigger::NewTargetAssignment { partitions: a.clone() },
                            out,
                        );
                        self.assignment = a;
                        self.transition_to(MemberState::ACKNOWLEDGING, Trigger::ReconciledNewAssignment, out);
                        next = ctx.now;
                    }
                }
                out.set_timer(ClientTimer::Heartbeat, next);
            }
            Errors::NOT_COORDINATOR | Errors::COORDINATOR_NOT_AVAILABLE => {
                if let Some(broker) = self.coordinator.take() {
                    let reason = ClientReason::Answered { api: ApiKey::ShareGroupHeartbeat, error: r.error };
                    out.emit(EventKind::Note { node: self.node(), note: Note::CoordinatorUnknown { broker, reason } });
                }
                out.set_timer(ClientTimer::Heartbeat, ctx.now + RETRY_BACKOFF_MS);
            }
            Errors::COORDINATOR_LOAD_IN_PROGRESS => out.set_timer(ClientTimer::Heartbeat, ctx.now + RETRY_BACKOFF_MS),
            Errors::FENCED_MEMBER_EPOCH | Errors::UNKNOWN_MEMBER_ID => {
                // transitionToFenced: the assignment is dropped, then a rejoin at epoch 0.
                self.transition_to(MemberState::FENCED, Trigger::HeartbeatError { error: r.error }, out);
                self.assignment.clear();
                self.member_epoch = 0;
                self.transition_to(MemberState::JOINING, Trigger::RejoiningAfterFenced, out);
                out.set_timer(ClientTimer::Heartbeat, ctx.now);
            }
            error => {
                // GROUP_ID_NOT_FOUND, GROUP_MAX_SIZE_REACHED, INVALID_REQUEST...: raised to the application.
                self.transition_to(MemberState::FATAL, Trigger::Fatal { error }, out);
                self.fatal = Some(error.to_string());
                self.assignment.clear();
                let note = Note::FatalToApplication { error };
                out.emit(EventKind::Note { node: self.node(), note });
            }
        }
    }
}
