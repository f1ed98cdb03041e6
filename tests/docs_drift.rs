//! docs/scenarios.md cannot drift from the code (issue 33): every key the
//! scenario format reads (broker, network, consumer and Connect worker
//! configs, as their defaults serialize) and every fault type is named there.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::sim::scenario::config::{BrokerConfig, ConsumerConfig, NetworkConfig};
use groupscope::sim::scenario::connect_config::WorkerConfig;

fn doc() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenarios.md")).expect("docs/scenarios.md")
}

fn keys(v: serde_json::Value) -> Vec<String> {
    v.as_object().expect("a config serializes as an object").keys().cloned().collect()
}

#[test]
fn docs_scenarios_names_every_config_key() {
    let doc = doc();
    let mut missing = Vec::new();
    for (what, v) in [
        ("broker", serde_json::to_value(BrokerConfig::default())),
        ("network", serde_json::to_value(NetworkConfig::default())),
        ("consumer", serde_json::to_value(ConsumerConfig::default())),
        ("worker", serde_json::to_value(WorkerConfig::default())),
    ] {
        let keys = keys(v.expect("serializes"));
        assert!(!keys.is_empty(), "{what}: {keys:?}");
        missing.extend(keys.into_iter().filter(|k| !doc.contains(&format!("`{k}`"))).map(|k| format!("{what}: {k}")));
    }
    assert!(missing.is_empty(), "docs/scenarios.md does not name: {missing:?}");
}

#[test]
fn docs_scenarios_names_every_fault_type() {
    // The fault types as serde spells them: the variants of `Fault`, camelCase.
    let source =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/sim/fault/mod.rs")).expect("fault source");
    let body = &source[source.find("pub enum Fault {").expect("the Fault enum")..];
    let body = &body[..body.find("\n}\n").expect("its end")];
    let variants: Vec<String> = body
        .lines()
        .map(str::trim)
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        .filter_map(|l| l.split([' ', '{', ',', '(']).next())
        .map(|v| v[..1].to_ascii_lowercase() + &v[1..])
        .collect();
    assert!(variants.len() >= 20, "found the variants: {variants:?}");
    let doc = doc();
    let missing: Vec<&String> = variants.iter().filter(|v| !doc.contains(&format!("`{v}`"))).collect();
    assert!(missing.is_empty(), "docs/scenarios.md does not name the fault types {missing:?}");
}
