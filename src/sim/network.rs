//! Link conditions the user can inject: cuts, held links, a dropped next
//! message, extra latency and random loss. The world asks this module what
//! happens to each message; nothing here touches nodes.

use crate::sim::message::Envelope;
use crate::sim::types::{EventId, Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// An undirected link, stored with the smaller node first.
pub fn link(a: NodeId, b: NodeId) -> (NodeId, NodeId) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// What becomes of a message that reaches the end of its link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    Deliver,
    /// Lost on the wire (the sender learns nothing until its request times out).
    Lost(String),
    /// Kept in the network until the link is released.
    Held,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Network {
    /// Links whose messages are dropped in both directions.
    pub cut: BTreeSet<(NodeId, NodeId)>,
    /// Directed links whose next message is dropped.
    pub drop_next: BTreeSet<(NodeId, NodeId)>,
    /// Directed links whose messages are held until released.
    pub held: BTreeSet<(NodeId, NodeId)>,
    /// Messages held so far, in arrival order, with the event that sent them.
    pub held_messages: Vec<(Envelope, EventId)>,
    /// Extra one-way latency per link.
    pub extra_latency: BTreeMap<(NodeId, NodeId), Millis>,
    /// Percentage of messages lost per link.
    pub loss_percent: BTreeMap<(NodeId, NodeId), u8>,
    /// Latest arrival scheduled per directed link: a connection delivers in
    /// order, so a message never overtakes an earlier one when latency drops.
    pub last_arrival: BTreeMap<(NodeId, NodeId), Millis>,
}

impl Network {
    /// Decides at delivery time; consumes a pending drop-next. `roll` is a
    /// draw in 0..100 from the world's RNG, compared with the link's loss.
    pub fn fate(&mut self, from: NodeId, to: NodeId, roll: u8) -> Fate {
        if self.cut.contains(&link(from, to)) {
            Fate::Lost(format!("network cut between {from} and {to}"))
        } else if self.drop_next.remove(&(from, to)) {
            Fate::Lost(format!("dropped on purpose on the link {from} → {to}"))
        } else if roll < self.loss_percent(from, to) {
            Fate::Lost(format!("lost on the link {from} → {to} ({}% loss)", self.loss_percent(from, to)))
        } else if self.held.contains(&(from, to)) {
            Fate::Held
        } else {
            Fate::Deliver
        }
    }

    /// When a message sent now with `latency` arrives, keeping the link in order.
    pub fn arrival(&mut self, from: NodeId, to: NodeId, sent: Millis, latency: Millis) -> Millis {
        let at = sent
            .saturating_add(latency)
            .saturating_add(self.extra_latency(from, to))
            .max(self.last_arrival.get(&(from, to)).copied().unwrap_or(0));
        self.last_arrival.insert((from, to), at);
        at
    }

    pub fn extra_latency(&self, from: NodeId, to: NodeId) -> Millis {
        self.extra_latency.get(&link(from, to)).copied().unwrap_or(0)
    }

    pub fn loss_percent(&self, from: NodeId, to: NodeId) -> u8 {
        self.loss_percent.get(&link(from, to)).copied().unwrap_or(0)
    }

    /// Stops holding `from → to` and returns what it held, in order.
    pub fn release(&mut self, from: NodeId, to: NodeId) -> Vec<(Envelope, EventId)> {
        self.held.remove(&(from, to));
        let (released, kept) =
            std::mem::take(&mut self.held_messages).into_iter().partition(|(e, _)| e.from == from && e.to == to);
        self.held_messages = kept;
        released
    }

    /// True when no condition is in force.
    pub fn is_clear(&self) -> bool {
        self.cut.is_empty()
            && self.drop_next.is_empty()
            && self.held.is_empty()
            && self.extra_latency.is_empty()
            && self.loss_percent.is_empty()
    }
}
