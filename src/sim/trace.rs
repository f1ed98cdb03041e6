//! The typed event trace: everything the world does, in order, with causes.

use crate::assign::TopicPartition;
use crate::sim::label::Label;
use crate::sim::note::Note;
use crate::sim::trigger::Trigger;
use crate::sim::types::{EventId, Millis, NodeId};
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
    /// A share group (KIP-932) on its coordinator (`ShareGroupState`).
    ShareGroup { group_id: String },
    /// A share consumer's `MemberState` (ShareMembershipManager).
    ShareMember,
    /// A streams group (KIP-1071) on its coordinator (`StreamsGroupState`).
    StreamsGroup { group_id: String },
    /// A Kafka Streams thread's `MemberState` (StreamsMembershipManager).
    StreamsMember,
}

/// `ConsumerRebalanceListener` callbacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Callback {
    OnPartitionsRevoked,
    OnPartitionsAssigned,
    OnPartitionsLost,
}

/// Serialized for trace hashes and `simulate`'s output; never read back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum EventKind {
    MessageSent {
        msg: u64,
        from: NodeId,
        to: NodeId,
        label: Label,
        deliver_at: Millis,
    },
    MessageDelivered {
        msg: u64,
        from: NodeId,
        to: NodeId,
        label: Label,
    },
    MessageDropped {
        msg: u64,
        from: NodeId,
        to: NodeId,
        label: Label,
        reason: String,
    },
    StateChanged {
        node: NodeId,
        machine: Machine,
        from: crate::sim::state_machine::StateName,
        to: crate::sim::state_machine::StateName,
        trigger: Trigger,
    },
    TimerFired {
        node: NodeId,
        timer: String,
    },
    FaultInjected {
        description: String,
    },
    CallbackInvoked {
        node: NodeId,
        callback: Callback,
        partitions: Vec<TopicPartition>,
    },
    /// A protocol fact worth narrating (coordinator chosen, leader elected, assignment computed...).
    Note {
        node: NodeId,
        /// Serialized as `text`, the English sentence (see `Note`).
        #[serde(rename = "text")]
        note: Note,
    },
    RecordsProcessed {
        node: NodeId,
        partition: TopicPartition,
        from: i64,
        to: i64,
        redelivered: i64,
    },
    OffsetsCommitted {
        group_id: String,
        offsets: Vec<(TopicPartition, i64)>,
    },
    InvariantViolated {
        invariant: String,
        detail: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
pub fn trace_hash<'a>(events: impl IntoIterator<Item = &'a Event>) -> u64 {
    events.into_iter().fold(FNV_OFFSET, |h, e| {
        let line = serde_json::to_string(e).expect("events serialize");
        fnv1a(line.as_bytes(), h)
    })
}

/// The trace: events by id, appended in order. An event's id is its position
/// in the whole run, so indexing, `get` and ranges take ids.
///
/// For the player's time machine it can also hold the events after the
/// playhead (`rewind`): re-running from a checkpoint then records each event
/// by checking it against the one already held instead of storing it again,
/// and `fast_forward` moves the playhead to a later checkpoint's length
/// without re-running. Only events up to the playhead are visible. And a run
/// on the page forgets its oldest events to stay within a memory budget
/// (`forget_before`); forgotten ids are simply absent.
#[derive(Clone, Default)]
pub struct Trace {
    /// The id of `events[0]`.
    first: EventId,
    /// Events up to the playhead, then those after it (the timeline's future).
    events: Vec<Event>,
    /// How many of `events` are up to the playhead.
    visible: usize,
    /// A re-run recorded an event that differs from the one held (the run is
    /// not deterministic): the held future was dropped from there.
    pub diverged: bool,
}

impl Trace {
    /// An empty trace whose first event gets id `len`: a copy of the world
    /// running ahead of the playhead records only its new events, under the
    /// ids the run itself would give them (`Player::look_ahead`).
    pub fn starting_at(len: EventId) -> Trace {
        Trace { first: len, ..Trace::default() }
    }

    /// The id the next event gets: how many events the run has recorded up to
    /// the playhead, forgotten ones included.
    pub fn len(&self) -> usize {
        self.first + self.visible
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id of the oldest event still kept.
    pub fn first_id(&self) -> EventId {
        self.first
    }

    /// How many events are held, those after the playhead included.
    pub fn stored(&self) -> usize {
        self.events.len()
    }

    /// The id after the last event held (past the playhead when it was rewound).
    pub fn stored_end(&self) -> usize {
        self.first + self.events.len()
    }

    /// Records the next event. If the playhead was rewound, the event held at
    /// this position is the same one (a deterministic re-run) and is kept.
    pub fn push(&mut self, event: Event) {
        if let Some(held) = self.events.get(self.visible) {
            if *held == event {
                self.visible += 1;
                return;
            }
            self.events.truncate(self.visible);
            self.diverged = true;
        }
        self.events.push(event);
        self.visible += 1;
    }

    pub fn get(&self, id: EventId) -> Option<&Event> {
        id.checked_sub(self.first).and_then(|i| self.as_slice().get(i))
    }

    pub fn last(&self) -> Option<&Event> {
        self.as_slice().last()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Event> {
        self.as_slice().iter()
    }

    /// The held events after the playhead: the timeline's future after a
    /// rewind, which a re-run finds again unless a fault forks it away.
    pub fn ahead(&self) -> &[Event] {
        &self.events[self.visible..]
    }

    /// The kept events up to the playhead, oldest first.
    pub fn as_slice(&self) -> &[Event] {
        &self.events[..self.visible]
    }

    /// The id of the first event for which `pred` is false (events are in time
    /// order, so `|e| e.at < t` finds the first event at `t` or later).
    pub fn partition_point(&self, pred: impl FnMut(&Event) -> bool) -> EventId {
        self.first + self.as_slice().partition_point(pred)
    }

    /// Like `partition_point`, over every event held, those after the playhead included.
    pub fn held_partition_point(&self, pred: impl FnMut(&Event) -> bool) -> EventId {
        self.first + self.events.partition_point(pred)
    }

    /// Moves the playhead back to id `len`, keeping the later events.
    pub fn rewind(&mut self, len: usize) {
        self.visible = self.visible.min(len.saturating_sub(self.first));
    }

    /// Moves the playhead forward to id `len` over held events; false if they
    /// are not all held.
    pub fn fast_forward(&mut self, len: usize) -> bool {
        let want = len.saturating_sub(self.first);
        self.visible = self.visible.max(want.min(self.events.len()));
        self.visible == want
    }

    /// Drops the events after the playhead (acting in the past forks the timeline).
    pub fn discard_future(&mut self) {
        self.events.truncate(self.visible);
    }

    /// Forgets the events before id `id` (bounded memory on the page).
    pub fn forget_before(&mut self, id: EventId) {
        let n = id.saturating_sub(self.first).min(self.visible);
        self.events.drain(..n);
        self.first += n;
        self.visible -= n;
    }

    fn index_of(&self, id: EventId) -> usize {
        id.saturating_sub(self.first).min(self.visible)
    }
}

/// Traces are equal when they show the same events (what is held past the playhead aside).
impl PartialEq for Trace {
    fn eq(&self, other: &Self) -> bool {
        self.first == other.first && self.as_slice() == other.as_slice()
    }
}

impl Eq for Trace {}

impl std::fmt::Debug for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trace").field("first", &self.first).field("events", &self.as_slice()).finish()
    }
}

impl std::ops::Index<EventId> for Trace {
    type Output = Event;
    fn index(&self, id: EventId) -> &Event {
        self.get(id).expect("an event id that is kept")
    }
}

/// The kept events from id `start` on.
impl std::ops::Index<std::ops::RangeFrom<EventId>> for Trace {
    type Output = [Event];
    fn index(&self, r: std::ops::RangeFrom<EventId>) -> &[Event] {
        &self.as_slice()[self.index_of(r.start)..]
    }
}

/// The kept events before id `end`.
impl std::ops::Index<std::ops::RangeTo<EventId>> for Trace {
    type Output = [Event];
    fn index(&self, r: std::ops::RangeTo<EventId>) -> &[Event] {
        &self.as_slice()[..self.index_of(r.end)]
    }
}

impl<'a> IntoIterator for &'a Trace {
    type Item = &'a Event;
    type IntoIter = std::slice::Iter<'a, Event>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(id: EventId, at: Millis) -> Event {
        Event {
            id,
            at,
            cause: None,
            kind: EventKind::Note { node: NodeId::Broker(0), note: Note::NoSuchTopic { topic: format!("n{id}") } },
        }
    }

    fn ids(t: &Trace) -> Vec<EventId> {
        t.iter().map(|e| e.id).collect()
    }

    #[test]
    fn a_rewound_trace_holds_its_future_until_the_re_run_differs() {
        let mut t = Trace::default();
        (0..10).for_each(|i| t.push(note(i, i as Millis * 10)));
        t.rewind(4);
        assert_eq!((t.len(), t.stored(), ids(&t)), (4, 10, vec![0, 1, 2, 3]));
        assert!(t.get(4).is_none(), "the future is not visible");
        // The same events again are taken as the held ones.
        t.push(note(4, 40));
        t.push(note(5, 50));
        assert_eq!((t.len(), t.stored(), t.diverged), (6, 10, false));
        assert!(t.fast_forward(9) && t.len() == 9);
        assert!(!t.fast_forward(11), "not held");
        assert_eq!(t.len(), 10);
        t.rewind(7);
        // A different event drops the held future from there.
        t.push(note(7, 71));
        assert_eq!((t.len(), t.stored(), t.diverged), (8, 8, true));
        assert_eq!(t[7].at, 71);
    }

    #[test]
    fn forgetting_keeps_ids_and_ranges_take_ids() {
        let mut t = Trace::default();
        (0..10).for_each(|i| t.push(note(i, i as Millis * 10)));
        t.forget_before(6);
        assert_eq!((t.first_id(), t.len(), ids(&t)), (6, 10, vec![6, 7, 8, 9]));
        assert!(t.get(5).is_none());
        assert_eq!(t[8].id, 8);
        assert_eq!(t[7..].iter().map(|e| e.id).collect::<Vec<_>>(), vec![7, 8, 9]);
        assert_eq!(t[..8].iter().map(|e| e.id).collect::<Vec<_>>(), vec![6, 7]);
        assert_eq!(t[..3].len(), 0);
        assert_eq!(t.partition_point(|e| e.at < 75), 8);
        t.push(note(10, 100));
        assert_eq!(t.len(), 11);
        t.rewind(9);
        assert_eq!(ids(&t), vec![6, 7, 8]);
        t.discard_future();
        assert_eq!(t.stored(), 3);
        assert_eq!(trace_hash(&t), trace_hash(t.as_slice()));
    }
}
