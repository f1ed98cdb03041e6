//! A consumer with `group.protocol=consumer` (AsyncKafkaConsumer with
//! ConsumerMembershipManager, KIP-848): the client `MemberState` machine, the
//! application's poll loop, reconciliation (commit, revoke, then assign, run
//! from `poll()` where the rebalance listener's callbacks execute) and the
//! poll-timer expiry that leaves the group and goes STALE. The heartbeat request
//! manager and response handling are in `heartbeat.rs`.

pub(crate) mod commit;
pub(crate) mod heartbeat;
pub mod member_state;

pub use member_state::MemberState;

use crate::assign::TopicPartition;
use crate::sim::client::app_commit::AppCommitter;
use crate::sim::client::consumer::member_state::transition_member;
use crate::sim::client::poll_loop::{self, MainThread};
use crate::sim::ctx::Ctx;
use crate::sim::message::{
    ApiKey, OffsetCommitRequest, Request, LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH,
};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out};
use crate::sim::scenario::config::{CommitMode, ConsumerConfig};
use crate::sim::trace::{Callback, EventKind, Machine};
use crate::sim::trigger::Trigger;
use crate::sim::types::{Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// `LocalAssignment`: partitions plus a local epoch bumped on every new target,
/// so an acknowledgement re-sends the owned partitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalAssignment {
    pub local_epoch: u64,
    pub partitions: Vec<TopicPartition>,
}

/// The changeable heartbeat fields as last sent (`HeartbeatState.sentFields`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentFields {
    pub rebalance_timeout_ms: Option<i32>,
    pub subscribed_topic_names: Option<Vec<String>>,
    pub server_assignor: Option<String>,
    pub local_assignment: Option<Option<LocalAssignment>>,
}

/// A request waiting for its response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub broker: u32,
    pub api: ApiKey,
    /// The member epoch a heartbeat was sent with (−1/−2 for a leave).
    pub member_epoch: i32,
    /// The OffsetCommit a reconciliation waits for before revoking.
    pub before_revocation: bool,
}

/// The background thread's view of the coordinator and its requests
/// (CoordinatorRequestManager, NetworkClientDelegate).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoordinatorLink {
    pub coordinator: Option<u32>,
    pub in_flight: BTreeMap<u64, Pending>,
    pub next_correlation: u64,
    /// Next bootstrap broker asked for the coordinator.
    pub bootstrap_cursor: u32,
    pub backoff_attempts: u32,
    /// Brokers in reconnect backoff (leastLoadedNode skips them).
    #[serde(default)]
    pub connections: crate::sim::connections::Connections,
}

/// The auto-commit that runs before a reconciliation revokes partitions
/// (`CommitRequestManager.maybeAutoCommitSyncBeforeRebalance`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReconcileCommit {
    /// Give up and revoke anyway after this (the rebalance timeout from the start).
    pub deadline: Option<Millis>,
    /// No new attempt before this (retry backoff after a failed one).
    pub retry_at: Millis,
    /// Committed, or failed with an error that is not retried.
    pub done: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AsyncConsumer {
    pub idx: u32,
    pub group_id: String,
    pub state: MemberState,
    pub config: ConsumerConfig,
    pub client_id: String,
    /// Set when an error Kafka treats as fatal reached the application.
    pub fatal: Option<String>,
    pub link: CoordinatorLink,
    /// Client-generated at start (KIP-1082); empty only before the process starts.
    pub member_id: String,
    pub member_epoch: i32,
    /// Partitions the application owns (`subscriptions.assignedPartitions()`), sorted:
    /// from their assignment until they are revoked or lost.
    pub owned: Vec<TopicPartition>,
    /// Owned partitions the running reconciliation will revoke, marked before its
    /// commit starts (`markPendingRevocationToPauseFetching`): not fetchable
    /// (TopicPartitionState `isFetchable`), so no Fetch for them and their
    /// buffered records are dropped.
    #[serde(default)]
    pub pending_revocation: BTreeSet<TopicPartition>,
    /// The assignment last reconciled (`currentAssignment`; `None` = NONE).
    pub current: Option<LocalAssignment>,
    /// The latest target received from the coordinator (`currentTargetAssignment`).
    pub target: Option<LocalAssignment>,
    /// Heartbeat interval the broker dictates (0 until the first response).
    pub heartbeat_interval_ms: Millis,
    pub next_heartbeat_at: Millis,
    /// No heartbeat before this time (retry backoff).
    pub heartbeat_backoff_until: Millis,
    /// Failed heartbeat attempts since the last success (the heartbeat's
    /// `RequestState.numAttempts`, which sets its exponential backoff).
    #[serde(default)]
    pub heartbeat_attempts: u32,
    pub sent: SentFields,
    /// The poll timer expired and no `poll()` reset it since (`pollTimer.isExpired()`,
    /// and `AbstractMembershipManager.isPollTimerExpired`).
    pub poll_timer_expired: bool,
    pub subscription_updated: bool,
    /// The auto-commit before the running reconciliation revokes anything.
    pub reconcile_commit: ReconcileCommit,
    pub positions: BTreeMap<TopicPartition, i64>,
    pub main: MainThread,
    pub last_poll: Millis,
    pub next_auto_commit: Millis,
    /// In-flight OffsetCommits the simulated application sent itself, by correlation.
    #[serde(default)]
    pub app_commits: BTreeMap<u64, CommitMode>,
    /// Fetches to the partition leaders and the records they returned
    /// (`FetchRequestManager`, in the background thread).
    #[serde(default)]
    pub fetcher: crate::sim::client::fetcher::Fetcher,
}

impl AsyncConsumer {
    pub fn new(idx: u32, group_id: &str, config: ConsumerConfig) -> AsyncConsumer {
        AsyncConsumer {
            idx,
            group_id: group_id.to_string(),
            state: MemberState::UNSUBSCRIBED,
            config,
            client_id: format!("consumer-{group_id}-{idx}"),
            fatal: None,
            link: CoordinatorLink::default(),
            member_id: String::new(),
            member_epoch: 0,
            owned: Vec::new(),
            pending_revocation: BTreeSet::new(),
            current: None,
            target: None,
            heartbeat_interval_ms: 0,
            next_heartbeat_at: 0,
            heartbeat_backoff_until: 0,
            heartbeat_attempts: 0,
            sent: SentFields::default(),
            poll_timer_expired: false,
            subscription_updated: false,
            reconcile_commit: ReconcileCommit::default(),
            positions: BTreeMap::new(),
            main: MainThread::Idle,
            last_poll: 0,
            next_auto_commit: 0,
            app_commits: BTreeMap::new(),
            fetcher: Default::default(),
        }
    }

    pub fn node(&self) -> NodeId {
        NodeId::Client(self.idx)
    }

    /// The process starts: the application calls `subscribe()` then `poll()`.
    /// The member id is generated here, once per consumer instance, and kept
    /// across fencing and rejoins (`AbstractMembershipManager.memberId`,
    /// `Uuid.randomUuid().toString()`, KIP-1082; Kafka 3.x let the coordinator pick it).
    pub fn start(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.member_id.is_empty() {
            self.member_id = ctx.random_kafka_uuid();
        }
        self.next_auto_commit = ctx.now + self.config.auto_commit_interval_ms;
        self.subscription_updated = true;
        out.set_timer(ClientTimer::Poll, ctx.now);
    }

    /// `AbstractMembershipManager.transitionTo`: every state change of this
    /// client, checked against Kafka's valid-previous-states table.
    pub(crate) fn transition_to(&mut self, to: MemberState, trigger: Trigger, out: &mut Out) {
        let node = self.node();
        transition_member(node, Machine::ConsumerMember, &mut self.state, to, trigger, out);
    }

    pub(crate) fn callback(&self, cb: Callback, partitions: Vec<TopicPartition>, out: &mut Out) {
        out.emit(EventKind::CallbackInvoked { node: self.node(), callback: cb, partitions });
    }

    /// `transitionToJoining`: epoch 0, every field in the next heartbeat, sent at once.
    pub(crate) fn transition_to_joining(&mut self, ctx: &mut Ctx, why: Trigger, out: &mut Out) {
        if self.state == MemberState::FATAL {
            return;
        }
        self.member_epoch = 0;
        self.reconcile_commit = ReconcileCommit::default();
        self.transition_to(MemberState::JOINING, why, out);
        self.maybe_heartbeat(ctx, out);
    }

    /// `clearAssignment`: the application no longer owns anything.
    pub(crate) fn clear_assignment(&mut self) {
        self.owned.clear();
        self.pending_revocation.clear();
        self.positions.clear();
        self.current = None;
    }

    /// `onPartitionsLost` for everything owned, then `clearAssignment`.
    pub(crate) fn lose_everything(&mut self, out: &mut Out) {
        if !self.owned.is_empty() {
            self.callback(Callback::OnPartitionsLost, self.owned.clone(), out);
        }
        self.clear_assignment();
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
        out.set_timer(ClientTimer::PollTimeout, ctx.now + self.config.max_poll_interval_ms);
        // maybeRejoinStaleMember / onConsumerPoll.
        self.poll_timer_expired = false;
        if self.state == MemberState::STALE {
            self.transition_to_joining(ctx, Trigger::PollAfterPollTimerExpired, out);
        } else if self.subscription_updated && self.state == MemberState::UNSUBSCRIBED {
            self.subscription_updated = false;
            self.transition_to_joining(ctx, Trigger::SubscribeThenPoll, out);
        }
        self.drive(ctx, out);
    }

    /// Continues `poll()`: reconcile, position new partitions, auto-commit, then
    /// return records. Owned partitions keep being processed while the
    /// coordinator is unknown (the new consumer's poll does not wait for it).
    pub(crate) fn drive(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.fatal.is_some() {
            return;
        }
        if matches!(self.main, MainThread::CommitSync { .. }) {
            return self.continue_commit_sync(ctx, out);
        }
        if self.main != MainThread::InPoll {
            return;
        }
        if self.link.coordinator.is_none() {
            self.ensure_coordinator(ctx, out);
        }
        if self.reconcile(ctx, out) {
            // The commit before reconciling runs in Kafka's background thread;
            // the partitions it will revoke were marked pending revocation, so
            // only the others are fetched and processed meanwhile.
            return self.fetch_while_waiting_for_group(ctx, out);
        }
        let missing: Vec<TopicPartition> =
            self.owned.iter().filter(|tp| !self.positions.contains_key(tp)).cloned().collect();
        if !missing.is_empty() {
            if let (Some(c), false) = (self.link.coordinator, self.has_in_flight(ApiKey::OffsetFetch)) {
                let request = Request::OffsetFetch { group_id: self.group_id.clone(), partitions: missing };
                self.send(ctx, c, request, out);
            }
            // The new consumer initialises positions in its background thread.
            return self.fetch_while_waiting_for_group(ctx, out);
        }
        self.maybe_auto_commit_async(ctx, out);
        let fetchable = self.fetchable_partitions();
        let (f, main) = self.fetching(&fetchable);
        if poll_loop::fetch_and_process(ctx, f, main, out) {
            self.commit_before_processing(ctx, out);
        }
    }

    /// `maybeAutoCommitAsync`: once `auto.commit.interval.ms` has passed, commit the
    /// positions and restart the interval; skipped, with the interval left
    /// expired, while an auto-commit (this one or the one before a rebalance) is
    /// in flight (`AutoCommitState.shouldAutoCommit`). A failed one waits for
    /// the next interval: Kafka 4.4's `maybeResetTimerWithBackoff` looks for a
    /// RetriableCommitFailedException, which this commit's future never carries.
    fn maybe_auto_commit_async(&mut self, ctx: &Ctx, out: &mut Out) {
        if !self.config.enable_auto_commit || ctx.now < self.next_auto_commit || self.auto_commit_in_flight() {
            return;
        }
        self.next_auto_commit = ctx.now + self.config.auto_commit_interval_ms;
        if let Some(c) = self.link.coordinator.filter(|_| !self.positions.is_empty()) {
            self.commit_positions(ctx, c, false, out);
        }
    }

    /// `AutoCommitState.hasInflightCommit`: an OffsetCommit in flight that the
    /// application did not send itself.
    fn auto_commit_in_flight(&self) -> bool {
        self.link.in_flight.iter().any(|(c, p)| p.api == ApiKey::OffsetCommit && !self.app_commits.contains_key(c))
    }

    /// The owned partitions not pending revocation (SubscriptionState
    /// `fetchablePartitions`; the new consumer pauses nothing else).
    fn fetchable_partitions(&self) -> Vec<TopicPartition> {
        self.owned.iter().filter(|tp| !self.pending_revocation.contains(tp)).cloned().collect()
    }

    /// The poll loop's view of this consumer, fetching `fetchable`.
    fn fetching<'a>(&'a mut self, fetchable: &'a [TopicPartition]) -> (poll_loop::Fetching<'a>, &'a mut MainThread) {
        let f = poll_loop::Fetching {
            config: &self.config,
            owned: fetchable,
            positions: &mut self.positions,
            fetcher: &mut self.fetcher,
            connections: &self.link.connections,
        };
        (f, &mut self.main)
    }

    /// Records of the fetchable partitions that have a position, while the group
    /// work runs (`poll_loop::fetch_while_waiting_for_group`).
    fn fetch_while_waiting_for_group(&mut self, ctx: &mut Ctx, out: &mut Out) {
        let fetchable = self.fetchable_partitions();
        let (f, main) = self.fetching(&fetchable);
        if poll_loop::fetch_while_waiting_for_group(ctx, f, false, main, out) {
            self.commit_before_processing(ctx, out);
        }
    }

    /// Reconciliation (`maybeReconcile` of AbstractMembershipManager): mark
    /// `owned − target` pending revocation, commit if auto-commit is on, then
    /// `revokeAndAssign`. True while it waits for the commit.
    fn reconcile(&mut self, ctx: &mut Ctx, out: &mut Out) -> bool {
        if self.state != MemberState::RECONCILING {
            return false;
        }
        let Some(target) = self.target.clone() else { return false };
        if self.current.as_ref() == Some(&target) {
            return false;
        }
        if self.current.as_ref().is_some_and(|c| c.partitions == target.partitions) {
            // Same partitions under a newer local epoch: just acknowledge.
            self.pending_revocation.clear();
            self.current = Some(target);
            self.transition_to(MemberState::ACKNOWLEDGING, Trigger::TargetEqualsCurrent, out);
            self.maybe_heartbeat(ctx, out);
            return false;
        }
        if self.link.in_flight.values().any(|p| p.before_revocation) {
            return true;
        }
        // markPendingRevocationToPauseFetching, before the commit starts.
        self.pending_revocation = self.owned.iter().filter(|tp| !target.partitions.contains(tp)).cloned().collect();
        if self.commit_before_rebalance(ctx, out) {
            return true;
        }
        self.revoke_and_assign(ctx, target, out);
        false
    }

    /// `maybeAutoCommitSyncBeforeRebalance`: with auto-commit on, commit the
    /// positions and wait for the answer, retried (after a backoff, and once the
    /// coordinator is found again) until the rebalance timeout when
    /// `retries_commit_before_rebalance` allows. True while waiting.
    fn commit_before_rebalance(&mut self, ctx: &mut Ctx, out: &mut Out) -> bool {
        if !self.config.enable_auto_commit || self.positions.is_empty() || self.reconcile_commit.done {
            return false;
        }
        let deadline = *self.reconcile_commit.deadline.get_or_insert(ctx.now + self.config.max_poll_interval_ms);
        if ctx.now < deadline {
            if let Some(c) = self.link.coordinator.filter(|_| ctx.now >= self.reconcile_commit.retry_at) {
                self.commit_positions(ctx, c, true, out);
            }
            return true;
        }
        out.emit(EventKind::Note { node: self.node(), note: Note::RevokeCommitTimedOut });
        false
    }

    /// `revokeAndAssign`: `onPartitionsRevoked` for the partitions pending
    /// revocation, the new assignment, `onPartitionsAssigned(target − owned)`,
    /// then ACKNOWLEDGING with an immediate heartbeat.
    fn revoke_and_assign(&mut self, ctx: &mut Ctx, target: LocalAssignment, out: &mut Out) {
        self.reconcile_commit = ReconcileCommit::default();
        let revoked: Vec<TopicPartition> = std::mem::take(&mut self.pending_revocation).into_iter().collect();
        let added: Vec<TopicPartition> =
            target.partitions.iter().filter(|tp| !self.owned.contains(tp)).cloned().collect();
        if !revoked.is_empty() {
            self.callback(Callback::OnPartitionsRevoked, revoked, out);
        }
        self.owned = target.partitions.clone();
        self.positions.retain(|tp, _| target.partitions.contains(tp));
        self.callback(Callback::OnPartitionsAssigned, added, out);
        self.current = Some(target);
        self.transition_to(MemberState::ACKNOWLEDGING, Trigger::ReconciledNewAssignment, out);
        self.maybe_heartbeat(ctx, out);
    }

    pub(crate) fn commit_positions(
        &mut self,
        ctx: &Ctx,
        coordinator: u32,
        before_revocation: bool,
        out: &mut Out,
    ) -> u64 {
        let offsets = self.positions.iter().map(|(tp, o)| (tp.clone(), *o)).collect();
        let correlation = self.send_offset_commit(ctx, coordinator, offsets, out);
        if let Some(p) = self.link.in_flight.get_mut(&correlation) {
            p.before_revocation = before_revocation;
        }
        correlation
    }

    pub(crate) fn send_offset_commit(
        &mut self,
        ctx: &Ctx,
        coordinator: u32,
        offsets: Vec<(TopicPartition, i64)>,
        out: &mut Out,
    ) -> u64 {
        let request = Request::OffsetCommit(OffsetCommitRequest {
            group_id: self.group_id.clone(),
            generation_id: self.member_epoch,
            member_id: self.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            offsets,
        });
        self.send(ctx, coordinator, request, out)
    }

    /// The application calls `subscribe()` with a new topic list: the next
    /// heartbeat carries it (only changed fields are sent).
    pub fn subscribe(&mut self, topics: Vec<String>, out: &mut Out) {
        if topics == self.config.topics {
            return;
        }
        self.config.topics = topics;
        self.subscription_updated = true;
        out.emit(EventKind::Note { node: self.node(), note: Note::SubscriptionChangedNextHeartbeat });
    }

    /// `max.poll.interval.ms` passed without a `poll()`: the poll timer is expired.
    /// The heartbeat manager acts on it in its next `poll`
    /// (`AbstractHeartbeatRequestManager.poll`): with the coordinator known the
    /// member leaves at once (epoch −1, or −2 if static), without revocation
    /// callbacks and without waiting for a heartbeat in flight, then goes STALE,
    /// where it loses its partitions; the next `poll()` rejoins. With the
    /// coordinator unknown it does nothing until the coordinator is found, and an
    /// application `poll()` before that only resets the timer (`resetPollTimer`).
    pub fn poll_timeout(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if !matches!(self.main, MainThread::Processing { .. } | MainThread::CommitSync { .. }) {
            out.set_timer(ClientTimer::PollTimeout, ctx.now + self.config.max_poll_interval_ms);
            return;
        }
        if self.fatal.is_some()
            || !matches!(
                self.state,
                MemberState::JOINING | MemberState::RECONCILING | MemberState::ACKNOWLEDGING | MemberState::STABLE
            )
        {
            return;
        }
        self.poll_timer_expired = true;
        if self.link.coordinator.is_none() {
            out.emit(EventKind::Note {
                node: self.node(),
                note: Note::PollTimeoutCoordinatorUnknown { max_poll_interval_ms: self.config.max_poll_interval_ms },
            });
        }
        self.maybe_heartbeat(ctx, out);
    }

    /// `transitionToSendingLeaveGroup(true)`, when the heartbeat manager finds
    /// the poll timer expired: PREPARE_LEAVING, the leave epoch, then LEAVING.
    pub(crate) fn leave_on_expired_poll_timer(&mut self, out: &mut Out) {
        out.emit(EventKind::Note {
            node: self.node(),
            note: Note::PollTimeoutLeaving { max_poll_interval_ms: self.config.max_poll_interval_ms },
        });
        self.transition_to(MemberState::PREPARE_LEAVING, Trigger::PollTimerExpired, out);
        self.member_epoch = if self.config.group_instance_id.is_some() {
            LEAVE_GROUP_STATIC_MEMBER_EPOCH
        } else {
            LEAVE_GROUP_MEMBER_EPOCH
        };
        self.current = None;
        self.transition_to(MemberState::LEAVING, Trigger::SendingLeaveHeartbeat, out);
    }

    /// `AsyncKafkaConsumer.close(CloseOptions)` (`prepareShutdown`): commit the
    /// positions if auto-commit is on, run onPartitionsRevoked, then leave with a
    /// heartbeat at the epoch the operation gives (`leaveGroupEpoch`: −1, or −2 for
    /// a static member keeping its place for the session timeout; in 4.4 a dynamic
    /// member under REMAIN_IN_GROUP still sends −1, see `consumer_leave_epoch`).
    /// The world then ends the process; answers are not awaited.
    pub fn close(
        &mut self,
        ctx: &mut Ctx,
        operation: crate::sim::client::close_options::GroupMembershipOperation,
        out: &mut Out,
    ) {
        if let Some(c) = self.link.coordinator.filter(|_| self.config.enable_auto_commit && !self.positions.is_empty())
        {
            self.commit_positions(ctx, c, false, out);
        }
        if !self.owned.is_empty() {
            self.callback(Callback::OnPartitionsRevoked, self.owned.clone(), out);
        }
        let in_group = matches!(
            self.state,
            MemberState::JOINING | MemberState::RECONCILING | MemberState::ACKNOWLEDGING | MemberState::STABLE
        );
        let Some(epoch) = operation.consumer_leave_epoch(self.config.group_instance_id.is_some()).filter(|_| in_group)
        else {
            return;
        };
        self.transition_to(MemberState::PREPARE_LEAVING, Trigger::Close, out);
        self.member_epoch = epoch;
        self.current = None;
        self.transition_to(MemberState::LEAVING, Trigger::SendingLeaveHeartbeat, out);
        self.maybe_heartbeat(ctx, out);
    }

    /// `transitionToStale`: after the leave heartbeat, lose everything and wait for `poll()`.
    pub(crate) fn transition_to_stale(&mut self, out: &mut Out) {
        self.transition_to(MemberState::STALE, Trigger::LeftAfterPollTimerExpired, out);
        self.lose_everything(out);
    }
}
