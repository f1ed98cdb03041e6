//! Every state change a run records is one its machine allows, by the same
//! tables the core enforces (`StateMachine`): Kafka's `validPreviousStates`
//! for `ClassicGroupState` and the consumer protocol's client `MemberState`,
//! `CoordinatorState.canTransitionFrom`, and the changes the other machines'
//! rules can make. The trace carries names only a machine's state can give.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::sim::machines::MachineKind;
use groupscope::sim::scenario::ScheduledFault;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Fault, Scenario, World};

fn scenario(file: &str) -> Scenario {
    let text = std::fs::read_to_string(format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    Scenario::from_json(&text).unwrap()
}

#[test]
fn every_state_change_in_the_shipped_scenarios_is_allowed_by_its_machine() {
    let files = ["crash.json", "coordinator-failover.json", "consumer-protocol-crash.json", "connect.json"];
    let mut seen = std::collections::BTreeSet::new();
    for file in files {
        let mut s = scenario(file);
        // A broker failover on top: coordinator contexts close and load again.
        s.faults.push(ScheduledFault { at: 25_000, fault: Fault::KillBroker { broker: 0 } });
        s.faults.push(ScheduledFault { at: 35_000, fault: Fault::RestartBroker { broker: 0 } });
        let mut w = World::new(s).unwrap();
        w.run_until(60_000);
        for e in w.trace.iter() {
            if let EventKind::StateChanged { machine, from, to, .. } = &e.kind {
                let t = MachineKind::of(machine).table();
                assert!(t.allows(from, to), "{file}: {} {from} -> {to} at {} ms", t.machine, e.at);
                seen.insert(t.machine);
            }
        }
    }
    let expected =
        ["AbstractStatus.State", "ClassicGroupState", "ConsumerGroupState", "CoordinatorState", "MemberState"];
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), expected, "every kind of machine changed state");
}
