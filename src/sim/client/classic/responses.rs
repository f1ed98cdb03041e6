//! How a classic consumer reacts to each response and error (AC's
//! `JoinGroupResponseHandler`, `SyncGroupResponseHandler`, `HeartbeatResponseHandler`,
//! CC's `onJoinComplete` and offset handlers).

use crate::assign::{
    client_assignor_resuming, leader_member_order, ClusterMetadata, RebalanceProtocol, Subscription, TopicPartition,
};
use crate::sim::client::abstract_coordinator::{requests_to, take_in_flight};
use crate::sim::client::abstract_coordinator::{AbstractCoordinator, MemberState};
use crate::sim::client::classic::ClassicConsumer;
use crate::sim::client::coordinator_lookup;
use crate::sim::client::poll_loop::MainThread;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, JoinGroupResponse, Response};
use crate::sim::node::{Handled, Misrouted};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out, Retry, TimerKey};
use crate::sim::reason::ClientReason;
use crate::sim::trace::{Callback, EventKind};
use crate::sim::trigger::Trigger;
use crate::sim::types::Errors;
use crate::small_sort::StableSort;

/// Partition counts of every topic the group's members subscribe to.
fn group_topic_counts(ctx: &Ctx, r: &JoinGroupResponse) -> std::collections::BTreeMap<String, i32> {
    r.members
        .iter()
        .flat_map(|m| m.metadata.topics.iter())
        .filter(|t| ctx.cluster.topics.contains_key(*t))
        .map(|t| (t.clone(), ctx.cluster.partition_count(t)))
        .collect()
}

fn is_coordinator_error(e: Errors) -> bool {
    matches!(e, Errors::NOT_COORDINATOR | Errors::COORDINATOR_NOT_AVAILABLE)
}

impl ClassicConsumer {
    /// A client's timers; a broker's, a group's or a worker's here is misrouted.
    pub fn handle_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) -> Handled {
        let TimerKey::Client(timer) = key else { return Err(Misrouted::timer(key)) };
        match timer {
            ClientTimer::Poll => self.poll(ctx, out),
            ClientTimer::PollTimeout => self.poll_timeout(ctx, out),
            ClientTimer::Heartbeat => self.heartbeat_tick(ctx, out),
            ClientTimer::Backoff(_) => self.drive(ctx, out),
            ClientTimer::RequestTimeout { correlation } if crate::sim::client::fetcher::is_fetch(*correlation) => {
                self.fetcher.on_failure(ctx, *correlation, &self.config, &mut self.connections, out);
            }
            ClientTimer::RequestTimeout { correlation } if self.membership.in_flight.contains_key(correlation) => {
                out.emit(EventKind::Note { node: self.node(), note: Note::RequestTimedOut });
                self.request_failed(ctx, *correlation, out);
            }
            // Answered before its deadline: nothing is left to time out.
            ClientTimer::RequestTimeout { .. } => {}
        }
        Ok(())
    }

    /// The connection broke: the request failed (`CoordinatorResponseHandler.onFailure`).
    pub fn handle_disconnect(&mut self, ctx: &mut Ctx, correlation: u64, out: &mut Out) {
        if crate::sim::client::fetcher::is_fetch(correlation) {
            self.fetcher.on_failure(ctx, correlation, &self.config, &mut self.connections, out);
        } else if self.membership.in_flight.contains_key(&correlation) {
            self.request_failed(ctx, correlation, out);
        }
    }

    /// Every in-flight request to `broker` fails (the broker went down).
    pub fn connection_lost(&mut self, ctx: &mut Ctx, broker: u32, out: &mut Out) {
        self.connections.disconnected(broker, ctx.now, &self.config);
        for c in self.fetcher.pending_to(broker) {
            self.fetcher.on_failure(ctx, c, &self.config, &mut self.connections, out);
        }
        for c in requests_to(&self.membership.in_flight, broker) {
            self.request_failed(ctx, c, out);
        }
    }

    fn request_failed(&mut self, ctx: &mut Ctx, correlation: u64, out: &mut Out) {
        let Some(f) = take_in_flight(&mut self.membership.in_flight, correlation, out) else { return };
        // A refused or broken connection (or a request timeout, which closes it).
        self.connections.disconnected(f.broker, ctx.now, &self.config);
        if f.api == ApiKey::FindCoordinator {
            let wait = self.backoff_ms();
            out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), ctx.now + wait);
            return;
        }
        self.mark_coordinator_unknown(ctx, ClientReason::RequestFailed { api: f.api, broker: f.broker }, out);
        if f.api == ApiKey::OffsetCommit {
            return self.on_offset_commit(ctx, correlation, None, &f, out);
        }
        if f.api == ApiKey::Heartbeat {
            self.heartbeat_failed(ctx, out);
        }
        if f.api.is_join_or_sync() {
            // A DisconnectException: retriable, the join loop sleeps retry.backoff.ms.
            return self.join_failed(ctx, f.api, None, ClientReason::ConnectionBroke { api: f.api }, out);
        }
        self.drive(ctx, out);
    }

    pub fn handle_response(&mut self, ctx: &mut Ctx, correlation: u64, response: Response, out: &mut Out) {
        if crate::sim::client::fetcher::is_fetch(correlation) {
            let parts = crate::sim::client::poll_loop::FetchParts {
                fetcher: &mut self.fetcher,
                positions: &self.positions,
                connections: &mut self.connections,
                main: &self.main,
            };
            return crate::sim::client::poll_loop::on_fetch_response(ctx, parts, correlation, response, out);
        }
        let Some(f) = take_in_flight(&mut self.membership.in_flight, correlation, out) else { return };
        if f.api == ApiKey::JoinGroup && matches!(self.main, MainThread::Processing { .. }) {
            // The heartbeat thread is disabled while PREPARING_REBALANCE: nobody
            // polls the network client until the application calls poll().
            self.connections.ready(f.broker);
            out.emit(EventKind::Note { node: self.node(), note: Note::JoinAnsweredNextPoll });
            self.deferred_join = Some((correlation, f, response));
            return;
        }
        self.handle_group_response(ctx, correlation, f, response, out);
    }

    /// A response, handled (`f` is its request, already off the in-flight books).
    pub(crate) fn handle_group_response(
        &mut self,
        ctx: &mut Ctx,
        correlation: u64,
        f: crate::sim::client::abstract_coordinator::InFlight,
        response: Response,
        out: &mut Out,
    ) {
        let error = response.error();
        self.connections.ready(f.broker);
        if error == Errors::NONE {
            self.membership.backoff_attempts = 0;
        }
        if is_coordinator_error(error) && f.api == ApiKey::OffsetCommit {
            self.mark_coordinator_unknown(ctx, ClientReason::Answered { api: f.api, error }, out);
        } else if is_coordinator_error(error) && f.api != ApiKey::FindCoordinator {
            self.mark_coordinator_unknown(ctx, ClientReason::Answered { api: f.api, error }, out);
            if f.api.is_join_or_sync() {
                return self.join_failed(ctx, f.api, Some(error), ClientReason::Response { api: f.api, error }, out);
            }
            if f.api == ApiKey::Heartbeat {
                self.heartbeat_failed(ctx, out);
            }
            self.drive(ctx, out);
            return;
        }
        match response {
            Response::FindCoordinator { error, node_id } => self.on_find_coordinator(ctx, error, node_id, out),
            Response::JoinGroup(r) => self.on_join_group(ctx, r, out),
            Response::SyncGroup { error, assignment, .. } => self.on_sync_group(ctx, error, assignment, out),
            Response::Heartbeat { error } => self.heartbeat_answered(ctx, error, f.generation, out),
            Response::LeaveGroup { .. } => {}
            Response::OffsetCommit { error, .. } => self.on_offset_commit(ctx, correlation, Some(error), &f, out),
            Response::OffsetFetch { error, offsets } => self.on_offset_fetch(ctx, error, offsets, out),
            Response::ConsumerGroupHeartbeat(_)
            | Response::Fetch { .. }
            | Response::ShareGroupHeartbeat(_)
            | Response::StreamsGroupHeartbeat(_)
            | Response::ShareFetch(_)
            | Response::ShareAcknowledge(_) => {}
        }
    }

    pub(crate) fn fail_fatally(&mut self, ctx: &Ctx, error: Errors, out: &mut Out) {
        self.fatal = Some(error.to_string());
        out.emit(EventKind::Note { node: self.node(), note: Note::FatalToApplication { error } });
        self.transition_to(ctx, MemberState::UNJOINED, Trigger::Fatal { error }, out);
    }

    fn on_find_coordinator(&mut self, ctx: &mut Ctx, error: Errors, node: Option<u32>, out: &mut Out) {
        match (error, node) {
            (Errors::NONE, Some(n)) => {
                let me = self.node();
                coordinator_lookup::found(&mut self.membership.coordinator, me, &self.group_id, n, out);
                self.membership.last_heartbeat_ok = ctx.now;
                self.drive(ctx, out);
            }
            (e, _) if e.is_fatal_for_classic_client() => self.fail_fatally(ctx, e, out),
            _ => {
                let wait = self.backoff_ms();
                out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), ctx.now + wait);
            }
        }
    }

    fn on_join_group(&mut self, ctx: &mut Ctx, r: JoinGroupResponse, out: &mut Out) {
        let Some(coordinator) = self.join_answered(ctx, &r, out) else { return };
        let assignments = if !self.is_leader() {
            Vec::new()
        } else if r.skip_assignment {
            // KIP-814: keep the stored assignment; the metadata seen now becomes
            // the snapshot (ConsumerCoordinator.onLeaderElected).
            self.assignment_snapshot = group_topic_counts(ctx, &r);
            out.emit(EventKind::Note { node: self.node(), note: Note::SkipAssignment });
            Vec::new()
        } else {
            self.run_assignor(ctx, &r, out)
        };
        self.send_sync_group(ctx, coordinator, assignments, Vec::new(), Vec::new(), out);
        if std::mem::take(&mut self.poll_timeout_pending) {
            // The heartbeat thread is enabled again and finds the poll timer expired.
            self.poll_timeout(ctx, out);
        }
    }

    /// The leader runs the group's chosen assignor over every member's subscription.
    fn run_assignor(
        &mut self,
        ctx: &mut Ctx,
        r: &JoinGroupResponse,
        out: &mut Out,
    ) -> Vec<(String, Vec<TopicPartition>)> {
        let name = r.protocol_name.clone().unwrap_or_default();
        // One assignor instance per leader process: sticky's maxGeneration carries over.
        let Some(mut assignor) = client_assignor_resuming(&name, self.assignor_max_generation) else {
            out.emit(EventKind::Note { node: self.node(), note: Note::UnknownAssignor { name } });
            return Vec::new();
        };
        // The leader builds a java.util.HashMap<memberId, Subscription>.
        let members = leader_member_order(
            r.members
                .iter()
                .map(|m| Subscription {
                    member_id: m.member_id.clone(),
                    instance_id: m.group_instance_id.clone(),
                    topics: m.metadata.topics.clone(),
                    owned: m.metadata.owned_partitions.clone(),
                    generation: (m.metadata.generation_id >= 0).then_some(m.metadata.generation_id),
                    rack: m.metadata.rack_id.clone(),
                    ..Subscription::default()
                })
                .collect(),
        );
        let cluster = ClusterMetadata::from_counts(
            ctx.cluster.topics.iter().map(|(t, s)| (t.clone(), s.partitions.len() as i32)),
        );
        self.assignment_snapshot = group_topic_counts(ctx, r);
        let result = assignor.assign(&cluster, &members);
        if let Some(g) = assignor.max_generation() {
            self.assignor_max_generation = g;
        }
        match result {
            Ok(a) => {
                let text = a
                    .iter()
                    .map(|(m, ps)| format!("{}={}", m, crate::sim::message::partition_list(ps)))
                    .collect::<Vec<_>>()
                    .join(" ");
                let note = Note::LeaderRanAssignor { name, summary: text };
                out.emit(EventKind::Note { node: self.node(), note });
                a.into_iter().collect()
            }
            Err(e) => {
                out.emit(EventKind::Note {
                    node: self.node(),
                    note: Note::AssignorFailed { name, error: e.to_string() },
                });
                Vec::new()
            }
        }
    }

    fn on_sync_group(&mut self, ctx: &mut Ctx, error: Errors, assignment: Vec<TopicPartition>, out: &mut Out) {
        match error {
            Errors::NONE => {
                if !self.synced(ctx, out) {
                    return;
                }
                if matches!(self.main, MainThread::Processing { .. } | MainThread::CommitSync { .. }) {
                    // The heartbeat thread completed the SyncGroup; onJoinComplete runs in
                    // joinGroupIfNeeded, on the application thread's next poll().
                    out.emit(EventKind::Note { node: self.node(), note: Note::SyncAnsweredNextPoll });
                    self.deferred_assignment = Some(assignment);
                    return;
                }
                self.on_join_complete(ctx, assignment, out);
                self.drive(ctx, out);
            }
            e => {
                let why = ClientReason::Response { api: ApiKey::SyncGroup, error: e };
                self.join_failed(ctx, ApiKey::SyncGroup, Some(e), why, out)
            }
        }
    }

    /// `onJoinComplete`: cooperative members revoke what moved and rejoin; the
    /// auto-commit timer starts a full interval from now
    /// (`nextAutoCommitTimer.updateAndReset(autoCommitIntervalMs)`).
    pub(crate) fn on_join_complete(&mut self, ctx: &Ctx, mut assignment: Vec<TopicPartition>, out: &mut Out) {
        if self.config.enable_auto_commit {
            self.next_auto_commit = ctx.now + self.config.auto_commit_interval_ms;
        }
        assignment.stable_sort();
        let added: Vec<TopicPartition> = assignment.iter().filter(|tp| !self.owned.contains(tp)).cloned().collect();
        if self.rebalance_protocol == RebalanceProtocol::COOPERATIVE {
            let revoked: Vec<TopicPartition> =
                self.owned.iter().filter(|tp| !assignment.contains(tp)).cloned().collect();
            if !revoked.is_empty() {
                self.callback(Callback::OnPartitionsRevoked, revoked, out);
                self.membership.rejoin_needed = true;
                out.emit(EventKind::Note { node: self.node(), note: Note::RevokedRejoining });
            }
        }
        self.owned = assignment.clone();
        self.assignment_generation = self.membership.generation;
        self.last_assignment = assignment;
        self.positions.retain(|tp, _| self.owned.contains(tp));
        self.callback(Callback::OnPartitionsAssigned, added, out);
        self.membership.needs_join_prepare = true;
    }

    fn on_offset_fetch(&mut self, ctx: &mut Ctx, error: Errors, offsets: Vec<(TopicPartition, i64)>, out: &mut Out) {
        if error == Errors::NONE {
            for (tp, offset) in offsets {
                if !self.owned.contains(&tp) {
                    continue;
                }
                let start = crate::sim::client::poll_loop::start_offset(ctx, &self.config, &tp, offset);
                self.positions.insert(tp, start);
            }
        } else if error == Errors::COORDINATOR_LOAD_IN_PROGRESS {
            let wait = self.backoff_ms();
            out.set_timer(ClientTimer::Backoff(Retry::OffsetFetch), ctx.now + wait);
            return;
        }
        self.drive(ctx, out);
    }
}

crate::sim::node::client_node!(ClassicConsumer);
