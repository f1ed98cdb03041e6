//! State-machine diagrams drawn from the same transition tables the core
//! enforces, with the current state and the last transition's trigger.

use crate::sim::coordinator::classic::ClassicGroupState;
use crate::sim::coordinator::consumer::ConsumerGroupState;
use crate::sim::state_machine::{StateMachine, StateName};
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

/// A machine's diagram: every state that some allowed change enters or
/// leaves, placed on a ring, and the changes as edges.
fn diagram<S: StateMachine>(current: Option<S>, last: Option<(StateName, StateName, Trigger)>) -> StateDiagram {
    let edges: Vec<(&'static str, &'static str)> =
        S::edges().into_iter().map(|(from, to)| (from.name(), to.name())).collect();
    let names: Vec<&'static str> =
        S::names().into_iter().filter(|n| edges.iter().any(|(f, t)| f == n || t == n)).collect();
    StateDiagram {
        machine: S::MACHINE,
        states: ring(&names),
        edges,
        current: current.map(|s| s.name().to_string()),
        last: last.map(|(from, to, trigger)| (from.to_string(), to.to_string(), trigger)),
    }
}

/// The last change of the machine `machine` picks out.
fn last_change(world: &World, machine: impl Fn(&Machine) -> bool) -> Option<(StateName, StateName, Trigger)> {
    world.trace.iter().rev().find_map(|e| match &e.kind {
        EventKind::StateChanged { machine: m, from, to, trigger, .. } if machine(m) => {
            Some((*from, *to, trigger.clone()))
        }
        _ => None,
    })
}

/// The classic group's machine for `group_id`, lit at its current state.
pub fn classic_group(world: &World, group_id: &str) -> StateDiagram {
    let last = last_change(world, |m| matches!(m, Machine::Group { group_id: g } if g == group_id));
    diagram::<ClassicGroupState>(world.group(group_id).map(|(_, g)| g.state), last)
}

/// The consumer group's machine (KIP-848), lit at its current state. Its
/// edges are the changes `ConsumerGroup.updateState`'s rules can produce
/// (`ConsumerGroupState`'s impl of the state machine).
pub fn consumer_group(world: &World, group_id: &str) -> StateDiagram {
    let last = last_change(world, |m| matches!(m, Machine::ConsumerGroup { group_id: g } if g == group_id));
    diagram::<ConsumerGroupState>(world.consumer_group(group_id).map(|(_, g)| g.state), last)
}

/// The share group's machine (KIP-932): Empty and Stable, lit at its state.
pub fn share_group(world: &World, group_id: &str) -> StateDiagram {
    let last = last_change(world, |m| matches!(m, Machine::ShareGroup { group_id: g } if g == group_id));
    diagram::<crate::sim::coordinator::share::ShareGroupState>(world.share_group(group_id).map(|(_, g)| g.state), last)
}

/// The changes a streams group's coordinator makes (`StreamsGroup.maybeUpdateGroupState`
/// may move between any two states; these are the ones its heartbeats, timers
/// and leaves produce — `tests/streams_groups/page.rs` checks each occurs in
/// the shipped scenarios and none other does), so the diagram stays readable.
pub const STREAMS_GROUP_EDGES: &[(&str, &str)] = &[
    ("Empty", "NotReady"),
    ("NotReady", "Assigning"),
    ("NotReady", "Reconciling"),
    ("NotReady", "Stable"),
    ("Assigning", "Reconciling"),
    ("Assigning", "Stable"),
    ("Assigning", "Empty"),
    ("Reconciling", "Assigning"),
    ("Reconciling", "Stable"),
    ("Stable", "Assigning"),
    ("Stable", "Reconciling"),
];

/// The streams group's machine (KIP-1071) with the changes of
/// [`STREAMS_GROUP_EDGES`], lit at its current state.
pub fn streams_group(world: &World, group_id: &str) -> StateDiagram {
    use crate::sim::coordinator::streams::StreamsGroupState;
    let last = last_change(world, |m| matches!(m, Machine::StreamsGroup { group_id: g } if g == group_id));
    let names: Vec<&'static str> = StreamsGroupState::names()
        .into_iter()
        .filter(|n| STREAMS_GROUP_EDGES.iter().any(|(f, t)| f == n || t == n))
        .collect();
    StateDiagram {
        machine: StreamsGroupState::MACHINE,
        states: ring(&names),
        edges: STREAMS_GROUP_EDGES.to_vec(),
        current: world.streams_group(group_id).map(|(_, g)| g.state.name().to_string()),
        last: last.map(|(from, to, trigger)| (from.to_string(), to.to_string(), trigger)),
    }
}

/// The diagram for `group_id`: its protocol's machine (a Kafka Streams
/// application under classic rebalancing has a classic group).
pub fn for_group(world: &World, group_id: &str) -> StateDiagram {
    if let Some(app) = world.scenario.streams_apps.iter().rev().find(|a| a.application_id == group_id) {
        use crate::sim::scenario::streams_config::StreamsGroupProtocol;
        if app.instance.group_protocol == StreamsGroupProtocol::Classic {
            return classic_group(world, group_id);
        }
        return streams_group(world, group_id);
    }
    if world.share_group(group_id).is_some() || world.scenario.share_groups.iter().any(|g| g.group_id == group_id) {
        return share_group(world, group_id);
    }
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
