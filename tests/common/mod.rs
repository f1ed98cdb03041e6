//! A small test world: the demo scenario (or a variant), `sleep(ms)` to advance
//! simulated time, and invariants checked after every step.

#![allow(dead_code)]

pub mod connect;
pub mod coordinator;
pub mod logs;
pub mod member_states;
pub mod notes;
pub mod triggers;
pub mod words;

use groupscope::sim::client::classic::ClassicConsumer;
use groupscope::sim::client::consumer::AsyncConsumer;
use groupscope::sim::coordinator::classic::ClassicGroupState;
use groupscope::sim::coordinator::consumer::ConsumerGroup;
use groupscope::sim::note::Note;
use groupscope::sim::scenario::config::GroupProtocol;
use groupscope::sim::trace::EventKind;
use groupscope::sim::trace::Machine;
use groupscope::sim::{invariants, Fault, Scenario, World};

/// The demo scenario with `group.protocol=consumer` (KIP-848) and Kafka's
/// consumer-group broker defaults (45 s session, 5 s heartbeat interval).
pub fn consumer_protocol_demo(consumers: u32) -> Scenario {
    let mut s = Scenario::demo();
    s.groups[0].consumers = consumers;
    s.groups[0].config.group_protocol = GroupProtocol::Consumer;
    s
}

pub struct TestWorld {
    pub world: World,
}

impl TestWorld {
    pub fn demo() -> TestWorld {
        TestWorld::new(Scenario::demo())
    }

    pub fn new(s: Scenario) -> TestWorld {
        TestWorld { world: World::new(s).expect("valid scenario") }
    }

    /// Advances simulated time by `ms`, checking every invariant after each step.
    pub fn sleep(&mut self, ms: u64) {
        let until = self.world.now + ms;
        while self.world.next_time().is_some_and(|t| t <= until) {
            self.world.step();
            let v = invariants::check(&self.world);
            assert!(v.is_empty(), "invariant violated at {} ms: {v:?}", self.world.now);
        }
        self.world.run_until(until);
    }

    pub fn inject(&mut self, f: Fault) {
        self.world.inject(f);
    }

    pub fn group_state(&self, group: &str) -> (ClassicGroupState, i32) {
        let (_, g) = self.world.group(group).expect("group exists on its coordinator");
        (g.state, g.generation_id)
    }

    pub fn consumer(&self, idx: u32) -> &ClassicConsumer {
        self.world.clients.classic(idx).unwrap().client()
    }

    pub fn owned(&self, idx: u32) -> Vec<String> {
        self.consumer(idx).owned.iter().map(|p| p.to_string()).collect()
    }

    /// Every `Note` text, in order.
    /// Every note, in English (what the English page shows).
    pub fn notes(&self) -> Vec<String> {
        self.typed_notes().iter().map(|n| n.en()).collect()
    }

    /// Whether some note so far is one `f` accepts (`|n| matches!(n, Note::SkipAssignment)`).
    pub fn any_note(&self, f: impl Fn(&Note) -> bool) -> bool {
        self.typed_notes().into_iter().any(f)
    }

    /// Every note, as data: for `matches!` on its variant.
    pub fn typed_notes(&self) -> Vec<&Note> {
        self.world
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Note { note, .. } => Some(note),
                _ => None,
            })
            .collect()
    }

    /// Group state transitions (from, to), in order.
    pub fn group_transitions(&self) -> Vec<(String, String)> {
        self.world
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::StateChanged {
                    machine: groupscope::sim::trace::Machine::Group { .. }, from, to, ..
                } => Some((from.to_string(), to.to_string())),
                _ => None,
            })
            .collect()
    }

    pub fn labels_sent(&self) -> Vec<String> {
        self.world
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::MessageSent { label, .. } => Some(label.to_string()),
                _ => None,
            })
            .collect()
    }
}

impl TestWorld {
    pub fn async_consumer(&self, idx: u32) -> &AsyncConsumer {
        self.world.clients.async_consumer(idx).unwrap().client()
    }

    pub fn async_owned(&self, idx: u32) -> Vec<String> {
        self.async_consumer(idx).owned.iter().map(|p| p.to_string()).collect()
    }

    /// The consumer group as its active coordinator holds it.
    pub fn consumer_group(&self, group: &str) -> &ConsumerGroup {
        self.world.consumer_group(group).expect("consumer group exists on its coordinator").1
    }

    /// Consumer-group state transitions (from, to), in order.
    pub fn consumer_group_transitions(&self) -> Vec<(String, String)> {
        self.transitions(|m| matches!(m, Machine::ConsumerGroup { .. }), None)
    }

    /// The `MemberState` transitions of client `idx`.
    pub fn member_states(&self, idx: u32) -> Vec<String> {
        self.transitions(|m| matches!(m, Machine::ConsumerMember), Some(idx)).into_iter().map(|(_, to)| to).collect()
    }

    fn transitions(&self, machine: impl Fn(&Machine) -> bool, client: Option<u32>) -> Vec<(String, String)> {
        self.world
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::StateChanged { node, machine: m, from, to, .. }
                    if machine(m) && client.is_none_or(|c| *node == groupscope::sim::NodeId::Client(c)) =>
                {
                    Some((from.to_string(), to.to_string()))
                }
                _ => None,
            })
            .collect()
    }

    /// Runs until `done` holds (checking invariants), or panics after `limit` ms.
    pub fn sleep_until(&mut self, limit: u64, done: impl Fn(&TestWorld) -> bool) {
        let end = self.world.now + limit;
        while !done(self) {
            assert!(self.world.now < end, "condition not reached within {limit} ms");
            self.sleep(100);
        }
    }

    /// Prints the narrated trace from `from` ms (for debugging a test).
    pub fn print_trace(&self, from: u64) {
        for e in self.world.trace.iter().filter(|e| e.at >= from) {
            if let Some(s) = groupscope::narrate::sentence(&self.world, e, groupscope::i18n::Lang::En) {
                println!("{:7} {s}", e.at);
            }
        }
    }
}
