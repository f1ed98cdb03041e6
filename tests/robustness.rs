//! Issue 17's reproducers, each a regression test: no input panics, hangs or
//! exhausts memory; each is refused with a message naming the field (exit 2
//! for the CLIs) or runs correctly.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::assign::case::assign_text;
use groupscope::compare::{table, Comparison, Metrics, RunResult};
use groupscope::permalink::Permalink;
use groupscope::player::Player;
use groupscope::sim::note::Note;
use groupscope::sim::scenario::limits::{check_seek, MAX_SEEK_MS};
use groupscope::sim::scenario::{ScheduledFault, MAX_CONSUMERS};
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Fault, Scenario, World};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn run(bin: &str, args: &[&str], stdin: &str) -> std::process::Output {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("binary finishes")
}

fn assign(case: &Value) -> std::process::Output {
    run(env!("CARGO_BIN_EXE_assign"), &[], &case.to_string())
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn demo_json() -> Value {
    serde_json::to_value(Scenario::demo()).unwrap()
}

fn scenario_error(edit: impl FnOnce(&mut Value)) -> String {
    let mut v = demo_json();
    edit(&mut v);
    Scenario::from_json(&v.to_string()).unwrap_err()
}

fn simulate_file(json: &str, args: &[&str]) -> std::process::Output {
    let path = std::env::temp_dir().join(format!("robustness-{}-{}.json", std::process::id(), json.len()));
    std::fs::write(&path, json).unwrap();
    let mut all = vec!["--scenario", path.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = run(env!("CARGO_BIN_EXE_simulate"), &all, "");
    let _ = std::fs::remove_file(path);
    out
}

fn case(member_map: Option<&str>) -> Value {
    let mut c = json!({"assignor": "range", "topics": {"orders": 3}, "members": [{"id": "a", "subscriptions": ["orders"]}, {"id": "b", "subscriptions": ["orders"]}]});
    if let Some(m) = member_map {
        c["memberMap"] = json!(m);
    }
    c
}

#[test]
fn assign_refuses_a_member_map_capacity_beyond_javas_int_and_exits_2() {
    // It panicked: next_power_of_two overflowed, then an index out of bounds in java.rs.
    let out = assign(&case(Some("HashMap(18446744073709551615)")));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("memberMap: ") && !stderr(&out).contains("panicked"), "{}", stderr(&out));
    // HashMap(2^30) is a valid Java capacity: answered without a 2^30-slot table.
    let text = assign_text(&case(Some("HashMap(1073741824)")).to_string()).unwrap();
    assert!(text.contains("orders-0"), "{text}");
}

#[test]
fn assign_refuses_huge_topics_and_groups_naming_the_field() {
    let mut c = case(None);
    c["topics"] = json!({"t": 2147483647});
    let out = assign(&c);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("topics: 2147483647 partitions in all; at most 100000"), "{}", stderr(&out));
    let members: Vec<Value> =
        (0..50_000).map(|i| json!({"id": format!("m{i}"), "subscriptions": ["orders"]})).collect();
    c = json!({"assignor": "uniform", "topics": {"orders": 10}, "members": members});
    let e = assign_text(&c.to_string()).unwrap_err();
    assert!(e.starts_with("members: 50000 members; at most 10000"), "{e}");
}

#[test]
fn assign_refuses_unknown_top_level_fields_but_reads_vector_annotations() {
    let mut c = case(None);
    c["topic"] = c["topics"].take();
    let out = assign(&c);
    assert_eq!(out.status.code(), Some(2), "a misspelled field is bad input");
    assert!(stderr(&out).contains("topic: unknown field"), "{}", stderr(&out));
    let mut c = case(None);
    c["notes"] = json!("vectors.json carries notes beside the inputs");
    assert!(assign_text(&c.to_string()).is_ok());
    let e = assign_text(r#"{"assignor": "range", "members": [{"id": "a", "subscriptions": 7}]}"#).unwrap_err();
    assert!(e.starts_with("members[0].subscriptions: invalid type"), "{e}");
}

#[test]
fn a_variant_name_of_65536_characters_is_refused_and_the_table_never_panics() {
    let long = "v".repeat(65_536);
    let c = json!({"scenario": demo_json(), "variants": [{"name": "a"}, {"name": long}]});
    let e = Comparison::from_json(&c.to_string()).unwrap_err();
    assert!(e.starts_with("variants[1].name: 65536 characters; at most 100"), "{}", &e[..80.min(e.len())]);
    // The table pads by hand ("Formatting argument out of range" before).
    let r = RunResult {
        variant: long.clone(),
        until: 0,
        metrics: Metrics::default(),
        invariant_violations: 0,
        trace_hash: String::new(),
    };
    let text = table::render(&[r]);
    assert!(text.lines().nth(1).unwrap().starts_with(&long));
}

#[test]
fn simulate_trace_into_a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_simulate"))
        .args(["--trace", "--until", "600000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // The reader is dropped here: like `| head -1`.
    let out = child.wait_with_output().unwrap();
    assert!(first.starts_with("{\"id\":0"), "{first}");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

#[test]
fn simulate_caps_until_and_exits_2() {
    let out = run(env!("CARGO_BIN_EXE_simulate"), &["--until", "18446744073709551615"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--until: 18446744073709551615 ms is more than a simulated day"), "{}", stderr(&out));
}

#[test]
fn huge_times_and_intervals_are_refused_with_kafkas_ranges() {
    let e = scenario_error(|v| v["groups"][0]["config"]["max.poll.interval.ms"] = json!(u64::MAX));
    assert_eq!(
        e,
        "groups[0].config.max.poll.interval.ms: must be at most 2147483647 (Kafka's int), not 18446744073709551615"
    );
    let e = scenario_error(|v| v["network"]["latencyMs"] = json!(u64::MAX));
    assert!(e.starts_with("network.latencyMs: must be at most 600000"), "{e}");
    let e = scenario_error(|v| v["broker"]["offsets.topic.replication.factor"] = json!(0));
    assert_eq!(e, "broker.offsets.topic.replication.factor: must be at least 1, not 0");
    let e = scenario_error(|v| v["broker"]["group.max.session.timeout.ms"] = json!(3_000_000_000u64));
    assert!(e.starts_with("broker.group.max.session.timeout.ms: must be at most 2147483647"), "{e}");
    let e = scenario_error(|v| v["groups"][0]["config"]["max.poll.records"] = json!(0));
    assert!(e.starts_with("groups[0].config.max.poll.records: must be at least 1"), "{e}");
    let e = scenario_error(|v| v["groups"][0]["config"]["session.timeout.ms"] = json!("soon"));
    assert!(
        e.contains("groups[0].config.session.timeout.ms: invalid type: string \"soon\"") && !e.contains("line 1"),
        "{e}"
    );
}

#[test]
fn the_largest_accepted_intervals_run_without_overflow() {
    // Kafka's int max everywhere a Kafka int goes: now + interval must not wrap.
    let mut s = Scenario::demo();
    let c = &mut s.groups[0].config;
    c.max_poll_interval_ms = i32::MAX as u64;
    c.session_timeout_ms = i32::MAX as u64;
    c.request_timeout_ms = i32::MAX as u64;
    s.broker.max_session_timeout_ms = i32::MAX as u64;
    let mut w = World::new(s).unwrap();
    w.run_until(60_000);
    assert_eq!(w.now, 60_000);
    assert!(w.clients.classics().all(|c| !c.owned.is_empty()), "the group still forms");
}

#[test]
fn faults_must_name_what_the_run_has_and_stay_within_the_caps() {
    let with_fault = |fault: Value| scenario_error(|v| v["faults"] = json!([{"at": 1000, "fault": fault}]));
    let e = with_fault(json!({"type": "addPartitions", "topic": "orders", "count": 4294967295u64}));
    assert!(e.starts_with("faults[0].fault.count: ") && e.contains("at most 10000"), "{e}");
    assert!(with_fault(json!({"type": "crashConsumer", "consumer": 99}))
        .starts_with("faults[0].fault.consumer: there is no c99"));
    assert!(with_fault(json!({"type": "killBroker", "broker": 99}))
        .starts_with("faults[0].fault.broker: there is no broker-99"));
    assert!(with_fault(json!({"type": "addConsumer", "group": "nope"})).starts_with("faults[0].fault.group: "));
    let e = with_fault(json!({"type": "pauseConsumer", "consumer": 1, "durationMs": u64::MAX}));
    assert!(e.starts_with("faults[0].fault.durationMs: must be at most"), "{e}");
    let e = with_fault(json!({"type": "cutLink", "a": "c1", "b": "broker-7"}));
    assert!(e.starts_with("faults[0].fault.b: there is no broker-7"), "{e}");
    let e = scenario_error(|v| {
        v["faults"] = json!(vec![json!({"at": 1000, "fault": {"type": "addConsumer", "group": "demo"}}); 498])
    });
    assert!(e.starts_with("faults[497].fault.group: the run already has 500 consumers"), "{e}");
}

#[test]
fn the_world_ignores_additions_beyond_the_caps_whatever_the_door() {
    let mut w = World::new(Scenario::demo()).unwrap();
    w.run_until(1000);
    w.inject(Fault::AddPartitions { topic: "orders".into(), count: u32::MAX });
    assert_eq!(w.cluster.topics["orders"].partitions.len(), 6, "4294967295 partitions reached 3.8 GB");
    let notes: Vec<&Note> = w
        .trace
        .iter()
        .filter_map(|e| if let EventKind::Note { note, .. } = &e.kind { Some(note) } else { None })
        .collect();
    assert!(notes.iter().any(|n| matches!(n, Note::FaultIgnored { .. })), "{notes:?}");
    let mut s = Scenario::demo();
    s.groups[0].consumers = MAX_CONSUMERS;
    s.topics[0].partitions = 10;
    let mut w = World::new(s).unwrap();
    w.inject(Fault::AddConsumer { group: "demo".into() });
    assert_eq!(w.clients.classics().count(), MAX_CONSUMERS as usize);
    assert!(w.check_fault(&Fault::AddConsumer { group: "demo".into() }).unwrap_err().contains("at most 500"));
}

#[test]
fn injected_u64_max_latency_and_pause_saturate_instead_of_wrapping() {
    let mut w = World::new(Scenario::demo()).unwrap();
    w.run_until(10_000);
    w.inject(Fault::SetLinkLatency { a: "c1".into(), b: "broker-0".into(), latency_ms: u64::MAX });
    w.inject(Fault::SetLinkLatency { a: "c1".into(), b: "broker-1".into(), latency_ms: u64::MAX });
    w.inject(Fault::SetLinkLatency { a: "c1".into(), b: "broker-2".into(), latency_ms: u64::MAX });
    w.inject(Fault::PauseConsumer { consumer: 2, duration_ms: u64::MAX });
    w.run_until(40_000);
    assert_eq!(w.now, 40_000);
    // Nothing from c1 arrives in the past, and c2 stays frozen: it never sends again.
    let late = w.trace.iter().filter(|e| e.at > 10_000).filter_map(|e| match &e.kind {
        EventKind::MessageSent { from, deliver_at, .. } => Some((*from, *deliver_at, e.at)),
        _ => None,
    });
    for (from, deliver_at, at) in late {
        assert!(deliver_at >= at, "delivered in the past");
        assert_ne!(from, groupscope::sim::NodeId::Client(2), "a paused consumer sent at {at}");
    }
}

#[test]
fn a_one_megabyte_group_id_and_duplicate_names_are_refused() {
    let e = scenario_error(|v| v["groups"][0]["groupId"] = json!("g".repeat(1 << 20)));
    assert_eq!(e, "groups[0].groupId: 1048576 characters; at most 249");
    let e = scenario_error(|v| {
        let t = v["topics"][0].clone();
        v["topics"].as_array_mut().unwrap().push(t);
    });
    assert_eq!(e, "topics[1].name: the topic 'orders' is listed twice");
    let e = scenario_error(|v| {
        let g = v["groups"][0].clone();
        v["groups"].as_array_mut().unwrap().push(g);
    });
    assert!(e.starts_with("groups[1].groupId: the group id 'demo' is used twice with the same settings"), "{e}");
}

#[test]
fn top_level_arrays_are_not_read_positionally() {
    for text in ["[]", r#"["oops", 5, 3]"#] {
        let e = Scenario::from_json(text).unwrap_err();
        assert!(e.contains("the top level: expected an object"), "{e}");
        assert!(Comparison::from_json(text).is_err());
        assert!(Permalink::from_json(text).unwrap_err().contains("expected an object"));
    }
    let out = simulate_file("[\"oops\", 5, 3]", &[]);
    assert_eq!(out.status.code(), Some(2));
    let e = scenario_error(|v| v["groups"][0]["config"] = json!([1, 2]));
    assert!(e.contains("groups[0].config: expected an object"), "{e}");
}

#[test]
fn seek_targets_and_link_playheads_are_capped() {
    assert!(check_seek(1e8).is_err());
    assert_eq!(check_seek(MAX_SEEK_MS as f64), Ok(MAX_SEEK_MS));
    let mut link = Permalink::of(&Player::new(Scenario::demo()).unwrap());
    link.at = 100_000_000;
    let e = Permalink::decode(&link.encode()).unwrap_err();
    assert!(e.starts_with("at: ") && e.contains("furthest playhead"), "{e}");
    link.at = 5000;
    link.script = vec![(1000, Fault::KillBroker { broker: 9 })];
    let e = Permalink::decode(&link.encode()).unwrap_err();
    assert!(e.starts_with("script[0].broker: there is no broker-9"), "{e}");
}

#[test]
fn simulate_lists_at_most_100_violations_and_counts_them_all() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/unsafe-assignor.json")).unwrap();
    let out = simulate_file(&text, &["--until", "30000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let listed = summary["invariantViolations"].as_array().unwrap().len();
    let count = summary["invariantViolationCount"].as_u64().unwrap();
    assert!(listed == 100 && count > 100, "listed {listed} of {count}");
}

#[test]
fn scheduled_faults_run_as_the_script_says() {
    let mut s = Scenario::demo();
    s.faults = vec![
        ScheduledFault { at: 1000, fault: Fault::AddConsumer { group: "demo".into() } },
        ScheduledFault { at: 20_000, fault: Fault::CrashConsumer { consumer: 4 } },
    ];
    let mut w = World::new(s).unwrap();
    w.run_until(25_000);
    assert!(!w.clients.classic(4).unwrap().alive);
}

#[test]
fn the_linter_names_an_out_of_range_quick_field_instead_of_staying_silent() {
    use groupscope::{config_form, lint};
    let mut s = Scenario::demo();
    config_form::set(&mut s, "max.poll.interval.ms", "18446744073709551615").unwrap();
    let errors: Vec<lint::Lint> = lint::check(&s).into_iter().filter(|l| l.level == lint::Level::Error).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].field, "groups[0].config.max.poll.interval.ms");
    assert!(errors[0].en.contains("at most 2147483647 (Kafka's int)"));
    // Applying it is refused, so the current run stays.
    assert!(Player::new(s).is_err());
}

#[test]
fn an_injected_fault_is_checked_against_the_running_comparison() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/compare-crash.json")).unwrap();
    let sbs = groupscope::compare::SideBySide::new(&Comparison::from_json(&text).unwrap()).unwrap();
    assert!(sbs.check_fault(&Fault::CrashConsumer { consumer: 1 }).is_ok());
    let e = sbs.check_fault(&Fault::CrashConsumer { consumer: 77 }).unwrap_err();
    assert!(e.contains("consumer: there is no c77"), "{e}");
}

#[test]
fn a_lesson_with_four_billion_consumers_is_refused_without_building_their_names() {
    // Found by tests/fuzz.rs: validation collected 1..=consumers before checking the scenario (8 GB).
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/lessons/04-consumer-crashes.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["scenario"]["groups"][0]["consumers"] = json!(u32::MAX);
    let e = groupscope::lesson::validate::load(&v.to_string()).unwrap_err();
    assert!(e.contains("scenario.groups: 4294967295 consumers in all; the simulator runs at most 500"), "{e}");
}
