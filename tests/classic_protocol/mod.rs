//! The classic group protocol, checked against Kafka's behaviour (facts A1, B3-B12, C, F).
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::TestWorld;
use groupscope::java;
use groupscope::sim::client::abstract_coordinator::MemberState;
use groupscope::sim::coordinator::classic::ClassicGroupState::{self, *};
use groupscope::sim::note::Note;
use groupscope::sim::scenario::config::ConsumerConfig;
use groupscope::sim::trace::{trace_hash, Callback, EventKind};
use groupscope::sim::{Fault, Scenario, World};

fn scenario_with(f: impl FnOnce(&mut ConsumerConfig)) -> Scenario {
    let mut s = Scenario::demo();
    f(&mut s.groups[0].config);
    s
}

fn time_of_group_transition(t: &TestWorld, to: &str, nth: usize) -> u64 {
    t.world
        .trace
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::StateChanged { machine: groupscope::sim::trace::Machine::Group { .. }, to: x, .. } if x == to))
        .nth(nth)
        .map(|e| e.at)
        .unwrap_or_else(|| panic!("no transition #{nth} to {to}"))
}

#[test]
fn coordinator_is_the_leader_of_offsets_partition_abs_hash_mod_50() {
    let t = TestWorld::demo();
    let expected = java::kafka_abs(java::string_hash("demo")) % 50;
    assert_eq!(t.world.cluster.offsets_partition_for("demo"), expected as u32);
    assert_eq!(t.world.cluster.offsets_partition_for("my-group"), 12, "facts A1 worked example");
    let leader = t.world.cluster.offsets_partitions[expected as usize].leader;
    assert_eq!(t.world.cluster.coordinator_for("demo"), leader);
    let mut t = t;
    t.sleep(1000);
    let answer = format!("FindCoordinator ← broker-{}", leader.unwrap());
    assert_eq!(
        t.labels_sent().iter().filter(|l| **l == answer).count(),
        3,
        "every consumer learns the same coordinator"
    );
}

#[test]
fn first_join_without_member_id_gets_member_id_required_then_rejoins_with_it() {
    let mut t = TestWorld::demo();
    t.sleep(2000);
    let labels = t.labels_sent();
    assert_eq!(labels.iter().filter(|l| *l == "JoinGroup → MEMBER_ID_REQUIRED").count(), 3);
    assert_eq!(labels.iter().filter(|l| *l == "JoinGroup member=\"\"").count(), 3);
    for c in t.world.clients.classics() {
        assert!(
            c.membership.member_id.starts_with(&format!("{}-", c.client_id)),
            "member id is clientId-UUID: {}",
            c.membership.member_id
        );
        assert_eq!(c.membership.state, MemberState::PREPARING_REBALANCE, "waiting in the join barrier");
    }
}

#[test]
fn initial_rebalance_delay_is_extended_once_per_window_with_new_members() {
    // c1's member is added at 500 ms (FindCoordinator and two JoinGroup round trips
    // of 100 ms each). D = 3000, T = max.poll.interval.ms = 300000: check at 3500;
    // c2 and c3 joined meanwhile, so wait min(D, T - D) = 3000 more; complete at 6500.
    let mut t = TestWorld::demo();
    t.sleep(10_000);
    assert_eq!(time_of_group_transition(&t, "PreparingRebalance", 0), 500);
    assert_eq!(time_of_group_transition(&t, "CompletingRebalance", 0), 6500);
}

#[test]
fn a_lone_consumer_waits_exactly_the_initial_delay() {
    let mut s = Scenario::demo();
    s.groups[0].consumers = 1;
    let mut t = TestWorld::new(s);
    t.sleep(10_000);
    assert_eq!(
        time_of_group_transition(&t, "CompletingRebalance", 0) - time_of_group_transition(&t, "PreparingRebalance", 0),
        3000
    );
}

#[test]
fn only_the_leader_receives_the_member_list() {
    let mut t = TestWorld::demo();
    t.sleep(10_000);
    let labels = t.labels_sent();
    assert_eq!(labels.iter().filter(|l| *l == "JoinGroup ← gen=1 leader, 3 members").count(), 1);
    assert_eq!(labels.iter().filter(|l| *l == "JoinGroup ← gen=1").count(), 2);
    let leaders: Vec<u32> = t.world.clients.classics().filter(|c| c.is_leader()).map(|c| c.idx).collect();
    assert_eq!(leaders, vec![1], "the first member added to the empty group leads it");
}

#[test]
fn join_and_sync_give_generation_1_and_the_range_assignment() {
    let mut t = TestWorld::demo();
    t.sleep(10_000);
    assert_eq!(t.group_state("demo"), (Stable, 1));
    assert_eq!(
        t.group_transitions().iter().map(|(_, to)| to.as_str()).collect::<Vec<_>>(),
        ["PreparingRebalance", "CompletingRebalance", "Stable"]
    );
    // RangeAssignor (facts D1): dynamic members sorted by member id take contiguous blocks.
    let mut by_id: Vec<(String, u32)> =
        t.world.clients.classics().map(|c| (c.membership.member_id.clone(), c.idx)).collect();
    by_id.sort();
    for (i, (_, idx)) in by_id.iter().enumerate() {
        let expected = vec![format!("orders-{}", 2 * i), format!("orders-{}", 2 * i + 1)];
        assert_eq!(t.owned(*idx), expected, "c{idx} is member #{i} in member-id order");
        assert_eq!(t.consumer(*idx).membership.generation, 1);
        assert_eq!(t.consumer(*idx).membership.state, MemberState::STABLE);
    }
}

#[test]
fn crashed_member_is_removed_after_session_timeout_and_survivors_get_its_partitions() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let c2_before = t.owned(2);
    t.inject(Fault::CrashConsumer { consumer: 2 });
    let crash_at = t.world.now;
    t.sleep(10_000);
    let member = t.consumer(2).membership.member_id.clone();
    // The session is re-armed by every Heartbeat and by every OffsetCommit of a
    // Stable group (OffsetMetadataManager.commitOffset); requests c2 sent before
    // crashing may still arrive after it.
    let last_heartbeat = t
        .world
        .trace
        .iter()
        .filter(|e| e.at <= crash_at + 1000)
        .filter(|e| matches!(&e.kind, EventKind::MessageDelivered { from, label, .. } if *from == groupscope::sim::NodeId::Client(2) && (label.starts_with("Heartbeat") || label.starts_with("OffsetCommit"))))
        .map(|e| e.at)
        .max()
        .expect("c2 heartbeated before crashing");
    let removed_at = time_of_group_transition(&t, "PreparingRebalance", 1);
    assert_eq!(
        removed_at,
        last_heartbeat + 6000,
        "removed exactly session.timeout.ms after its last heartbeat or commit"
    );
    assert!(t.any_note(|n| matches!(n, Note::SessionTimeout { member_id, .. } if *member_id == member)));
    assert_eq!(t.group_state("demo"), (Stable, 2));
    let mut all: Vec<String> = t.owned(1).into_iter().chain(t.owned(3)).collect();
    all.sort();
    assert_eq!(all, (0..6).map(|p| format!("orders-{p}")).collect::<Vec<_>>());
    assert_eq!((t.owned(1).len(), t.owned(3).len()), (3, 3));
    for p in c2_before {
        assert!(t.owned(1).contains(&p) || t.owned(3).contains(&p));
    }
    assert!(t.labels_sent().contains(&"Heartbeat → REBALANCE_IN_PROGRESS".to_string()));
}

#[test]
fn eager_members_revoke_all_partitions_before_rejoining() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let c1_before: Vec<_> = t.consumer(1).owned.clone();
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep(10_000);
    let revoked = t.world.trace.iter().find_map(|e| match &e.kind {
        EventKind::CallbackInvoked { node, callback: Callback::OnPartitionsRevoked, partitions }
            if *node == groupscope::sim::NodeId::Client(1) =>
        {
            Some(partitions.clone())
        }
        _ => None,
    });
    assert_eq!(revoked, Some(c1_before), "the default [range, cooperative-sticky] runs EAGER: everything is revoked");
}

#[test]
fn the_same_seed_gives_the_same_trace_and_another_seed_other_member_ids() {
    let run = |seed: u64| {
        let mut s = Scenario::demo();
        s.seed = seed;
        let mut w = World::new(s).unwrap();
        w.schedule(12_000, Fault::CrashConsumer { consumer: 2 });
        w.run_until(30_000);
        (trace_hash(&w.trace), w.clients.classic(1).unwrap().membership.member_id.clone())
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7).1, run(8).1);
}

#[test]
fn static_member_restarting_within_session_timeout_causes_no_rebalance() {
    let mut s = Scenario::demo();
    s.groups[0].static_members = true;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    let before = t.owned(2);
    let old_member = t.consumer(2).membership.member_id.clone();
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep(2000);
    t.inject(Fault::RestartConsumer { consumer: 2 });
    t.sleep(15_000);
    assert_eq!(t.group_state("demo"), (Stable, 1), "no new generation");
    assert_eq!(t.group_transitions().len(), 3, "only the initial Empty → Preparing → Completing → Stable");
    assert_eq!(t.owned(2), before, "the assignment is carried over to the new member id");
    assert_ne!(t.consumer(2).membership.member_id, old_member);
    assert!(t.consumer(2).membership.member_id.starts_with("demo-2-"), "static member id is <group.instance.id>-UUID");
}

#[test]
fn static_member_not_back_within_session_timeout_is_removed() {
    let mut s = Scenario::demo();
    s.groups[0].static_members = true;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep(12_000);
    assert_eq!(t.group_state("demo"), (Stable, 2));
    assert_eq!(t.owned(1).len() + t.owned(3).len(), 6);
}

#[test]
fn coordinator_failover_reloads_the_group_at_its_last_synced_generation() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let coordinator = t.world.cluster.coordinator_for("demo").unwrap();
    let owned_before: Vec<_> = (1..=3).map(|i| t.owned(i)).collect();
    t.inject(Fault::KillBroker { broker: coordinator });
    t.sleep(10_000);
    let new_coordinator = t.world.cluster.coordinator_for("demo").unwrap();
    assert_ne!(new_coordinator, coordinator, "leadership moved to a replica");
    let (on, group) = t.world.group("demo").expect("loaded on the new coordinator");
    assert_eq!(on, new_coordinator);
    assert_eq!((group.state, group.generation_id), (Stable, 1), "loaded Stable at the persisted generation");
    for i in 1..=3 {
        assert_eq!(t.consumer(i).membership.coordinator, Some(new_coordinator), "c{i} rediscovered the coordinator");
        assert_eq!(t.owned(i), owned_before[i as usize - 1], "no rebalance was needed");
    }
    assert!(t.any_note(|n| matches!(n, Note::CoordinatorUnknown { broker, .. } if *broker == coordinator)));
}

#[test]
fn processing_slower_than_max_poll_interval_makes_a_dynamic_member_leave() {
    let mut t = TestWorld::new(scenario_with(|c| c.max_poll_interval_ms = 10_000));
    t.sleep(12_000);
    t.inject(Fault::SlowProcessing { consumer: 2, ms_per_record: 2000 });
    // The records prefetched before the slowdown (`AbstractFetch` fetches while
    // a batch is processed; `FetchCollector` returns the buffered fetch first)
    // are two small batches; the third holds everything appended meanwhile.
    t.sleep(35_000);
    assert!(t.labels_sent().iter().any(|l| l == "LeaveGroup"), "the heartbeat thread sends LeaveGroup");
    assert!(t.any_note(|n| matches!(n, Note::PollTimeoutLeaving { .. })));
    let lost = t.world.trace.iter().any(|e| matches!(&e.kind, EventKind::CallbackInvoked { node, callback: Callback::OnPartitionsLost, .. } if *node == groupscope::sim::NodeId::Client(2)));
    let (_, generation) = t.group_state("demo");
    assert!(generation >= 2, "the group rebalanced without c2");
    // c2 is still stuck processing, or it came back and lost its old partitions.
    assert!(lost || t.consumer(2).membership.state == MemberState::UNJOINED);
}

#[test]
fn records_processed_but_not_committed_are_delivered_again_after_a_crash() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let c2_parts = t.consumer(2).owned.clone();
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep(15_000);
    let redelivered = &t.world.cluster.stats.redelivered;
    for (key, n) in redelivered {
        assert!(c2_parts.contains(&key.1), "only c2's partitions are redelivered, got {key:?} = {n}");
    }
    for p in &c2_parts {
        assert!(
            redelivered.get(&("demo".to_string(), p.clone())).copied().unwrap_or(0) > 0,
            "{p} was processed by c2 after its last commit"
        );
    }
}

#[test]
fn leader_that_never_syncs_is_removed_after_the_rebalance_timeout() {
    let mut t = TestWorld::new(scenario_with(|c| {
        c.session_timeout_ms = 20_000;
        c.heartbeat_interval_ms = 3000;
        c.max_poll_interval_ms = 8000;
    }));
    // Join completes at 6500 (initial delay 3000, extended once); the leader's
    // JoinGroup response is due at 6600: freeze the leader before it arrives.
    t.sleep(6550);
    t.inject(Fault::PauseConsumer { consumer: 1, duration_ms: 20_000 });
    t.sleep(9000);
    let leader_member = t.consumer(1).membership.member_id.clone();
    assert!(t.any_note(|n| matches!(n, Note::SyncGroupTimeout { member_id } if *member_id == leader_member)));
    assert!(
        t.labels_sent().contains(&"SyncGroup → REBALANCE_IN_PROGRESS".to_string()),
        "parked followers are told to rejoin"
    );
    t.sleep(5000);
    assert_eq!(t.group_state("demo"), (Stable, 2));
    assert_eq!(t.owned(2).len() + t.owned(3).len(), 6);
}

#[test]
fn a_session_timeout_outside_the_broker_bounds_is_fatal_invalid_session_timeout() {
    let mut t = TestWorld::new(scenario_with(|c| {
        c.session_timeout_ms = 5000;
        c.heartbeat_interval_ms = 1000;
    }));
    t.sleep(3000);
    assert!(t.labels_sent().contains(&"JoinGroup → INVALID_SESSION_TIMEOUT".to_string()));
    assert_eq!(t.consumer(1).fatal.as_deref(), Some("INVALID_SESSION_TIMEOUT"));
}

#[test]
fn the_state_table_matches_kafkas_valid_previous_states() {
    use ClassicGroupState as S;
    assert_eq!(S::Empty.valid_previous_states(), &[PreparingRebalance]);
    assert_eq!(S::PreparingRebalance.valid_previous_states(), &[Stable, CompletingRebalance, Empty]);
    assert_eq!(S::CompletingRebalance.valid_previous_states(), &[PreparingRebalance]);
    assert_eq!(S::Stable.valid_previous_states(), &[CompletingRebalance]);
    assert_eq!(S::Dead.valid_previous_states().len(), 5);
}

#[test]
fn scenarios_kafka_would_reject_get_a_clear_error() {
    let e = World::new(scenario_with(|c| c.heartbeat_interval_ms = 6000)).err().unwrap();
    assert!(e.contains("heartbeat.interval.ms") && e.contains("session.timeout.ms"), "{e}");
    let mut s = Scenario::demo();
    s.groups[0].consumers = 10_000;
    assert!(World::new(s).err().unwrap().contains("10000 consumers"));
    assert!(Scenario::from_json("{\"topics\": 3}").err().unwrap().contains("scenario JSON"));
    let mut s = Scenario::demo();
    s.groups[0].consumers = 0;
    let mut w = World::new(s).expect("an empty group is fine");
    w.run_until(10_000);
    assert!(w.group("demo").is_none());
}

#[test]
fn a_cooperative_member_expelled_while_paused_loses_its_partitions_before_rejoining() {
    // c2 learns of a rebalance, runs onJoinPrepare (cooperative: keeps its
    // partitions), then freezes past its session timeout; the others take its
    // partitions. Waking, it sends JoinGroup with its old id and gets
    // UNKNOWN_MEMBER_ID: the reset must run onJoinPrepare again, which reports
    // the partitions lost (AbstractCoordinator.resetStateAndRejoin sets
    // needsJoinPrepare), instead of rejoining while still holding them.
    let mut t = TestWorld::new(scenario_with(|c| c.assignors = vec!["cooperative-sticky".into()]));
    t.sleep(12_000);
    let held = t.consumer(2).owned.clone();
    assert!(!held.is_empty());
    // A new member makes everyone rejoin; c2 freezes just after it learned that.
    t.inject(Fault::AddConsumer { group: "demo".into() });
    while !t.consumer(2).membership.rejoin_needed {
        t.sleep(10);
    }
    t.inject(Fault::PauseConsumer { consumer: 2, duration_ms: 15_000 });
    t.sleep(40_000); // invariants (single owner) are checked after every step
    let lost: Vec<_> = t
        .world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::CallbackInvoked { node, callback: Callback::OnPartitionsLost, partitions }
                if *node == groupscope::sim::NodeId::Client(2) =>
            {
                Some(partitions.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(lost, vec![held], "c2 reports exactly what it held as lost");
    assert_eq!(t.group_state("demo").0, Stable);
    assert_eq!((1..=4).map(|i| t.owned(i).len()).sum::<usize>(), 6);
}

#[test]
fn a_restarted_static_leader_skips_assignment_and_leaves_partitions_added_meanwhile_unowned() {
    // ConsumerCoordinator.onLeaderElected with SkipAssignment sets
    // assignmentSnapshot = metadataSnapshot: the restarted leader already sees
    // the grown topic, so it never notices a change and nobody reassigns.
    let mut s = Scenario::demo();
    s.groups[0].static_members = true;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    assert!(t.consumer(1).is_leader());
    t.inject(Fault::CrashConsumer { consumer: 1 });
    t.inject(Fault::AddPartitions { topic: "orders".into(), count: 9 });
    t.sleep(1000);
    t.inject(Fault::RestartConsumer { consumer: 1 });
    t.sleep(20_000);
    assert!(t.any_note(|n| matches!(n, Note::SkipAssignment)));
    assert_eq!(t.group_state("demo"), (Stable, 1), "no rebalance");
    assert_eq!((1..=3).map(|i| t.owned(i).len()).sum::<usize>(), 6, "orders-6..8 stay unowned");
}

#[test]
fn a_dynamic_leader_that_restarts_reassigns_partitions_added_meanwhile() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    t.inject(Fault::CrashConsumer { consumer: 1 });
    t.inject(Fault::AddPartitions { topic: "orders".into(), count: 9 });
    t.sleep(1000);
    t.inject(Fault::RestartConsumer { consumer: 1 });
    t.sleep(20_000);
    assert_eq!(t.group_state("demo").0, Stable);
    assert_eq!((1..=3).map(|i| t.owned(i).len()).sum::<usize>(), 9);
}

#[test]
fn a_member_beyond_group_max_size_is_rejected_with_group_max_size_reached() {
    let mut s = Scenario::demo();
    s.broker.group_max_size = 2;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    assert!(t.labels_sent().contains(&"JoinGroup → GROUP_MAX_SIZE_REACHED".to_string()));
    assert_eq!(t.consumer(3).fatal.as_deref(), Some("GROUP_MAX_SIZE_REACHED"), "the third consumer to join");
    assert_eq!(t.group_state("demo"), (Stable, 1));
    assert_eq!((t.owned(1).len(), t.owned(2).len()), (3, 3));
}

#[test]
fn a_member_sharing_no_assignor_with_the_group_gets_inconsistent_group_protocol() {
    let mut s = Scenario::demo();
    s.groups[0].consumers = 2;
    let mut odd = s.groups[0].clone();
    odd.consumers = 1;
    odd.config.assignors = vec!["roundrobin".into()];
    s.groups.push(odd);
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    assert!(t.labels_sent().contains(&"JoinGroup → INCONSISTENT_GROUP_PROTOCOL".to_string()));
    assert_eq!(t.consumer(3).fatal.as_deref(), Some("INCONSISTENT_GROUP_PROTOCOL"));
    assert_eq!(t.group_state("demo"), (Stable, 1));
}

/// `close()` of a dynamic member (facts B9): it commits, revokes and sends
/// LeaveGroup, so the group rebalances at once instead of after
/// session.timeout.ms, and the survivors resume from its commit.
#[test]
fn a_closed_dynamic_member_leaves_at_once_and_a_closed_static_member_keeps_its_place() {
    use groupscope::sim::trace::EventKind;
    let mut w = groupscope::sim::World::new(groupscope::sim::Scenario::demo()).unwrap();
    w.run_until(15_000);
    w.inject(groupscope::sim::Fault::CloseConsumer { consumer: 2 });
    let closed_at = w.now;
    w.run_until(30_000);
    let left = w.trace.iter().find(|e| e.at >= closed_at && matches!(&e.kind, EventKind::MessageSent { label, from, .. } if label.starts_with("LeaveGroup") && from.to_string() == "c2"));
    assert!(left.is_some(), "c2 sends LeaveGroup");
    let rebalance = w
        .trace
        .iter()
        .find(|e| {
            e.at >= closed_at && matches!(&e.kind, EventKind::StateChanged { to, .. } if to == "PreparingRebalance")
        })
        .unwrap();
    assert!(
        rebalance.at < closed_at + 1_000,
        "the rebalance starts on the LeaveGroup, not after session.timeout.ms (at {} ms)",
        rebalance.at
    );
    assert!(!w.clients.classic(2).unwrap().alive);
    // A static member closes without LeaveGroup (KIP-345): no rebalance within the session timeout.
    let mut s = groupscope::sim::Scenario::demo();
    s.groups[0].static_members = true;
    let mut w = groupscope::sim::World::new(s).unwrap();
    w.run_until(15_000);
    w.inject(groupscope::sim::Fault::CloseConsumer { consumer: 2 });
    let closed_at = w.now;
    w.run_until(closed_at + 4_000);
    assert!(!w.trace.iter().any(|e| e.at >= closed_at
        && matches!(&e.kind, EventKind::MessageSent { label, .. } if label.starts_with("LeaveGroup"))));
    assert!(!w
        .trace
        .iter()
        .any(|e| e.at >= closed_at
            && matches!(&e.kind, EventKind::StateChanged { to, .. } if to == "PreparingRebalance")));
}

/// Switching a member to static membership restarts it with a
/// group.instance.id; a later restart of that member within session.timeout.ms
/// then causes no rebalance (facts B10).
#[test]
fn a_member_restarted_as_static_then_restarts_without_a_rebalance() {
    use groupscope::sim::trace::EventKind;
    let mut w = groupscope::sim::World::new(groupscope::sim::Scenario::demo()).unwrap();
    w.run_until(15_000);
    w.inject(groupscope::sim::Fault::RestartConsumerAs { consumer: 2, static_member: true });
    assert_eq!(w.clients.classic(2).unwrap().config.group_instance_id.as_deref(), Some("demo-2"));
    w.run_until(40_000);
    assert_eq!(w.group("demo").unwrap().1.state.name(), "Stable");
    let generation = w.group("demo").unwrap().1.generation_id;
    w.inject(groupscope::sim::Fault::CrashConsumer { consumer: 2 });
    w.run_until(41_000);
    w.inject(groupscope::sim::Fault::RestartConsumer { consumer: 2 });
    let at = w.now;
    w.run_until(50_000);
    assert!(!w
        .trace
        .iter()
        .any(|e| e.at >= at && matches!(&e.kind, EventKind::StateChanged { to, .. } if to == "PreparingRebalance")));
    assert_eq!(
        w.group("demo").unwrap().1.generation_id,
        generation,
        "same generation: the static member got its place back"
    );
}

/// Soak seed 2056, reduced: a static cooperative leader revokes partitions in
/// the first phase of a cooperative rebalance and crashes before its
/// follow-up JoinGroup; restarted within session.timeout.ms it is answered
/// with SkipAssignment and the stored assignment (KIP-814), and the new
/// process does not know a follow-up was due. The partitions withheld in the
/// first phase stay unowned: the same Kafka gap as partitions added meanwhile.
#[test]
fn a_static_cooperative_leader_restarted_between_the_two_phases_leaves_the_withheld_partitions_unowned() {
    let mut s = Scenario::demo();
    s.groups[0].static_members = true;
    s.groups[0].consumers = 1;
    s.groups[0].config.assignors = vec!["cooperative-sticky".into()];
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    assert_eq!(t.owned(1).len(), 6);
    t.inject(Fault::AddConsumer { group: "demo".into() });
    // Step until c1 has revoked what moves to c2 (phase one), then crash and restart it at once.
    let revoked_before = |t: &TestWorld| {
        t.world.trace.iter().any(|e| {
            matches!(&e.kind, EventKind::CallbackInvoked { node, callback: Callback::OnPartitionsRevoked, partitions }
            if *node == groupscope::sim::NodeId::Client(1) && !partitions.is_empty())
        })
    };
    while !revoked_before(&t) {
        t.world.step();
    }
    let withheld = 6 - t.owned(1).len();
    assert!(withheld > 0, "phase one withheld partitions from both members");
    t.inject(Fault::CrashConsumer { consumer: 1 });
    t.inject(Fault::RestartConsumer { consumer: 1 });
    t.sleep(30_000);
    assert!(t.any_note(|n| matches!(n, Note::SkipAssignment)), "the returning static leader skips the assignment");
    assert_eq!(t.group_state("demo").0, Stable);
    assert_eq!(
        (1..=2).map(|i| t.owned(i).len()).sum::<usize>(),
        6 - withheld,
        "the {withheld} withheld partitions stay unowned"
    );
}

/// COORDINATOR_NOT_AVAILABLE (15). With `offsets.topic.replication.factor` = 1
/// the coordinator's death leaves the group's `__consumer_offsets` partition
/// without a leader, so every broker left answers FindCoordinator with
/// COORDINATOR_NOT_AVAILABLE (facts A1, step 3). The consumers keep looking the
/// coordinator up after a backoff (A2, B11) and keep their generation, member
/// id and partitions (A4); once the broker is back the group is loaded at its
/// generation and nobody rebalances.
#[test]
fn find_coordinator_without_a_live_offsets_leader_gets_coordinator_not_available_and_the_consumers_retry() {
    let mut s = Scenario::demo();
    s.broker.offsets_topic_replication_factor = 1;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    assert_eq!(t.group_state("demo"), (Stable, 1));
    let before: Vec<_> = (1..=3).map(|i| (t.consumer(i).membership.member_id.clone(), t.owned(i))).collect();
    let coordinator = t.world.cluster.coordinator_for("demo").unwrap();
    t.inject(Fault::KillBroker { broker: coordinator });
    // Under KRaft the dead broker stays leader until the controller fences it
    // (broker.session.timeout.ms = 9000); then the partition has no leader.
    t.sleep(9_000 + 8_000);
    assert_eq!(t.world.cluster.coordinator_for("demo"), None, "the partition's only replica is down");
    let answers = t.labels_sent().iter().filter(|l| *l == "FindCoordinator → COORDINATOR_NOT_AVAILABLE").count();
    assert!(answers >= 3 * 5, "each consumer kept asking after a backoff: {answers} answers");
    for i in 1..=3 {
        let c = t.consumer(i);
        assert_eq!((c.membership.coordinator, c.fatal.as_deref()), (None, None), "c{i}: retriable, not fatal");
        assert_eq!(
            (c.membership.state, c.membership.generation),
            (MemberState::STABLE, 1),
            "c{i} keeps its generation"
        );
        assert_eq!(
            (c.membership.member_id.clone(), t.owned(i)),
            before[i as usize - 1],
            "c{i} keeps its member id and partitions"
        );
    }
    t.inject(Fault::RestartBroker { broker: coordinator });
    t.sleep(5_000);
    assert_eq!(t.group_state("demo"), (Stable, 1), "loaded at its generation, no rebalance");
    for i in 1..=3 {
        assert_eq!(t.consumer(i).membership.coordinator, Some(coordinator), "c{i} found the coordinator again");
        assert_eq!((t.consumer(i).membership.member_id.clone(), t.owned(i)), before[i as usize - 1]);
    }
}

/// ILLEGAL_GENERATION (22). A static member paused through a whole rebalance is
/// kept by the coordinator though it did not rejoin (facts B5), but misses the
/// new generation. When it resumes, its OffsetCommit and Heartbeat carry the old
/// generation and are answered ILLEGAL_GENERATION (B8, F): the auto-commit fails
/// with CommitFailedException, the member resets its generation but keeps its
/// member id, treats its partitions as lost and rejoins (B11). As a follower
/// with unchanged metadata in a Stable group it gets the current generation
/// back without another rebalance (B3).
#[test]
fn a_static_member_that_missed_a_generation_gets_illegal_generation_and_rejoins_with_its_member_id() {
    let mut s = scenario_with(|c| {
        c.session_timeout_ms = 20_000;
        c.heartbeat_interval_ms = 3000;
        // The rebalance timeout: the join phase ends without the paused member.
        c.max_poll_interval_ms = 5000;
    });
    s.groups[0].static_members = true;
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    assert_eq!(t.group_state("demo"), (Stable, 1));
    let (member_id, owned) = (t.consumer(1).membership.member_id.clone(), t.owned(1));
    t.inject(Fault::PauseConsumer { consumer: 1, duration_ms: 9000 });
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep(8_000);
    let (_, group) = t.world.group("demo").unwrap();
    assert_eq!((group.state, group.generation_id), (Stable, 2));
    assert!(group.members.contains_key(&member_id), "the static member is kept though it did not rejoin");
    t.sleep(7_000);
    let labels = t.labels_sent();
    assert!(labels.contains(&"Heartbeat → ILLEGAL_GENERATION".to_string()));
    assert!(labels.contains(&"OffsetCommit → ILLEGAL_GENERATION".to_string()));
    assert!(t.any_note(|n| matches!(n, Note::AutoCommitFailed { exception } if exception == "ILLEGAL_GENERATION: CommitFailedException")));
    let lost: Vec<String> = t
        .world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::CallbackInvoked { node, callback: Callback::OnPartitionsLost, partitions }
                if *node == groupscope::sim::NodeId::Client(1) =>
            {
                Some(partitions.iter().map(|p| p.to_string()).collect::<Vec<_>>())
            }
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(lost, owned, "the partitions of the old generation are lost, not revoked");
    let c1 = t.consumer(1);
    assert_eq!(
        (c1.membership.state, c1.membership.generation, c1.membership.member_id.as_str()),
        (MemberState::STABLE, 2, member_id.as_str()),
        "rejoined with its member id"
    );
    assert_eq!(t.group_state("demo"), (Stable, 2), "no further rebalance");
    assert_eq!(t.owned(1), owned, "its stored assignment");
}

/// INVALID_GROUP_ID (24), on the coordinator: a JoinGroup for the empty group id
/// is refused before anything else is looked at, and no group is created (facts
/// B1, GCS `joinGroup`).
#[test]
fn a_join_group_for_the_empty_group_id_gets_invalid_group_id() {
    use groupscope::sim::cluster::broker::Broker;
    use groupscope::sim::cluster::Cluster;
    use groupscope::sim::ctx::Ctx;
    use groupscope::sim::message::{Body, JoinGroupRequest, JoinProtocol, ProtocolMetadata, Request};
    use groupscope::sim::out::{Out, TimerKey};
    use groupscope::sim::{Errors, NodeId};
    use rand::SeedableRng;

    let config = Scenario::demo().broker;
    let mut cluster = Cluster::new(1, config.offsets_topic_num_partitions, 1);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let partition = cluster.offsets_partition_for("");
    let mut ctx = Ctx { now: 0, me: NodeId::Broker(0), rng: &mut rng, cluster: &mut cluster, broker_config: &config };
    let mut broker = Broker::new(0);
    broker.coordinator.become_leader(&mut ctx, partition, &mut Out::default());
    broker.handle_timer(&mut ctx, &TimerKey::Load { partition }, &mut Out::default());
    let metadata = ProtocolMetadata {
        topics: vec!["orders".into()],
        owned_partitions: Vec::new(),
        generation_id: -1,
        rack_id: None,
        connect: None,
    };
    let request = JoinGroupRequest {
        group_id: String::new(),
        session_timeout_ms: 10_000,
        rebalance_timeout_ms: 300_000,
        member_id: String::new(),
        group_instance_id: None,
        protocol_type: "consumer".into(),
        protocols: vec![JoinProtocol { name: "range".into(), metadata }],
        client_id: "consumer--1".into(),
    };
    let mut out = Out::default();
    broker.handle_request(&mut ctx, NodeId::Client(1), 7, Request::JoinGroup(request), &mut out);
    match out.sends.as_slice() {
        [(NodeId::Client(1), Body::Response { correlation: 7, response })] => {
            assert_eq!(response.error(), Errors::INVALID_GROUP_ID)
        }
        other => panic!("expected one JoinGroup response, got {other:?}"),
    }
    assert!(broker.coordinator.shards[&partition].groups.is_empty(), "no group created");
}

/// INVALID_GROUP_ID (24), on the client: a consumer configured with an empty
/// group.id raises the fatal error to the application and never joins (facts
/// B11). The simulator's broker already refuses the empty key at
/// FindCoordinator; Kafka's answers FindCoordinator and refuses the JoinGroup
/// (previous test).
#[test]
fn a_consumer_with_an_empty_group_id_stops_with_the_fatal_invalid_group_id() {
    let mut s = Scenario::demo();
    s.groups[0].group_id = String::new();
    s.groups[0].consumers = 1;
    let mut t = TestWorld::new(s);
    t.sleep(5_000);
    let c1 = t.consumer(1);
    assert_eq!(c1.fatal.as_deref(), Some("INVALID_GROUP_ID"));
    assert_eq!((c1.membership.state, c1.membership.generation), (MemberState::UNJOINED, -1));
    assert!(c1.owned.is_empty());
    assert!(t.world.group("").is_none(), "no group created");
}
