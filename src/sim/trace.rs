//! The typed event trace: everything the world does, in order, with causes.

use super::types::{EventId, Millis, NodeId};
use crate::assign::TopicPartition;
use serde::{Deserialize, Serialize};

/// Which state machine a state change belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Machine {
    /// A classic group on its coordinator (`ClassicGroupState`).
    Group { group_id: String },
    /// A classic consumer's `MemberState` (AbstractCoordinator).
    Member,
    /// A `__consumer_offsets` partition's coordinator context (CoordinatorRuntime).
    CoordinatorContext { partition: u32 },
    /// A connector instance on a Connect worker (`AbstractStatus.State`).
    Connector { name: String },
    /// A task instance on a Connect worker (`AbstractStatus.State`), e.g. `sink-0`.
    Task { id: String },
    /// A consumer group (KIP-848) on its coordinator (`ConsumerGroupState`).
    ConsumerGroup { group_id: String },
    /// A consumer-protocol client's `MemberState` (ConsumerMembershipManager).
    ConsumerMember,
}

/// `ConsumerRebalanceListener` callbacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Callback {
    OnPartitionsRevoked,
    OnPartitionsAssigned,
    OnPartitionsLost,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventKind {
    MessageSent { msg: u64, from: NodeId, to: NodeId, label: String, deliver_at: Millis },
    MessageDelivered { msg: u64, from: NodeId, to: NodeId, label: String },
    MessageDropped { msg: u64, from: NodeId, to: NodeId, label: String, reason: String },
    StateChanged { node: NodeId, machine: Machine, from: String, to: String, trigger: String },
    TimerFired { node: NodeId, timer: String },
    FaultInjected { description: String },
    CallbackInvoked { node: NodeId, callback: Callback, partitions: Vec<TopicPartition> },
    /// A protocol fact worth narrating (coordinator chosen, leader elected, assignment computed...).
    Note { node: NodeId, text: String },
    RecordsProcessed { node: NodeId, partition: TopicPartition, from: i64, to: i64, redelivered: i64 },
    OffsetsCommitted { group_id: String, offsets: Vec<(TopicPartition, i64)> },
    InvariantViolated { invariant: String, detail: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub id: EventId,
    pub at: Millis,
    /// The event that led to this one (the delivery or timer being handled).
    pub cause: Option<EventId>,
    pub kind: EventKind,
}

/// 64-bit FNV-1a, used for trace hashes (stable across platforms and releases).
pub fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

pub const FNV_OFFSET: u64 = 0xcbf29ce484222325;

/// A hash of the whole trace; equal traces give equal hashes natively and in wasm.
pub fn trace_hash(events: &[Event]) -> u64 {
    events.iter().fold(FNV_OFFSET, |h, e| {
        let line = serde_json::to_string(e).expect("events serialize");
        fnv1a(line.as_bytes(), h)
    })
}
