//! Same scenario and seed, same trace: natively here, and in wasm (tests/web.rs)
//! against the same golden hash. Set GROUPSCOPE_BLESS=1 to rewrite the golden
//! file after an intended change of behaviour.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::sim::trace::trace_hash;
use groupscope::sim::{Scenario, World};

fn crash_scenario_hash() -> String {
    let s = Scenario::from_json(include_str!("../scenarios/crash.json")).unwrap();
    let mut w = World::new(s).unwrap();
    w.run_until(40_000);
    format!("{:016x}", trace_hash(&w.trace))
}

#[test]
fn the_crash_scenario_runs_identically_twice_and_matches_the_golden_hash() {
    let hash = crash_scenario_hash();
    assert_eq!(hash, crash_scenario_hash(), "two runs in one process agree");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/crash.trace-hash");
    if std::env::var("GROUPSCOPE_BLESS").is_ok() {
        std::fs::write(path, format!("{hash}\n")).unwrap();
    }
    let golden = std::fs::read_to_string(path).expect("golden hash present (GROUPSCOPE_BLESS=1 writes it)");
    assert_eq!(hash, golden.trim(), "the trace changed: if intended, rerun with GROUPSCOPE_BLESS=1");
}
