//! Reconciliation: `CurrentAssignmentBuilder` revokes before it assigns,
//! unreleased and unrevoked partitions, and members fenced for not revoking
//! in time or for missing heartbeats for the session timeout (GroupMetadataManager `consumerGroupFenceMember`).

use super::*;
use groupscope::sim::reason::FenceReason;

#[test]
fn current_assignment_builder_revokes_before_it_assigns() {
    // CurrentAssignmentBuilder `build` / `computeNextAssignment`.
    let mut m = ConsumerGroupMember::new("a");
    m.subscribed_topic_names = vec!["orders".into()];
    m.member_epoch = 3;
    m.previous_member_epoch = 2;
    m.assigned_partitions = set(&[0, 1, 2]);
    let target = set(&[0, 1, 3]);
    let free = |_: &TopicPartition| -1;
    let owned = [tp(0), tp(1), tp(2)];
    let cab = |m: &ConsumerGroupMember, owned: Option<&[TopicPartition]>, epoch_of: &dyn Fn(&TopicPartition) -> i32| {
        CurrentAssignmentBuilder {
            member: m,
            target_assignment_epoch: 4,
            target_assignment: &target,
            current_partition_epoch: epoch_of,
            owned_topic_partitions: owned,
            has_subscription_changed: false,
        }
        .build()
    };
    let step1 = cab(&m, Some(&owned), &free);
    assert_eq!((step1.state, step1.member_epoch), (ServerState::UNREVOKED_PARTITIONS, 3), "stays at its epoch");
    assert_eq!(step1.assigned_partitions, set(&[0, 1]), "nothing new while revoking, though orders-3 is free");
    assert_eq!(step1.partitions_pending_revocation, set(&[2]));
    assert_eq!(cab(&step1, None, &free), step1, "no owned list: still owns what it must revoke");
    assert_eq!(cab(&step1, Some(&owned), &free), step1);
    let other_owns_3 = |p: &TopicPartition| if p.partition == 3 { 4 } else { -1 };
    let step2 = cab(&step1, Some(&[tp(0), tp(1)]), &other_owns_3);
    assert_eq!(
        (step2.state, step2.member_epoch, step2.previous_member_epoch),
        (ServerState::UNRELEASED_PARTITIONS, 4, 3)
    );
    assert_eq!(step2.assigned_partitions, set(&[0, 1]), "orders-3 is still someone else's");
    let step3 = cab(&step2, None, &free);
    assert_eq!((step3.state, step3.member_epoch), (ServerState::STABLE, 4));
    assert_eq!(step3.assigned_partitions, target);
}

/// KIP-1251 (Kafka 4.3+): CurrentAssignmentBuilder `computeNextAssignment`
/// keeps the assignment epoch of each partition the member keeps or must
/// revoke, and assigns new partitions at the target assignment epoch, including
/// one the member was itself revoking.
#[test]
fn current_assignment_builder_keeps_each_partitions_assignment_epoch() {
    let mut m = ConsumerGroupMember::new("a");
    m.subscribed_topic_names = vec!["orders".into()];
    (m.member_epoch, m.previous_member_epoch) = (3, 2);
    m.assigned_partitions = set(&[0, 1, 2]);
    m.assignment_epochs = [(tp(0), 1), (tp(1), 3), (tp(2), 2)].into();
    let target = set(&[0, 1, 3]);
    let free = |_: &TopicPartition| -1;
    let cab = |m: &ConsumerGroupMember, owned: &[TopicPartition]| {
        CurrentAssignmentBuilder {
            member: m,
            target_assignment_epoch: 4,
            target_assignment: &target,
            current_partition_epoch: &free,
            owned_topic_partitions: Some(owned),
            has_subscription_changed: false,
        }
        .build()
    };
    let revoking = cab(&m, &[tp(0), tp(1), tp(2)]);
    assert_eq!(revoking.partitions_pending_revocation, set(&[2]));
    assert_eq!(revoking.assignment_epochs, [(tp(0), 1), (tp(1), 3), (tp(2), 2)].into(), "all keep theirs");
    let stable = cab(&revoking, &[tp(0), tp(1)]);
    assert_eq!((stable.state, stable.member_epoch), (ServerState::STABLE, 4));
    assert_eq!(stable.assignment_epochs, [(tp(0), 1), (tp(1), 3), (tp(3), 4)].into(), "orders-3 new at 4");
    // A partition the member was revoking comes back in a newer target: assigned again, at its epoch.
    let back = reconcile(
        &member(ServerState::UNREVOKED_PARTITIONS, 3, &[tp(0)], &[tp(2)], &["orders"]),
        &[tp(0), tp(2)],
        &[tp(0)],
        &|p| if p.partition == 2 { 3 } else { -1 },
        false,
    );
    assert_eq!((back.state, back.member_epoch), (ServerState::STABLE, 5));
    assert_eq!(back.assignment_epochs, [(tp(0), 3), (tp(2), 5)].into());
}

fn member(
    state: ServerState,
    epoch: i32,
    assigned: &[TopicPartition],
    revoking: &[TopicPartition],
    topics: &[&str],
) -> ConsumerGroupMember {
    let mut m = ConsumerGroupMember::new("a");
    m.subscribed_topic_names = topics.iter().map(|t| t.to_string()).collect();
    (m.state, m.member_epoch, m.previous_member_epoch) = (state, epoch, epoch - 1);
    m.assigned_partitions = assigned.iter().cloned().collect();
    m.partitions_pending_revocation = revoking.iter().cloned().collect();
    m
}

fn reconcile(
    m: &ConsumerGroupMember,
    target: &[TopicPartition],
    owned: &[TopicPartition],
    epoch_of: &dyn Fn(&TopicPartition) -> i32,
    changed: bool,
) -> ConsumerGroupMember {
    let target: BTreeSet<TopicPartition> = target.iter().cloned().collect();
    CurrentAssignmentBuilder {
        member: m,
        target_assignment_epoch: 5,
        target_assignment: &target,
        current_partition_epoch: epoch_of,
        owned_topic_partitions: Some(owned),
        has_subscription_changed: changed,
    }
    .build()
}

#[test]
fn a_member_leaving_unrevoked_partitions_for_another_revocation_keeps_its_epoch() {
    // Kafka 4.2+ (KAFKA-19974): CurrentAssignmentBuilder.build reconciles an
    // UNREVOKED_PARTITIONS member at its own epoch, no longer memberEpoch + 1.
    let m = member(ServerState::UNREVOKED_PARTITIONS, 3, &[tp(0), tp(1)], &[tp(2)], &["orders"]);
    let next = reconcile(&m, &[tp(0)], &[tp(0), tp(1)], &|_| -1, false);
    assert_eq!((next.state, next.member_epoch), (ServerState::UNREVOKED_PARTITIONS, 3));
    assert_eq!(next.partitions_pending_revocation, set(&[1]));
    assert_eq!(next.assigned_partitions, set(&[0]));
}

#[test]
fn target_partitions_of_topics_the_member_no_longer_subscribes_to_are_not_assigned_and_are_revoked_at_once() {
    // Kafka 4.2+ (KAFKA-19431): CurrentAssignmentBuilder.computeNextAssignment treats
    // the target of an unsubscribed topic as empty; updateCurrentAssignment moves such
    // partitions to pending revocation as soon as the subscription changes.
    let payments = TopicPartition::new("payments", 0);
    let stable = member(ServerState::STABLE, 3, &[tp(0)], &[], &["orders"]);
    let next = reconcile(&stable, &[tp(0), payments.clone()], &[tp(0)], &|_| -1, false);
    assert_eq!((next.state, next.member_epoch), (ServerState::STABLE, 5));
    assert_eq!(next.assigned_partitions, set(&[0]), "a stale target of payments is not handed out");
    let unsubscribed = member(ServerState::STABLE, 5, &[tp(0), payments.clone()], &[], &["orders"]);
    let next = reconcile(&unsubscribed, &[tp(0), payments.clone()], &[tp(0), payments.clone()], &|_| -1, true);
    assert_eq!((next.state, next.member_epoch), (ServerState::UNREVOKED_PARTITIONS, 5), "same epoch, revoking at once");
    assert_eq!(next.partitions_pending_revocation, [payments].into_iter().collect());
    assert_eq!(next.assigned_partitions, set(&[0]));
}

#[test]
fn a_partition_the_member_is_revoking_itself_is_not_unreleased() {
    // Kafka 4.2+: CurrentAssignmentBuilder.computeNextAssignment does not count a
    // partition pending revocation by the same member as owned by another.
    let m = member(ServerState::UNREVOKED_PARTITIONS, 3, &[tp(0)], &[tp(1)], &["orders"]);
    let mine = |p: &TopicPartition| if p.partition <= 1 { 3 } else { -1 };
    let next = reconcile(&m, &[tp(0), tp(1)], &[tp(0)], &mine, false);
    assert_eq!((next.state, next.member_epoch), (ServerState::STABLE, 5));
    assert_eq!(next.assigned_partitions, set(&[0, 1]));
}

#[test]
fn a_member_that_does_not_revoke_within_its_rebalance_timeout_is_fenced() {
    // GroupMetadataManager `scheduleConsumerGroupRebalanceTimeout`: entering UNREVOKED_PARTITIONS arms
    // RebalanceTimeoutMs (max.poll.interval.ms); the coordinator's answers to c1 are held, so it never revokes.
    let mut s = consumer_protocol_demo(2);
    s.groups[0].config.max_poll_interval_ms = 20_000;
    let mut t = settled_world(s);
    let b = coordinator(&t);
    // Hold the answers once no heartbeat is in flight, so c1's next one reaches the coordinator.
    t.sleep_until(10_000, |t| {
        !t.async_consumer(1).link.in_flight.values().any(|p| p.api == ApiKey::ConsumerGroupHeartbeat)
    });
    t.inject(Fault::HoldLink { from: format!("broker-{b}"), to: "c1".into() });
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep_until(40_000, |t| {
        t.any_note(|n| matches!(n, Note::MemberFenced { reason: FenceReason::RevocationTimeout { .. }, .. }))
    });
    let c1 = t.async_consumer(1).member_id.clone();
    assert!(!t.consumer_group("demo").members.contains_key(&c1), "c1 was removed");
    t.inject(Fault::ReleaseLink { from: format!("broker-{b}"), to: "c1".into() });
    t.sleep_until(60_000, settled);
    assert!(t.member_states(1).contains(&"FENCED".to_string()), "c1 learns it was fenced and rejoins");
}

// --- session expiry, leave, static members ------------------------------

#[test]
fn a_crashed_member_is_fenced_after_the_session_timeout_and_the_group_goes_assigning_reconciling_stable() {
    // GroupMetadataManager `consumerGroupFenceMember` after group.consumer.session.timeout.ms = 45 s.
    let mut t = settled_world(consumer_protocol_demo(3));
    let epoch = t.consumer_group("demo").group_epoch;
    let n = t.consumer_group_transitions().len();
    let crashed_at = t.world.now;
    t.inject(Fault::CrashConsumer { consumer: 3 });
    t.sleep_until(60_000, |t| t.consumer_group("demo").members.len() == 2);
    let fenced_after = t.world.now - crashed_at;
    assert!(
        (40_000..=46_000).contains(&fenced_after),
        "fenced {fenced_after} ms after the crash (last heartbeat + 45 s)"
    );
    t.sleep_until(60_000, settled);
    assert_eq!(t.consumer_group("demo").group_epoch, epoch + 1);
    let states: Vec<String> = t.consumer_group_transitions()[n..].iter().map(|(_, to)| to.clone()).collect();
    assert_eq!(states, ["Assigning", "Reconciling", "Stable"]);
    assert_eq!(t.async_owned(1).len() + t.async_owned(2).len(), 6);
}

// --- the commit before a revocation -------------------------------------

/// Where each (consumer, partition) processing run started and ended: the
/// first `from` and the last `to` of its `RecordsProcessed` events after `since`.
fn processed_span(t: &TestWorld, idx: u32, tp: &TopicPartition, since: u64) -> Option<(i64, i64)> {
    let runs: Vec<(i64, i64)> = t
        .world
        .trace
        .iter()
        .filter(|e| e.at >= since)
        .filter_map(|e| match &e.kind {
            EventKind::RecordsProcessed { node, partition, from, to, .. }
                if *node == NodeId::Client(idx) && partition == tp =>
            {
                Some((*from, *to))
            }
            _ => None,
        })
        .collect();
    Some((runs.first()?.0, runs.last()?.1))
}

/// AbstractMembershipManager `maybeReconcile` marks the partitions it will
/// revoke pending revocation (`markPendingRevocationToPauseFetching`,
/// SubscriptionState `markPendingRevocation`) before it starts the auto-commit
/// (ConsumerMembershipManager `signalReconciliationStarted`, CommitRequestManager
/// `maybeAutoCommitSyncBeforeRebalance`): TopicPartitionState `isFetchable` is
/// then false, so no new Fetch is sent for them and FetchCollector
/// `fetchRecords` drains what is buffered. The member processes nothing more
/// of a partition it is giving up, so the commit holds the last position it
/// processed and the next owner starts exactly there: no record is
/// processed twice, however long the commit takes.
#[test]
fn partitions_pending_revocation_are_not_fetched_or_processed_during_the_commit_before_the_revocation() {
    let (t, added_at) = c2_joins_while_c1_is_slow_to_reach_the_coordinator(5000);
    let revoked: Vec<TopicPartition> = callbacks(&t, 1, Callback::OnPartitionsRevoked)
        .into_iter()
        .filter(|(at, _)| *at >= added_at)
        .flat_map(|(_, ps)| ps)
        .collect();
    assert!(!revoked.is_empty(), "c1 gives partitions to c2");
    let mut handed_over = 0;
    for tp in &revoked {
        // A partition that received no record since is not processed by c2 at all.
        let Some((c2_first, _)) = processed_span(&t, 2, tp, added_at) else { continue };
        let (_, c1_last) = processed_span(&t, 1, tp, 0).expect("c1 processed the partition before");
        assert_eq!(c2_first, c1_last, "{tp}: c2 starts where c1 stopped");
        handed_over += 1;
    }
    assert!(handed_over > 0, "c2 processes some of {revoked:?}");
    assert_eq!(t.world.cluster.stats.redelivered.group_total("demo"), 0, "no record is processed twice");
}
