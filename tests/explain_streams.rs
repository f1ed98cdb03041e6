//! The explainer on Kafka Streams' own logs from real Kafka 4.4.0 runs
//! (`conformance/run-streams.sh`, kept under `tests/fixtures/real-kafka-logs/streams-*-crash/`):
//! instances i1, i2, i3 with 2 stream threads each, i2 killed with SIGKILL at 30 s, a new
//! instance i4 at 90 s. Each test checks the reconstruction against what the harness did and
//! what Admin showed of the group (`ground-truth.json`), never against the explainer's own output.

use groupscope::explain::explain_files;
use groupscope::explain::model::{Cause, Group, Report};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn run(name: &str) -> (Report, Value) {
    let dir = format!("{}/tests/fixtures/real-kafka-logs/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for f in ["broker.log", "i1.log", "i2.log", "i3.log", "i4.log"] {
        let text = std::fs::read_to_string(format!("{dir}/{f}")).expect("a kept log");
        files.push((f.to_string(), text));
    }
    let named: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/ground-truth.json")).expect("ground truth"))
            .expect("json");
    (explain_files(&named), truth)
}

fn group(r: &Report) -> &Group {
    assert_eq!(r.groups.len(), 1, "one application, one group");
    let g = &r.groups[0];
    assert_eq!(g.group_id, "wordcount", "the group is the application.id");
    g
}

/// The harness's action `what` on `instance`: its wall-clock time (ms).
fn harness(truth: &Value, what: &str, instance: &str) -> i64 {
    truth["harness"]
        .as_array()
        .expect("harness")
        .iter()
        .find(|h| h["what"] == what && h["instance"] == instance)
        .and_then(|h| h["wall"].as_i64())
        .unwrap_or_else(|| panic!("the harness did {what} {instance}"))
}

/// Every thread consumer client id Admin ever listed, by instance.
fn threads_seen(truth: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for a in truth["admin"].as_array().expect("admin") {
        for client in a["members"].as_object().expect("members").keys() {
            let thread = client.strip_suffix("-consumer").expect("a thread's consumer");
            let instance = thread.split("-StreamThread-").next().expect("instance").to_string();
            out.entry(instance).or_default().insert(thread.to_string());
        }
    }
    out
}

/// The last Admin snapshot's members: client id → its description.
fn last_members(truth: &Value) -> BTreeMap<String, String> {
    let last = truth["admin"].as_array().expect("admin").last().expect("a snapshot");
    last["members"].as_object().expect("members").iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().into())).collect()
}

/// Instances and threads: `KafkaStreams` names its threads `clientId-StreamThread-n`
/// (`StreamThread.create`), each thread's consumer is one member; the explainer finds every
/// instance the harness started, each with the threads Admin listed, and only the killed one
/// ends "crashed" (`KafkaStreams.setState` never logged NOT_RUNNING, and the coordinator
/// removed its members on session timeout).
fn check_instances(r: &Report, truth: &Value) {
    let g = group(r);
    let app = g.streams.as_ref().expect("the Streams lines were read");
    let seen = threads_seen(truth);
    let found: BTreeMap<String, BTreeSet<String>> = app
        .instances
        .iter()
        .map(|i| (i.client_id.clone(), i.threads.iter().map(|t| t.name.clone()).collect()))
        .collect();
    assert_eq!(found, seen, "instances and their threads, as Admin listed them");
    for i in &app.instances {
        let killed = truth["harness"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["what"] == "kill -9" && h["instance"] == i.client_id.as_str());
        assert_eq!(i.end == "crashed", killed, "{} ends {}", i.client_id, i.end);
        for t in &i.threads {
            assert!(!t.member_ids.is_empty(), "{} is a member", t.name);
            assert!(
                t.states.first().is_some_and(|s| s.from == "CREATED"),
                "StreamThread.setState logs {}'s first transition from CREATED",
                t.name
            );
        }
    }
}

/// The crash: the coordinator notices after the session timeout (45 s, the default of
/// `session.timeout.ms` and of `group.streams.session.timeout.ms`), counted from the member's
/// last heartbeat before the SIGKILL; and the new instance's join starts a rebalance of its own.
fn check_crash_and_join(r: &Report, truth: &Value) {
    let g = group(r);
    let kill = harness(truth, "kill -9", "i2");
    let start4 = harness(truth, "start", "i4");
    let timeouts: Vec<_> = g.rebalances.iter().filter(|rb| rb.causes.contains(&Cause::SessionTimeout)).collect();
    assert_eq!(timeouts.len(), 1, "one rebalance for the crash");
    let after = timeouts[0].start_ms - kill;
    assert!((39_000..=46_000).contains(&after), "the session timeout rebalance began {after} ms after the kill");
    for m in timeouts[0].why.iter().filter_map(|w| w.member.as_deref()) {
        let thread = g
            .streams
            .as_ref()
            .unwrap()
            .instances
            .iter()
            .flat_map(|i| &i.threads)
            .find(|t| t.member_ids.iter().any(|x| x == m));
        assert!(thread.is_some_and(|t| t.name.starts_with("i2-")), "{m} timed out: a thread of the killed instance");
    }
    let joined = g
        .rebalances
        .iter()
        .find(|rb| rb.start_ms >= start4 && rb.causes.contains(&Cause::MemberJoined))
        .expect("a rebalance for the new instance");
    assert!(joined.start_ms - start4 < 10_000, "it began as i4 joined");
    assert!(joined.why.iter().filter_map(|w| w.member.as_deref()).any(|m| {
        g.streams
            .as_ref()
            .unwrap()
            .instances
            .iter()
            .find(|i| i.client_id == "i4")
            .unwrap()
            .threads
            .iter()
            .any(|t| t.member_ids.iter().any(|x| x == m))
    }));
}

/// Classic Kafka Streams (`group.protocol=classic`, `StreamsPartitionAssignor`): the crash and
/// the join each move active tasks, so the leader asks for an immediate follow-up rebalance
/// (`StreamsPartitionAssignor.addClientAssignments`, "due to tasks changing ownership") that the
/// threads trigger at once ("triggered followup rebalance scheduled for 0",
/// `StreamThread.runOnceWithoutProcessingThreads`); i4 starts with no state, lags more than
/// `acceptable.recovery.lag` (100 in `StreamsApp`), gets warm-ups, and the leader schedules a
/// probing rebalance `probing.rebalance.interval.ms` (60 s) later.
#[test]
fn classic_streams_crash_follow_up_and_probing_rebalances() {
    let (r, truth) = run("streams-classic-crash");
    check_instances(&r, &truth);
    check_crash_and_join(&r, &truth);
    let g = group(&r);
    let app = g.streams.as_ref().unwrap();
    // the process ids the leader's assignor names (StreamsPartitionAssignor.assign) are one per instance
    let pids: BTreeSet<_> = app.instances.iter().filter_map(|i| i.process_id.clone()).collect();
    assert_eq!(pids.len(), app.instances.len(), "each instance has its own process id");
    // the rebalance right after the crash's and right after the join are follow-ups
    let i = g.rebalances.iter().position(|rb| rb.causes.contains(&Cause::SessionTimeout)).unwrap();
    let next = &g.rebalances[i + 1];
    assert_eq!(next.causes, vec![Cause::FollowUp], "the crash moved active tasks");
    assert!(next.start_ms - g.rebalances[i].end_ms.unwrap() < 1_000, "a follow-up starts at once");
    let probing: Vec<_> = g.rebalances.iter().filter(|rb| rb.causes.contains(&Cause::Probing)).collect();
    assert_eq!(probing.len(), 1, "one probing rebalance before the run ended");
    let scheduled =
        app.follow_ups.iter().filter(|(t, p)| *p && *t < probing[0].start_ms).map(|(t, _)| *t).max().unwrap();
    let wait = probing[0].start_ms - scheduled;
    assert!((60_000..61_000).contains(&wait), "the probing rebalance came {wait} ms after it was scheduled");
    // generations: consecutive, and the last one's members are the threads Admin listed at the end
    let last = g.generations.last().unwrap();
    let members: BTreeSet<String> = last
        .members
        .iter()
        .map(|m| groupscope::explain::members::client_of_member_id(m).unwrap().to_string())
        .collect();
    assert_eq!(members, last_members(&truth).keys().cloned().collect(), "the last generation's members");
    for w in g.rebalances.windows(2) {
        assert_eq!(w[0].to_generation, w[1].from_generation, "each rebalance starts where the last ended");
    }
    // the threads' last tasks (TaskManager.handleAssignment) are the partitions Admin shows them
    // owning: task 0_p reads words-p, task 1_p the repartition topic's partition p
    for (client, parts) in last_members(&truth) {
        let thread = client.strip_suffix("-consumer").unwrap();
        let t = app.instances.iter().flat_map(|i| &i.threads).find(|t| t.name == thread).unwrap();
        let owned: BTreeSet<String> = parts
            .trim_matches(['[', ']'])
            .split(", ")
            .filter(|p| !p.is_empty())
            .map(|p| match p.strip_prefix("words-") {
                Some(n) => format!("0_{n}"),
                None => format!("1_{}", p.rsplit('-').next().unwrap()),
            })
            .collect();
        assert_eq!(t.active.iter().cloned().collect::<BTreeSet<_>>(), owned, "{thread}'s active tasks");
    }
}

/// A streams group (`group.protocol=streams`, KIP-1071): no follow-up or probing rebalances;
/// the group epoch the explainer ends at is the one Admin described (`describeStreamsGroups`),
/// and each live thread's tasks are Admin's.
#[test]
fn streams_group_crash_and_join_with_epochs() {
    let (r, truth) = run("streams-group-crash");
    check_instances(&r, &truth);
    check_crash_and_join(&r, &truth);
    let g = group(&r);
    assert!(!g.rebalances.iter().any(|rb| rb.causes.contains(&Cause::FollowUp) || rb.causes.contains(&Cause::Probing)));
    let last = truth["admin"].as_array().unwrap().last().unwrap();
    let epoch = last["groupEpoch"].as_i64().unwrap();
    assert_eq!(g.rebalances.last().and_then(|rb| rb.to_generation), Some(epoch), "the last group epoch");
    let app = g.streams.as_ref().unwrap();
    for (client, desc) in last_members(&truth) {
        let thread = client.strip_suffix("-consumer").unwrap();
        let inst = app.instances.iter().find(|i| i.threads.iter().any(|t| t.name == thread)).unwrap();
        let t = inst.threads.iter().find(|t| t.name == thread).unwrap();
        // not checked yet: the process id the broker's member record names (see docs/explain.md)
        let tasks: BTreeSet<String> = desc
            .split("active [")
            .nth(1)
            .unwrap()
            .trim_end_matches(']')
            .split(", ")
            .filter(|x| !x.is_empty())
            .map(String::from)
            .collect();
        assert_eq!(t.active.iter().cloned().collect::<BTreeSet<_>>(), tasks, "{thread}'s active tasks");
        assert!(desc.starts_with(&format!("epoch {epoch} ")), "Admin shows {thread} at the group epoch");
    }
}
