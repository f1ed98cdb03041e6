//! A small test world: the demo scenario (or a variant), `sleep(ms)` to advance
//! simulated time, and invariants checked after every step.

#![allow(dead_code)]

pub mod connect;

use groupscope::sim::classic_group::ClassicGroupState;
use groupscope::sim::consumer::ClassicConsumer;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{invariants, Fault, Scenario, World};

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
        &self.world.consumers[&idx]
    }

    pub fn owned(&self, idx: u32) -> Vec<String> {
        self.consumer(idx).owned.iter().map(|p| p.to_string()).collect()
    }

    /// Every `Note` text, in order.
    pub fn notes(&self) -> Vec<String> {
        self.world
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Note { text, .. } => Some(text.clone()),
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
                EventKind::StateChanged { machine: groupscope::sim::trace::Machine::Group { .. }, from, to, .. } => {
                    Some((from.clone(), to.clone()))
                }
                _ => None,
            })
            .collect()
    }

    pub fn labels_sent(&self) -> Vec<String> {
        self.world
            .trace
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::MessageSent { label, .. } => Some(label.clone()),
                _ => None,
            })
            .collect()
    }
}
