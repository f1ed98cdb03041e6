//! Evaluating a step's condition against trace events, and its expectations
//! against the world.

use super::model::{Condition, Expectation};
use crate::assign::TopicPartition;
use crate::sim::out::TimerKey;
use crate::sim::trace::{Callback, Event, EventKind, Machine};
use crate::sim::world::parse_node;
use crate::sim::{Millis, NodeId, World};

/// `c3` → 3.
pub(crate) fn consumer_idx(name: &str) -> Option<u32> {
    match parse_node(name) {
        Some(NodeId::Client(c)) => Some(c),
        _ => None,
    }
}

/// `broker-1` → 1.
pub(crate) fn broker_id(name: &str) -> Option<u32> {
    match parse_node(name) {
        Some(NodeId::Broker(b)) => Some(b),
        _ => None,
    }
}

pub(crate) fn callback_named(name: &str) -> Option<Callback> {
    match name {
        "onPartitionsRevoked" => Some(Callback::OnPartitionsRevoked),
        "onPartitionsAssigned" => Some(Callback::OnPartitionsAssigned),
        "onPartitionsLost" => Some(Callback::OnPartitionsLost),
        _ => None,
    }
}

fn node_is(name: &Option<String>, node: NodeId) -> bool {
    name.as_deref().is_none_or(|n| parse_node(n) == Some(node))
}

impl Condition {
    /// The simulated time at which an `elapsed` condition holds.
    pub fn deadline(&self, step_started_at: Millis) -> Option<Millis> {
        match self {
            Condition::Elapsed { ms } => Some(step_started_at + ms),
            _ => None,
        }
    }

    /// Whether `e` is the event this condition waits for.
    pub fn matches(&self, world: &World, e: &Event) -> bool {
        match (self, &e.kind) {
            (Condition::GroupState { group, state }, EventKind::StateChanged { machine: Machine::Group { group_id }, to, .. }) => {
                group_id == group && to == state
            }
            (Condition::MemberState { consumer, state }, EventKind::StateChanged { node, machine: Machine::Member, to, .. }) => {
                parse_node(consumer) == Some(*node) && to == state
            }
            (Condition::SessionTimeout { consumer }, EventKind::TimerFired { node: NodeId::Broker(_), timer }) => {
                let Some(c) = world.consumers.get(&consumer_idx(consumer).unwrap_or(0)) else { return false };
                let key = TimerKey::MemberHeartbeat { group_id: c.group_id.clone(), member_id: c.member_id.clone() };
                !c.member_id.is_empty() && *timer == key.describe()
            }
            (Condition::PollTimeout { consumer }, EventKind::TimerFired { node, timer }) => {
                parse_node(consumer) == Some(*node) && *timer == TimerKey::PollTimeout.describe()
            }
            (Condition::Callback { consumer, callback, partition }, EventKind::CallbackInvoked { node, callback: cb, partitions }) => {
                parse_node(consumer) == Some(*node)
                    && callback_named(callback) == Some(*cb)
                    && partition.as_ref().is_none_or(|p| partitions.iter().any(|tp| tp.to_string() == *p))
            }
            (Condition::Message { label, from, to }, EventKind::MessageSent { from: f, to: t, label: l, .. }) => {
                l.contains(label.as_str()) && node_is(from, *f) && node_is(to, *t)
            }
            (Condition::Redelivered { consumer }, EventKind::RecordsProcessed { node, redelivered, .. }) => {
                *redelivered > 0 && node_is(consumer, *node)
            }
            (Condition::OffsetsCommitted { group, partition }, EventKind::OffsetsCommitted { group_id, offsets }) => {
                group_id == group && partition.as_ref().is_none_or(|p| offsets.iter().any(|(tp, _)| tp.to_string() == *p))
            }
            (
                Condition::CoordinatorState { group, state },
                EventKind::StateChanged { machine: Machine::CoordinatorContext { partition }, to, .. },
            ) => *partition == world.cluster.offsets_partition_for(group) && to == state,
            (Condition::Note { contains, node }, EventKind::Note { node: n, text }) => {
                text.contains(contains.as_str()) && node_is(node, *n)
            }
            _ => false,
        }
    }

    /// English description for error messages and tests.
    pub fn describe(&self) -> String {
        match self {
            Condition::GroupState { group, state } => format!("group {group} changes to {state}"),
            Condition::MemberState { consumer, state } => format!("{consumer} changes to {state}"),
            Condition::SessionTimeout { consumer } => format!("{consumer}'s session times out on the coordinator"),
            Condition::PollTimeout { consumer } => format!("{consumer}'s max.poll.interval.ms expires"),
            Condition::Callback { consumer, callback, partition } => match partition {
                Some(p) => format!("{callback} invoked on {consumer} with {p}"),
                None => format!("{callback} invoked on {consumer}"),
            },
            Condition::Message { label, from, to } => {
                let f = from.as_deref().map(|f| format!(" from {f}")).unwrap_or_default();
                let t = to.as_deref().map(|t| format!(" to {t}")).unwrap_or_default();
                format!("a message '{label}…'{f}{t} is sent")
            }
            Condition::Redelivered { consumer } => match consumer {
                Some(c) => format!("{c} processes records a second time"),
                None => "records are processed a second time".into(),
            },
            Condition::OffsetsCommitted { group, partition } => match partition {
                Some(p) => format!("group {group} commits an offset of {p}"),
                None => format!("group {group} commits offsets"),
            },
            Condition::CoordinatorState { group, state } => format!("the coordinator context of group {group} becomes {state}"),
            Condition::Note { contains, .. } => format!("a note containing '{contains}'"),
            Condition::Elapsed { ms } => format!("{ms} ms of simulated time pass"),
        }
    }
}

/// The live consumers owning `tp` (client view: what each consumer believes it owns).
fn owners(world: &World, tp: &TopicPartition) -> Vec<String> {
    world.consumers.values().filter(|c| c.alive && c.owned.contains(tp)).map(|c| format!("c{}", c.idx)).collect()
}

fn show<T: std::fmt::Debug>(v: Option<T>) -> String {
    v.map_or("none".into(), |v| format!("{v:?}").trim_matches('"').to_string())
}

impl Expectation {
    /// `Err` says what the world holds instead.
    pub fn check(&self, world: &World) -> Result<(), String> {
        let group_of = |g: &str| world.group(g).map(|(_, gr)| gr);
        let consumer = |c: &str| consumer_idx(c).and_then(|i| world.consumers.get(&i));
        let fail = |what: String, actual: String| Err(format!("expected {what}, but it is {actual}"));
        match self {
            Expectation::GroupState { group, state } => {
                let actual = group_of(group).map(|g| g.state.name());
                if actual == Some(state.as_str()) { Ok(()) } else { fail(format!("group {group} to be {state}"), show(actual)) }
            }
            Expectation::Generation { group, generation } => {
                let actual = group_of(group).map(|g| g.generation_id);
                if actual == Some(*generation) { Ok(()) } else { fail(format!("group {group} at generation {generation}"), show(actual)) }
            }
            Expectation::Members { group, count } => {
                let actual = group_of(group).map(|g| g.members.len());
                if actual == Some(*count) { Ok(()) } else { fail(format!("group {group} to have {count} members"), show(actual)) }
            }
            Expectation::Leader { group, consumer: c } => {
                let leader = group_of(group).and_then(|g| g.leader_id.clone());
                let actual = leader.as_ref().and_then(|l| world.consumers.values().find(|k| &k.member_id == l)).map(|k| format!("c{}", k.idx));
                if actual.as_deref() == Some(c.as_str()) { Ok(()) } else { fail(format!("{c} to lead group {group}"), show(actual)) }
            }
            Expectation::Protocol { group, protocol } => {
                let actual = group_of(group).and_then(|g| g.protocol_name.clone());
                if actual.as_deref() == Some(protocol.as_str()) { Ok(()) } else { fail(format!("group {group} to use {protocol}"), show(actual)) }
            }
            Expectation::Coordinator { group, broker } => {
                let actual = world.group(group).map(|(b, _)| format!("broker-{b}"));
                if actual.as_deref() == Some(broker.as_str()) { Ok(()) } else { fail(format!("{broker} to coordinate group {group}"), show(actual)) }
            }
            Expectation::KnownCoordinator { consumer: c, broker } => {
                let actual = consumer(c).and_then(|k| k.coordinator).map(|b| format!("broker-{b}"));
                if actual == *broker { Ok(()) } else { fail(format!("{c} to know coordinator {}", show(broker.as_ref())), show(actual)) }
            }
            Expectation::Owner { partition, consumer: c } => {
                let tp: TopicPartition = partition.parse()?;
                let actual = owners(world, &tp);
                let expected: Vec<String> = c.iter().cloned().collect();
                if actual == expected { Ok(()) } else { fail(format!("{partition} owned by {}", show(c.as_ref())), format!("{actual:?}")) }
            }
            Expectation::Owns { consumer: c, partitions } => {
                let actual: Vec<String> = consumer(c).map(|k| k.owned.iter().map(|p| p.to_string()).collect()).unwrap_or_default();
                let (mut a, mut e) = (actual.clone(), partitions.clone());
                a.sort();
                e.sort();
                if a == e { Ok(()) } else { fail(format!("{c} to own {partitions:?}"), format!("{actual:?}")) }
            }
            Expectation::MemberState { consumer: c, state } => {
                let actual = consumer(c).map(|k| if k.alive { format!("{:?}", k.state) } else { "crashed".into() });
                if actual.as_deref() == Some(state.as_str()) { Ok(()) } else { fail(format!("{c} to be {state}"), show(actual)) }
            }
            Expectation::Redelivered { group, at_least, at_most } => {
                let total: i64 = world.cluster.stats.redelivered.iter().filter(|((g, _), _)| g == group).map(|(_, n)| n).sum();
                let ok = at_least.is_none_or(|m| total >= m) && at_most.is_none_or(|m| total <= m);
                if ok { Ok(()) } else { fail(format!("group {group} redelivered in [{}, {}]", show(*at_least), show(*at_most)), total.to_string()) }
            }
            Expectation::Rebalances { group, count } => {
                let actual = world
                    .trace
                    .iter()
                    .filter(|e| matches!(&e.kind, EventKind::StateChanged { machine: Machine::Group { group_id }, to, .. } if group_id == group && to == "PreparingRebalance"))
                    .count();
                if actual == *count { Ok(()) } else { fail(format!("{count} rebalances of group {group}"), actual.to_string()) }
            }
            Expectation::Fatal { consumer: c, error } => {
                let actual = consumer(c).and_then(|k| k.fatal.clone());
                if actual.as_deref() == Some(error.as_str()) { Ok(()) } else { fail(format!("{c} to fail with {error}"), show(actual)) }
            }
            Expectation::Committed { group, partition, offset } => {
                let tp: TopicPartition = partition.parse()?;
                let actual = world.committed_offsets(group).and_then(|o| o.get(&tp).copied());
                if actual == *offset { Ok(()) } else { fail(format!("group {group}'s committed offset of {partition} to be {}", show(*offset)), show(actual)) }
            }
            Expectation::Time { ms } => {
                if world.now == *ms { Ok(()) } else { fail(format!("the event at {ms} ms"), format!("{} ms", world.now)) }
            }
        }
    }
}
