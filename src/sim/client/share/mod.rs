//! A share consumer (`KafkaShareConsumer`, KIP-932): `ShareMembershipManager`
//! and `ShareHeartbeatRequestManager` for the group (`heartbeat.rs`), and
//! `ShareConsumeRequestManager` for the records (`fetch.rs`): one share
//! session per partition leader, ShareFetch with the previous batch's
//! acknowledgements piggybacked, and the application's poll loop.
//!
//! The member id is the client's own (a UUID kept for the process lifetime);
//! there is no static membership, no rebalance callback and no offset commit.
//! The client's `MemberState` is the consumer protocol's (AbstractMembershipManager).

pub(crate) mod fetch;
pub(crate) mod heartbeat;

use crate::assign::TopicPartition;
use crate::sim::client::consumer::member_state::transition_member;
use crate::sim::client::consumer::MemberState;
use crate::sim::client::poll_loop::MainThread;
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, Request};
use crate::sim::out::{ClientTimer, Out, TimerKey};
use crate::sim::scenario::share_config::ShareConsumerConfig;
use crate::sim::share_message::AcknowledgementBatch;
use crate::sim::trace::Machine;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A request waiting for its answer: where it went and what it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharePending {
    pub broker: u32,
    pub api: ApiKey,
}

/// One record the application holds: acquired, being processed, not yet acknowledged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldRecord {
    pub partition: TopicPartition,
    pub offset: i64,
    pub delivery_count: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareConsumer {
    pub idx: u32,
    pub group_id: String,
    pub topics: Vec<String>,
    pub config: ShareConsumerConfig,
    pub state: MemberState,
    pub fatal: Option<String>,
    /// Client-generated at start, kept across fencing and rejoins.
    pub member_id: String,
    pub member_epoch: i32,
    /// `ShareHeartbeatRequestManager.HeartbeatState.SentFields.subscribedTopicNames`:
    /// the subscription went out on a heartbeat since the last failure.
    /// `resetHeartbeatState` clears it on any failed or refused heartbeat, so
    /// the next one is a full request, answered with the whole assignment.
    #[serde(default)]
    pub sent_subscription: bool,
    pub coordinator: Option<u32>,
    pub bootstrap_cursor: u32,
    /// The partitions the coordinator assigned (shared with other members maybe).
    pub assignment: Vec<TopicPartition>,
    pub heartbeat_interval_ms: Millis,
    pub next_correlation: u64,
    pub in_flight: BTreeMap<u64, SharePending>,
    /// The share session epoch of the next request to each leader (0 = open a new one).
    pub sessions: BTreeMap<u32, i32>,
    /// Acknowledgements to send with the next request to each partition's leader.
    pub pending_acks: BTreeMap<TopicPartition, Vec<AcknowledgementBatch>>,
    /// The records the last `poll()` returned, while the application processes them.
    pub held: Vec<HeldRecord>,
    /// When the application finishes the held records and calls `poll()` again.
    pub processing_until: Option<Millis>,
    /// Records acquired by the fetches of the running `poll()`.
    pub fetched: Vec<HeldRecord>,
    pub last_poll: Millis,
    /// `close()` was called: the final acknowledgements and the leave are out.
    pub closing: bool,
    /// The application thread, as the drawing shows it.
    pub main: MainThread,
}

impl ShareConsumer {
    pub fn new(idx: u32, group_id: &str, topics: Vec<String>, config: ShareConsumerConfig) -> ShareConsumer {
        ShareConsumer {
            idx,
            group_id: group_id.to_string(),
            topics,
            config,
            state: MemberState::UNSUBSCRIBED,
            fatal: None,
            member_id: String::new(),
            member_epoch: 0,
            sent_subscription: false,
            coordinator: None,
            bootstrap_cursor: 0,
            assignment: Vec::new(),
            heartbeat_interval_ms: 0,
            next_correlation: 0,
            in_flight: BTreeMap::new(),
            sessions: BTreeMap::new(),
            pending_acks: BTreeMap::new(),
            held: Vec::new(),
            processing_until: None,
            fetched: Vec::new(),
            last_poll: 0,
            closing: false,
            main: MainThread::Idle,
        }
    }

    pub fn node(&self) -> NodeId {
        NodeId::Client(self.idx)
    }

    /// The process starts: `subscribe(topics)`, then the poll loop. Only an
    /// UNSUBSCRIBED member joins (`AbstractMembershipManager.onConsumerPoll`):
    /// a start that finds it already in the group leaves it there.
    pub fn start(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.member_id.is_empty() {
            self.member_id = ctx.random_kafka_uuid();
        }
        if self.state == MemberState::UNSUBSCRIBED {
            self.transition_to(MemberState::JOINING, Trigger::SubscribeThenPoll, out);
        }
        out.set_timer(ClientTimer::Heartbeat, ctx.now);
        out.set_timer(ClientTimer::Poll, ctx.now);
    }

    /// `AbstractMembershipManager.transitionTo`, checked against Kafka's table.
    pub(crate) fn transition_to(&mut self, to: MemberState, trigger: Trigger, out: &mut Out) {
        let node = self.node();
        transition_member(node, Machine::ShareMember, &mut self.state, to, trigger, out);
    }

    /// Sends `request` to `broker`, answered within `request.timeout.ms` or
    /// given up (`NetworkClient.handleTimedOutRequests`).
    pub(crate) fn send(&mut self, now: Millis, broker: u32, request: Request, out: &mut Out) -> u64 {
        self.next_correlation += 1;
        let correlation = self.next_correlation;
        self.in_flight.insert(correlation, SharePending { broker, api: request.api_key() });
        out.send(NodeId::Broker(broker), crate::sim::message::Body::Request { correlation, request });
        // A ShareFetch waits at most fetch.max.wait.ms at the leader, well within this.
        out.set_timer(ClientTimer::RequestTimeout { correlation }, now + REQUEST_TIMEOUT_MS);
        correlation
    }

    pub(crate) fn has_in_flight(&self, api: ApiKey) -> bool {
        self.in_flight.values().any(|p| p.api == api)
    }

    pub fn handle_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) -> crate::sim::node::Handled {
        match key {
            TimerKey::Client(ClientTimer::Heartbeat) => self.heartbeat_tick(ctx, out),
            TimerKey::Client(ClientTimer::Poll) => self.poll(ctx, out),
            // No answer within request.timeout.ms: `NetworkClient.handleTimedOutRequests`
            // gives the request up as disconnected, and the request manager sends anew.
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
        let Some(pending) = self.in_flight.remove(&correlation) else { return };
        out.cancel_timer(ClientTimer::RequestTimeout { correlation });
        use crate::sim::message::Response as R;
        match response {
            R::FindCoordinator { error, node_id } => self.on_find_coordinator(ctx, error, node_id, out),
            R::ShareGroupHeartbeat(r) => self.on_heartbeat(ctx, r, out),
            R::ShareFetch(r) => self.on_share_fetch(ctx, pending.broker, r, out),
            R::ShareAcknowledge(r) => self.on_share_acknowledge(pending.broker, r),
            _ => {}
        }
    }

    /// The connection broke under a request (the broker is down).
    pub fn handle_disconnect(&mut self, ctx: &mut Ctx, correlation: u64, out: &mut Out) {
        let Some(pending) = self.in_flight.remove(&correlation) else { return };
        out.cancel_timer(ClientTimer::RequestTimeout { correlation });
        self.broker_gone(ctx, pending.broker, pending.api, out);
    }

    /// Every connection to `broker` broke.
    pub fn connection_lost(&mut self, ctx: &mut Ctx, broker: u32, out: &mut Out) {
        let lost: Vec<(u64, SharePending)> =
            self.in_flight.iter().filter(|(_, p)| p.broker == broker).map(|(c, p)| (*c, p.clone())).collect();
        for (c, p) in lost {
            self.in_flight.remove(&c);
            out.cancel_timer(ClientTimer::RequestTimeout { correlation: c });
            self.broker_gone(ctx, broker, p.api, out);
        }
        self.sessions.remove(&broker);
    }

    fn broker_gone(&mut self, ctx: &mut Ctx, broker: u32, api: ApiKey, out: &mut Out) {
        self.sessions.remove(&broker);
        match api {
            ApiKey::FindCoordinator | ApiKey::ShareGroupHeartbeat => {
                if api == ApiKey::ShareGroupHeartbeat {
                    // `AbstractHeartbeatRequestManager.onFailure` → `resetHeartbeatState`.
                    self.sent_subscription = false;
                }
                if self.coordinator == Some(broker) {
                    self.coordinator = None;
                }
                out.set_timer(ClientTimer::Heartbeat, ctx.now + RETRY_BACKOFF_MS);
            }
            _ => self.maybe_finish_poll(ctx, out),
        }
    }

    /// `close()`: the held records are acknowledged (implicit mode accepts
    /// them) on the final request of each share session (epoch −1), which
    /// releases anything else the member holds, and the member leaves with
    /// epoch −1. The process ends when the world stops it.
    pub fn close(&mut self, ctx: &mut Ctx, out: &mut Out) {
        self.closing = true;
        self.acknowledge_held(out);
        self.send_final_acknowledgements(ctx, out);
        if self.state != MemberState::UNSUBSCRIBED && self.state != MemberState::FATAL {
            self.transition_to(MemberState::PREPARE_LEAVING, Trigger::Close, out);
            self.transition_to(MemberState::LEAVING, Trigger::Close, out);
            if let Some(b) = self.coordinator {
                self.send_heartbeat(ctx.now, b, -1, out);
            }
            self.transition_to(MemberState::UNSUBSCRIBED, Trigger::Close, out);
        }
        out.cancel_timer(ClientTimer::Poll);
        out.cancel_timer(ClientTimer::Heartbeat);
    }
}

/// `retry.backoff.ms`.
pub const RETRY_BACKOFF_MS: Millis = 100;

/// `request.timeout.ms` (ConsumerConfig's default, 30 s; not a scenario setting).
pub const REQUEST_TIMEOUT_MS: Millis = 30_000;

crate::sim::node::client_node!(ShareConsumer);
