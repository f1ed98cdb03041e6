#![cfg(not(target_arch = "wasm32"))]
//! Runs every assignor against the Kafka-derived vectors in
//! `shared/kafka/vectors.json` (each verified against Kafka's own classes).
//! Expectations come only from that file.

use groupscope::assign::case::{as_sets, AnyAssignor, Case, Family};
use groupscope::assign::{Assignment, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn vectors_path() -> PathBuf {
    match std::env::var("GROUPSCOPE_SHARED") {
        Ok(dir) => PathBuf::from(dir).join("kafka/vectors.json"),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/kafka/vectors.json"),
    }
}

fn raw_vectors() -> Vec<serde_json::Value> {
    let path = vectors_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let doc: serde_json::Value = serde_json::from_str(&text).expect("vectors.json is JSON");
    doc["vectors"].as_array().expect("a vectors array").clone()
}

fn load() -> Vec<Case> {
    raw_vectors().into_iter().map(|v| serde_json::from_value(v).expect("vector parses as a case")).collect()
}

fn matches(case: &Case, expected: &Assignment, actual: &Assignment) -> bool {
    let actual: Assignment = if case.partial_expected {
        actual.iter().filter(|(m, _)| expected.contains_key(*m)).map(|(m, p)| (m.clone(), p.clone())).collect()
    } else {
        actual.clone()
    };
    if case.ordered {
        &actual == expected
    } else {
        as_sets(&actual) == as_sets(expected)
    }
}

/// What Kafka 4.4 returns: `expected44` where the vector gives one, else `expected`.
fn expected_44(case: &Case) -> Option<&Assignment> {
    case.expected44.as_ref().or(case.expected.as_ref())
}

fn show(a: &Assignment) -> String {
    serde_json::to_string(a).unwrap_or_default()
}

/// `cooperativeRounds: untilNoRevocation`: while some member would revoke,
/// feed each member's new assignment back as owned (generation 1, v2) and
/// run again on the same instance (at most 4 rounds in all).
fn follow_up_rounds(case: &Case, first: &Assignment, assignor: &mut AnyAssignor) -> Result<Assignment, String> {
    let mut current = case.clone();
    let mut previous: BTreeMap<String, Vec<TopicPartition>> =
        case.members.iter().map(|m| (m.id.clone(), m.owned.clone())).collect();
    let mut latest = first.clone();
    for _ in 1..4 {
        let revoking = latest
            .iter()
            .any(|(m, assigned)| previous.get(m).is_some_and(|owned| owned.iter().any(|tp| !assigned.contains(tp))));
        if !revoking {
            break;
        }
        for m in &mut current.members {
            m.owned = latest.get(&m.id).cloned().unwrap_or_default();
            m.generation = Some(1);
            m.subscription_format = Some("v2".to_string());
        }
        previous = latest.clone();
        latest = current.run(assignor)?;
    }
    Ok(latest)
}

/// Runs one vector on `assignor`; returns a description of each mismatch.
fn check(case: &Case, assignor: &mut AnyAssignor) -> Vec<String> {
    let id = case.id.clone().unwrap_or_default();
    let mut problems = Vec::new();
    let first = match case.run(assignor) {
        Ok(a) => a,
        Err(e) => return vec![format!("{id}: error: {e}")],
    };
    if let Some(want) = &case.partitions_transferring_ownership {
        let got = match assignor {
            AnyAssignor::Client(a) => a.partitions_transferring_ownership(),
            AnyAssignor::Server(_) => None,
        };
        if got.as_ref() != Some(want) {
            problems.push(format!("{id}: partitionsTransferringOwnership expected {want:?}, got {got:?}"));
        }
    }
    let Some(expected) = expected_44(case) else { return vec![format!("{id}: no expectation")] };
    let last = if case.cooperative_rounds.as_deref() == Some("untilNoRevocation") {
        if let Some(want) = &case.first_round_actual {
            if !matches(case, want, &first) {
                problems.push(format!("{id}: first round expected {} got {}", show(want), show(&first)));
            }
        }
        match follow_up_rounds(case, &first, assignor) {
            Ok(a) => a,
            Err(e) => return vec![format!("{id}: follow-up error: {e}")],
        }
    } else {
        first
    };
    if !matches(case, expected, &last) {
        problems.push(format!("{id}: expected {} got {}", show(expected), show(&last)));
    }
    problems
}

/// Runs all vectors of a family and fails listing every failing vector;
/// multi-step vectors share one assignor instance per test, in step order.
fn run_family(family: Family) {
    let cases: Vec<Case> = load().into_iter().filter(|c| c.family() == Ok(family)).collect();
    assert!(!cases.is_empty(), "no vectors for {family:?}");
    let mut groups: BTreeMap<String, Vec<&Case>> = BTreeMap::new();
    for c in &cases {
        let key = match c.step {
            Some(_) => format!("steps:{}", c.source.clone().unwrap_or_default()),
            None => format!("single:{}", c.id.clone().unwrap_or_default()),
        };
        groups.entry(key).or_default().push(c);
    }
    let mut failures = Vec::new();
    for group in groups.values_mut() {
        group.sort_by_key(|c| c.step);
        let mut assignor = match group[0].new_assignor() {
            Ok(a) => a,
            Err(e) => {
                failures.extend(group.iter().map(|c| format!("{}: {e}", c.id.clone().unwrap_or_default())));
                continue;
            }
        };
        for c in group.iter() {
            failures.extend(check(c, &mut assignor));
        }
    }
    let failed: BTreeSet<&str> = failures.iter().map(|f| f.split(':').next().unwrap_or_default()).collect();
    assert!(
        failures.is_empty(),
        "{family:?}: {} of {} vectors fail {:?}:\n{}",
        failed.len(),
        cases.len(),
        failed,
        failures.join("\n")
    );
}

#[test]
fn client_range_vectors() {
    run_family(Family::Range);
}

#[test]
fn client_roundrobin_vectors() {
    run_family(Family::RoundRobin);
}

#[test]
fn client_sticky_vectors() {
    run_family(Family::Sticky);
}

#[test]
fn client_cooperative_sticky_vectors() {
    run_family(Family::CooperativeSticky);
}

#[test]
fn server_uniform_vectors() {
    run_family(Family::ServerUniform);
}

#[test]
fn server_range_vectors() {
    run_family(Family::ServerRange);
}

#[test]
fn all_158_vectors_belong_to_a_tested_family() {
    let cases = load();
    assert_eq!(cases.len(), 158);
    let mut counts: BTreeMap<Family, usize> = BTreeMap::new();
    for c in &cases {
        *counts.entry(c.family().expect("known assignor")).or_default() += 1;
    }
    let expected: BTreeMap<Family, usize> = [
        (Family::Range, 36),
        (Family::RoundRobin, 15),
        (Family::Sticky, 38),
        (Family::CooperativeSticky, 41),
        (Family::ServerRange, 10),
        (Family::ServerUniform, 18),
    ]
    .into_iter()
    .collect();
    assert_eq!(counts, expected);
}

/// KAFKA-18688 (Kafka 4.1): `UniformHomogeneousAssignmentBuilder.maybeRevokePartitions`
/// lets a member that cannot fill its extra partition from what it owns give the
/// extra up to a later member. The vectors whose 4.4 result differs (v141, v142,
/// v144) get Kafka 4.4's, not the October 2024 one.
#[test]
fn uniform_homogeneous_builder_maybe_revoke_partitions_gives_the_extra_partition_as_kafka_4_4() {
    let changed: Vec<Case> = load().into_iter().filter(|c| c.expected44.is_some()).collect();
    let ids: Vec<&str> = changed.iter().filter_map(|c| c.id.as_deref()).collect();
    assert_eq!(ids, ["v141", "v142", "v144"]);
    for case in &changed {
        assert_eq!(case.family(), Ok(Family::ServerUniform));
        let mut assignor = case.new_assignor().expect("assignor");
        let got = case.run(&mut assignor).expect("assignment");
        let (new, old) = (case.expected44.as_ref().expect("expected44"), case.expected.as_ref().expect("expected"));
        assert!(matches(case, new, &got), "{:?}: Kafka 4.4 gives {}, got {}", case.id, show(new), show(&got));
        assert!(!matches(case, old, &got), "{:?}: still the pre-4.1 result {}", case.id, show(old));
    }
}

fn run_binary(input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_assign"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("assign binary runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("binary finishes")
}

fn pick_raw(ids: &[&str]) -> Vec<serde_json::Value> {
    raw_vectors().into_iter().filter(|v| ids.contains(&v["id"].as_str().unwrap_or_default())).collect()
}

#[test]
fn binary_answers_vectors_like_the_library() {
    // single-call vectors: range, server uniform, sticky
    let ids = ["v003", "v145", "v043"];
    let raw = pick_raw(&ids);
    assert_eq!(raw.len(), 3);
    let cases: Vec<Case> = raw.iter().map(|v| serde_json::from_value(v.clone()).expect("case")).collect();
    let out = run_binary(&serde_json::to_string(&raw).expect("json"));
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let printed: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON array out");
    assert_eq!(printed.len(), 3);
    for (case, value) in cases.iter().zip(&printed) {
        let got: Assignment = serde_json::from_value(value["assignment"].clone()).expect("assignment");
        let mut assignor = case.new_assignor().expect("assignor");
        let library = case.run(&mut assignor).expect("library run");
        assert_eq!(got, library, "{:?}", case.id);
        if case.step.is_none() {
            assert!(matches(case, expected_44(case).expect("expected"), &got), "{:?}: {got:?}", case.id);
        }
    }
    // a single case (not an array) prints a single object
    let out = run_binary(&serde_json::to_string(&raw[0]).expect("json"));
    assert!(out.status.success());
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON object out");
    assert!(printed["assignment"].is_object());
}

#[test]
fn binary_rejects_malformed_input_without_panicking() {
    for bad in [
        "",
        "{",
        "[1, 2]",
        r#"{"assignor": "nope", "members": []}"#,
        r#"{"assignor": "range", "topics": {"t": -1}, "members": []}"#,
        r#"{"assignor": "sticky", "topics": {"t": 2}, "members": [{"id": "a", "subscriptions": ["t"], "owned": ["t-5"]}]}"#,
        r#"{"assignor": "range", "members": [{"id": "a"}, {"id": "a"}]}"#,
        r#"{"assignor": "uniform", "topics": {"t": 1}, "topicIds": {"t": "x"}, "members": []}"#,
        r#"{"assignor": "range", "members": [{"id": "a", "owned": ["no-dash-number"]}]}"#,
    ] {
        let out = run_binary(bad);
        assert!(!out.status.success(), "accepted {bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.is_empty() && !err.contains("panicked"), "{bad:?}: {err}");
    }
}
