//! A stream thread under classic Kafka Streams rebalancing
//! (`group.protocol=classic`, still Kafka Streams' default): the thread's
//! consumer is a classic member (`ConsumerCoordinator` over
//! AbstractCoordinator, protocol type "consumer", assignor "stream", always
//! COOPERATIVE), its subscription carries the instance's `SubscriptionInfo`
//! (process id, task lags), the group leader runs `StreamsPartitionAssignor`
//! (`classic_assign.rs`), and the assignment's `AssignmentInfo` may ask for
//! a follow-up rebalance at once or a probing rebalance later
//! (`StreamsPartitionAssignor.maybeScheduleFollowupRebalance`, which the
//! stream thread's loop acts on through `enforceRebalance`).
//!
//! Simplified (fidelity notes): the stream thread's poll loop runs whenever
//! the thread has something to do, so a rejoin the heartbeat asks for goes
//! out at once; `KafkaStreams.close()` does not leave the group (4.4:
//! `REMAIN_IN_GROUP` under the classic protocol, `StreamThread.completeShutdown`),
//! so the group waits for the session timeout.

use super::{StreamsThread, TaskState};
use crate::sim::client::abstract_coordinator::{
    requests_to, take_in_flight, AbstractCoordinator, GroupRebalanceConfig, MemberState, Membership, NO_GENERATION,
};
use crate::sim::client::coordinator_lookup;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, JoinGroupResponse, JoinProtocol, ProtocolMetadata, Request, Response};
use crate::sim::node::{Handled, Misrouted};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out, Retry, TimerKey};
use crate::sim::reason::ClientReason;
use crate::sim::scenario::streams_config::StreamsGroupProtocol;
use crate::sim::streams_message::{StreamsAssignmentInfo, StreamsSubscriptionInfo, TasksTuple};
use crate::sim::streams_note::StreamsNote;
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, NodeId};

/// `StreamsPartitionAssignor.name()`.
pub const STREAM_ASSIGNOR: &str = "stream";

impl StreamsThread {
    /// The thread rebalances with the classic protocol.
    pub fn is_classic(&self) -> bool {
        self.config.group_protocol == StreamsGroupProtocol::Classic
    }

    /// The thread starts: its consumer subscribes and joins on the first poll.
    pub(crate) fn classic_start(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.last_poll = ctx.now;
        self.drive(ctx, out);
    }

    /// One pass of the poll loop's `ensureActiveGroup`: find the coordinator, (re)join when needed.
    fn classic_tick(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.fatal.is_some() || self.closing {
            return;
        }
        let Some(coordinator) = self.membership.coordinator else {
            if !self.membership.has_in_flight(ApiKey::FindCoordinator) {
                let cursor = &mut self.membership.bootstrap_cursor;
                if let Ok(broker) = coordinator_lookup::next_broker(None, cursor, ctx) {
                    let find = Request::FindCoordinator { key: self.group_id.clone() };
                    AbstractCoordinator::send(self, ctx, broker, find, false, out);
                }
            }
            return;
        };
        let rejoin = self.membership.rejoin_needed || self.membership.state == MemberState::UNJOINED;
        // A revocation in progress finishes first (`onPartitionsRevoked` runs inside poll()).
        if !rejoin
            || self.revoking_until.is_some()
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

    /// `ConsumerCoordinator.onJoinPrepare` (COOPERATIVE): nothing is revoked,
    /// but after the generation was reset (the member was removed, fenced or
    /// its session expired) every partition is given away as lost
    /// (`onPartitionsLost` → `TaskManager.handleLostAll`: the tasks close
    /// without a commit), since others may own them by now.
    fn on_join_prepare(&mut self, out: &mut Out) {
        self.membership.needs_join_prepare = false;
        if self.membership.generation == NO_GENERATION && !self.owned.is_empty() {
            let lost = super::tasks::names_of(&self.owned);
            self.note(StreamsNote::AllTasksLost { client: self.name(), tasks: lost }, out);
            self.clear_tasks();
            self.next_rebalance_at = None;
        }
    }

    /// `requestRejoin`: the next pass of the loop sends JoinGroup.
    pub(crate) fn request_rejoin(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.membership.rejoin_needed = true;
        self.drive(ctx, out);
    }

    /// The stream thread's loop found `nextScheduledRebalanceMs` passed:
    /// `mainConsumer.enforceRebalance` (a follow-up or a probing rebalance).
    pub(crate) fn maybe_scheduled_rebalance(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let Some(at) = self.next_rebalance_at else { return };
        if at > ctx.now {
            return;
        }
        self.next_rebalance_at = None;
        self.note(StreamsNote::FollowupRebalance { client: self.name(), probing: at > 0 }, out);
        self.request_rejoin(ctx, out);
    }

    pub(crate) fn classic_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) -> Handled {
        match key {
            TimerKey::Client(ClientTimer::Heartbeat) => self.heartbeat_tick_classic(ctx, out),
            TimerKey::Client(ClientTimer::Backoff(_)) => self.drive(ctx, out),
            TimerKey::Client(ClientTimer::Poll) => self.run_once(ctx, out),
            TimerKey::Client(ClientTimer::RequestTimeout { correlation }) => {
                if let Some(f) = self.membership.in_flight.get(correlation) {
                    // Failed early by markCoordinatorUnknown's disconnect, or timed out.
                    if self.membership.coordinator == Some(f.broker) || f.api == ApiKey::FindCoordinator {
                        self.note_plain(Note::RequestTimedOut, out);
                    }
                    self.classic_request_failed(ctx, *correlation, out);
                }
            }
            _ => return Err(Misrouted::timer(key)),
        }
        Ok(())
    }

    /// The heartbeat thread (AbstractCoordinator's own).
    fn heartbeat_tick_classic(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.fatal.is_none() && !self.closing {
            AbstractCoordinator::heartbeat_tick(self, ctx, out);
        }
    }

    pub(crate) fn classic_connection_lost(&mut self, ctx: &mut Ctx, broker: u32, out: &mut Out) {
        for c in requests_to(&self.membership.in_flight, broker) {
            self.classic_request_failed(ctx, c, out);
        }
    }

    pub(crate) fn classic_request_failed(&mut self, ctx: &mut Ctx, correlation: u64, out: &mut Out) {
        AbstractCoordinator::request_failed(self, ctx, correlation, out);
    }

    pub(crate) fn classic_response(&mut self, ctx: &mut Ctx, correlation: u64, response: Response, out: &mut Out) {
        let Some(f) = take_in_flight(&mut self.membership.in_flight, correlation, out) else { return };
        if self.closing {
            return;
        }
        let error = response.error();
        if error == Errors::NONE {
            self.membership.backoff_attempts = 0;
        }
        match response {
            Response::FindCoordinator { error: Errors::NONE, node_id: Some(n) } => {
                let me = self.node();
                coordinator_lookup::found(&mut self.membership.coordinator, me, &self.group_id, n, out);
                self.membership.last_heartbeat_ok = ctx.now;
                self.drive(ctx, out);
            }
            Response::FindCoordinator { .. } => {
                let wait = self.backoff_ms();
                out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), ctx.now + wait);
            }
            Response::JoinGroup(r) => self.on_joined_classic(ctx, r, out),
            Response::SyncGroup { error: Errors::NONE, streams_assignment, .. } => {
                if self.synced(ctx, out) {
                    self.on_join_complete(ctx, streams_assignment.map(|a| *a).unwrap_or_default(), out);
                }
            }
            Response::SyncGroup { .. } => {
                self.join_failed(ctx, f.api, Some(error), ClientReason::Response { api: f.api, error }, out)
            }
            Response::Heartbeat { error } => self.heartbeat_answered(ctx, error, f.generation, out),
            _ => {}
        }
    }

    /// JoinGroup answered: the leader assigns, everyone sends SyncGroup.
    fn on_joined_classic(&mut self, ctx: &mut Ctx, r: JoinGroupResponse, out: &mut Out) {
        let Some(coordinator) = self.join_answered(ctx, &r, out) else { return };
        let (partitions, infos) =
            if self.membership.is_leader() { self.assign_as_leader(ctx, &r, out) } else { Default::default() };
        self.send_sync_group(ctx, coordinator, partitions, Vec::new(), infos, out);
    }

    /// `ConsumerCoordinator.onJoinComplete` → `StreamsPartitionAssignor.onAssignment`
    /// → `TaskManager.handleAssignment`: revoked tasks are committed and
    /// closed (then the thread rejoins), new ones created; the follow-up
    /// rebalance the assignment asks for is scheduled.
    fn on_join_complete(&mut self, ctx: &mut Ctx, info: StreamsAssignmentInfo, out: &mut Out) {
        self.assignment_generation = self.membership.generation;
        self.next_rebalance_at = info.next_rebalance_ms;
        self.warmups = info.warmup.clone();
        let target = TasksTuple { active: info.active, standby: info.standby, warmup: Default::default() };
        if target != self.owned {
            self.new_assignment(ctx, target, out);
        }
        self.maybe_scheduled_rebalance(ctx, out);
        self.run_once(ctx, out);
    }

    /// The `SubscriptionInfo` of this thread's subscription.
    fn subscription_info(&self, now: crate::sim::types::Millis) -> StreamsSubscriptionInfo {
        let task_lags = self
            .tasks
            .iter()
            .filter(|((s, _), _)| self.topology.subtopology(s).is_some_and(|x| x.is_stateful()))
            .map(|((s, p), st)| {
                let lag = match st {
                    TaskState::Running => crate::assign::streams::high_availability::LATEST_OFFSET,
                    TaskState::Standby => 0,
                    TaskState::Restoring { until } | TaskState::CatchingUp { until } => {
                        self.records_behind(now, *until)
                    }
                };
                (s.clone(), *p, lag)
            })
            .collect();
        StreamsSubscriptionInfo {
            process_id: self.process_id.clone(),
            task_lags,
            prev_standby: self.owned.standby.clone(),
        }
    }

    /// `KafkaStreams.close()`: revoked tasks are committed and closed; under
    /// the classic protocol the thread's consumer closes with
    /// `REMAIN_IN_GROUP` (no LeaveGroup): the coordinator finds out at the
    /// session timeout.
    pub(crate) fn classic_close(&mut self, _ctx: &mut Ctx, out: &mut Out) {
        self.closing = true;
        let all = super::tasks::names_of(&self.owned);
        if !all.is_empty() {
            self.note(StreamsNote::TasksRevoked { client: self.name(), tasks: all }, out);
        }
        self.clear_tasks();
        self.next_rebalance_at = None;
        out.cancel_timer(ClientTimer::Poll);
        out.cancel_timer(ClientTimer::Heartbeat);
    }

    fn note_plain(&self, note: Note, out: &mut Out) {
        out.emit(EventKind::Note { node: self.node(), note });
    }
}

/// The stream thread's consumer extends AbstractCoordinator (through ConsumerCoordinator).
impl AbstractCoordinator for StreamsThread {
    fn membership(&self) -> &Membership {
        &self.membership
    }

    fn membership_mut(&mut self) -> &mut Membership {
        &mut self.membership
    }

    fn member_node(&self) -> NodeId {
        self.node()
    }

    fn rebalance_config(&self) -> GroupRebalanceConfig<'_> {
        let c = &self.config;
        GroupRebalanceConfig {
            group_id: &self.group_id,
            client_id: &self.client_id,
            group_instance_id: None,
            session_timeout_ms: c.session_timeout_ms,
            rebalance_timeout_ms: c.max_poll_interval_ms,
            heartbeat_interval_ms: c.heartbeat_interval_ms,
            retry_backoff_ms: super::RETRY_BACKOFF_MS,
            retry_backoff_max_ms: 1000,
            request_timeout_ms: super::REQUEST_TIMEOUT_MS,
        }
    }

    fn protocol_type(&self) -> &'static str {
        "consumer"
    }

    /// `ConsumerCoordinator.metadata()` with the "stream" assignor's
    /// subscription: the source topics, the partitions the thread owns
    /// (cooperative) and the `SubscriptionInfo`.
    fn metadata(&self) -> Vec<JoinProtocol> {
        let mut topics: Vec<String> =
            self.topology.subtopologies.iter().flat_map(|s| s.input_topics().map(String::from)).collect();
        topics.sort();
        topics.dedup();
        vec![JoinProtocol {
            name: STREAM_ASSIGNOR.into(),
            metadata: ProtocolMetadata {
                topics,
                owned_partitions: self.owned_partitions.clone(),
                generation_id: self.membership.generation,
                rack_id: None,
                connect: None,
                streams: Some(self.subscription_info(self.last_poll)),
            },
        }]
    }

    fn ensure_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.classic_tick(ctx, out);
    }

    /// `markCoordinatorUnknown` disconnects from the old coordinator
    /// (`client.disconnectAsync`): its requests in flight (a JoinGroup
    /// lost on a cut link, say) fail with a `DisconnectException` on the
    /// next poll instead of waiting out their timeouts.
    fn on_coordinator_unknown(&mut self, ctx: &Ctx, out: &mut Out) {
        for (c, f) in &self.membership.in_flight {
            if f.api != ApiKey::FindCoordinator {
                out.set_timer(ClientTimer::RequestTimeout { correlation: *c }, ctx.now);
            }
        }
    }

    fn drive(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.classic_tick(ctx, out);
    }

    /// A fatal error reaches the stream thread, which dies.
    fn raise_fatal(&mut self, ctx: &Ctx, error: Errors, why: ClientReason, out: &mut Out) {
        self.fatal = Some(error.to_string());
        self.clear_tasks();
        self.note_plain(Note::FatalToApplication { error }, out);
        self.transition_to_classic(ctx, MemberState::UNJOINED, Trigger::Client(why), out);
    }

    /// The stream thread polls continuously: it acts on the answer at once.
    fn after_heartbeat(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.classic_tick(ctx, out);
    }

    fn rejoins_on_next_poll(&self) -> bool {
        false
    }
}

impl StreamsThread {
    /// AbstractCoordinator's `state` change (the trait's, named apart from
    /// the streams group's `transition_to`).
    fn transition_to_classic(&mut self, ctx: &Ctx, to: MemberState, trigger: Trigger, out: &mut Out) {
        AbstractCoordinator::transition_to(self, ctx, to, trigger, out);
    }
}
