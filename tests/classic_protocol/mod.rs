//! The classic group protocol, checked against Kafka's behaviour (GroupMetadataManager, ClassicGroup,
//! AbstractCoordinator, ConsumerCoordinator).
//! This file: finding the coordinator, join and sync, timeouts, failover and
//! scenario checks; `restarts`: members that pause, restart or close;
//! `error_codes`: the error codes and the states that cause them.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;
use groupscope::sim::state_machine::StateMachine;

use common::TestWorld;
use groupscope::java;
use groupscope::sim::client::abstract_coordinator::MemberState;
use groupscope::sim::coordinator::classic::ClassicGroupState::{self, *};
use groupscope::sim::note::Note;
use groupscope::sim::scenario::config::ConsumerConfig;
use groupscope::sim::trace::{trace_hash, Callback, EventKind};
use groupscope::sim::{Fault, Scenario, World};

mod error_codes;
mod restarts;

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
    assert_eq!(t.world.cluster.offsets_partition_for("my-group"), 12, "GroupCoordinatorService `partitionFor` example");
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
    // RangeAssignor: dynamic members sorted by member id take contiguous blocks.
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
    for (group, tp, n) in redelivered.iter() {
        assert!(c2_parts.contains(tp), "only c2's partitions are redelivered, got {group} {tp} = {n}");
    }
    for p in &c2_parts {
        assert!(redelivered.get("demo", p) > 0, "{p} was processed by c2 after its last commit");
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
