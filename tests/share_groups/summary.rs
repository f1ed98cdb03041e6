//! `simulate`'s JSON summary lists share groups like the others.

use groupscope::sim::{Scenario, World};
use serde_json::Value;

/// Scenario 6 of the fact sheet run headless: the summary's "groups" names
/// the share group (type "share", Stable with its one member), its
/// share-partition's stored start offset past the poison record (archived at
/// its fifth delivery, so it no longer holds the SPSO back), and the records
/// its consumers processed again, as the world counts them.
#[test]
fn simulate_summarises_a_share_group_with_its_stored_start_offsets() {
    let path = format!("{}/scenarios/share-6-poison.json", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_simulate"))
        .args(["--scenario", &path, "--until", "40000"])
        .output()
        .expect("simulate runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let groups = summary["groups"].as_array().expect("groups");
    assert_eq!(groups.len(), 1, "{summary:#}");
    let g = &groups[0];
    assert_eq!(
        (g["groupId"].as_str(), g["type"].as_str(), g["state"].as_str()),
        (Some("queue"), Some("share"), Some("Stable"))
    );
    assert_eq!(g["members"].as_array().map(Vec::len), Some(1));
    assert!(g["groupEpoch"].as_i64().is_some_and(|e| e >= 2), "{g:#}");
    let parts = g["sharePartitions"].as_array().expect("sharePartitions");
    assert_eq!(parts.len(), 1, "{g:#}");
    assert_eq!(parts[0]["partition"].as_str(), Some("orders-0"));
    assert!(parts[0]["spso"].as_i64().is_some_and(|s| s > 5), "{g:#}");
    // The same run in process: the summary's counts are the world's.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut w = World::new(Scenario::from_json(&text).unwrap()).unwrap();
    w.run_until(40_000);
    assert_eq!(g["recordsRedelivered"].as_i64(), Some(w.cluster.stats.redelivered.group_total("queue")));
    assert_eq!(parts[0]["spso"].as_i64(), w.cluster.share_state["queue"].values().next().map(|p| p.start_offset));
    let c1 = &summary["consumers"][0];
    assert_eq!((c1["group"].as_str(), c1["state"].as_str()), (Some("queue"), Some("STABLE")), "{c1:#}");
}
