//! The space-time diagram (ShiViz-style): one lane per node, each message an
//! arrow from its send to its arrival, over a window of simulated time that
//! ends at the playhead.

use crate::sim::trace::EventKind;
use crate::sim::types::EventId;
use crate::sim::{Millis, NodeId, World};
use crate::small_sort::StableSort;
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
    pub label: crate::sim::label::Label,
    pub fate: Fate,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SpaceTime {
    pub lanes: Vec<NodeId>,
    pub from: Millis,
    pub to: Millis,
    pub arrows: Vec<Arrow>,
}

/// The most client lanes drawn; beyond it, only the clients that talked.
pub const MAX_LANES: usize = 16;

/// Keep-alive heartbeats, which say only "still here": classic `Heartbeat`s
/// and their answers, and KIP-848 and KIP-1071 (`StreamsGroupHeartbeat`) heartbeats that carry nothing but the member
/// epoch both ways (no owned partitions, no assignment, no error, not joining
/// or leaving). With a hundred members they would be most of the diagram.
pub fn is_keepalive(label: &str) -> bool {
    let plain_epoch = |rest: &str| rest.strip_prefix("epoch=").is_some_and(|n| n.parse::<i32>().is_ok_and(|e| e > 0));
    let plain = |rest: &str| plain_epoch(rest.strip_prefix("← ").unwrap_or(rest));
    label.starts_with("Heartbeat")
        || label.strip_prefix("ConsumerGroupHeartbeat ").is_some_and(plain)
        // KIP-1071: a stream thread's heartbeat with no tasks, topology or status either way.
        || label.strip_prefix("StreamsGroupHeartbeat ").is_some_and(plain)
}

/// A consumer's Fetch to a partition leader and its plain answer
/// (`Fetch orders-0,orders-3`, `Fetch ← 12 records`); a NOT_LEADER_OR_FOLLOWER
/// answer is not routine: it shows the leader moved.
pub fn is_routine_fetch(label: &str) -> bool {
    // Read from the label's start only: the page asks this of every message in
    // the diagram's window, tens of thousands with a hundred members.
    match label.strip_prefix("Fetch ") {
        // An answer: `← 12 records` is routine; `← NOT_LEADER_OR_FOLLOWER …` is not.
        Some(rest) => match rest.strip_prefix("← ") {
            Some(answer) => answer.starts_with(|c: char| c.is_ascii_digit()),
            // A request names partitions; an error answer is `Fetch → ERROR`.
            None => !rest.starts_with('→'),
        },
        None => false,
    }
}

/// Messages sent in `[now - window, now]`, oldest first, without keep-alive
/// heartbeats and routine fetches if `hide_keepalives`.
pub fn build(world: &World, window: Millis, hide_keepalives: bool) -> SpaceTime {
    build_hiding(world, window, Hidden { keepalives: hide_keepalives, fetches: hide_keepalives })
}

/// What the diagram leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hidden {
    pub keepalives: bool,
    pub fetches: bool,
}

/// Messages sent in `[now - window, now]`, oldest first, without what `hidden` names.
pub fn build_hiding(world: &World, window: Millis, hidden: Hidden) -> SpaceTime {
    let from = world.now.saturating_sub(window);
    let mut lanes: Vec<NodeId> = world.brokers.keys().map(|b| NodeId::Broker(*b)).collect();
    // Every client: classic and consumer-protocol consumers and Connect workers.
    lanes.extend(world.client_indices().into_iter().map(NodeId::Client));
    let mut arrows: BTreeMap<u64, Arrow> = BTreeMap::new();
    // The trace is in time order: start at the window (the page calls this every frame).
    let start = world.trace.partition_point(|e| e.at < from);
    for e in &world.trace[start..] {
        match &e.kind {
            EventKind::MessageSent { msg, from: f, to, label, deliver_at } => {
                if e.at + window < world.now
                    || (hidden.keepalives && is_keepalive(label))
                    || (hidden.fetches && is_routine_fetch(label))
                {
                    continue;
                }
                arrows.insert(
                    *msg,
                    Arrow {
                        msg: *msg,
                        sent_event: e.id,
                        from: *f,
                        to: *to,
                        sent_at: e.at,
                        end_at: *deliver_at,
                        label: label.clone(),
                        fate: Fate::InFlight,
                    },
                );
            }
            EventKind::MessageDelivered { msg, .. } | EventKind::MessageDropped { msg, .. } => {
                if let Some(a) = arrows.get_mut(msg) {
                    // A held message is delivered later than planned.
                    a.end_at = e.at;
                    a.fate =
                        if matches!(e.kind, EventKind::MessageDelivered { .. }) { Fate::Delivered } else { Fate::Lost };
                }
            }
            _ => {}
        }
    }
    let mut arrows: Vec<Arrow> = arrows.into_values().collect();
    arrows.stable_sort_by_key(|a| (a.sent_at, a.msg));
    // A large group: only the clients that talked in the window get a lane.
    if lanes.len() > MAX_LANES {
        let talking: std::collections::BTreeSet<NodeId> = arrows.iter().flat_map(|a| [a.from, a.to]).collect();
        let mut clients = 0;
        lanes.retain(|n| match n {
            NodeId::Broker(_) => true,
            NodeId::Client(_) => {
                let keep = talking.contains(n) && clients < MAX_LANES;
                clients += usize::from(keep);
                keep
            }
        });
        arrows.retain(|a| lanes.contains(&a.from) && lanes.contains(&a.to));
    }
    SpaceTime { lanes, from, to: world.now, arrows }
}
