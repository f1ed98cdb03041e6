//! "Explain my rebalance" (issue 16) on fixture logs written from the clients' and broker's
//! own log statements. Each test states the story its fixture tells (times are 2024-05-01 UTC
//! unless the layout has no date) and checks what the explainer rebuilds from it.

use groupscope::explain::model::{Cause, Group, Report};
use groupscope::explain::{explain_text, Explainer};

use crate::common;
use common::logs::fixture;

const DAY: i64 = 1_714_521_600_000; // 2024-05-01T00:00:00Z
fn at(h: i64, m: i64, s: i64, ms: i64) -> i64 {
    DAY + ((h * 60 + m) * 60 + s) * 1000 + ms
}

fn group<'a>(r: &'a Report, id: &str) -> &'a Group {
    r.groups.iter().find(|g| g.group_id == id).unwrap_or_else(|| {
        panic!("group {id} not found in {:?}", r.groups.iter().map(|g| &g.group_id).collect::<Vec<_>>())
    })
}

fn causes(g: &Group) -> Vec<Vec<Cause>> {
    g.rebalances.iter().map(|r| r.causes.clone()).collect()
}

fn gens(g: &Group) -> Vec<(Option<i64>, Option<i64>)> {
    g.rebalances.iter().map(|r| (r.from_generation, r.to_generation)).collect()
}

fn kinds(g: &Group) -> Vec<&str> {
    g.diagnoses.iter().map(|d| d.kind.as_str()).collect()
}

/// Three Java consumers (one file each) and broker 1 (GroupMetadataManager) form generation 1;
/// consumer-demo-3 is killed at about 10:01:00 and the coordinator removes it at 10:01:10
/// (session.timeout.ms = 10000 in its ConsumerConfig); the two others rejoin: generation 2.
#[test]
fn multi_member_merge_and_a_session_timeout() {
    let r = fixture("session-timeout");
    assert_eq!(r.lines_unparsed, 0, "every line of the fixture is a statement the explainer knows");
    let g = group(&r, "demo");
    assert_eq!(g.members.len(), 3);
    let m3 = g.members.iter().find(|m| m.client_id.as_deref() == Some("consumer-demo-3")).expect("consumer-demo-3");
    assert_eq!(m3.id, "consumer-demo-3-d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70");
    // generations as the broker and clients logged them
    let g1 = &g.generations[0];
    assert_eq!(
        (g1.generation, g1.start_ms),
        (1, at(10, 0, 4, 41)),
        "Stabilized group demo generation 1 at 10:00:04.041"
    );
    assert_eq!(g1.leader.as_deref(), Some("consumer-demo-1-6f1b2c1e-3a6d-4b7e-9c55-0e1f2a3b4c5d"));
    assert_eq!(g1.protocol.as_deref(), Some("range"));
    assert_eq!(g1.members.len(), 3);
    assert_eq!(g1.assignment["consumer-demo-3-d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70"], vec!["orders-4", "orders-5"]);
    assert_eq!(g.generations[1].generation, 2);
    assert_eq!(g.generations[1].members.len(), 2);
    assert_eq!(g1.end_ms, Some(g.generations[1].start_ms));
    // rebalances: the group forming (0 -> 1), then the session timeout (1 -> 2)
    assert_eq!(gens(g), vec![(Some(0), Some(1)), (Some(1), Some(2))]);
    assert_eq!(causes(g), vec![vec![Cause::MemberJoined], vec![Cause::SessionTimeout]]);
    let rb = &g.rebalances[1];
    assert_eq!(rb.start_ms, at(10, 1, 10, 0), "the coordinator removed the member at 10:01:10");
    // consumer-demo-2's SyncGroup for generation 2 is the last completion (10:01:12.580)
    assert_eq!(rb.end_ms, Some(at(10, 1, 12, 580)));
    // orders-0 revoked by consumer-demo-1 at 10:01:11.210, its new assignment logged
    // ("Notifying assignor about the new Assignment") at 10:01:12.571
    assert_eq!(rb.paused_ms, 1361);
    assert_eq!(rb.why.len(), 1);
    assert!(rb.why[0].member.as_deref().is_some_and(|m| m.starts_with("consumer-demo-3-")));
    let d = g.diagnoses.iter().find(|d| d.kind == "session-timeout").expect("a session-timeout diagnosis");
    assert!(
        d.text.contains("consumer-demo-3") && d.text.contains("session.timeout.ms (10000)") && d.text.contains("10 s"),
        "{}",
        d.text
    );
    assert!(d.text_zh.contains("心跳"), "{}", d.text_zh);
}

/// docker compose logs of three Spring Boot services: app-1 is redeployed at 10:05 (LeaveGroup
/// on close, a new process joins at 10:05:40), then app-2 at 10:07. Five generations.
#[test]
fn a_rolling_restart_of_dynamic_members() {
    let r = fixture("rolling-restart");
    assert_eq!(r.lines_unparsed, 5, "the five Tomcat lines are not Kafka's");
    let g = group(&r, "demo");
    assert_eq!(g.generations.iter().map(|x| x.generation).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
    // five member ids: the two restarted processes got new ones
    assert_eq!(g.members.len(), 5);
    assert_eq!(g.members.iter().filter(|m| m.client_id.as_deref() == Some("consumer-demo-1")).count(), 2);
    assert_eq!(
        gens(g)[1..].to_vec(),
        vec![(Some(1), Some(2)), (Some(2), Some(3)), (Some(3), Some(4)), (Some(4), Some(5))]
    );
    assert_eq!(
        causes(g),
        vec![
            vec![Cause::MemberJoined],
            vec![Cause::MemberLeft],
            vec![Cause::MemberJoined],
            vec![Cause::MemberLeft],
            vec![Cause::MemberJoined]
        ]
    );
    assert_eq!(g.rebalances[1].start_ms, at(10, 5, 0, 0), "app-1 revokes on close at 10:05:00");
    let d = g.diagnoses.iter().find(|d| d.kind == "rolling-restart").expect("rolling restart diagnosed");
    assert!(d.text.contains("caused 4 rebalances") && d.text.contains("group.instance.id"), "{}", d.text);
    // the leader of generation 4 is the new consumer-demo-1
    assert_eq!(g.generations[3].leader.as_deref(), Some("consumer-demo-1-9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"));
}

/// logback with time of day only: consumer-demo-2's poll loop exceeds max.poll.interval.ms
/// (60000 in its ConsumerConfig) at 10:01:40, 10:05:40 and 10:10:40; each time it leaves
/// (rebalance, poll-timeout) and rejoins 30 s later (rebalance, member-joined).
#[test]
fn a_slow_consumer_exceeds_max_poll_interval() {
    let r = fixture("slow-consumer");
    assert_eq!(r.lines_unparsed, 0);
    let g = group(&r, "demo");
    assert_eq!(g.rebalances.len(), 7);
    let c = causes(g);
    assert_eq!(c[0], vec![Cause::MemberJoined]);
    for k in 0..3 {
        assert_eq!(c[1 + 2 * k], vec![Cause::PollTimeout], "rebalance {}", 1 + 2 * k);
        assert_eq!(c[2 + 2 * k], vec![Cause::MemberJoined], "rebalance {}", 2 + 2 * k);
    }
    // no date in the layout: times of day from 1970-01-01
    let tod = |h: i64, m: i64, s: i64| ((h * 60 + m) * 60 + s) * 1000;
    assert_eq!(g.rebalances[1].start_ms, tod(10, 1, 40));
    assert_eq!(gens(g)[1], (Some(1), Some(2)));
    let d = g.diagnoses.iter().find(|d| d.kind == "poll-timeout").expect("poll timeout diagnosed");
    assert!(
        d.text.starts_with(
            "consumer-demo-2 left because processing exceeded max.poll.interval.ms (60000), 3 times in 9 minutes"
        ),
        "{}",
        d.text
    );
    assert!(d.text.contains("max.poll.records (200)"), "{}", d.text);
}

/// broker 3 forms the group (a journald-wrapped Java consumer and a librdkafka consumer); at
/// 10:03 broker 3 dies, broker 1 loads __consumer_offsets-12 and the members find it. Classic
/// members keep their generation: no rebalance follows.
#[test]
fn a_coordinator_move_without_a_rebalance() {
    let r = fixture("coordinator-move");
    assert_eq!(r.lines_unparsed, 0);
    let g = group(&r, "demo");
    assert_eq!(g.coordinators.iter().map(|c| c.1).collect::<Vec<_>>(), vec![3, 1]);
    assert_eq!(g.rebalances.len(), 1, "only the group forming");
    assert_eq!(g.generations[0].members.len(), 2);
    assert!(g.members.iter().any(|m| m.id == "rdkafka-0c9d7e21-55aa-4f10-8d3c-7a1b2e3f4a5b"));
    let d = g.diagnoses.iter().find(|d| d.kind == "coordinator-moved").expect("move diagnosed");
    assert_eq!(d.text, "the coordinator moved from broker 3 to broker 1");
}

/// KIP-848: A joins (epoch 1); B joins (epoch 2: A revokes orders-2/3 first, B gets them);
/// B's session expires (epoch 3); B resumes, is refused as unknown and rejoins (epoch 4).
#[test]
fn consumer_protocol_reconciliation() {
    let r = fixture("consumer-protocol");
    assert_eq!(r.lines_unparsed, 0);
    let g = group(&r, "demo");
    assert_eq!(
        g.generations.iter().map(|x| x.generation).collect::<Vec<_>>(),
        vec![1, 2, 3, 4],
        "group epochs as logged"
    );
    assert!(g.generations.iter().all(|x| x.protocol.as_deref() == Some("uniform") && x.leader.is_none()));
    assert_eq!(gens(g)[1..].to_vec(), vec![(Some(1), Some(2)), (Some(2), Some(3)), (Some(3), Some(4))]);
    assert_eq!(
        causes(g),
        vec![
            vec![Cause::MemberJoined],
            vec![Cause::MemberJoined],
            vec![Cause::SessionTimeout],
            vec![Cause::MemberJoined, Cause::UnknownMember]
        ]
    );
    let rb = &g.rebalances[1];
    // from B's JOINING at 10:01:00 to B's STABLE with its partitions at 10:01:02.300
    assert_eq!((rb.start_ms, rb.end_ms), (at(10, 1, 0, 0), Some(at(10, 1, 2, 300))));
    // orders-2 revoked by A at 10:01:01.010, reconciled by B at 10:01:02.060
    assert_eq!(rb.paused_ms, 1050);
    // epoch 4: A revokes at 10:03:51.010, B gets them at 10:03:52.060 (B's own loss of
    // partitions A already owned does not count)
    assert_eq!(g.rebalances[3].paused_ms, 1050);
    assert_eq!(g.generations[1].assignment["4ZxKq1y0TDKbO2kGxmKJRg"], vec!["orders-0", "orders-1"]);
    let k = kinds(g);
    assert!(k.contains(&"session-timeout") && k.contains(&"unknown-member"), "{k:?}");
    let d = g.diagnoses.iter().find(|d| d.kind == "session-timeout").expect("session timeout");
    assert!(d.text.contains("consumer-demo-2") && d.text.contains("came back"), "{}", d.text);
}

/// librdkafka's cgrp debug lines: two consumers form generation 1; consumer-2's MAXPOLL at
/// 10:10:04 (leaving), consumer-1 rejoins alone (generation 2); at 10:20:45 consumer-1's
/// session times out against a lost coordinator (the log ends there).
#[test]
fn librdkafka_lines() {
    let r = fixture("formats");
    let g = group(&r, "rk");
    assert_eq!(g.generations.iter().map(|x| (x.generation, x.members.len())).collect::<Vec<_>>(), vec![(1, 2), (2, 1)]);
    assert_eq!(g.generations[0].leader.as_deref(), Some("rdkafka-6f1b2c1e-3a6d-4b7e-9c55-0e1f2a3b4c5d"));
    assert_eq!(causes(g), vec![vec![Cause::MemberJoined], vec![Cause::PollTimeout], vec![Cause::SessionTimeout]]);
    assert_eq!(g.rebalances[1].start_ms, at(10, 10, 4, 100));
    assert_eq!(g.rebalances[2].end_ms, None, "the log ends before it rejoined");
    let d = g.diagnoses.iter().find(|d| d.kind == "poll-timeout").expect("MAXPOLL diagnosed");
    assert!(d.text.starts_with("rdkafka#consumer-2 left") && d.text.contains("(300000)"), "{}", d.text);
}

/// kafka-python (new and old wordings: `<Generation 226 ...>`, `with generation 227`).
#[test]
fn kafka_python_lines() {
    let r = fixture("formats");
    let g = group(&r, "py");
    assert_eq!(g.generations.iter().map(|x| x.generation).collect::<Vec<_>>(), vec![226, 227, 229]);
    assert_eq!(
        causes(g),
        vec![
            vec![Cause::MemberJoined],
            vec![Cause::Other],
            vec![Cause::SessionTimeout, Cause::UnknownMember],
            vec![Cause::PollTimeout]
        ]
    );
    // clicks-2 revoked at 10:05:00.010 went to a member whose lines are not here; counted
    // from the start of the rebalance that gave it back (10:11:40) to 10:11:44.020
    assert_eq!(g.rebalances[2].paused_ms, 4020);
    assert_eq!(
        g.generations[0].assignment.values().next().expect("assignment"),
        &vec!["clicks-0", "clicks-1", "clicks-2"]
    );
}

/// aiokafka with Python's default `LEVEL:logger:message` (no timestamps) and kafkajs's JSON.
#[test]
fn aiokafka_and_kafkajs_lines() {
    let r = fixture("formats");
    let a = group(&r, "aio");
    assert_eq!(a.generations.iter().map(|x| x.generation).collect::<Vec<_>>(), vec![5, 6]);
    assert_eq!(a.generations[0].leader.as_deref(), Some("aiokafka-0.11.0-a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"));
    assert_eq!(causes(a), vec![vec![Cause::MemberJoined], vec![Cause::Other], vec![Cause::UnknownMember]]);
    let j = group(&r, "js");
    assert!(j.generations.is_empty(), "kafkajs does not log generation ids");
    assert_eq!(j.members.len(), 2);
    assert_eq!(
        causes(j),
        vec![vec![Cause::MemberJoined], vec![Cause::MemberJoined], vec![Cause::UnknownMember], vec![Cause::MemberLeft]]
    );
    assert_eq!(j.rebalances[1].end_ms, Some(at(10, 1, 3, 200)), "the second member's join at 10:01:03.200 ends it");
    assert_eq!(r.lines_unparsed, 0);
}

/// The JSON shape of issue 16.
#[test]
fn json_has_the_issue_shape() {
    let r = fixture("session-timeout");
    let v: serde_json::Value = serde_json::from_str(&r.to_json()).expect("json");
    assert_eq!(v["linesRead"], 83);
    assert_eq!(v["linesUnparsed"], 0);
    let g = &v["groups"][0];
    assert_eq!(g["groupId"], "demo");
    for k in ["id", "clientId", "instanceId"] {
        assert!(g["members"][0].get(k).is_some(), "member field {k}");
    }
    for k in ["generation", "startMs", "leader", "protocol", "members", "assignment"] {
        assert!(g["generations"][0].get(k).is_some(), "generation field {k}");
    }
    let rb = &g["rebalances"][1];
    assert_eq!(rb["causes"], serde_json::json!(["session-timeout"]));
    assert_eq!(rb["fromGeneration"], 1);
    assert_eq!(rb["toGeneration"], 2);
    for k in ["startMs", "endMs", "pausedMs"] {
        assert!(rb.get(k).is_some(), "rebalance field {k}");
    }
    assert!(g["diagnoses"][0].get("kind").is_some() && g["diagnoses"][0].get("text").is_some());
    assert!(g["diagnoses"][0].get("text_zh").is_none(), "the Chinese text is for the page only");
}

/// Unrelated text, a binary file, a 50 MB file.
#[test]
fn bad_input_is_counted_not_fatal() {
    let r = explain_text("hello\nworld\n\u{7f}ELF not a log\n");
    assert!(r.groups.is_empty());
    assert_eq!((r.lines_read, r.lines_unparsed), (3, 3));
    assert!(r.problem().expect("a message").contains("no consumer-group lines recognised in 3 lines"));
    let mut x = Explainer::new();
    let f = x.begin_file("core.bin");
    x.feed_bytes(f, &[0x7f, b'E', b'L', b'F', 0, 0, 1, 2, 3, 0, 0, 0, b'\n', b'x']);
    x.end_file(f);
    let r = x.finish();
    assert!(r.files[0].binary);
    assert!(r.problem().expect("a message").contains("binary"));
}

/// Every fixture line cut short anywhere (and with its bytes shuffled around a multi-byte
/// character) is read without a panic.
#[test]
fn truncated_and_mangled_lines_never_panic() {
    let base = format!("{}/tests/fixtures/logs", env!("CARGO_MANIFEST_DIR"));
    for dir in std::fs::read_dir(&base).expect("fixtures") {
        for file in std::fs::read_dir(dir.expect("dir").path()).expect("files") {
            let text = std::fs::read_to_string(file.expect("file").path()).expect("text");
            for line in text.lines() {
                for (cut, _) in line.char_indices().step_by(5) {
                    let _ = explain_text(&line[..cut]);
                    let _ = explain_text(&format!("{}é{}", &line[..cut], &line[cut..]));
                }
            }
        }
    }
}

#[test]
fn fifty_megabytes_in_bounded_time_and_memory() {
    // 50 MB: one real fixture, then the same unrelated line over and over, fed in 1 MB chunks,
    // with one 3 MB line without a newline in the middle (cut at 64 KiB)
    let fixture_text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/logs/slow-consumer/worker-1.log",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture");
    let filler = "2024-05-01 10:20:00,000 INFO [main] com.example.App - processed batch of 500 records in 12 ms\n"
        .repeat(10_000);
    let mut x = Explainer::new();
    let f = x.begin_file("big.log");
    x.feed_bytes(f, fixture_text.as_bytes());
    let started = std::time::Instant::now();
    let mut fed = fixture_text.len();
    while fed < 50_000_000 {
        x.feed_bytes(f, filler.as_bytes());
        fed += filler.len();
        if fed > 25_000_000 && fed < 25_000_000 + filler.len() + 1 {
            x.feed_bytes(f, &vec![b'a'; 3_000_000]);
            x.feed_bytes(f, b"\n");
        }
    }
    x.end_file(f);
    let r = x.finish();
    assert!(r.lines_read > 500_000);
    let g = group(&r, "demo");
    assert_eq!(g.rebalances.len(), 7, "the fixture's rebalances are still found");
    assert!(started.elapsed().as_secs() < 120, "took {:?}", started.elapsed());
}

// ---- replay: the scenario built from the logs, run in the simulator ----

use groupscope::sim::trace::{EventKind, Machine};
use groupscope::sim::trigger::Trigger;
use groupscope::sim::world::World;

/// Runs the replayed scenario; returns the triggers of the group's transitions into
/// PreparingRebalance after start-up, and the consumers whose max.poll.interval.ms fired.
fn replay(dir: &str) -> (groupscope::sim::scenario::Scenario, Vec<Trigger>, Vec<String>) {
    let r = fixture(dir);
    let s = groupscope::explain::replay::scenario(&r).expect("a scenario");
    let until = s.faults.iter().map(|f| f.at).max().unwrap_or(0) + 60_000;
    let mut w = World::new(s.clone()).expect("the scenario runs");
    w.run_until(until);
    let first_fault = s.faults.first().map(|f| f.at).unwrap_or(0);
    let mut triggers = Vec::new();
    let mut polls = Vec::new();
    for e in &w.trace {
        match &e.kind {
            EventKind::StateChanged { machine: Machine::Group { group_id }, to, trigger, .. }
                if group_id == "demo" && to == "PreparingRebalance" && e.at >= first_fault =>
            {
                triggers.push(trigger.clone())
            }
            EventKind::TimerFired { node, timer } if timer == "max.poll.interval.ms" => polls.push(node.to_string()),
            _ => {}
        }
    }
    (s, triggers, polls)
}

/// A member joining or rejoining started the rebalance.
fn joined(t: &Trigger) -> bool {
    matches!(
        t,
        Trigger::MemberJoined { .. }
            | Trigger::MemberRejoined { .. }
            | Trigger::StaticMemberNewProtocols { .. }
            | Trigger::StaticMemberRejoinedCompleting { .. }
    )
}

/// ClassicGroup heartbeat expiration (GroupMetadataManager.onClassicGroupHeartbeatExpiration):
/// the replay crashes consumer 3 session.timeout.ms (10000, as logged) before the logged
/// removal, and the simulated coordinator removes it for the same cause.
#[test]
fn replay_of_a_session_timeout_rebalances_for_the_same_cause() {
    let (s, triggers, _) = replay("session-timeout");
    assert_eq!(s.groups[0].consumers, 3);
    assert_eq!(s.groups[0].config.session_timeout_ms, 10_000);
    assert_eq!(s.groups[0].config.assignors, vec!["range"]);
    assert_eq!(s.topics[0].name, "orders");
    assert_eq!(s.topics[0].partitions, 6);
    assert_eq!(s.faults.len(), 1);
    assert!(matches!(s.faults[0].fault, groupscope::sim::fault::Fault::CrashConsumer { consumer: 3 }));
    assert_eq!(triggers.len(), 1, "{triggers:?}");
    assert!(matches!(triggers[0], Trigger::MemberExpired { .. }), "{triggers:?}");
}

/// AbstractCoordinator.handlePollTimeoutExpiry: three poll timeouts of consumer 2 in the logs,
/// three in the replay, each followed by its LeaveGroup and a rejoin.
#[test]
fn replay_of_a_slow_consumer_times_out_polls_the_same_way() {
    let (s, triggers, polls) = replay("slow-consumer");
    assert_eq!(s.groups[0].config.max_poll_interval_ms, 60_000);
    assert_eq!(s.groups[0].config.max_poll_records, 200);
    assert_eq!(polls, vec!["c2", "c2", "c2"], "{polls:?}");
    let leaves = triggers.iter().filter(|t| matches!(t, Trigger::MembersLeft { .. })).count();
    let joins = triggers.iter().filter(|t| joined(t)).count();
    assert_eq!((leaves, joins), (3, 3), "{triggers:?}");
}

/// A rolling restart: two close() + start, each a LeaveGroup rebalance and a join rebalance.
#[test]
fn replay_of_a_rolling_restart_rebalances_per_leave_and_join() {
    let (s, triggers, _) = replay("rolling-restart");
    assert_eq!(s.groups[0].consumers, 3);
    assert!(!s.groups[0].static_members);
    let leaves = triggers.iter().filter(|t| matches!(t, Trigger::MembersLeft { .. })).count();
    let joins = triggers.iter().filter(|t| joined(t)).count();
    assert_eq!((leaves, joins), (2, 2), "{triggers:?}");
}

/// The 3.x Scala `GroupCoordinator` and `GroupMetadataManager` wordings: the member that
/// leaves is printed as its `MemberMetadata` (with its host), generations with
/// `(__consumer_offsets-7)`, coordinator election as "Elected as the group coordinator".
#[test]
fn broker_3x_lines() {
    let r = fixture("broker-3x");
    assert_eq!(r.lines_unparsed, 0);
    let g = group(&r, "legacy");
    assert_eq!(g.generations.iter().map(|x| x.generation).collect::<Vec<_>>(), vec![5, 6, 7]);
    assert!(g
        .generations
        .iter()
        .all(|x| x.leader.as_deref() == Some("consumer-legacy-1-6f1b2c1e-3a6d-4b7e-9c55-0e1f2a3b4c5d")));
    assert_eq!(gens(g), vec![(Some(4), Some(5)), (Some(5), Some(6)), (Some(6), Some(7))]);
    assert_eq!(causes(g), vec![vec![Cause::MemberLeft], vec![Cause::MemberJoined], vec![Cause::SessionTimeout]]);
    assert_eq!((g.rebalances[0].start_ms, g.rebalances[0].end_ms), (at(10, 0, 10, 0), Some(at(10, 0, 12, 510))));
    let left = g.members.iter().find(|m| m.id.starts_with("consumer-legacy-2-")).expect("the member that left");
    assert_eq!(
        (left.client_id.as_deref(), left.host.as_deref(), left.instance_id.as_deref()),
        (Some("consumer-legacy-2"), Some("10.0.0.12"), None)
    );
    assert_eq!(g.coordinators.iter().map(|c| c.1).collect::<Vec<_>>(), vec![1]);
}
