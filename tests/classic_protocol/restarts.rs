//! Classic members that pause, restart or close: a cooperative member
//! expelled while paused, static and dynamic leaders restarted while
//! partitions were added, `close()` of dynamic and static members, a member
//! switched to static membership, and a static cooperative leader restarted
//! between the two phases of a rebalance (AbstractCoordinator `maybeLeaveGroup`, KIP-345, KIP-814).

use super::*;

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

/// `close()` of a dynamic member (AbstractCoordinator `maybeLeaveGroup`): it commits, revokes and sends
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
/// then causes no rebalance (GroupMetadataManager `updateStaticMemberThenRebalanceOrCompleteJoin`).
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

#[test]
fn a_static_member_restarted_during_the_join_phase_is_not_fenced_by_its_old_process_s_answer() {
    // c1 crashes while its JoinGroup waits in the join barrier and restarts at
    // once. Its new JoinGroup (same group.instance.id, no member id) makes the
    // coordinator replace the static member (GroupMetadataManager
    // `updateStaticMemberThenRebalanceOrCompleteJoin`); `ClassicGroup.replaceStaticMember`
    // answers the *old* member's parked JoinGroup with FENCED_INSTANCE_ID. That
    // answer goes out on the old process's connection, which closed with it:
    // the new process never reads it (NetworkClient reads a response from the
    // connection its request went out on), and joins the group.
    let mut s = Scenario::demo();
    s.groups[0].static_members = true;
    let mut t = TestWorld::new(s);
    t.sleep_until(3_000, |t| t.consumer(1).membership.state == MemberState::PREPARING_REBALANCE);
    t.sleep(300); // its JoinGroup is parked in the initial-rebalance delay
    let parked = t.world.group("demo").map(|(_, g)| g.members.values().filter(|m| m.awaiting_join.is_some()).count());
    assert!(parked.is_some_and(|n| n >= 1), "c1's JoinGroup waits at the coordinator");
    t.inject(Fault::CrashConsumer { consumer: 1 });
    t.inject(Fault::RestartConsumer { consumer: 1 });
    t.sleep(20_000);
    assert_eq!(t.consumer(1).fatal, None, "the new process is not fenced");
    let dropped_fenced = t.world.trace.iter().any(|e| {
        matches!(&e.kind, EventKind::MessageDropped { to, label, reason, .. }
            if *to == groupscope::sim::NodeId::Client(1) && label.contains("FENCED_INSTANCE_ID")
                && reason.contains("before its restart"))
    });
    assert!(dropped_fenced, "the old process's FENCED_INSTANCE_ID answer is dropped with its connection");
    assert_eq!(t.group_state("demo").0, Stable);
    assert_eq!((1..=3).map(|i| t.owned(i).len()).sum::<usize>(), 6, "every partition is owned again");
    assert!(!t.owned(1).is_empty(), "the restarted static member has its share");
}
