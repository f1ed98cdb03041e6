//! One plain sentence per trace event, for the event log and the ARIA live region.

use crate::sim::message::short_member;
use crate::sim::trace::{Callback, Event, EventKind, Machine};
use crate::sim::World;

/// Replaces long member ids (`consumer-demo-2-65060736-…`) with the process name (`c2`).
pub fn readable(world: &World, text: &str) -> String {
    let mut s = text.to_string();
    for c in world.consumers.values() {
        if !c.member_id.is_empty() {
            s = s.replace(&c.member_id, &format!("c{} ({})", c.idx, short_member(&c.member_id)));
        }
    }
    for c in world.async_consumers.values() {
        if !c.member_id.is_empty() {
            s = s.replace(&c.member_id, &format!("c{} ({})", c.idx, short_member(&c.member_id)));
        }
    }
    s
}

fn partitions(ps: &[crate::assign::TopicPartition]) -> String {
    if ps.is_empty() {
        "no partitions".into()
    } else {
        ps.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
    }
}

/// The sentence for `e`, or `None` for events too fine-grained for the log.
pub fn sentence(world: &World, e: &Event) -> Option<String> {
    let s = match &e.kind {
        EventKind::MessageSent { from, to, label, .. } => format!("{from} → {to}: {label}"),
        EventKind::MessageDelivered { .. } => return None,
        EventKind::MessageDropped { from, to, label, reason, .. } => format!("{label} from {from} to {to} was lost: {reason}"),
        EventKind::StateChanged { node, machine, from, to, trigger } => match machine {
            Machine::Group { group_id } => format!("Group {group_id} on {node}: {from} → {to} ({trigger})"),
            Machine::Member | Machine::ConsumerMember => format!("{node}: {from} → {to} ({trigger})"),
            Machine::ConsumerGroup { group_id } => format!("Consumer group {group_id} on {node}: {from} → {to} ({trigger})"),
            Machine::CoordinatorContext { partition } => {
                format!("{node}: __consumer_offsets-{partition} {from} → {to} ({trigger})")
            }
        },
        EventKind::TimerFired { node, timer } => format!("{node}: {timer} elapsed"),
        EventKind::FaultInjected { description } => format!("Fault: {description}"),
        EventKind::CallbackInvoked { node, callback, partitions: ps } => {
            let name = match callback {
                Callback::OnPartitionsRevoked => "onPartitionsRevoked",
                Callback::OnPartitionsAssigned => "onPartitionsAssigned",
                Callback::OnPartitionsLost => "onPartitionsLost",
            };
            format!("{node}: {name}({})", partitions(ps))
        }
        EventKind::Note { node, text } => format!("{node}: {text}"),
        EventKind::RecordsProcessed { redelivered: 0, .. } => return None,
        EventKind::RecordsProcessed { node, partition, redelivered, .. } => {
            format!("{node} processed {redelivered} records of {partition} a second time (redelivery)")
        }
        EventKind::OffsetsCommitted { group_id, offsets } => {
            let list = offsets.iter().map(|(tp, o)| format!("{tp}@{o}")).collect::<Vec<_>>().join(", ");
            format!("{group_id} committed {list}")
        }
        EventKind::InvariantViolated { invariant, detail } => format!("INVARIANT VIOLATED ({invariant}): {detail}"),
    };
    Some(readable(world, &s))
}

/// The causal chain of `e`, newest first ("why" links).
pub fn why(world: &World, e: &Event) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = e.cause;
    while let Some(id) = cur {
        let Some(ev) = world.trace.get(id) else { break };
        if let Some(s) = sentence(world, ev) {
            out.push(format!("{:.1} s: {s}", ev.at as f64 / 1000.0));
        }
        cur = ev.cause;
        if out.len() >= 12 {
            break;
        }
    }
    out
}
