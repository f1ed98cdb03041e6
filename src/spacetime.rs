//! The space-time diagram (ShiViz-style): one lane per node, each message an
//! arrow from its send to its arrival, over a window of simulated time that
//! ends at the playhead.

use crate::small_sort::StableSort;
use crate::sim::trace::EventKind;
use crate::sim::types::EventId;
use crate::sim::{Millis, NodeId, World};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    Delivered,
    Lost,
    /// Still on the wire or held on a link at the playhead.
    InFlight,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    pub msg: u64,
    pub sent_event: EventId,
    pub from: NodeId,
    pub to: NodeId,
    pub sent_at: Millis,
    /// When it arrived or was lost; for messages in flight, when it is due.
    pub end_at: Millis,
    pub label: String,
    pub fate: Fate,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SpaceTime {
    pub lanes: Vec<NodeId>,
    pub from: Millis,
    pub to: Millis,
    pub arrows: Vec<Arrow>,
}

/// Messages sent in `[now - window, now]`, oldest first; `hide` filters out
/// labels starting with any of its prefixes (e.g. "Heartbeat").
pub fn build(world: &World, window: Millis, hide: &[&str]) -> SpaceTime {
    let from = world.now.saturating_sub(window);
    let mut lanes: Vec<NodeId> = world.brokers.keys().map(|b| NodeId::Broker(*b)).collect();
    lanes.extend(world.consumers.keys().map(|c| NodeId::Client(*c)));
    let mut arrows: BTreeMap<u64, Arrow> = BTreeMap::new();
    for e in &world.trace {
        match &e.kind {
            EventKind::MessageSent { msg, from: f, to, label, deliver_at } => {
                if e.at + window < world.now || hide.iter().any(|h| label.starts_with(h)) {
                    continue;
                }
                arrows.insert(*msg, Arrow {
                    msg: *msg,
                    sent_event: e.id,
                    from: *f,
                    to: *to,
                    sent_at: e.at,
                    end_at: *deliver_at,
                    label: label.clone(),
                    fate: Fate::InFlight,
                });
            }
            EventKind::MessageDelivered { msg, .. } | EventKind::MessageDropped { msg, .. } => {
                if let Some(a) = arrows.get_mut(msg) {
                    // A held message is delivered later than planned.
                    a.end_at = e.at;
                    a.fate = if matches!(e.kind, EventKind::MessageDelivered { .. }) { Fate::Delivered } else { Fate::Lost };
                }
            }
            _ => {}
        }
    }
    let mut arrows: Vec<Arrow> = arrows.into_values().collect();
    arrows.stable_sort_by_key(|a| (a.sent_at, a.msg));
    SpaceTime { lanes, from, to: world.now, arrows }
}
