//! The learner scenarios of facts-share-streams.md §5 (streams groups 1–9),
//! each a shipped example (`scenarios/streams-*.json`) run whole with every
//! invariant checked after every step, and checked against the fact sheet
//! (GroupMetadataManager `streamsGroupHeartbeat`, streams
//! `CurrentAssignmentBuilder`, `StickyTaskAssignor`, `InternalTopicManager`).

use crate::common::TestWorld;
use groupscope::sim::coordinator::streams::{StreamsGroup, StreamsMemberState};
use groupscope::sim::note::Note;
use groupscope::sim::reason::FenceReason;
use groupscope::sim::state_machine::StateMachine;
use groupscope::sim::streams_message::{task_names, StreamsStatus};
use groupscope::sim::streams_note::StreamsNote;
use groupscope::sim::trace::{EventKind, Machine};
use groupscope::sim::{Millis, NodeId, Scenario, World};

pub(super) fn example(name: &str) -> Scenario {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs to `until`, checking every invariant after every step.
pub(super) fn run(scenario: Scenario, until: Millis) -> World {
    let mut t = TestWorld::new(scenario);
    t.sleep(until);
    t.world
}

pub(super) fn notes(w: &World) -> Vec<(Millis, StreamsNote)> {
    w.trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { note: Note::Streams(n), .. } => Some((e.at, n.clone())),
            _ => None,
        })
        .collect()
}

/// The group's state changes on its coordinator, with their times.
fn group_states(w: &World) -> Vec<(Millis, String)> {
    w.trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::StateChanged { machine: Machine::StreamsGroup { .. }, to, .. } => Some((e.at, to.to_string())),
            _ => None,
        })
        .collect()
}

/// The heartbeat answers client `c` got, as labels.
fn answers(w: &World, c: u32) -> Vec<(Millis, String)> {
    w.trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent { label, to: NodeId::Client(to), .. }
                if *to == c && label.starts_with("StreamsGroupHeartbeat ←") =>
            {
                Some((e.at, label.to_string()))
            }
            _ => None,
        })
        .collect()
}

fn group<'a>(w: &'a World, id: &str) -> &'a StreamsGroup {
    w.streams_group(id).expect("the streams group exists").1
}

/// The active tasks of the member whose client is `c`.
fn active(g: &StreamsGroup, c: &str) -> Vec<String> {
    g.members.values().find(|m| m.client_id == c).map(|m| task_names(&m.assigned.active)).unwrap_or_default()
}

/// §5 scenario 1: NotReady with MISSING_INTERNAL_TOPICS, the broker creates
/// the changelog and repartition topics, the next heartbeat validates the
/// topology and bumps the epoch; ASSIGNMENT_DELAYED while the 3 s initial
/// rebalance delay runs (`streamsInitialRebalanceKey`), then every task is assigned.
#[test]
fn s1_first_instance_internal_topics_then_delayed_assignment() {
    let w = run(example("streams-1-first-instance.json"), 20_000);
    let states: Vec<String> = group_states(&w).into_iter().map(|(_, s)| s).collect();
    assert_eq!(states.first().map(String::as_str), Some("NotReady"), "{states:?}");
    assert_eq!(states.last().map(String::as_str), Some("Stable"));
    let n = notes(&w);
    let created = n.iter().find_map(|(at, n)| match n {
        StreamsNote::InternalTopicsCreated { topics, .. } => Some((*at, topics.clone())),
        _ => None,
    });
    let (created_at, topics) = created.expect("the broker creates the internal topics");
    assert_eq!(topics, [("totals-by-customer-repartition".to_string(), 4), ("totals-store-changelog".to_string(), 4)]);
    let delay = n.iter().find_map(|(at, n)| match n {
        StreamsNote::InitialRebalanceDelay { until_ms, .. } => Some((*at, *until_ms)),
        _ => None,
    });
    let (joined, until) = delay.expect("the initial rebalance delay starts");
    assert_eq!(until - joined, 3000, "group.streams.initial.rebalance.delay.ms");
    assert!(created_at <= joined + 1);
    assert!(answers(&w, 1)[0].1.contains("MISSING_INTERNAL_TOPICS"), "{:?}", answers(&w, 1));
    assert!(answers(&w, 1).iter().any(|(_, l)| l.contains("ASSIGNMENT_DELAYED")));
    // No task before the delay is over.
    let first_tasks = answers(&w, 1).into_iter().find(|(_, l)| l.contains("[0_")).expect("tasks arrive");
    assert!(first_tasks.0 >= until, "{first_tasks:?} before {until}");
    assert!(w.cluster.topics.contains_key("totals-store-changelog"));
    let g = group(&w, "totals");
    let mut all: Vec<String> = g.members.values().flat_map(|m| task_names(&m.assigned.active)).collect();
    all.sort();
    assert_eq!(all, ["0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3"]);
}

/// §5 scenario 2: a missing source topic keeps the group NotReady with
/// MISSING_SOURCE_TOPICS and every member without tasks until the topic is
/// created; the metadata change then bumps the epoch and tasks are assigned.
#[test]
fn s2_missing_source_topic_then_created() {
    let before = run(example("streams-2-missing-source.json"), 19_000);
    let g = group(&before, "payments-app");
    assert_eq!(g.state.name(), "NotReady");
    assert!(g.members.values().all(|m| m.assigned.is_empty()));
    assert!(answers(&before, 1).iter().any(|(_, l)| l.contains("MISSING_SOURCE_TOPICS")));
    let epoch_before = g.group_epoch;
    let after = run(example("streams-2-missing-source.json"), 40_000);
    let g = group(&after, "payments-app");
    assert_eq!(g.state.name(), "Stable");
    assert!(g.group_epoch > epoch_before, "the metadata change bumps the group epoch");
    let mut all: Vec<String> = g.members.values().flat_map(|m| task_names(&m.assigned.active)).collect();
    all.sort();
    assert_eq!(all, ["0_0", "0_1", "0_2", "0_3"]);
}

/// §5 scenario 3: a second instance joins; the sticky assignor moves half
/// the active tasks; the old owner is UNREVOKED_TASKS, the new one
/// UNRELEASED_TASKS until the revocation is acknowledged; Assigning →
/// Reconciling → Stable.
#[test]
fn s3_second_instance_moves_half_the_tasks_after_the_revoke() {
    let w = run(example("streams-3-second-instance.json"), 30_000);
    let n = notes(&w);
    let reconciled = |client: &str, state: StreamsMemberState| {
        n.iter()
            .find(|(_, x)| matches!(x, StreamsNote::MemberReconciled { client: c, state: s, .. } if c == client && *s == state))
            .map(|(at, _)| *at)
    };
    let unrevoked = reconciled("c1", StreamsMemberState::UNREVOKED_TASKS).expect("c1 must revoke");
    let unreleased = reconciled("c2", StreamsMemberState::UNRELEASED_TASKS).expect("c2 waits");
    let revoked = n
        .iter()
        .find(|(_, x)| matches!(x, StreamsNote::TasksRevoked { client, .. } if client == "c1"))
        .map(|(at, _)| *at)
        .expect("c1 revokes");
    let c2_gets = n
        .iter()
        .find(|(_, x)| matches!(x, StreamsNote::TasksAssigned { client, active, .. } if client == "c2" && !active.is_empty()))
        .map(|(at, _)| *at)
        .expect("c2 gets tasks");
    assert!(unreleased <= unrevoked && unrevoked < revoked && revoked < c2_gets);
    let states: Vec<String> = group_states(&w).into_iter().filter(|(at, _)| *at >= 15_000).map(|(_, s)| s).collect();
    assert!(states.windows(2).any(|p| p == ["Reconciling", "Stable"]), "{states:?}");
    let g = group(&w, "totals");
    assert_eq!(active(g, "c1").len(), 2);
    assert_eq!(active(g, "c2").len(), 2);
    assert!(g.members.values().all(|m| m.member_epoch == g.assignment_epoch));
}

/// §5 scenario 4: `streams.num.standby.replicas=1` set at run time triggers a
/// recompute (`streamsGroupAssignmentConfigs`); standbys appear for the
/// stateful subtopology only and never on their active's process.
#[test]
fn s4_standbys_at_run_time_only_for_stateful_tasks() {
    let before = run(example("streams-4-standbys.json"), 19_000);
    let g = group(&before, "totals");
    assert!(g.members.values().all(|m| m.assigned.standby.is_empty()));
    let epoch_before = g.group_epoch;
    let w = run(example("streams-4-standbys.json"), 40_000);
    let g = group(&w, "totals");
    assert!(g.group_epoch > epoch_before);
    let standbys: Vec<String> = g.members.values().flat_map(|m| task_names(&m.assigned.standby)).collect();
    assert_eq!(standbys.len(), 4, "one standby per task of the stateful subtopology 1: {standbys:?}");
    assert!(standbys.iter().all(|t| t.starts_with("1_")), "{standbys:?}");
    for m in g.members.values() {
        for t in task_names(&m.assigned.standby) {
            let owner = g.members.values().find(|o| task_names(&o.assigned.active).contains(&t)).expect("an owner");
            assert_ne!(owner.process_id, m.process_id, "{t}");
        }
    }
}

/// §5 scenario 5: the crashed instance's members are fenced after the 45 s
/// session timeout (`streamsGroupFenceMember`, epoch +1); its active tasks go
/// to the process holding their standby, which has nothing to restore.
#[test]
fn s5_crash_moves_tasks_to_their_standbys() {
    let w = run(example("streams-5-crash-with-standby.json"), 90_000);
    let fenced = w.trace.iter().find_map(|e| match &e.kind {
        EventKind::Note { note: Note::MemberFenced { reason: FenceReason::SessionExpired, .. }, .. } => Some(e.at),
        _ => None,
    });
    let fenced = fenced.expect("c1 is fenced");
    // The crash at 30 s; its last heartbeat came before it.
    assert!((30_000 + 45_000 - 5_000..=30_000 + 45_000).contains(&fenced), "{fenced}");
    let g = group(&w, "totals");
    assert_eq!(active(g, "c2"), ["0_0", "0_1", "0_2", "0_3"]);
    let n = notes(&w);
    let restores: Vec<(String, i64, bool)> = n
        .iter()
        .filter(|(at, _)| *at > fenced)
        .filter_map(|(_, x)| match x {
            StreamsNote::RestorationStarted { client, records, from_standby, .. } if client == "c2" => {
                Some((client.clone(), *records, *from_standby))
            }
            _ => None,
        })
        .collect();
    // Its standbys were caught up: nothing to restore from scratch.
    assert!(restores.iter().all(|(_, r, s)| *s && *r == 0), "{restores:?}");
}

/// §5 scenario 6: a member that never acknowledges its revocation is fenced
/// after its rebalance timeout (`max.poll.interval.ms`, 300 s;
/// `scheduleStreamsGroupRebalanceTimeout`), and only then is the task granted.
#[test]
fn s6_stuck_revocation_is_fenced_after_the_rebalance_timeout() {
    let w = run(example("streams-6-stuck-revocation.json"), 330_000);
    let n = notes(&w);
    let unrevoked = n
        .iter()
        .find(|(_, x)| matches!(x, StreamsNote::MemberReconciled { client, state: StreamsMemberState::UNREVOKED_TASKS, .. } if client == "c1"))
        .map(|(at, _)| *at)
        .expect("c1 must revoke");
    let fenced = w.trace.iter().find_map(|e| match &e.kind {
        EventKind::Note { note: Note::MemberFenced { reason: FenceReason::RevocationTimeout { .. }, .. }, .. } => {
            Some(e.at)
        }
        _ => None,
    });
    assert_eq!(fenced, Some(unrevoked + 300_000));
    // c2 had no task of c1's before the fence.
    let c2_first = n
        .iter()
        .find(|(_, x)| matches!(x, StreamsNote::TasksAssigned { client, active, .. } if client == "c2" && !active.is_empty()))
        .map(|(at, _)| *at)
        .expect("c2 gets tasks");
    assert!(c2_first > unrevoked + 300_000);
}

/// §5 scenario 7: a static member leaves with epoch −2 keeping its tasks,
/// comes back under a new member id with the same instance id, and takes
/// the same tasks back with no new group epoch (Kafka 4.4).
#[test]
fn s7_static_member_bounce_keeps_its_tasks() {
    let before = run(example("streams-7-static-bounce.json"), 19_000);
    let g = group(&before, "totals");
    let (epoch, tasks) = (g.group_epoch, active(g, "c1"));
    assert_eq!(tasks.len(), 2);
    let away = run(example("streams-7-static-bounce.json"), 22_000);
    let g = group(&away, "totals");
    let m = g.members.values().find(|m| m.client_id == "c1").expect("still a member while away");
    assert!(m.left_temporarily);
    assert_eq!(m.member_epoch, -2);
    assert_eq!(task_names(&m.assigned.active), tasks);
    let w = run(example("streams-7-static-bounce.json"), 40_000);
    let g = group(&w, "totals");
    assert_eq!(g.group_epoch, epoch, "no reshuffle");
    assert_eq!(active(g, "c1"), tasks);
    assert!(notes(&w).iter().any(|(_, n)| matches!(n, StreamsNote::StaticMemberReplaced { .. })));
}

/// §5 scenario 8: a member's `ShutdownApplication=true` makes every member's
/// next heartbeat carry SHUTDOWN_APPLICATION; every thread leaves.
#[test]
fn s8_shutdown_application_reaches_every_member() {
    let w = run(example("streams-8-shutdown.json"), 40_000);
    for c in 1..=4 {
        assert!(
            answers(&w, c).iter().any(|(at, l)| *at > 20_000 && l.contains("SHUTDOWN_APPLICATION")),
            "c{c}: {:?}",
            answers(&w, c)
        );
    }
    assert_eq!(group(&w, "totals").state.name(), "Empty");
}

/// §5 scenario 9: a redeploy with a different topology at the same epoch is
/// refused with INVALID_REQUEST "Topology updates are not supported yet"
/// (`maybeUpdateTopology`); an older topology epoch joins with STALE_TOPOLOGY.
#[test]
fn s9_changed_topology_refused_older_one_stale() {
    let w = run(example("streams-9-topology-change.json"), 30_000);
    let c2 = w.clients.streams_thread(2).expect("c2");
    assert_eq!(c2.fatal.as_deref(), Some("INVALID_REQUEST: Topology updates are not supported yet."));
    assert!(answers(&w, 3).iter().any(|(_, l)| l.contains("STALE_TOPOLOGY")), "{:?}", answers(&w, 3));
    let g = group(&w, "totals");
    assert!(g.members.values().any(|m| m.client_id == "c3"));
    assert!(!g.members.values().any(|m| m.client_id == "c2"));
}

/// Every status code a learner meets in these scenarios is named as Kafka names it.
#[test]
fn status_codes_on_the_wire() {
    assert_eq!(StreamsStatus::STALE_TOPOLOGY.code(), 0);
    assert_eq!(StreamsStatus::MISSING_SOURCE_TOPICS.code(), 1);
    assert_eq!(StreamsStatus::INCORRECTLY_PARTITIONED_TOPICS.code(), 2);
    assert_eq!(StreamsStatus::MISSING_INTERNAL_TOPICS.code(), 3);
    assert_eq!(StreamsStatus::SHUTDOWN_APPLICATION.code(), 4);
    assert_eq!(StreamsStatus::ASSIGNMENT_DELAYED.code(), 5);
}

/// `addInstance` starts a new `KafkaStreams` instance with the application's
/// threads, under a new process id; the sticky assignor gives it tasks, each
/// moved only after its old owner revoked it (streams `CurrentAssignmentBuilder`).
#[test]
fn an_added_instance_joins_with_its_threads_and_gets_tasks() {
    let mut s = example("streams-1-first-instance.json");
    s.faults = vec![groupscope::sim::scenario::ScheduledFault {
        at: 12_000,
        fault: groupscope::sim::fault::Fault::AddInstance { group: "totals".into() },
    }];
    let w = run(s, 40_000);
    let threads: Vec<(u32, u32, String)> =
        w.clients.streams_threads().map(|t| (t.instance, t.thread, t.process_id.clone())).collect();
    assert_eq!(threads.len(), 4);
    assert_eq!(threads[2], (2, 1, "totals-p2".to_string()));
    assert_eq!(threads[3], (2, 2, "totals-p2".to_string()));
    let g = group(&w, "totals");
    assert_eq!(g.members.len(), 4);
    assert_eq!(g.state.name(), "Stable");
    let on_p2: usize =
        g.members.values().filter(|m| m.process_id == "totals-p2").map(|m| task_names(&m.assigned.active).len()).sum();
    assert_eq!(on_p2, 4, "half of the 8 tasks move to the new instance");
}
