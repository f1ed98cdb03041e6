//! The consumer-protocol client's background thread: coordinator discovery
//! (CoordinatorRequestManager), the heartbeat request manager
//! (`AbstractHeartbeatRequestManager`, `ConsumerHeartbeatRequestManager.HeartbeatState`)
//! and how the membership manager reacts to each response and error.

use crate::assign::TopicPartition;
use crate::sim::client::consumer::{AsyncConsumer, LocalAssignment, MemberState, Pending, SentFields};
use crate::sim::client::coordinator_lookup;
use crate::sim::client::poll_loop::MainThread;
use crate::sim::ctx::Ctx;
use crate::sim::message::{
    ApiKey, Body, ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, Request, Response,
};
use crate::sim::node::{Handled, Misrouted};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out, Retry, TimerKey};
use crate::sim::reason::ClientReason;
use crate::sim::state_machine::StateMachine;
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, NodeId};

impl AsyncConsumer {
    pub(crate) fn send(&mut self, ctx: &Ctx, broker: u32, request: Request, out: &mut Out) -> u64 {
        self.link.next_correlation += 1;
        let correlation = self.link.next_correlation;
        let member_epoch = match &request {
            Request::ConsumerGroupHeartbeat(r) => r.member_epoch,
            _ => self.member_epoch,
        };
        let pending = Pending { broker, api: request.api_key(), member_epoch, before_revocation: false };
        self.link.in_flight.insert(correlation, pending);
        out.set_timer(ClientTimer::RequestTimeout { correlation }, ctx.now + self.config.request_timeout_ms);
        out.send(NodeId::Broker(broker), Body::Request { correlation, request });
        correlation
    }

    pub(crate) fn has_in_flight(&self, api: ApiKey) -> bool {
        self.link.in_flight.values().any(|p| p.api == api)
    }

    /// FindCoordinator to the next bootstrap broker, unless one is in flight.
    pub(crate) fn ensure_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.link.coordinator.is_some() || self.has_in_flight(ApiKey::FindCoordinator) {
            return;
        }
        // leastLoadedNode: the next broker not in reconnect backoff.
        let link = &mut self.link;
        match coordinator_lookup::next_broker(Some(&link.connections), &mut link.bootstrap_cursor, ctx) {
            Ok(broker) => {
                self.send(ctx, broker, Request::FindCoordinator { key: self.group_id.clone() }, out);
            }
            Err(at) => out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), at),
        }
    }

    pub(crate) fn mark_coordinator_unknown(&mut self, reason: ClientReason, out: &mut Out) {
        if let Some(c) = self.link.coordinator.take() {
            let note = Note::CoordinatorUnknown { broker: c, reason };
            out.emit(EventKind::Note { node: self.node(), note });
        }
    }

    /// The heartbeat request manager's `poll` (`AbstractHeartbeatRequestManager.poll`):
    /// nothing while the coordinator is unknown (a pending leave is then given up,
    /// `onHeartbeatRequestSkipped`); an expired poll timer sends the leave at once;
    /// a leave goes at once even with a heartbeat in flight; otherwise at most one
    /// heartbeat in flight, sent when the broker's interval elapsed, or at once
    /// while JOINING or ACKNOWLEDGING, never during a retry backoff.
    pub(crate) fn maybe_heartbeat(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.state.is_not_in_group() {
            return;
        }
        let Some(coordinator) = self.link.coordinator else {
            if self.state == MemberState::LEAVING {
                self.transition_to(MemberState::UNSUBSCRIBED, Trigger::LeaveNotSent, out);
                return;
            }
            self.ensure_coordinator(ctx, out);
            return;
        };
        if self.poll_timer_expired && !matches!(self.state, MemberState::PREPARE_LEAVING | MemberState::LEAVING) {
            self.leave_on_expired_poll_timer(out);
        }
        let leaving = self.state == MemberState::LEAVING;
        if !leaving && self.has_in_flight(ApiKey::ConsumerGroupHeartbeat) {
            return;
        }
        let now_states = matches!(self.state, MemberState::JOINING | MemberState::ACKNOWLEDGING);
        let due = if now_states { ctx.now } else { self.next_heartbeat_at };
        let at = due.max(self.heartbeat_backoff_until);
        if !leaving && at > ctx.now {
            out.set_timer(ClientTimer::Heartbeat, at);
            return;
        }
        let request = self.build_heartbeat();
        self.send(ctx, coordinator, Request::ConsumerGroupHeartbeat(request), out);
        self.next_heartbeat_at = ctx.now + self.heartbeat_interval_ms;
        // onHeartbeatRequestGenerated.
        match self.state {
            MemberState::ACKNOWLEDGING if self.current == self.target => {
                self.transition_to(MemberState::STABLE, Trigger::AcknowledgedAssignment, out)
            }
            MemberState::ACKNOWLEDGING => {
                self.transition_to(MemberState::RECONCILING, Trigger::NewerTargetWaiting, out)
            }
            MemberState::LEAVING if self.poll_timer_expired => self.transition_to_stale(out),
            MemberState::LEAVING => self.transition_to(MemberState::UNSUBSCRIBED, Trigger::LeftGroup, out),
            _ => {}
        }
        if self.heartbeat_interval_ms > 0 && !self.state.is_not_in_group() {
            out.set_timer(ClientTimer::Heartbeat, self.next_heartbeat_at);
        }
    }

    /// `HeartbeatState.buildRequestData`: the changeable fields only when they
    /// changed since the last heartbeat, all of them while JOINING.
    fn build_heartbeat(&mut self) -> ConsumerGroupHeartbeatRequest {
        let all = self.state == MemberState::JOINING;
        let sent = &mut self.sent;
        let mut req = ConsumerGroupHeartbeatRequest {
            group_id: self.group_id.clone(),
            member_id: self.member_id.clone(),
            member_epoch: self.member_epoch,
            instance_id: self.config.group_instance_id.clone(),
            rebalance_timeout_ms: -1,
            ..ConsumerGroupHeartbeatRequest::default()
        };
        let rebalance_timeout = self.config.max_poll_interval_ms.min(i32::MAX as u64) as i32;
        if all || sent.rebalance_timeout_ms != Some(rebalance_timeout) {
            req.rebalance_timeout_ms = rebalance_timeout;
            sent.rebalance_timeout_ms = Some(rebalance_timeout);
        }
        let mut topics = self.config.topics.clone();
        topics.sort();
        topics.dedup();
        if all || sent.subscribed_topic_names.as_ref() != Some(&topics) {
            req.subscribed_topic_names = Some(topics.clone());
            sent.subscribed_topic_names = Some(topics);
        }
        if let Some(a) = &self.config.group_remote_assignor {
            if all || sent.server_assignor.as_ref() != Some(a) {
                req.server_assignor = Some(a.clone());
                sent.server_assignor = Some(a.clone());
            }
        }
        if all || sent.local_assignment.as_ref() != Some(&self.current) {
            req.topic_partitions = Some(self.current.as_ref().map(|c| c.partitions.clone()).unwrap_or_default());
            sent.local_assignment = Some(self.current.clone());
        }
        req
    }

    /// A client's timers; a broker's, a group's or a worker's here is misrouted.
    pub fn handle_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) -> Handled {
        let TimerKey::Client(timer) = key else { return Err(Misrouted::timer(key)) };
        match timer {
            ClientTimer::Poll => self.poll(ctx, out),
            ClientTimer::PollTimeout => self.poll_timeout(ctx, out),
            ClientTimer::Heartbeat => self.maybe_heartbeat(ctx, out),
            ClientTimer::Backoff(_) => {
                self.ensure_coordinator(ctx, out);
                self.maybe_heartbeat(ctx, out);
                self.drive(ctx, out);
            }
            ClientTimer::RequestTimeout { correlation } if crate::sim::client::fetcher::is_fetch(*correlation) => {
                self.fetcher.on_failure(ctx, *correlation, &self.config, &mut self.link.connections, out);
            }
            ClientTimer::RequestTimeout { correlation } => {
                self.request_failed(ctx, *correlation, Some(Note::RequestTimedOut), out)
            }
        }
        Ok(())
    }

    /// The connection broke under a request (`onFailure`).
    pub fn handle_disconnect(&mut self, ctx: &mut Ctx, correlation: u64, out: &mut Out) {
        if crate::sim::client::fetcher::is_fetch(correlation) {
            self.fetcher.on_failure(ctx, correlation, &self.config, &mut self.link.connections, out);
            return;
        }
        self.request_failed(ctx, correlation, None, out);
    }

    /// The broker went down: each of its in-flight requests fails.
    pub fn connection_lost(&mut self, ctx: &mut Ctx, broker: u32, out: &mut Out) {
        self.link.connections.disconnected(broker, ctx.now, &self.config);
        for c in self.fetcher.pending_to(broker) {
            self.fetcher.on_failure(ctx, c, &self.config, &mut self.link.connections, out);
        }
        let to_broker: Vec<u64> =
            self.link.in_flight.keys().copied().filter(|c| self.link.in_flight[c].broker == broker).collect();
        to_broker.into_iter().for_each(|c| self.request_failed(ctx, c, None, out));
    }

    /// A request failed without a response: rediscover the coordinator; a
    /// heartbeat is retried after a backoff with all its fields.
    fn request_failed(&mut self, ctx: &mut Ctx, correlation: u64, note: Option<Note>, out: &mut Out) {
        let Some(p) = self.link.in_flight.remove(&correlation) else { return };
        if let Some(note) = note {
            out.emit(EventKind::Note { node: self.node(), note });
        }
        out.cancel_timer(ClientTimer::RequestTimeout { correlation });
        self.link.connections.disconnected(p.broker, ctx.now, &self.config);
        let wait = crate::sim::client::poll_loop::backoff_ms(&self.config, &mut self.link.backoff_attempts);
        if p.api == ApiKey::FindCoordinator {
            out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), ctx.now + wait);
            return;
        }
        self.mark_coordinator_unknown(ClientReason::RequestFailed { api: p.api, broker: p.broker }, out);
        if p.before_revocation {
            self.reconcile_commit.retry_at = ctx.now + wait;
        }
        if let Some(mode) = self.app_commits.remove(&correlation) {
            self.on_app_commit(ctx, mode, None, out);
        }
        if p.api == ApiKey::ConsumerGroupHeartbeat {
            self.sent = SentFields::default();
            self.heartbeat_failed_attempt(ctx);
        }
        self.maybe_heartbeat(ctx, out);
        self.drive(ctx, out);
    }

    /// The commit before a revocation failed but may be retried: not before
    /// `retry.backoff.ms` (growing), at the application's next pass through poll().
    fn retry_reconcile_commit_later(&mut self, ctx: &Ctx) {
        let wait = crate::sim::client::poll_loop::backoff_ms(&self.config, &mut self.link.backoff_attempts);
        self.reconcile_commit.retry_at = ctx.now + wait;
    }

    pub fn handle_response(&mut self, ctx: &mut Ctx, correlation: u64, response: Response, out: &mut Out) {
        if crate::sim::client::fetcher::is_fetch(correlation) {
            let parts = crate::sim::client::poll_loop::FetchParts {
                fetcher: &mut self.fetcher,
                positions: &self.positions,
                connections: &mut self.link.connections,
                main: &self.main,
            };
            return crate::sim::client::poll_loop::on_fetch_response(ctx, parts, correlation, response, out);
        }
        let Some(p) = self.link.in_flight.remove(&correlation) else { return };
        out.cancel_timer(ClientTimer::RequestTimeout { correlation });
        let error = response.error();
        self.link.connections.ready(p.broker);
        if error == Errors::NONE {
            self.link.backoff_attempts = 0;
        }
        let coordinator_error = matches!(error, Errors::NOT_COORDINATOR | Errors::COORDINATOR_NOT_AVAILABLE);
        if coordinator_error && p.api != ApiKey::FindCoordinator {
            self.mark_coordinator_unknown(ClientReason::Answered { api: p.api, error }, out);
        }
        match response {
            Response::FindCoordinator { error, node_id } => self.on_find_coordinator(ctx, error, node_id, out),
            Response::ConsumerGroupHeartbeat(r) => self.on_heartbeat(ctx, r, p.member_epoch, out),
            Response::OffsetCommit { error, .. } if self.app_commits.contains_key(&correlation) => {
                if error == Errors::REQUEST_TIMED_OUT {
                    let why = ClientReason::Answered { api: ApiKey::OffsetCommit, error: Errors::REQUEST_TIMED_OUT };
                    self.mark_coordinator_unknown(why, out);
                }
                let mode = self.app_commits.remove(&correlation).expect("checked");
                self.on_app_commit(ctx, mode, Some(error), out);
            }
            Response::OffsetCommit { error, .. } => {
                if !matches!(error, Errors::NONE) {
                    out.emit(EventKind::Note { node: self.node(), note: Note::CommitFailed { error } });
                }
                if p.before_revocation {
                    if error != Errors::NONE && self.retries_commit_before_rebalance(Some(error)) {
                        self.retry_reconcile_commit_later(ctx);
                    } else {
                        self.reconcile_commit.done = true;
                    }
                    self.drive(ctx, out);
                }
            }
            Response::OffsetFetch { error, offsets } => {
                if error == Errors::NONE {
                    for (tp, committed) in offsets.into_iter().filter(|(tp, _)| self.owned.contains(tp)) {
                        let start = crate::sim::client::poll_loop::start_offset(ctx, &self.config, &tp, committed);
                        self.positions.insert(tp, start);
                    }
                } else if error == Errors::COORDINATOR_LOAD_IN_PROGRESS {
                    let wait = crate::sim::client::poll_loop::backoff_ms(&self.config, &mut self.link.backoff_attempts);
                    out.set_timer(ClientTimer::Backoff(Retry::OffsetFetch), ctx.now + wait);
                    return;
                }
                self.drive(ctx, out);
            }
            _ => {}
        }
    }

    fn on_find_coordinator(&mut self, ctx: &mut Ctx, error: Errors, node: Option<u32>, out: &mut Out) {
        match (error, node) {
            (Errors::NONE, Some(n)) => {
                let me = self.node();
                coordinator_lookup::found(&mut self.link.coordinator, me, &self.group_id, n, out);
                self.maybe_heartbeat(ctx, out);
                self.drive(ctx, out);
            }
            _ => {
                let wait = crate::sim::client::poll_loop::backoff_ms(&self.config, &mut self.link.backoff_attempts);
                out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), ctx.now + wait);
            }
        }
    }

    /// `HeartbeatRequestState.onFailedAttempt`: the heartbeat timer is reset to
    /// zero and the next attempt waits the exponential retry backoff.
    fn heartbeat_failed_attempt(&mut self, ctx: &Ctx) {
        self.next_heartbeat_at = ctx.now;
        self.heartbeat_backoff_until =
            ctx.now + crate::sim::client::poll_loop::backoff_ms(&self.config, &mut self.heartbeat_attempts);
    }

    /// A heartbeat response. A leave is sent once and its answer ignored.
    fn on_heartbeat(&mut self, ctx: &mut Ctx, r: ConsumerGroupHeartbeatResponse, sent_epoch: i32, out: &mut Out) {
        if sent_epoch < 0 {
            // A heartbeat the member wanted to send meanwhile (it rejoined) goes now.
            self.maybe_heartbeat(ctx, out);
            return;
        }
        if r.error != Errors::NONE {
            self.on_heartbeat_error(ctx, r.error, out);
            return;
        }
        self.heartbeat_attempts = 0;
        // The interval runs from the send; a new interval restarts it from now.
        let interval = r.heartbeat_interval_ms.max(0) as u64;
        if interval > 0 && interval != self.heartbeat_interval_ms {
            self.heartbeat_interval_ms = interval;
            self.next_heartbeat_at = ctx.now + interval;
        }
        // onHeartbeatSuccess: ignored while leaving or out of the group.
        if self.state != MemberState::LEAVING && !self.state.is_not_in_group() {
            // The member id is the client's own (final in AbstractMembershipManager).
            self.member_epoch = r.member_epoch;
            if let Some(a) = r.assignment.filter(|_| self.state.can_handle_new_assignment()) {
                self.process_assignment_received(a, out);
            }
        }
        self.maybe_heartbeat(ctx, out);
        self.drive(ctx, out);
    }

    /// `processAssignmentReceived`: a different target means RECONCILING (the
    /// callbacks run in the next `poll()`); the same one settles a joining member.
    fn process_assignment_received(&mut self, mut partitions: Vec<TopicPartition>, out: &mut Out) {
        partitions.sort();
        if self.target.as_ref().map(|t| &t.partitions) != Some(&partitions) {
            let local_epoch = self.target.as_ref().map_or(0, |t| t.local_epoch + 1);
            self.target = Some(LocalAssignment { local_epoch, partitions });
        }
        if self.current != self.target {
            let partitions = self.target.as_ref().expect("set above").partitions.clone();
            self.transition_to(MemberState::RECONCILING, Trigger::NewTargetAssignment { partitions }, out);
        } else if matches!(self.state, MemberState::RECONCILING | MemberState::JOINING) {
            self.transition_to(MemberState::STABLE, Trigger::TargetAlreadyReconciled, out);
        }
    }

    /// `onErrorResponse` (AbstractHeartbeatRequestManager). Every failed attempt resets the heartbeat
    /// timer to zero (`HeartbeatRequestState.onFailedAttempt`), so the retry does
    /// not wait for the interval: after the retry backoff, or at once for the
    /// coordinator and fencing errors, whose handling resets the backoff too
    /// (`heartbeatRequestState.reset()`).
    fn on_heartbeat_error(&mut self, ctx: &mut Ctx, error: Errors, out: &mut Out) {
        self.sent = SentFields::default();
        self.heartbeat_failed_attempt(ctx);
        match error {
            Errors::NOT_COORDINATOR | Errors::COORDINATOR_NOT_AVAILABLE => {
                self.heartbeat_attempts = 0;
                self.heartbeat_backoff_until = ctx.now;
                self.maybe_heartbeat(ctx, out)
            }
            Errors::COORDINATOR_LOAD_IN_PROGRESS => self.maybe_heartbeat(ctx, out),
            Errors::FENCED_MEMBER_EPOCH | Errors::UNKNOWN_MEMBER_ID if self.fencing_throws() => {}
            Errors::FENCED_MEMBER_EPOCH | Errors::UNKNOWN_MEMBER_ID => {
                self.heartbeat_attempts = 0;
                self.heartbeat_backoff_until = ctx.now;
                self.transition_to_fenced(ctx, error, out)
            }
            e => self.transition_to_fatal(e, out),
        }
    }

    /// True when `transitionToFenced` would throw: a fencing error answering a
    /// heartbeat sent before the member went STALE (the poll timer's leave goes
    /// out even with a heartbeat in flight, `AbstractHeartbeatRequestManager.poll`)
    /// or reaching a FATAL member. Neither is among FENCED's valid previous states
    /// and `transitionToFenced` guards only PREPARE_LEAVING, LEAVING and
    /// UNSUBSCRIBED, so `transitionTo(FENCED)` throws IllegalStateException; it
    /// ends `onErrorResponse` inside the response future's `whenComplete`
    /// callback, which swallows it. The member stays where it was: no
    /// onPartitionsLost, no rejoin before the next `poll()`
    /// (`maybeRejoinStaleMember`), no `heartbeatRequestState.reset()`.
    fn fencing_throws(&self) -> bool {
        let s = self.state;
        let guarded = matches!(s, MemberState::PREPARE_LEAVING | MemberState::LEAVING | MemberState::UNSUBSCRIBED);
        !guarded && s != MemberState::FENCED && !MemberState::FENCED.valid_previous_states().contains(&s)
    }

    /// `transitionToFenced`: epoch 0, `onPartitionsLost`, then rejoin at once.
    fn transition_to_fenced(&mut self, ctx: &mut Ctx, error: Errors, out: &mut Out) {
        match self.state {
            MemberState::PREPARE_LEAVING | MemberState::LEAVING => {
                // Fenced before the leave went out: no leave, no rejoin.
                self.transition_to(MemberState::UNSUBSCRIBED, Trigger::HeartbeatErrorWhileLeaving { error }, out);
                return;
            }
            MemberState::UNSUBSCRIBED => return,
            _ => {}
        }
        self.transition_to(MemberState::FENCED, Trigger::HeartbeatError { error }, out);
        self.member_epoch = 0;
        self.lose_everything(out);
        self.transition_to_joining(ctx, Trigger::RejoiningAfterFenced, out);
    }

    /// `handleFatalFailure`: the error reaches the application (an ErrorEvent),
    /// then `transitionToFatal`; no more heartbeats. From STALE or FENCED, not
    /// among FATAL's valid previous states, `transitionTo(FATAL)` throws (swallowed
    /// as in `fencing_throws`): the error is still raised, the state stays and
    /// nothing more is released.
    fn transition_to_fatal(&mut self, error: Errors, out: &mut Out) {
        let previous = self.state;
        let throws = previous != MemberState::FATAL && !MemberState::FATAL.valid_previous_states().contains(&previous);
        self.fatal = Some(error.to_string());
        if !throws {
            self.transition_to(MemberState::FATAL, Trigger::Fatal { error }, out);
        }
        out.emit(EventKind::Note { node: self.node(), note: Note::FatalToApplication { error } });
        out.cancel_timer(ClientTimer::Heartbeat);
        let left = matches!(previous, MemberState::UNSUBSCRIBED | MemberState::LEAVING | MemberState::PREPARE_LEAVING);
        if !left && !throws {
            self.lose_everything(out);
        }
        if self.main == MainThread::InPoll {
            self.main = MainThread::Idle;
        }
    }
}

crate::sim::node::client_node!(AsyncConsumer);
