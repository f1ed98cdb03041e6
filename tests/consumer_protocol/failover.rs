//! Coordinator failover and the rest of the run: a new coordinator replays
//! the group, offset commits checked with member epochs, faults, the view, the
//! example scenario, and persisted group epochs that go back (GroupMetadataManager `onLoaded`, ConsumerGroup
//! `validateOffsetCommit`).

use super::*;

#[test]
fn a_new_coordinator_replays_the_consumer_group_and_rearms_its_session_timers() {
    // GroupMetadataManager `replay` and `onLoaded`: records replayed, every member's session timeout re-armed;
    // AbstractHeartbeatRequestManager: clients rediscover the coordinator and stay in the group (no epoch bump).
    let mut t = settled_world(consumer_protocol_demo(3));
    let before = t.consumer_group("demo").clone();
    let old = coordinator(&t);
    t.inject(Fault::KillBroker { broker: old });
    // Leadership moves once the controller fences the dead broker (broker.session.timeout.ms).
    t.sleep(9000 + 3000);
    let (new, g) = t.world.consumer_group("demo").expect("loaded on the new coordinator");
    assert_ne!(new, old);
    assert_eq!(
        (g.group_epoch, g.assignment_epoch, &g.members, &g.target_assignment),
        (before.group_epoch, before.assignment_epoch, &before.members, &before.target_assignment)
    );
    t.sleep_until(20_000, |t| t.world.clients.async_consumers().all(|c| c.link.coordinator == Some(new)));
    t.sleep(10_000);
    assert_eq!(
        t.consumer_group("demo").group_epoch,
        before.group_epoch,
        "members kept their epochs across the failover"
    );
    let loaded_at = t.world.now;
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.sleep_until(60_000, |t| t.consumer_group("demo").members.len() == 2);
    assert!(t.world.now - loaded_at <= 46_000, "the re-armed session timer fenced c2 on the new coordinator");
    t.sleep_until(60_000, settled);
}

#[test]
fn offset_commits_are_validated_with_member_epochs() {
    // ConsumerGroup `validateOffsetCommit` -> STALE_MEMBER_EPOCH (113), UNKNOWN_MEMBER_ID.
    let mut shard = Shard { state: CoordinatorState::ACTIVE, ..Shard::loading() };
    let mut g = ConsumerGroup::new("demo");
    shard.groups.insert("demo".into(), Group::Consumer(g.clone()));
    let orders_0 = [(tp(0), 10)];
    assert_eq!(
        shard.validate_consumer_group_offset_commit("demo", "", -1, &orders_0),
        Some(Errors::NONE),
        "admin commit to an empty group"
    );
    let mut m = ConsumerGroupMember::new("m");
    m.member_epoch = 5;
    m.assigned_partitions = set(&[0]);
    m.assignment_epochs = [(tp(0), 5)].into();
    g.members.insert("m".into(), m);
    shard.groups.insert("demo".into(), Group::Consumer(g));
    assert_eq!(shard.validate_consumer_group_offset_commit("demo", "m", 5, &orders_0), Some(Errors::NONE));
    // Kafka 4.3+ checks an older epoch partition by partition (KIP-1251, see
    // `an_older_member_epoch_commits_the_partitions_assigned_at_or_before_it`):
    // orders-0 was assigned at epoch 5, so epoch 4 may not commit it. Until 4.2
    // every epoch but the member's was refused.
    assert_eq!(
        shard.validate_consumer_group_offset_commit("demo", "m", 4, &orders_0),
        Some(Errors::STALE_MEMBER_EPOCH)
    );
    assert_eq!(shard.validate_consumer_group_offset_commit("demo", "x", 5, &orders_0), Some(Errors::UNKNOWN_MEMBER_ID));
    assert_eq!(shard.validate_consumer_group_offset_commit("demo", "", -1, &orders_0), Some(Errors::UNKNOWN_MEMBER_ID));
    assert_eq!(Errors::STALE_MEMBER_EPOCH.code(), 113);
    // In a run, members commit with their epoch and the offsets only move forward.
    let t = settled_world(consumer_protocol_demo(3));
    assert!(t
        .world
        .trace
        .iter()
        .any(|e| matches!(&e.kind, EventKind::OffsetsCommitted { group_id, .. } if group_id == "demo")));
}

/// KIP-1251 (Kafka 4.3+): ConsumerGroup `validateOffsetCommit` accepts the
/// member's current epoch for anything and refuses a newer one; an older one
/// goes to `createAssignmentEpochValidator`, which looks each partition up in
/// the member's assigned partitions, then in its partitions pending revocation
/// (`assignmentEpoch`, `pendingRevocationEpoch`): a partition it does not hold,
/// or one assigned after the commit's epoch, is STALE_MEMBER_EPOCH, and
/// OffsetMetadataManager `commitOffset` fails the whole request on the first.
#[test]
fn an_older_member_epoch_commits_the_partitions_assigned_at_or_before_it() {
    let mut g = ConsumerGroup::new("demo");
    let mut m = ConsumerGroupMember::new("m");
    m.member_epoch = 5;
    m.state = ServerState::UNREVOKED_PARTITIONS;
    m.assigned_partitions = set(&[0, 1]);
    m.partitions_pending_revocation = set(&[2]);
    m.assignment_epochs = [(tp(0), 3), (tp(1), 5), (tp(2), 2)].into();
    g.members.insert("m".into(), m);
    let shard = Shard {
        state: CoordinatorState::ACTIVE,
        groups: [("demo".to_string(), Group::Consumer(g))].into(),
        ..Shard::loading()
    };
    let commit = |epoch: i32, partitions: &[i32]| {
        let offsets: Vec<(TopicPartition, i64)> = partitions.iter().map(|p| (tp(*p), 10)).collect();
        shard.validate_consumer_group_offset_commit("demo", "m", epoch, &offsets)
    };
    let (ok, stale) = (Some(Errors::NONE), Some(Errors::STALE_MEMBER_EPOCH));
    assert_eq!(commit(4, &[0]), ok, "assigned at 3");
    assert_eq!(commit(4, &[2]), ok, "pending revocation, assigned at 2");
    assert_eq!(commit(4, &[1]), stale, "assigned at 5, after the commit's epoch");
    assert_eq!(commit(4, &[3]), stale, "not the member's");
    assert_eq!(commit(4, &[0, 1]), stale, "one partition fails the whole request");
    assert_eq!(commit(6, &[0]), stale, "newer than the member epoch");
    assert_eq!(commit(5, &[3]), ok, "the current epoch is not checked per partition");
}

/// The epoch in a ConsumerGroupHeartbeat answer's label (`… ← epoch=3 […]`).
fn answered_epoch(label: &str) -> Option<i32> {
    let rest = label.strip_prefix("ConsumerGroupHeartbeat ← epoch=")?;
    rest.split(' ').next()?.parse().ok()
}

/// Client `idx`'s OffsetCommits in order: the member epoch it sent (the last
/// one a heartbeat answer gave it), the member epoch the coordinator held for it
/// when it answered (the last one it sent it), and the answer.
fn commits_with_epochs(t: &TestWorld, idx: u32) -> Vec<(i32, i32, String)> {
    let (me, mut known, mut held) = (NodeId::Client(idx), 0, 0);
    let (mut sent, mut answers) = (Vec::new(), Vec::new());
    for e in &t.world.trace {
        match &e.kind {
            EventKind::MessageDelivered { to, label, .. } if *to == me => {
                known = answered_epoch(label).unwrap_or(known);
            }
            EventKind::MessageSent { from, to, label, .. } if *to == me && matches!(from, NodeId::Broker(_)) => {
                held = answered_epoch(label).unwrap_or(held);
                if label.starts_with("OffsetCommit") {
                    answers.push((held, label.to_string()));
                }
            }
            EventKind::MessageSent { from, label, .. } if *from == me && label.starts_with("OffsetCommit") => {
                sent.push(known);
            }
            _ => {}
        }
    }
    sent.into_iter().zip(answers).map(|(s, (h, a))| (s, h, a)).collect()
}

/// KIP-1251 (Kafka 4.3+) in a run: c1's commit leaves right behind the
/// heartbeat that acknowledges its reconciliation, with the epoch c1 still
/// has; that heartbeat bumps c1's epoch on the coordinator first. ConsumerGroup
/// `validateOffsetCommit` then checks the older epoch per partition
/// (`createAssignmentEpochValidator`): c1 was assigned every partition it
/// commits at or before that epoch, so the commit is accepted (until 4.2,
/// STALE_MEMBER_EPOCH, and the positions were not committed).
#[test]
fn a_commit_sent_behind_the_heartbeat_that_bumps_the_member_epoch_is_accepted() {
    let (t, _) = c2_joins_while_c1_is_slow_to_reach_the_coordinator(10_000);
    let commits = commits_with_epochs(&t, 1);
    let older: Vec<&(i32, i32, String)> = commits.iter().filter(|(sent, held, _)| sent < held).collect();
    assert!(!older.is_empty(), "a commit raced the epoch bump: {commits:?}");
    assert!(older.iter().all(|(_, _, answer)| answer == "OffsetCommit ← OK"), "{older:?}");
}

#[test]
fn every_fault_works_on_consumer_protocol_clients() {
    // Pause, link faults, restart after crash: the group settles again with every partition owned.
    let mut t = settled_world(consumer_protocol_demo(3));
    let b = coordinator(&t);
    t.inject(Fault::PauseConsumer { consumer: 1, duration_ms: 8000 });
    t.inject(Fault::CutLink { a: "c2".into(), b: format!("broker-{b}") });
    t.sleep(10_000);
    t.inject(Fault::HealLink { a: "c2".into(), b: format!("broker-{b}") });
    t.inject(Fault::SetLinkLatency { a: "c3".into(), b: format!("broker-{b}"), latency_ms: 400 });
    t.inject(Fault::CrashConsumer { consumer: 3 });
    t.inject(Fault::RestartConsumer { consumer: 3 });
    t.sleep_until(90_000, |t| settled(t) && (1..=3).map(|c| t.async_owned(c).len()).sum::<usize>() == 6);
}

#[test]
fn the_view_shows_consumer_protocol_members_and_the_consumer_group() {
    let t = settled_world(consumer_protocol_demo(2));
    let views = groupscope::view::consumers(&t.world);
    assert_eq!(views.len(), 2);
    assert_eq!(views[0].state, "STABLE");
    assert_eq!(views[0].generation, t.async_consumer(1).member_epoch, "the member epoch");
    assert_eq!(views[0].owned, t.async_consumer(1).owned);
    let g = &groupscope::view::groups(&t.world)[0];
    assert_eq!(
        (g.state.as_str(), g.generation, g.protocol.as_deref()),
        ("Stable", t.consumer_group("demo").group_epoch, Some("consumer (uniform)"))
    );
    let rows = groupscope::view::partitions(&t.world);
    assert!(rows.iter().all(|r| r.owner.is_some()));
}

#[test]
fn the_example_scenario_loses_one_member_and_the_other_two_take_its_partitions() {
    // scenarios/consumer-protocol-crash.json: c2 crashes at 12 s; 6 s later its session expires.
    let s = Scenario::from_json(include_str!("../../scenarios/consumer-protocol-crash.json")).unwrap();
    let mut t = TestWorld::new(s);
    t.sleep(40_000);
    assert!(settled(&t));
    assert_eq!(t.consumer_group("demo").members.len(), 2);
    assert_eq!(t.async_owned(1).len() + t.async_owned(3).len(), 6);
    assert!(
        callbacks(&t, 1, Callback::OnPartitionsRevoked).iter().all(|(at, _)| *at < 12_000),
        "survivors revoke nothing: they only gain"
    );
}

/// The auto-commit before a revocation (`maybeAutoCommitSyncBeforeRebalance`)
/// is retried through a coordinator failover until it succeeds (within the
/// rebalance timeout), and only then are the partitions revoked: the new
/// owner starts from the offsets committed just before.
#[test]
fn the_commit_before_a_revocation_is_retried_through_a_coordinator_failover() {
    let run = |kill_at: Option<(u64, u32)>| {
        let mut s = consumer_protocol_demo(2);
        s.faults.push(groupscope::sim::scenario::ScheduledFault {
            at: 15_000,
            fault: Fault::AddConsumer { group: "demo".into() },
        });
        if let Some((at, broker)) = kill_at {
            s.faults.push(groupscope::sim::scenario::ScheduledFault { at, fault: Fault::KillBroker { broker } });
        }
        let mut t = TestWorld::new(s);
        t.sleep(60_000);
        t
    };
    let revoked_at = |t: &TestWorld| {
        t.world.trace.iter().find_map(|e| match &e.kind {
            EventKind::CallbackInvoked {
                node: NodeId::Client(1),
                callback: Callback::OnPartitionsRevoked,
                partitions,
            } if !partitions.is_empty() && e.at > 15_000 => Some(e.at),
            _ => None,
        })
    };
    let commits_of_c1 = |t: &TestWorld, until: u64| -> Vec<(u64, NodeId, String)> {
        t.world
            .trace
            .iter()
            .filter(|e| e.at > 15_000 && e.at <= until)
            .filter_map(|e| match &e.kind {
                EventKind::MessageSent { from: NodeId::Client(1), to, label, .. }
                    if label.starts_with("OffsetCommit") =>
                {
                    Some((e.at, *to, label.to_string()))
                }
                EventKind::MessageDelivered { to: NodeId::Client(1), label, .. }
                    if label.starts_with("OffsetCommit") =>
                {
                    Some((e.at, NodeId::Client(1), label.to_string()))
                }
                _ => None,
            })
            .collect()
    };
    // Without a fault: c1 commits, then revokes.
    let calm = run(None);
    let revoked = revoked_at(&calm).expect("c1 gives partitions to the new member");
    let (sent_at, to, _) = commits_of_c1(&calm, revoked)
        .into_iter()
        .rev()
        .find(|(_, to, l)| matches!(to, NodeId::Broker(_)) && l.starts_with("OffsetCommit"))
        .expect("a commit before the revocation");
    let NodeId::Broker(coordinator) = to else { unreachable!() };
    // The coordinator dies with that commit on its way.
    let failover = run(Some((sent_at + 50, coordinator)));
    let revoked = revoked_at(&failover).expect("c1 still revokes");
    let answers: Vec<String> = commits_of_c1(&failover, revoked)
        .into_iter()
        .filter(|(at, to, _)| *at > sent_at && *to == NodeId::Client(1))
        .map(|(_, _, l)| l)
        .collect();
    assert!(
        answers.last().is_some_and(|l| l.contains("OK")),
        "the last commit answer before the revocation is OK: {answers:?}"
    );
    let new_owner_redelivered: i64 = failover.world.cluster.stats.redelivered.total();
    let calm_redelivered: i64 = calm.world.cluster.stats.redelivered.total();
    // Revoking without that commit would redeliver everything processed since
    // the last auto-commit (seconds of records); with it, about what a calm run does.
    assert!(
        new_owner_redelivered <= calm_redelivered + 20,
        "redelivered {new_owner_redelivered} after the failover, {calm_redelivered} without"
    );
}

/// The monitor catches a group epoch or target assignment epoch persisted
/// lower than before, whether it reads the log incrementally (the page, step
/// after step) or all at once (a fresh check).
#[test]
fn a_persisted_group_epoch_that_goes_back_is_a_violation() {
    use groupscope::sim::cluster::CoordinatorRecord;
    use groupscope::sim::coordinator::consumer::records::ConsumerGroupRecord;
    use groupscope::sim::invariants::{check, Monitor};
    let mut t = settled_world(consumer_protocol_demo(3));
    let mut monitor = Monitor::default();
    assert!(monitor.check(&t.world).is_empty());
    let epoch = t.consumer_group("demo").group_epoch;
    let p = t.world.cluster.offsets_partition_for("demo") as usize;
    let now = t.world.now;
    t.world.cluster.offsets_logs[p].push(
        now,
        CoordinatorRecord::ConsumerGroup(ConsumerGroupRecord::Metadata { group_id: "demo".into(), epoch: epoch - 1 }),
        true,
    );
    t.world.cluster.offsets_logs[p].push(
        now,
        CoordinatorRecord::ConsumerGroup(ConsumerGroupRecord::TargetAssignmentMetadata {
            group_id: "demo".into(),
            assignment_epoch: 0,
            assignment_timestamp: 0,
        }),
        true,
    );
    let kinds = |v: Vec<groupscope::sim::invariants::Violation>| {
        v.into_iter().map(|v| (v.invariant, v.detail)).collect::<Vec<_>>()
    };
    let incremental = kinds(monitor.check(&t.world));
    assert_eq!(incremental.len(), 2, "{incremental:?}");
    assert!(incremental.iter().all(|(i, _)| *i == "group-epoch-monotonic"));
    assert!(incremental[0].1.contains(&format!("group epoch {} after {epoch}", epoch - 1)), "{incremental:?}");
    assert_eq!(kinds(check(&t.world)), incremental, "a fresh check finds the same");
    assert!(monitor.check(&t.world).is_empty(), "each record is read once");
}
