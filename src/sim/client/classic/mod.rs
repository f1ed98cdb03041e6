//! A classic `KafkaConsumer` (ClassicKafkaConsumer with AbstractCoordinator and
//! ConsumerCoordinator): the application's poll loop, the heartbeat thread,
//! coordinator discovery and the join loop. Response handling is in
//! `consumer_responses.rs`.

pub(crate) mod commit;
pub(crate) mod responses;

use crate::assign::{client_assignor, RebalanceProtocol, TopicPartition};
use crate::sim::client::abstract_coordinator::{InFlight, MemberState, NO_GENERATION};
use crate::sim::client::app_commit::AppCommitter;
use crate::sim::client::member_transition::check_transition;
use crate::sim::client::poll_loop::{self, MainThread};
use crate::sim::connections::Connections;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, Body, JoinGroupRequest, JoinProtocol, ProtocolMetadata, Request};
use crate::sim::out::{Out, Retry, TimerKey};
use crate::sim::scenario::config::{CommitMode, ConsumerConfig};
use crate::sim::trace::{Callback, EventKind, Machine};
use crate::sim::types::{Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassicConsumer {
    pub idx: u32,
    pub client_id: String,
    pub group_id: String,
    pub config: ConsumerConfig,
    pub alive: bool,
    /// Set when an error Kafka treats as fatal reached the application.
    pub fatal: Option<String>,
    pub coordinator: Option<u32>,
    pub state: MemberState,
    pub member_id: String,
    pub generation: i32,
    pub protocol_name: Option<String>,
    pub leader_id: Option<String>,
    pub rebalance_protocol: RebalanceProtocol,
    pub rejoin_needed: bool,
    pub needs_join_prepare: bool,
    /// `onJoinPrepare` already sent its commit for this rebalance.
    pub join_prepare_committed: bool,
    /// Partitions currently assigned (owned), sorted.
    pub owned: Vec<TopicPartition>,
    /// The assignment before an eager revocation (what StickyAssignor userData carries).
    pub last_assignment: Vec<TopicPartition>,
    /// Next offset to fetch per owned partition.
    pub positions: BTreeMap<TopicPartition, i64>,
    pub in_flight: BTreeMap<u64, InFlight>,
    pub next_correlation: u64,
    pub main: MainThread,
    pub last_poll: Millis,
    pub last_heartbeat_ok: Millis,
    pub next_auto_commit: Millis,
    pub bootstrap_cursor: u32,
    pub backoff_attempts: u32,
    /// Leader only: partition counts of the group's topics when it last assigned
    /// (ConsumerCoordinator's `assignmentSnapshot`).
    pub assignment_snapshot: BTreeMap<String, i32>,
    /// `maxGeneration` of this process's sticky assignor instance (never reset).
    pub assignor_max_generation: i32,
    /// Brokers in reconnect backoff (leastLoadedNode skips them).
    #[serde(default)]
    pub connections: Connections,
    /// In-flight OffsetCommits the simulated application sent itself, by correlation.
    #[serde(default)]
    pub app_commits: BTreeMap<u64, CommitMode>,
    /// onJoinPrepare's commit is retried (retriable errors) until this deadline
    /// (the rebalance timeout from its first attempt), not before `join_prepare_retry_at`.
    #[serde(default)]
    pub join_prepare_deadline: Option<Millis>,
    #[serde(default)]
    pub join_prepare_retry_at: Millis,
    /// A failed JoinGroup or SyncGroup is retried from here on (`joinGroupIfNeeded`
    /// sleeps retry.backoff.ms).
    #[serde(default)]
    pub join_retry_at: Millis,
    /// `heartbeatAttempts` of the heartbeat's retry backoff.
    #[serde(default)]
    pub heartbeat_attempts: u32,
    /// A JoinGroup answer that arrived while the application was processing a
    /// batch: the heartbeat thread is disabled while PREPARING_REBALANCE, so it
    /// is handled when the application next calls poll() (`joinGroupIfNeeded`).
    #[serde(default)]
    pub deferred_join: Option<(u64, InFlight, crate::sim::message::Response)>,
    /// The assignment of a SyncGroup answered while the application was busy:
    /// `onJoinComplete` applies it at the next poll().
    #[serde(default)]
    pub deferred_assignment: Option<Vec<TopicPartition>>,
    /// max.poll.interval.ms passed while the heartbeat thread was disabled
    /// (UNJOINED, PREPARING_REBALANCE): it acts when the thread is enabled again.
    #[serde(default)]
    pub poll_timeout_pending: bool,
    /// Fetches to the partition leaders and the records they returned.
    #[serde(default)]
    pub fetcher: crate::sim::client::fetcher::Fetcher,
}

impl ClassicConsumer {
    pub fn new(idx: u32, group_id: &str, config: ConsumerConfig) -> ClassicConsumer {
        // The rebalance protocol is the highest one every configured assignor supports.
        let rebalance_protocol = config
            .assignors
            .iter()
            .map(|a| {
                client_assignor(a)
                    .map(|a| a.supported_protocols().iter().copied().max().unwrap_or(RebalanceProtocol::EAGER))
                    .unwrap_or(RebalanceProtocol::EAGER)
            })
            .min()
            .unwrap_or(RebalanceProtocol::EAGER);
        ClassicConsumer {
            idx,
            client_id: format!("consumer-{group_id}-{idx}"),
            group_id: group_id.to_string(),
            config,
            alive: true,
            fatal: None,
            coordinator: None,
            state: MemberState::UNJOINED,
            member_id: String::new(),
            generation: NO_GENERATION,
            protocol_name: None,
            leader_id: None,
            rebalance_protocol,
            rejoin_needed: true,
            needs_join_prepare: true,
            join_prepare_committed: false,
            owned: Vec::new(),
            last_assignment: Vec::new(),
            positions: BTreeMap::new(),
            in_flight: BTreeMap::new(),
            next_correlation: 0,
            main: MainThread::Idle,
            last_poll: 0,
            last_heartbeat_ok: 0,
            next_auto_commit: 0,
            bootstrap_cursor: 0,
            backoff_attempts: 0,
            assignment_snapshot: BTreeMap::new(),
            assignor_max_generation: crate::assign::sticky::DEFAULT_GENERATION,
            connections: Connections::default(),
            app_commits: BTreeMap::new(),
            join_prepare_deadline: None,
            join_prepare_retry_at: 0,
            join_retry_at: 0,
            heartbeat_attempts: 0,
            deferred_join: None,
            deferred_assignment: None,
            poll_timeout_pending: false,
            fetcher: Default::default(),
        }
    }

    pub fn node(&self) -> NodeId {
        NodeId::Client(self.idx)
    }

    pub fn is_leader(&self) -> bool {
        self.leader_id.as_deref() == Some(self.member_id.as_str()) && !self.member_id.is_empty()
    }

    /// The process starts: the application calls `subscribe()` then `poll()`.
    pub fn start(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.next_auto_commit = ctx.now + self.config.auto_commit_interval_ms;
        out.set_timer(TimerKey::Poll, ctx.now);
    }

    /// Every change of AbstractCoordinator's `state`, checked against
    /// `MemberState::valid_previous_states`.
    pub(crate) fn set_state(&mut self, ctx: &Ctx, to: MemberState, trigger: &str, out: &mut Out) {
        if self.state == to {
            return;
        }
        check_transition(self.node(), self.state, to, to.valid_previous_states(), out);
        out.emit(EventKind::StateChanged {
            node: self.node(),
            machine: Machine::Member,
            from: format!("{:?}", self.state),
            to: format!("{to:?}"),
            trigger: trigger.into(),
        });
        let heartbeating = |s| matches!(s, MemberState::COMPLETING_REBALANCE | MemberState::STABLE);
        let was = heartbeating(self.state);
        self.state = to;
        if heartbeating(to) && !was {
            self.last_heartbeat_ok = ctx.now;
            out.set_timer(TimerKey::Heartbeat, ctx.now + self.config.heartbeat_interval_ms);
        } else if !heartbeating(to) {
            out.cancel_timer(TimerKey::Heartbeat);
        }
    }

    pub(crate) fn send(
        &mut self,
        ctx: &Ctx,
        broker: u32,
        request: Request,
        for_join_prepare: bool,
        out: &mut Out,
    ) -> u64 {
        self.next_correlation += 1;
        let correlation = self.next_correlation;
        let timeout = match &request {
            Request::JoinGroup(_) => self.config.request_timeout_ms.max(self.config.max_poll_interval_ms + 5000),
            _ => self.config.request_timeout_ms,
        };
        self.in_flight.insert(
            correlation,
            InFlight { broker, api: request.api_key(), generation: self.generation, for_join_prepare },
        );
        out.set_timer(TimerKey::RequestTimeout { correlation }, ctx.now + timeout);
        out.send(NodeId::Broker(broker), Body::Request { correlation, request });
        correlation
    }

    pub(crate) fn has_in_flight(&self, api: ApiKey) -> bool {
        self.in_flight.values().any(|f| f.api == api)
    }

    pub(crate) fn callback(&self, cb: Callback, partitions: Vec<TopicPartition>, out: &mut Out) {
        out.emit(EventKind::CallbackInvoked { node: self.node(), callback: cb, partitions });
    }

    /// `markCoordinatorUnknown`: forget it; the next step rediscovers it.
    pub(crate) fn mark_coordinator_unknown(&mut self, reason: &str, out: &mut Out) {
        if let Some(c) = self.coordinator.take() {
            out.emit(EventKind::Note {
                node: self.node(),
                text: format!("coordinator broker-{c} marked unknown: {reason}"),
            });
        }
    }

    /// Resets generation (and member id unless kept) and asks for a fresh
    /// `onJoinPrepare`, as AC's `resetStateAndRejoin`: the next join treats what
    /// this member still holds as lost.
    pub(crate) fn reset_generation(&mut self, ctx: &Ctx, keep_member_id: bool, why: &str, out: &mut Out) {
        self.generation = NO_GENERATION;
        if !keep_member_id {
            self.member_id.clear();
        }
        self.rejoin_needed = true;
        self.needs_join_prepare = true;
        self.set_state(ctx, MemberState::UNJOINED, why, out);
    }

    /// The application thread calls `poll()`.
    pub fn poll(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let node = self.node();
        let batch_done = matches!(self.main, MainThread::Processing { .. });
        crate::sim::client::poll_loop::finish_batch(ctx, node, &self.group_id, &mut self.main, out);
        if batch_done && self.commit_after_batch(ctx, out) {
            return;
        }
        self.enter_poll(ctx, out);
    }

    /// The application enters `poll()`.
    pub(crate) fn enter_poll(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.main = MainThread::InPoll;
        self.last_poll = ctx.now;
        self.poll_timeout_pending = false;
        out.set_timer(TimerKey::PollTimeout, ctx.now + self.config.max_poll_interval_ms);
        // joinGroupIfNeeded runs here: a group answer that waited for this poll().
        if let Some(assignment) = self.deferred_assignment.take() {
            self.on_join_complete(ctx, assignment, out);
        }
        if let Some((correlation, f, response)) = self.deferred_join.take() {
            return self.handle_group_response(ctx, correlation, f, response, out);
        }
        self.drive(ctx, out);
    }

    /// Continues `poll()`: coordinator, join, offsets, then fetch and process.
    pub(crate) fn drive(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !self.alive || self.fatal.is_some() {
            return;
        }
        if matches!(self.main, MainThread::CommitSync { .. }) {
            return self.continue_commit_sync(ctx, out);
        }
        if self.main != MainThread::InPoll {
            return;
        }
        let Some(coordinator) = self.coordinator else {
            self.ensure_coordinator(ctx, out);
            return;
        };
        if self.rejoin_needed || self.state == MemberState::UNJOINED {
            if crate::sim::client::abstract_coordinator::rebalance_in_flight(&self.in_flight) {
                return self.fetch_while_rebalancing(ctx, out);
            }
            if ctx.now < self.join_retry_at {
                // joinGroupIfNeeded sleeps retry.backoff.ms after a retriable failure
                // (the timer is already armed; re-arming it at the same instant keeps
                // the event order of seeded runs as it was).
                out.set_timer(TimerKey::Backoff(Retry::JoinGroup), self.join_retry_at);
                return self.fetch_while_rebalancing(ctx, out);
            }
            if self.needs_join_prepare && !self.on_join_prepare(ctx, coordinator, out) {
                // waiting for the onJoinPrepare commit
                return self.fetch_while_rebalancing(ctx, out);
            }
            self.send_join_group(ctx, coordinator, out);
            return self.fetch_while_rebalancing(ctx, out);
        }
        if self.state != MemberState::STABLE {
            return;
        }
        if self.leader_sees_metadata_change(ctx, out) {
            self.drive(ctx, out);
            return;
        }
        let missing: Vec<TopicPartition> =
            self.owned.iter().filter(|tp| !self.positions.contains_key(tp)).cloned().collect();
        if !missing.is_empty() {
            if !self.has_in_flight(ApiKey::OffsetFetch) {
                let request = Request::OffsetFetch { group_id: self.group_id.clone(), partitions: missing };
                self.send(ctx, coordinator, request, false, out);
            }
            return;
        }
        if self.config.enable_auto_commit && ctx.now >= self.next_auto_commit {
            self.next_auto_commit = ctx.now + self.config.auto_commit_interval_ms;
            self.commit_positions(ctx, coordinator, false, out);
        }
        self.fetch_and_process(ctx, out);
    }

    /// The leader rejoins when a topic of the group changed its partition count
    /// since it assigned (`rejoinNeededOrPending`: assignment vs metadata snapshot).
    fn leader_sees_metadata_change(&mut self, ctx: &Ctx, out: &mut Out) -> bool {
        if !self.is_leader() {
            return false;
        }
        let changed: Vec<String> = self
            .assignment_snapshot
            .iter()
            .filter(|(t, n)| ctx.cluster.partition_count(t) != **n)
            .map(|(t, _)| t.clone())
            .collect();
        if changed.is_empty() {
            return false;
        }
        self.assignment_snapshot.clear();
        self.rejoin_needed = true;
        out.emit(EventKind::Note {
            node: self.node(),
            text: format!("the leader sees new partitions of {}: rejoining to reassign", changed.join(", ")),
        });
        true
    }

    /// The application calls `subscribe()` with a new topic list.
    pub fn subscribe(&mut self, topics: Vec<String>, out: &mut Out) {
        if !self.alive || topics == self.config.topics {
            return;
        }
        self.config.topics = topics;
        self.rejoin_needed = true;
        out.emit(EventKind::Note { node: self.node(), text: "subscription changed: the next poll() rejoins".into() });
    }

    /// While its onJoinPrepare commit, JoinGroup or SyncGroup is in flight, a
    /// COOPERATIVE member keeps processing the partitions it still owns; an EAGER
    /// member's are all pending revocation (`poll_loop::fetch_while_waiting_for_group`).
    fn fetch_while_rebalancing(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let eager = self.rebalance_protocol == RebalanceProtocol::EAGER;
        let (f, main) = self.fetching();
        if poll_loop::fetch_while_waiting_for_group(ctx, f, eager, main, out) {
            self.commit_before_processing(ctx, out);
        }
    }

    /// The poll loop's view of this consumer.
    fn fetching(&mut self) -> (poll_loop::Fetching<'_>, &mut MainThread) {
        let f = poll_loop::Fetching {
            config: &self.config,
            owned: &self.owned,
            positions: &mut self.positions,
            fetcher: &mut self.fetcher,
            connections: &self.connections,
        };
        (f, &mut self.main)
    }

    /// Takes the fetched records of the owned partitions, fetches more from
    /// their leaders and starts processing the batch (or waits when there is
    /// nothing new).
    fn fetch_and_process(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let (f, main) = self.fetching();
        if poll_loop::fetch_and_process(ctx, f, main, out) {
            self.commit_before_processing(ctx, out);
        }
    }

    pub(crate) fn commit_positions(
        &mut self,
        ctx: &Ctx,
        coordinator: u32,
        for_join_prepare: bool,
        out: &mut Out,
    ) -> u64 {
        let offsets: Vec<(TopicPartition, i64)> = self.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        self.send_offset_commit(ctx, coordinator, offsets, for_join_prepare, out)
    }

    pub(crate) fn send_offset_commit(
        &mut self,
        ctx: &Ctx,
        coordinator: u32,
        offsets: Vec<(TopicPartition, i64)>,
        for_join_prepare: bool,
        out: &mut Out,
    ) -> u64 {
        let request = Request::OffsetCommit {
            group_id: self.group_id.clone(),
            generation_id: self.generation,
            member_id: self.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            offsets,
        };
        self.send(ctx, coordinator, request, for_join_prepare, out)
    }

    /// FindCoordinator to the least loaded node: the next broker that is not in
    /// reconnect backoff; when all are, wait for the first backoff to end.
    pub(crate) fn ensure_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.has_in_flight(ApiKey::FindCoordinator) {
            return;
        }
        match self.connections.least_loaded(ctx.cluster.broker_count, self.bootstrap_cursor, ctx.now) {
            Ok(broker) => {
                self.bootstrap_cursor = broker + 1;
                self.send(ctx, broker, Request::FindCoordinator { key: self.group_id.clone() }, false, out);
            }
            Err(at) => out.set_timer(TimerKey::Backoff(Retry::CoordinatorLookup), at),
        }
    }

    /// `onJoinPrepare`: commit (and wait), then revoke or lose partitions.
    /// Returns false while the commit is still in flight.
    fn on_join_prepare(&mut self, ctx: &mut Ctx, coordinator: u32, out: &mut Out) -> bool {
        if self.in_flight.values().any(|f| f.for_join_prepare) || ctx.now < self.join_prepare_retry_at {
            return false;
        }
        let can_commit = self.state == MemberState::STABLE && self.generation >= 0 && !self.positions.is_empty();
        let in_time = self.join_prepare_deadline.is_none_or(|d| ctx.now < d);
        if self.config.enable_auto_commit && can_commit && !self.join_prepare_committed && in_time {
            self.commit_positions(ctx, coordinator, true, out);
            self.join_prepare_committed = true;
            // joinPrepareTimer: retries stop after the rebalance timeout.
            self.join_prepare_deadline.get_or_insert(ctx.now + self.config.max_poll_interval_ms);
            return false;
        }
        self.join_prepare_committed = false;
        self.join_prepare_deadline = None;
        let owned = std::mem::take(&mut self.owned);
        if self.generation == NO_GENERATION || self.member_id.is_empty() {
            if !owned.is_empty() {
                self.callback(Callback::OnPartitionsLost, owned.clone(), out);
            }
            self.last_assignment.clear();
        } else if self.rebalance_protocol == RebalanceProtocol::EAGER {
            self.callback(Callback::OnPartitionsRevoked, owned.clone(), out);
            self.last_assignment = owned;
        } else {
            // COOPERATIVE: keep everything whose topic is still subscribed.
            let (keep, revoke): (Vec<_>, Vec<_>) =
                owned.into_iter().partition(|tp| self.config.topics.iter().any(|t| *t == tp.topic));
            if !revoke.is_empty() {
                self.callback(Callback::OnPartitionsRevoked, revoke, out);
            }
            self.owned = keep;
        }
        self.positions.retain(|tp, _| self.owned.contains(tp));
        self.needs_join_prepare = false;
        true
    }

    pub(crate) fn send_join_group(&mut self, ctx: &mut Ctx, coordinator: u32, out: &mut Out) {
        let protocols = self
            .config
            .assignors
            .iter()
            .map(|name| {
                let owned = if name == "sticky" { self.last_assignment.clone() } else { self.owned.clone() };
                JoinProtocol {
                    name: name.clone(),
                    metadata: ProtocolMetadata {
                        topics: self.config.topics.clone(),
                        owned_partitions: owned,
                        generation_id: self.generation,
                        rack_id: self.config.client_rack.clone(),
                        connect: None,
                    },
                }
            })
            .collect();
        let request = Request::JoinGroup(JoinGroupRequest {
            group_id: self.group_id.clone(),
            session_timeout_ms: self.config.session_timeout_ms,
            rebalance_timeout_ms: self.config.max_poll_interval_ms,
            member_id: self.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            protocol_type: "consumer".into(),
            protocols,
            client_id: self.client_id.clone(),
        });
        self.send(ctx, coordinator, request, false, out);
        self.set_state(ctx, MemberState::PREPARING_REBALANCE, "sent JoinGroup", out);
    }

    /// The heartbeat thread wakes up.
    pub fn heartbeat_tick(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !matches!(self.state, MemberState::COMPLETING_REBALANCE | MemberState::STABLE) {
            return;
        }
        out.set_timer(TimerKey::Heartbeat, ctx.now + self.config.heartbeat_interval_ms);
        if ctx.now.saturating_sub(self.last_heartbeat_ok) > self.config.session_timeout_ms {
            self.mark_coordinator_unknown("no heartbeat response within session.timeout.ms", out);
        }
        let Some(coordinator) = self.coordinator else {
            self.ensure_coordinator(ctx, out);
            return;
        };
        // Like Kafka's heartbeat thread: one per interval, even if one is still in flight.
        let request = Request::Heartbeat {
            group_id: self.group_id.clone(),
            generation_id: self.generation,
            member_id: self.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
        };
        self.send(ctx, coordinator, request, false, out);
    }

    /// `KafkaConsumer.close()` (ConsumerCoordinator `close`, then AbstractCoordinator
    /// `close` → `onLeavePrepare` → `maybeLeaveGroup`). With auto-commit on the
    /// positions are committed, but only by a member of a stable generation
    /// (`sendOffsetCommitRequest` takes `generationIfStable()`; during a
    /// rebalance the commit fails locally). `onLeavePrepare` calls
    /// onPartitionsLost when the generation was reset or a rebalance is in
    /// progress, onPartitionsRevoked otherwise. LeaveGroup goes out when
    /// `shouldSendLeaveGroupRequest` holds: coordinator known, state not
    /// UNJOINED, a member id (`generation.hasMemberId()`, so also during the
    /// first join), and a dynamic member (a static one keeps its place for
    /// session.timeout.ms, KIP-345) unless `close(CloseOptions)` says otherwise
    /// (KIP-1092, `CloseOptions.GroupMembershipOperation`). The world then ends the process; the
    /// requests are sent, not awaited.
    pub fn close(
        &mut self,
        ctx: &mut Ctx,
        operation: crate::sim::client::close_options::GroupMembershipOperation,
        out: &mut Out,
    ) {
        let Some(coordinator) = self.coordinator else {
            self.on_leave_prepare(out);
            return;
        };
        if self.config.enable_auto_commit && self.state == MemberState::STABLE && !self.positions.is_empty() {
            self.commit_positions(ctx, coordinator, false, out);
        }
        self.on_leave_prepare(out);
        if self.should_send_leave_group(operation) {
            self.send_leave_group(ctx, coordinator, out);
        }
    }

    /// ConsumerCoordinator `onLeavePrepare`: the owned partitions are lost if the
    /// generation was reset or a rebalance is in progress, revoked otherwise.
    fn on_leave_prepare(&mut self, out: &mut Out) {
        if self.owned.is_empty() {
            return;
        }
        let owned = std::mem::take(&mut self.owned);
        let reset = self.generation == NO_GENERATION || self.member_id.is_empty();
        let rebalancing = matches!(self.state, MemberState::PREPARING_REBALANCE | MemberState::COMPLETING_REBALANCE);
        let cb = if reset || rebalancing { Callback::OnPartitionsLost } else { Callback::OnPartitionsRevoked };
        self.callback(cb, owned, out);
        self.positions.clear();
    }

    /// AbstractCoordinator `shouldSendLeaveGroupRequest`: coordinator known, state
    /// not UNJOINED, a member id, and the close operation asks for it (LEAVE_GROUP,
    /// or DEFAULT for a dynamic member).
    fn should_send_leave_group(&self, operation: crate::sim::client::close_options::GroupMembershipOperation) -> bool {
        self.coordinator.is_some()
            && self.state != MemberState::UNJOINED
            && !self.member_id.is_empty()
            && operation.classic_sends_leave_group(self.config.group_instance_id.is_some())
    }

    fn send_leave_group(&mut self, ctx: &Ctx, coordinator: u32, out: &mut Out) {
        let request = Request::LeaveGroup {
            group_id: self.group_id.clone(),
            members: vec![crate::sim::message::MemberIdentity {
                member_id: self.member_id.clone(),
                group_instance_id: self.config.group_instance_id.clone(),
            }],
        };
        self.send(ctx, coordinator, request, false, out);
    }

    /// `max.poll.interval.ms` passed without a `poll()` (AC `handlePollTimeoutExpiry`).
    pub fn poll_timeout(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !matches!(self.main, MainThread::Processing { .. } | MainThread::CommitSync { .. }) {
            out.set_timer(TimerKey::PollTimeout, ctx.now + self.config.max_poll_interval_ms);
            return;
        }
        if matches!(self.state, MemberState::UNJOINED | MemberState::PREPARING_REBALANCE) {
            // HeartbeatThread.run: `if (state.hasNotJoinedGroup() ...) disable()`; the
            // poll timer is checked only by the enabled heartbeat thread.
            self.poll_timeout_pending = self.state == MemberState::PREPARING_REBALANCE;
            return;
        }
        out.emit(EventKind::Note {
            node: self.node(),
            text: format!(
                "no poll() for max.poll.interval.ms = {} ms: leaving the group",
                self.config.max_poll_interval_ms
            ),
        });
        if let (Some(c), true) = (
            self.coordinator,
            self.should_send_leave_group(crate::sim::client::close_options::GroupMembershipOperation::DEFAULT),
        ) {
            self.send_leave_group(ctx, c, out);
        }
        self.reset_generation(ctx, false, "poll timeout expired", out);
    }

    pub fn backoff_ms(&mut self) -> Millis {
        crate::sim::client::poll_loop::backoff_ms(&self.config, &mut self.backoff_attempts)
    }
}
