//! A Kafka Streams stream thread in a streams group (KIP-1071,
//! `group.protocol=streams`): one group member, its
//! `StreamsMembershipManager` and `StreamsGroupHeartbeatRequestManager`
//! (`heartbeat.rs`), and the tasks it runs (`tasks.rs`). The threads of one
//! `KafkaStreams` instance are separate clients here sharing a process id.
//!
//! Simplified (fidelity notes): a thread does not fetch or process records;
//! a task is RESTORING for a time proportional to the changelog records it
//! lacks, then RUNNING; local state (a task's store on disk) is kept per
//! thread, not per instance; the member's client-side states are the
//! consumer protocol's `MemberState`, as Kafka's `StreamsMembershipManager` uses.

pub(crate) mod classic;
pub(crate) mod classic_assign;
pub(crate) mod heartbeat;
pub(crate) mod tasks;

use crate::assign::TopicPartition;
use crate::sim::client::consumer::member_state::transition_member;
use crate::sim::client::consumer::MemberState;
use crate::sim::client::share::SharePending;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, Request};
use crate::sim::out::{ClientTimer, Out, TimerKey};
use crate::sim::scenario::streams_config::StreamsInstanceConfig;
use crate::sim::streams_message::{StreamsStatus, StreamsTopology, TasksTuple};
use crate::sim::trace::Machine;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A task as the thread runs it (`Task.State`, the part a learner sees).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskState {
    /// Active, restoring its state stores until then.
    Restoring { until: Millis },
    /// Active and processing.
    Running,
    /// A standby replica, following the changelog.
    Standby,
    /// Classic rebalancing: a new standby (or warm-up) still catching up
    /// with its changelog until then.
    CatchingUp { until: Millis },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamsThread {
    pub idx: u32,
    /// The thread's consumer's `client.id` (`c3`, as the page names the thread).
    #[serde(default)]
    pub client_id: String,
    /// `application.id`, the group id.
    pub group_id: String,
    /// The instance (1-based within the application) and thread (1-based within the instance).
    pub instance: u32,
    pub thread: u32,
    /// The instance's process id (`ProcessId`, kept in its state directory across restarts).
    pub process_id: String,
    pub topology: StreamsTopology,
    pub config: StreamsInstanceConfig,
    pub state: MemberState,
    pub fatal: Option<String>,
    pub member_id: String,
    pub member_epoch: i32,
    pub coordinator: Option<u32>,
    pub bootstrap_cursor: u32,
    pub heartbeat_interval_ms: Millis,
    pub next_correlation: u64,
    pub in_flight: BTreeMap<u64, SharePending>,
    /// The tasks the thread owns, as it reports them.
    pub owned: TasksTuple,
    /// What the last heartbeat reported (`None`: report on the next one).
    pub reported: Option<TasksTuple>,
    /// An assignment the thread is moving to: revoked tasks are being
    /// committed and closed (`onTasksRevoked`) until `revoking_until`.
    pub target: Option<TasksTuple>,
    pub revoking_until: Option<Millis>,
    /// Each task's state, by (subtopology, partition).
    pub tasks: BTreeMap<(String, i32), TaskState>,
    /// Tasks whose state the thread keeps locally (it ran them or held a standby).
    pub local_state: std::collections::BTreeSet<(String, i32)>,
    /// The statuses of the last heartbeat response.
    pub statuses: Vec<StreamsStatus>,
    /// The application asked for a shutdown (`KafkaStreams` uncaught
    /// exception handler answering SHUTDOWN_APPLICATION).
    pub shutdown_request: bool,
    pub closing: bool,
    /// Source partitions of its active tasks (what the drawing shows it owns).
    pub owned_partitions: Vec<TopicPartition>,
    pub last_poll: Millis,
    /// Classic rebalancing (`group.protocol=classic`): AbstractCoordinator's
    /// fields of the thread's consumer (unused in a streams group).
    #[serde(default)]
    pub membership: crate::sim::client::abstract_coordinator::Membership,
    /// Classic: the instance's `nextScheduledRebalanceMs` (a follow-up or probing rebalance).
    #[serde(default)]
    pub next_rebalance_at: Option<Millis>,
    /// Classic: the generation whose SyncGroup gave the thread its tasks.
    /// Not Kafka state: the invariants date an ownership by it (the
    /// generation a JoinGroup answer gave may be one a failed-over
    /// coordinator lost before its SyncGroup and numbered again).
    #[serde(default)]
    pub assignment_generation: i32,
    /// Classic: the standbys the leader placed as warm-ups.
    #[serde(default)]
    pub warmups: crate::sim::streams_message::Tasks,
}

impl StreamsThread {
    pub fn new(
        idx: u32,
        group_id: &str,
        instance: u32,
        thread: u32,
        topology: StreamsTopology,
        config: StreamsInstanceConfig,
    ) -> StreamsThread {
        StreamsThread {
            idx,
            client_id: format!("c{idx}"),
            group_id: group_id.to_string(),
            instance,
            thread,
            process_id: format!("{group_id}-p{instance}"),
            topology,
            config,
            state: MemberState::UNSUBSCRIBED,
            fatal: None,
            member_id: String::new(),
            member_epoch: 0,
            coordinator: None,
            bootstrap_cursor: 0,
            heartbeat_interval_ms: 0,
            next_correlation: 0,
            in_flight: BTreeMap::new(),
            owned: TasksTuple::default(),
            reported: None,
            target: None,
            revoking_until: None,
            tasks: BTreeMap::new(),
            local_state: std::collections::BTreeSet::new(),
            statuses: Vec::new(),
            shutdown_request: false,
            closing: false,
            owned_partitions: Vec::new(),
            last_poll: 0,
            membership: Default::default(),
            next_rebalance_at: None,
            assignment_generation: -1,
            warmups: Default::default(),
        }
    }

    pub fn node(&self) -> NodeId {
        NodeId::Client(self.idx)
    }

    /// `c3`, as the page names the thread (and as its requests name it).
    pub fn name(&self) -> String {
        format!("c{}", self.idx)
    }

    /// The member's `group.instance.id`: `<id>-<instance>-<thread>` when static.
    pub fn instance_id(&self) -> Option<String> {
        self.config.group_instance_id.as_ref().map(|id| format!("{id}-{}-{}", self.instance, self.thread))
    }

    /// The thread starts: it subscribes with the topology and joins.
    pub fn start(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.is_classic() {
            return self.classic_start(ctx, out);
        }
        if self.member_id.is_empty() {
            self.member_id = ctx.random_kafka_uuid();
        }
        if self.state == MemberState::UNSUBSCRIBED {
            self.transition_to(MemberState::JOINING, Trigger::SubscribeThenPoll, out);
        }
        self.last_poll = ctx.now;
        out.set_timer(ClientTimer::Heartbeat, ctx.now);
    }

    pub(crate) fn transition_to(&mut self, to: MemberState, trigger: Trigger, out: &mut Out) {
        let node = self.node();
        transition_member(node, Machine::StreamsMember, &mut self.state, to, trigger, out);
    }

    pub(crate) fn send(&mut self, now: Millis, broker: u32, request: Request, out: &mut Out) -> u64 {
        self.next_correlation += 1;
        let correlation = self.next_correlation;
        self.in_flight.insert(correlation, SharePending { broker, api: request.api_key() });
        out.send(NodeId::Broker(broker), crate::sim::message::Body::Request { correlation, request });
        out.set_timer(ClientTimer::RequestTimeout { correlation }, now + REQUEST_TIMEOUT_MS);
        correlation
    }

    pub(crate) fn has_in_flight(&self, api: ApiKey) -> bool {
        self.in_flight.values().any(|p| p.api == api)
    }

    pub fn handle_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) -> crate::sim::node::Handled {
        if self.is_classic() {
            return self.classic_timer(ctx, key, out);
        }
        match key {
            TimerKey::Client(ClientTimer::Heartbeat) => self.heartbeat_tick(ctx, out),
            // The stream thread's loop: a revocation finished, or a task restored.
            TimerKey::Client(ClientTimer::Poll) => self.run_once(ctx, out),
            TimerKey::Client(ClientTimer::RequestTimeout { correlation }) => {
                self.handle_disconnect(ctx, *correlation, out)
            }
            _ => return Err(crate::sim::node::Misrouted::timer(key)),
        }
        Ok(())
    }

    pub fn handle_response(
        &mut self,
        ctx: &mut Ctx,
        correlation: u64,
        response: crate::sim::message::Response,
        out: &mut Out,
    ) {
        if self.is_classic() {
            return self.classic_response(ctx, correlation, response, out);
        }
        if self.in_flight.remove(&correlation).is_none() {
            return;
        }
        out.cancel_timer(ClientTimer::RequestTimeout { correlation });
        use crate::sim::message::Response as R;
        match response {
            R::FindCoordinator { error, node_id } => self.on_find_coordinator(ctx, error, node_id, out),
            R::StreamsGroupHeartbeat(r) => self.on_heartbeat(ctx, r, out),
            _ => {}
        }
    }

    pub fn handle_disconnect(&mut self, ctx: &mut Ctx, correlation: u64, out: &mut Out) {
        if self.is_classic() {
            return self.classic_request_failed(ctx, correlation, out);
        }
        let Some(pending) = self.in_flight.remove(&correlation) else { return };
        out.cancel_timer(ClientTimer::RequestTimeout { correlation });
        self.broker_gone(ctx, pending.broker, pending.api, out);
    }

    pub fn connection_lost(&mut self, ctx: &mut Ctx, broker: u32, out: &mut Out) {
        if self.is_classic() {
            return self.classic_connection_lost(ctx, broker, out);
        }
        let lost: Vec<(u64, SharePending)> =
            self.in_flight.iter().filter(|(_, p)| p.broker == broker).map(|(c, p)| (*c, p.clone())).collect();
        for (c, p) in lost {
            self.in_flight.remove(&c);
            out.cancel_timer(ClientTimer::RequestTimeout { correlation: c });
            self.broker_gone(ctx, broker, p.api, out);
        }
    }

    fn broker_gone(&mut self, ctx: &mut Ctx, broker: u32, api: ApiKey, out: &mut Out) {
        if api == ApiKey::StreamsGroupHeartbeat {
            // A failed heartbeat resets what was sent: the next reports the tasks again.
            self.reported = None;
        }
        if self.coordinator == Some(broker) {
            self.coordinator = None;
        }
        out.set_timer(ClientTimer::Heartbeat, ctx.now + RETRY_BACKOFF_MS);
    }

    /// `KafkaStreams.close()`: revoked tasks are committed and closed, and the
    /// member leaves: epoch −2 for a static member (it keeps its tasks for
    /// its session timeout), −1 otherwise.
    pub fn close(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.is_classic() {
            return self.classic_close(ctx, out);
        }
        self.closing = true;
        let all = tasks::names_of(&self.owned);
        if !all.is_empty() {
            self.note(crate::sim::streams_note::StreamsNote::TasksRevoked { client: self.name(), tasks: all }, out);
        }
        self.clear_tasks();
        if self.state != MemberState::UNSUBSCRIBED && self.state != MemberState::FATAL {
            self.transition_to(MemberState::PREPARE_LEAVING, Trigger::Close, out);
            self.transition_to(MemberState::LEAVING, Trigger::Close, out);
            if let Some(b) = self.coordinator {
                let epoch = if self.instance_id().is_some() { -2 } else { -1 };
                self.send_heartbeat(ctx.now, b, epoch, out);
            }
            self.transition_to(MemberState::UNSUBSCRIBED, Trigger::Close, out);
        }
        out.cancel_timer(ClientTimer::Poll);
        out.cancel_timer(ClientTimer::Heartbeat);
    }

    pub(crate) fn note(&self, n: crate::sim::streams_note::StreamsNote, out: &mut Out) {
        out.emit(crate::sim::trace::EventKind::Note { node: self.node(), note: crate::sim::note::Note::Streams(n) });
    }
}

/// `retry.backoff.ms`.
pub const RETRY_BACKOFF_MS: Millis = 100;

/// `request.timeout.ms` (30 s).
pub const REQUEST_TIMEOUT_MS: Millis = 30_000;

crate::sim::node::client_node!(StreamsThread);
