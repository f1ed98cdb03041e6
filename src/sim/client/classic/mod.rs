//! A classic `KafkaConsumer` (ClassicKafkaConsumer with AbstractCoordinator and
//! ConsumerCoordinator): the application's poll loop, the heartbeat thread,
//! coordinator discovery and the join loop. AbstractCoordinator's fields and
//! loop are shared with the Connect worker (`client/abstract_coordinator.rs`);
//! this consumer implements its trait as ConsumerCoordinator extends the class.
//! Response handling is in `responses.rs`, commits in `commit.rs`.

pub(crate) mod commit;
pub(crate) mod responses;

use crate::assign::{client_assignor, RebalanceProtocol, TopicPartition};
use crate::sim::client::abstract_coordinator::{
    AbstractCoordinator, GroupRebalanceConfig, InFlight, MemberState, Membership, NO_GENERATION,
};
use crate::sim::client::app_commit::AppCommitter;
use crate::sim::client::coordinator_lookup;
use crate::sim::client::poll_loop::{self, MainThread};
use crate::sim::connections::Connections;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, JoinProtocol, OffsetCommitRequest, ProtocolMetadata, Request};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out, Retry};
use crate::sim::reason::ClientReason;
use crate::sim::scenario::config::{CommitMode, ConsumerConfig};
use crate::sim::trace::{Callback, EventKind};
use crate::sim::types::{Errors, Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassicConsumer {
    pub idx: u32,
    pub client_id: String,
    pub group_id: String,
    pub config: ConsumerConfig,
    /// Set when an error Kafka treats as fatal reached the application.
    pub fatal: Option<String>,
    /// AbstractCoordinator's fields (ConsumerCoordinator extends it).
    #[serde(flatten)]
    pub membership: Membership,
    pub rebalance_protocol: RebalanceProtocol,
    /// `onJoinPrepare` already sent its commit for this rebalance.
    pub join_prepare_committed: bool,
    /// Partitions currently assigned (owned), sorted.
    pub owned: Vec<TopicPartition>,
    /// The assignment before an eager revocation (what StickyAssignor userData carries).
    pub last_assignment: Vec<TopicPartition>,
    /// The generation whose SyncGroup gave `owned` (`onJoinComplete`'s
    /// generation). Not Kafka state: the invariants date an ownership by it,
    /// since the generation a JoinGroup answer gave the member may be one the
    /// coordinator lost in a failover before its SyncGroup and numbered again.
    #[serde(default = "no_generation")]
    pub assignment_generation: i32,
    /// Next offset to fetch per owned partition.
    pub positions: BTreeMap<TopicPartition, i64>,
    pub main: MainThread,
    pub last_poll: Millis,
    pub next_auto_commit: Millis,
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

fn no_generation() -> i32 {
    NO_GENERATION
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
            fatal: None,
            membership: Membership::default(),
            rebalance_protocol,
            join_prepare_committed: false,
            owned: Vec::new(),
            last_assignment: Vec::new(),
            assignment_generation: NO_GENERATION,
            positions: BTreeMap::new(),
            main: MainThread::Idle,
            last_poll: 0,
            next_auto_commit: 0,
            assignment_snapshot: BTreeMap::new(),
            assignor_max_generation: crate::assign::sticky::DEFAULT_GENERATION,
            connections: Connections::default(),
            app_commits: BTreeMap::new(),
            join_prepare_deadline: None,
            join_prepare_retry_at: 0,
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
        self.membership.is_leader()
    }

    /// The process starts: the application calls `subscribe()` then `poll()`.
    pub fn start(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.next_auto_commit = ctx.now + self.config.auto_commit_interval_ms;
        out.set_timer(ClientTimer::Poll, ctx.now);
    }

    pub(crate) fn callback(&self, cb: Callback, partitions: Vec<TopicPartition>, out: &mut Out) {
        out.emit(EventKind::CallbackInvoked { node: self.node(), callback: cb, partitions });
    }

    /// The application thread calls `poll()`.
    pub fn poll(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let node = self.node();
        let batch_done = matches!(self.main, MainThread::Processing { .. });
        crate::sim::client::poll_loop::finish_batch(node, &mut self.main, out);
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
        out.set_timer(ClientTimer::PollTimeout, ctx.now + self.config.max_poll_interval_ms);
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
    fn poll_pass(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.fatal.is_some() {
            return;
        }
        if matches!(self.main, MainThread::CommitSync { .. }) {
            return self.continue_commit_sync(ctx, out);
        }
        if self.main != MainThread::InPoll {
            return;
        }
        let Some(coordinator) = self.membership.coordinator else {
            self.ensure_coordinator(ctx, out);
            return;
        };
        if self.membership.rejoin_needed || self.membership.state == MemberState::UNJOINED {
            if crate::sim::client::abstract_coordinator::rebalance_in_flight(&self.membership.in_flight) {
                return self.fetch_while_rebalancing(ctx, out);
            }
            if ctx.now < self.membership.join_retry_at {
                // joinGroupIfNeeded sleeps retry.backoff.ms after a retriable failure
                // (the timer is already armed; re-arming it at the same instant keeps
                // the event order of seeded runs as it was).
                out.set_timer(ClientTimer::Backoff(Retry::JoinGroup), self.membership.join_retry_at);
                return self.fetch_while_rebalancing(ctx, out);
            }
            if self.membership.needs_join_prepare && !self.on_join_prepare(ctx, coordinator, out) {
                // waiting for the onJoinPrepare commit
                return self.fetch_while_rebalancing(ctx, out);
            }
            self.send_join_group(ctx, coordinator, out);
            return self.fetch_while_rebalancing(ctx, out);
        }
        if self.membership.state != MemberState::STABLE {
            return;
        }
        if self.leader_sees_metadata_change(ctx, out) {
            self.drive(ctx, out);
            return;
        }
        let missing: Vec<TopicPartition> =
            self.owned.iter().filter(|tp| !self.positions.contains_key(tp)).cloned().collect();
        if !missing.is_empty() {
            if !self.membership.has_in_flight(ApiKey::OffsetFetch) {
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
        self.membership.rejoin_needed = true;
        out.emit(EventKind::Note { node: self.node(), note: Note::NewPartitionsRejoin { topics: changed } });
        true
    }

    /// The application calls `subscribe()` with a new topic list.
    pub fn subscribe(&mut self, topics: Vec<String>, out: &mut Out) {
        if topics == self.config.topics {
            return;
        }
        self.config.topics = topics;
        self.membership.rejoin_needed = true;
        out.emit(EventKind::Note { node: self.node(), note: Note::SubscriptionChangedNextPoll });
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
        let request = Request::OffsetCommit(OffsetCommitRequest {
            group_id: self.group_id.clone(),
            generation_id: self.membership.generation,
            member_id: self.membership.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            offsets,
        });
        self.send(ctx, coordinator, request, for_join_prepare, out)
    }

    /// FindCoordinator to the least loaded node: the next broker that is not in
    /// reconnect backoff; when all are, wait for the first backoff to end.
    fn find_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.membership.has_in_flight(ApiKey::FindCoordinator) {
            return;
        }
        match coordinator_lookup::next_broker(Some(&self.connections), &mut self.membership.bootstrap_cursor, ctx) {
            Ok(broker) => {
                self.send(ctx, broker, Request::FindCoordinator { key: self.group_id.clone() }, false, out);
            }
            Err(at) => out.set_timer(ClientTimer::Backoff(Retry::CoordinatorLookup), at),
        }
    }

    /// `onJoinPrepare`: commit (and wait), then revoke or lose partitions.
    /// Returns false while the commit is still in flight.
    fn on_join_prepare(&mut self, ctx: &mut Ctx, coordinator: u32, out: &mut Out) -> bool {
        if self.membership.in_flight.values().any(|f| f.for_join_prepare) || ctx.now < self.join_prepare_retry_at {
            return false;
        }
        let can_commit = self.membership.state == MemberState::STABLE
            && self.membership.generation >= 0
            && !self.positions.is_empty();
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
        if self.membership.generation == NO_GENERATION || self.membership.member_id.is_empty() {
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
        self.membership.needs_join_prepare = false;
        true
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
        let Some(coordinator) = self.membership.coordinator else {
            self.on_leave_prepare(out);
            return;
        };
        if self.config.enable_auto_commit && self.membership.state == MemberState::STABLE && !self.positions.is_empty()
        {
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
        let reset = self.membership.generation == NO_GENERATION || self.membership.member_id.is_empty();
        let rebalancing =
            matches!(self.membership.state, MemberState::PREPARING_REBALANCE | MemberState::COMPLETING_REBALANCE);
        let cb = if reset || rebalancing { Callback::OnPartitionsLost } else { Callback::OnPartitionsRevoked };
        self.callback(cb, owned, out);
        self.positions.clear();
    }

    /// AbstractCoordinator `shouldSendLeaveGroupRequest`: coordinator known, state
    /// not UNJOINED, a member id, and the close operation asks for it (LEAVE_GROUP,
    /// or DEFAULT for a dynamic member).
    fn should_send_leave_group(&self, operation: crate::sim::client::close_options::GroupMembershipOperation) -> bool {
        self.membership.coordinator.is_some()
            && self.membership.state != MemberState::UNJOINED
            && !self.membership.member_id.is_empty()
            && operation.classic_sends_leave_group(self.config.group_instance_id.is_some())
    }

    fn send_leave_group(&mut self, ctx: &Ctx, coordinator: u32, out: &mut Out) {
        let request = Request::LeaveGroup {
            group_id: self.group_id.clone(),
            members: vec![crate::sim::message::MemberIdentity {
                member_id: self.membership.member_id.clone(),
                group_instance_id: self.config.group_instance_id.clone(),
            }],
        };
        self.send(ctx, coordinator, request, false, out);
    }

    /// `max.poll.interval.ms` passed without a `poll()` (AC `handlePollTimeoutExpiry`).
    pub fn poll_timeout(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !matches!(self.main, MainThread::Processing { .. } | MainThread::CommitSync { .. }) {
            out.set_timer(ClientTimer::PollTimeout, ctx.now + self.config.max_poll_interval_ms);
            return;
        }
        if matches!(self.membership.state, MemberState::UNJOINED | MemberState::PREPARING_REBALANCE) {
            // HeartbeatThread.run: `if (state.hasNotJoinedGroup() ...) disable()`; the
            // poll timer is checked only by the enabled heartbeat thread.
            self.poll_timeout_pending = self.membership.state == MemberState::PREPARING_REBALANCE;
            return;
        }
        out.emit(EventKind::Note {
            node: self.node(),
            note: Note::PollTimeoutLeaving { max_poll_interval_ms: self.config.max_poll_interval_ms },
        });
        if let (Some(c), true) = (
            self.membership.coordinator,
            self.should_send_leave_group(crate::sim::client::close_options::GroupMembershipOperation::DEFAULT),
        ) {
            self.send_leave_group(ctx, c, out);
        }
        self.reset_generation(ctx, false, ClientReason::PollTimeoutExpired, out);
    }

    /// ConsumerCoordinator `metadata()`: one protocol per configured assignor,
    /// each with the subscription, the owned partitions (the sticky assignor's
    /// userData carries the assignment before an eager revocation), the
    /// generation and the rack.
    fn join_protocols(&self) -> Vec<JoinProtocol> {
        self.config
            .assignors
            .iter()
            .map(|name| {
                let owned = if name == "sticky" { self.last_assignment.clone() } else { self.owned.clone() };
                JoinProtocol {
                    name: name.clone(),
                    metadata: ProtocolMetadata {
                        topics: self.config.topics.clone(),
                        owned_partitions: owned,
                        generation_id: self.membership.generation,
                        rack_id: self.config.client_rack.clone(),
                        connect: None,
                        streams: None,
                    },
                }
            })
            .collect()
    }
}

/// ConsumerCoordinator extends AbstractCoordinator.
impl AbstractCoordinator for ClassicConsumer {
    fn membership(&self) -> &Membership {
        &self.membership
    }

    fn membership_mut(&mut self) -> &mut Membership {
        &mut self.membership
    }

    fn member_node(&self) -> NodeId {
        self.node()
    }

    /// The consumer's rebalance timeout is max.poll.interval.ms.
    fn rebalance_config(&self) -> GroupRebalanceConfig<'_> {
        let c = &self.config;
        GroupRebalanceConfig {
            group_id: &self.group_id,
            client_id: &self.client_id,
            group_instance_id: c.group_instance_id.as_ref(),
            session_timeout_ms: c.session_timeout_ms,
            rebalance_timeout_ms: c.max_poll_interval_ms,
            heartbeat_interval_ms: c.heartbeat_interval_ms,
            retry_backoff_ms: c.retry_backoff_ms,
            retry_backoff_max_ms: c.retry_backoff_max_ms,
            request_timeout_ms: c.request_timeout_ms,
        }
    }

    fn protocol_type(&self) -> &'static str {
        "consumer"
    }

    fn metadata(&self) -> Vec<JoinProtocol> {
        self.join_protocols()
    }

    fn ensure_coordinator(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.find_coordinator(ctx, out);
    }

    fn drive(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.poll_pass(ctx, out);
    }

    /// The heartbeat thread hands over to `poll()` only while the application is in one.
    fn after_heartbeat(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.main == MainThread::InPoll {
            self.drive(ctx, out);
        }
    }

    fn rejoins_on_next_poll(&self) -> bool {
        true
    }

    /// `ensureActiveGroup` throws out of `poll()`: the application sees it.
    fn raise_fatal(&mut self, ctx: &Ctx, error: Errors, _why: ClientReason, out: &mut Out) {
        self.fail_fatally(ctx, error, out);
    }
}
