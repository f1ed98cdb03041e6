//! Reads the clients' `MemberState` changes back from a trace and checks each
//! against Kafka's valid-previous-states tables (the consumer protocol's
//! `MemberState.previousValidStates`, and the table read off AbstractCoordinator
//! for the classic consumer and the Connect worker). Independent of the check
//! inside the simulation, so it also holds in release builds.

use groupscope::sim::client::abstract_coordinator::MemberState as ClassicMemberState;
use groupscope::sim::client::consumer::MemberState as ConsumerMemberState;
use groupscope::sim::state_machine::StateMachine;
use groupscope::sim::trace::{EventKind, Machine};
use groupscope::sim::World;
use std::fmt::Debug;

fn parse<S: Copy + Debug>(all: &[S], name: &str) -> Option<S> {
    all.iter().copied().find(|s| format!("{s:?}") == name)
}

fn allowed<S: Copy + Debug + PartialEq + 'static>(
    all: &[S],
    prev: impl Fn(S) -> &'static [S],
    from: &str,
    to: &str,
) -> bool {
    match (parse(all, from), parse(all, to)) {
        (Some(f), Some(t)) => f == t || prev(t).contains(&f),
        _ => false,
    }
}

/// Every client state change in `world.trace[from..]` that Kafka's tables
/// forbid, and every invariant violation recorded there, as readable lines.
pub fn invalid_member_transitions(world: &World, from: usize) -> Vec<String> {
    let mut bad = Vec::new();
    for e in world.trace.iter().skip(from) {
        match &e.kind {
            EventKind::StateChanged { node, machine: Machine::Member, from, to, .. }
                if !allowed(ClassicMemberState::ALL, ClassicMemberState::valid_previous_states, from, to) =>
            {
                bad.push(format!("{} ms: {node} (AbstractCoordinator) {from} → {to}", e.at));
            }
            EventKind::StateChanged { node, machine: Machine::ConsumerMember, from, to, .. }
                if !allowed(ConsumerMemberState::ALL, ConsumerMemberState::valid_previous_states, from, to) =>
            {
                bad.push(format!("{} ms: {node} (MemberState) {from} → {to}", e.at));
            }
            EventKind::InvariantViolated { invariant, detail } => {
                bad.push(format!("{} ms: {invariant}: {detail}", e.at));
            }
            _ => {}
        }
    }
    bad
}
