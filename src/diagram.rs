//! State-machine diagrams drawn from the same transition tables the core
//! enforces, with the current state and the last transition's trigger.

use crate::sim::coordinator::classic::ClassicGroupState;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;
use crate::sim::World;

#[derive(Clone, Debug, PartialEq)]
pub struct StateNode {
    pub name: &'static str,
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StateDiagram {
    /// Kafka's name of the machine (`ClassicGroupState`).
    pub machine: &'static str,
    pub states: Vec<StateNode>,
    /// Allowed transitions (from, to), as the core's table allows them.
    pub edges: Vec<(&'static str, &'static str)>,
    pub current: Option<String>,
    /// The last transition: (from, to, trigger).
    pub last: Option<(String, String, Trigger)>,
}

pub const DIAGRAM_W: f64 = 360.0;
pub const DIAGRAM_H: f64 = 200.0;
/// Half the width of a state's box as the page draws it (`src/web/statechart.rs`).
pub const STATE_HALF_W: f64 = 62.0;
/// The ring's horizontal radius: the leftmost and rightmost boxes stay inside the drawing.
const RING_RX: f64 = DIAGRAM_W / 2.0 - STATE_HALF_W - 2.0;

/// Places `n` states on an ellipse, first at the left, clockwise.
fn ring(names: &[&'static str]) -> Vec<StateNode> {
    let n = names.len().max(1) as f64;
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let a = std::f64::consts::PI * (1.0 + 2.0 * i as f64 / n);
            StateNode { name, x: DIAGRAM_W / 2.0 + RING_RX * a.cos(), y: DIAGRAM_H / 2.0 + 70.0 * a.sin() }
        })
        .collect()
}

/// The classic group's machine for `group_id`, lit at its current state.
pub fn classic_group(world: &World, group_id: &str) -> StateDiagram {
    let names: Vec<&'static str> = ClassicGroupState::ALL.iter().map(|s| s.name()).collect();
    let mut edges = Vec::new();
    for to in ClassicGroupState::ALL {
        for from in to.valid_previous_states() {
            if *from != to {
                edges.push((from.name(), to.name()));
            }
        }
    }
    let last = world.trace.iter().rev().find_map(|e| match &e.kind {
        EventKind::StateChanged { machine: Machine::Group { group_id: g }, from, to, trigger, .. } if g == group_id => {
            Some((from.clone(), to.clone(), trigger.clone()))
        }
        _ => None,
    });
    StateDiagram {
        machine: "ClassicGroupState",
        states: ring(&names),
        edges,
        current: world.group(group_id).map(|(_, g)| g.state.name().to_string()),
        last,
    }
}

/// `ConsumerGroupState` (KIP-848) is not guarded by a transition table: the
/// coordinator recomputes it after every change (`ConsumerGroup.updateState`: Empty without
/// members; Assigning while the group epoch is ahead of the target assignment
/// epoch; Reconciling while a member is not yet STABLE at the target epoch;
/// Stable otherwise). These are the changes those rules can produce; the
/// tests check every change seen in runs is among them.
pub const CONSUMER_GROUP_EDGES: &[(&str, &str)] = &[
    ("Empty", "Assigning"),
    ("Empty", "Reconciling"),
    ("Empty", "Stable"),
    ("Assigning", "Reconciling"),
    ("Assigning", "Stable"),
    ("Assigning", "Empty"),
    ("Reconciling", "Stable"),
    ("Reconciling", "Assigning"),
    ("Reconciling", "Empty"),
    ("Stable", "Assigning"),
    ("Stable", "Reconciling"),
    ("Stable", "Empty"),
];

/// The consumer group's machine (KIP-848), lit at its current state.
pub fn consumer_group(world: &World, group_id: &str) -> StateDiagram {
    let last = world.trace.iter().rev().find_map(|e| match &e.kind {
        EventKind::StateChanged { machine: Machine::ConsumerGroup { group_id: g }, from, to, trigger, .. }
            if g == group_id =>
        {
            Some((from.clone(), to.clone(), trigger.clone()))
        }
        _ => None,
    });
    StateDiagram {
        machine: "ConsumerGroupState",
        states: ring(&["Empty", "Assigning", "Reconciling", "Stable"]),
        edges: CONSUMER_GROUP_EDGES.to_vec(),
        current: world.consumer_group(group_id).map(|(_, g)| g.state.name().to_string()),
        last,
    }
}

/// The diagram for `group_id`: its protocol's machine.
pub fn for_group(world: &World, group_id: &str) -> StateDiagram {
    let consumer_protocol = world.consumer_group(group_id).is_some()
        || world.scenario.groups.iter().any(|g| {
            g.group_id == group_id && g.config.group_protocol == crate::sim::scenario::config::GroupProtocol::Consumer
        });
    if consumer_protocol {
        consumer_group(world, group_id)
    } else {
        classic_group(world, group_id)
    }
}
