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

/// Every Rust file a module's doc (`//!`) names in backticks exists (issue
/// 31): looked up beside the file, in the module's own folder (`player.rs` →
/// `player/`), in any folder above it up to the repository's root. Names of
/// other projects' files (a Kafka client's `.js` or `.py`) are not checked.
#[test]
fn module_docs_name_only_rust_files_that_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    let mut named = 0;
    let mut pending = vec![root.join("src")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut places = vec![path.with_extension("")];
            let mut up = path.parent();
            while let Some(p) = up.filter(|p| p.starts_with(root)) {
                places.push(p.to_path_buf());
                up = p.parent();
            }
            for line in text.lines().map(str::trim_start).filter(|l| l.starts_with("//!")) {
                for (i, quoted) in line.split('`').enumerate() {
                    let is_file = i % 2 == 1
                        && quoted.ends_with(".rs")
                        && quoted.chars().all(|c| c.is_ascii_alphanumeric() || "_/.-".contains(c));
                    if !is_file {
                        continue;
                    }
                    named += 1;
                    if !places.iter().any(|p| p.join(quoted).is_file()) {
                        stale.push(format!("{}: {quoted}", path.strip_prefix(root).unwrap().display()));
                    }
                }
            }
        }
    }
    assert!(named > 20, "the module docs name files: {named}");
    assert!(stale.is_empty(), "module docs name files that do not exist:\n{}", stale.join("\n"));
}
