//! The KIP-848 consumer group protocol, checked against Kafka's behaviour
//! (facts A3-A4, E1-E9, F). Broker defaults: 45 s session, 5 s heartbeat interval.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::{consumer_protocol_demo, TestWorld};
use groupscope::assign::TopicPartition;
use groupscope::sim::client::consumer::MemberState;
use groupscope::sim::client::poll_loop::MainThread;
use groupscope::sim::coordinator::consumer::current_assignment_builder::CurrentAssignmentBuilder;
use groupscope::sim::coordinator::consumer::heartbeat::{validate_member_epoch, validate_request};
use groupscope::sim::coordinator::consumer::{
    ConsumerGroup, ConsumerGroupMember, ConsumerGroupState, MemberState as ServerState,
};
use groupscope::sim::coordinator::shard::{CoordinatorState, Shard};
use groupscope::sim::message::{ApiKey, ConsumerGroupHeartbeatRequest};
use groupscope::sim::note::Note;
use groupscope::sim::trace::{Callback, EventKind};
use groupscope::sim::{Errors, Fault, NodeId, Scenario};
use std::collections::{BTreeMap, BTreeSet};

fn tp(p: i32) -> TopicPartition {
    TopicPartition::new("orders", p)
}

fn set(ps: &[i32]) -> BTreeSet<TopicPartition> {
    ps.iter().map(|p| tp(*p)).collect()
}

/// Every member STABLE at the target epoch on the coordinator, and every live
/// client STABLE owning exactly what the coordinator assigned it.
fn settled(t: &TestWorld) -> bool {
    let Some((_, g)) = t.world.consumer_group("demo") else { return false };
    g.state == ConsumerGroupState::Stable
        && t.world.clients.async_consumers().filter(|c| c.alive && c.fatal.is_none()).all(|c| {
            c.state == MemberState::STABLE
                && g.members
                    .get(&c.member_id)
                    .is_some_and(|m| c.owned.iter().cloned().collect::<BTreeSet<_>>() == m.assigned_partitions)
        })
}

fn callbacks(t: &TestWorld, idx: u32, cb: Callback) -> Vec<(u64, Vec<TopicPartition>)> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::CallbackInvoked { node, callback, partitions }
                if *node == NodeId::Client(idx) && *callback == cb =>
            {
                Some((e.at, partitions.clone()))
            }
            _ => None,
        })
        .collect()
}

fn heartbeats_sent_by(t: &TestWorld, idx: u32) -> Vec<(u64, String)> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent { from, label, .. }
                if *from == NodeId::Client(idx) && label.starts_with("ConsumerGroupHeartbeat") =>
            {
                Some((e.at, label.clone()))
            }
            _ => None,
        })
        .collect()
}

fn coordinator(t: &TestWorld) -> u32 {
    t.world.cluster.coordinator_for("demo").unwrap()
}

fn settled_world(s: Scenario) -> TestWorld {
    let mut t = TestWorld::new(s);
    t.sleep_until(60_000, settled);
    t
}

// --- E1: the request and its checks ------------------------------------------

fn join_request() -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: "demo".into(),
        member_id: "k5x0mFbCQ5yYh3vW9Xb3Jw".into(),
        member_epoch: 0,
        rebalance_timeout_ms: 300_000,
        subscribed_topic_names: Some(vec!["orders".into()]),
        topic_partitions: Some(vec![]),
        ..Default::default()
    }
}

#[test]
fn heartbeat_requests_are_checked_as_kafka_checks_them() {
    // GroupCoordinatorService.throwIfConsumerGroupHeartbeatRequestIsInvalid, v1
    // (Kafka 4.x): the member id is the client's and never empty (KIP-1082); a
    // join may subscribe to nothing (an empty list), but must send the field.
    let assignors = vec!["uniform".to_string(), "range".to_string()];
    let check = |f: &dyn Fn(&mut ConsumerGroupHeartbeatRequest)| {
        let mut r = join_request();
        f(&mut r);
        validate_request(&r, &assignors)
    };
    assert_eq!(check(&|_| {}), Ok(()));
    assert_eq!(
        check(&|r| r.rebalance_timeout_ms = -1),
        Err(Errors::INVALID_REQUEST),
        "a join must set RebalanceTimeoutMs"
    );
    assert_eq!(check(&|r| r.topic_partitions = Some(vec![tp(0)])), Err(Errors::INVALID_REQUEST), "a join owns nothing");
    assert_eq!(check(&|r| r.topic_partitions = None), Err(Errors::INVALID_REQUEST), "a join sends an empty owned list");
    assert_eq!(check(&|r| r.subscribed_topic_names = Some(vec![])), Ok(()), "a join may subscribe to nothing");
    assert_eq!(
        check(&|r| r.subscribed_topic_names = None),
        Err(Errors::INVALID_REQUEST),
        "a join sends its subscription"
    );
    assert_eq!(check(&|r| r.member_id.clear()), Err(Errors::INVALID_REQUEST), "v1: the client generates its member id");
    assert_eq!(check(&|r| r.group_id.clear()), Err(Errors::INVALID_REQUEST));
    assert_eq!(check(&|r| r.instance_id = Some(String::new())), Err(Errors::INVALID_REQUEST));
    assert_eq!(
        check(&|r| {
            r.member_epoch = 3;
            r.member_id.clear()
        }),
        Err(Errors::INVALID_REQUEST),
        "epoch > 0 needs a member id"
    );
    assert_eq!(
        check(&|r| {
            r.member_epoch = -1;
            r.member_id.clear()
        }),
        Err(Errors::INVALID_REQUEST),
        "a leave needs a member id"
    );
    assert_eq!(
        check(&|r| {
            r.member_epoch = -2;
            r.member_id = "m".into()
        }),
        Err(Errors::INVALID_REQUEST),
        "-2 needs an instance id"
    );
    assert_eq!(
        check(&|r| {
            r.member_epoch = -3;
            r.member_id = "m".into()
        }),
        Err(Errors::INVALID_REQUEST)
    );
    assert_eq!(
        check(&|r| {
            r.member_epoch = 4;
            r.member_id = "m".into();
            r.subscribed_topic_names = None;
            r.topic_partitions = None;
            r.rebalance_timeout_ms = -1
        }),
        Ok(()),
        "later heartbeats send changed fields only"
    );
    assert_eq!(check(&|r| r.server_assignor = Some("sticky".into())), Err(Errors::UNSUPPORTED_ASSIGNOR));
}

#[test]
fn the_join_heartbeat_is_full_and_later_ones_carry_only_changed_fields() {
    // facts E1: HeartbeatState sends every field while JOINING, then only changes;
    // owned partitions again right after each reconciliation (acknowledgement).
    let t = settled_world(consumer_protocol_demo(3));
    let hb = heartbeats_sent_by(&t, 1);
    assert_eq!(hb[0].1, "ConsumerGroupHeartbeat epoch=0 owned=[]");
    let periodic = format!("ConsumerGroupHeartbeat epoch={}", t.async_consumer(1).member_epoch);
    assert!(hb.iter().any(|(_, l)| *l == periodic), "periodic heartbeats omit unchanged fields: {hb:?}");
    for (at, _) in callbacks(&t, 1, Callback::OnPartitionsAssigned) {
        assert!(
            hb.iter().any(|(h, l)| *h == at && l.contains("owned=")),
            "acknowledgement sent at once after reconciling at {at}: {hb:?}"
        );
    }
}

#[test]
fn the_heartbeat_interval_is_the_one_the_broker_dictates() {
    // facts E1, E8: group.consumer.heartbeat.interval.ms, not the client's heartbeat.interval.ms.
    let mut s = consumer_protocol_demo(1);
    s.broker.consumer_group_heartbeat_interval_ms = 7000;
    let mut t = settled_world(s);
    t.sleep(30_000);
    let times: Vec<u64> = heartbeats_sent_by(&t, 1).iter().map(|(at, _)| *at).collect();
    let gaps: Vec<u64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.len() >= 4 && gaps[gaps.len() - 3..].iter().all(|g| *g == 7000), "one heartbeat every 7 s: {gaps:?}");
}

// --- E2: epochs ----------------------------------------------------------------

#[test]
fn member_epochs_are_validated_with_the_previous_epoch_exception() {
    // facts E2: GMM throwIfConsumerGroupMemberEpochIsInvalid.
    let mut m = ConsumerGroupMember::new("m");
    m.member_epoch = 5;
    m.previous_member_epoch = 4;
    m.assigned_partitions = set(&[0, 1]);
    let owned = [tp(0)];
    assert_eq!(validate_member_epoch(&m, 5, None), Ok(()));
    assert_eq!(
        validate_member_epoch(&m, 6, Some(&owned)),
        Err(Errors::FENCED_MEMBER_EPOCH),
        "ahead of the coordinator"
    );
    assert_eq!(
        validate_member_epoch(&m, 4, Some(&owned)),
        Ok(()),
        "previous epoch, owning a subset: the bump was lost"
    );
    assert_eq!(
        validate_member_epoch(&m, 4, Some(&[tp(0), tp(2)])),
        Err(Errors::FENCED_MEMBER_EPOCH),
        "previous epoch, owning more"
    );
    assert_eq!(
        validate_member_epoch(&m, 4, None),
        Err(Errors::FENCED_MEMBER_EPOCH),
        "previous epoch without an owned list"
    );
    assert_eq!(validate_member_epoch(&m, 3, Some(&owned)), Err(Errors::FENCED_MEMBER_EPOCH), "two behind");
}

#[test]
fn a_member_two_epochs_behind_is_fenced_loses_its_partitions_and_rejoins() {
    // facts E2, E9: FENCED_MEMBER_EPOCH -> FENCED, epoch 0, onPartitionsLost, JOINING.
    let mut t = settled_world(consumer_protocol_demo(3));
    let owned = t.async_consumer(1).owned.clone();
    assert_eq!(t.async_consumer(1).member_epoch, t.consumer_group("demo").assignment_epoch);
    // Below the member's previous epoch (epochs start at 2: 1 is never a member's).
    // With no heartbeat in flight, whose answer would set the epoch back.
    t.sleep_until(10_000, |t| {
        !t.async_consumer(1).link.in_flight.values().any(|p| p.api == ApiKey::ConsumerGroupHeartbeat)
    });
    t.world.clients.async_consumer_mut(1).unwrap().member_epoch = 1;
    t.sleep(6000);
    assert!(t.labels_sent().iter().any(|l| l == "ConsumerGroupHeartbeat → FENCED_MEMBER_EPOCH"));
    let states = t.member_states(1);
    let fenced = states.iter().position(|s| s == "FENCED").expect("fenced");
    assert_eq!(states[fenced + 1], "JOINING");
    assert_eq!(callbacks(&t, 1, Callback::OnPartitionsLost).first().map(|(_, p)| p.clone()), Some(owned));
    t.sleep_until(60_000, settled);
}

#[test]
fn a_new_member_bumps_the_group_epoch_and_gets_partitions_only_after_their_owners_revoke_them() {
    // facts E2, E4, E5: the join bumps the epoch and computes the target at once;
    // owners revoke first (UNREVOKED_PARTITIONS), the new member waits (UNRELEASED).
    let mut t = settled_world(consumer_protocol_demo(2));
    let before = t.consumer_group("demo").group_epoch;
    let transitions_before = t.consumer_group_transitions().len();
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep_until(60_000, |t| t.world.clients.async_consumer(3).is_some_and(|c| !c.owned.is_empty()));
    assert_eq!(t.consumer_group("demo").group_epoch, before + 1, "one bump for the join");
    let revoked: Vec<(u64, Vec<TopicPartition>)> =
        [1, 2].iter().flat_map(|c| callbacks(&t, *c, Callback::OnPartitionsRevoked)).collect();
    let (assigned_at, got) =
        callbacks(&t, 3, Callback::OnPartitionsAssigned).into_iter().rev().find(|(_, p)| !p.is_empty()).unwrap();
    for p in &got {
        let revoked_at = revoked.iter().filter(|(_, ps)| ps.contains(p)).map(|(at, _)| *at).max();
        assert!(
            revoked_at.is_some_and(|r| r < assigned_at),
            "{p} went to c3 at {assigned_at} only after its owner revoked it ({revoked_at:?})"
        );
    }
    t.sleep_until(60_000, settled);
    let after: Vec<(String, String)> = t.consumer_group_transitions()[transitions_before..].to_vec();
    assert_eq!(after, vec![("Stable".into(), "Reconciling".into()), ("Reconciling".into(), "Stable".into())]);
    let sizes: Vec<usize> = (1..=3).map(|c| t.async_consumer(c).owned.len()).collect();
    assert_eq!(sizes, vec![2, 2, 2]);
}

#[test]
fn the_first_member_takes_the_group_from_empty_to_stable_and_clients_go_joining_reconciling_acknowledging_stable() {
    // facts E4 (client), E5.
    let t = settled_world(consumer_protocol_demo(1));
    assert_eq!(t.consumer_group_transitions()[0], ("Empty".into(), "Stable".into()));
    assert_eq!(t.member_states(1)[..4], ["JOINING", "RECONCILING", "ACKNOWLEDGING", "STABLE"]);
    assert_eq!(t.async_consumer(1).member_epoch, 2);
    assert_eq!(t.async_owned(1).len(), 6);
}

#[test]
fn a_new_consumer_group_starts_at_epoch_1_with_an_empty_target_and_its_first_member_gets_epoch_2() {
    // Kafka 4.3+ (KAFKA-20268): the ModernGroup constructor sets groupEpoch to 1
    // and TargetAssignmentMetadata.INITIAL is (epoch 1, timestamp 0), so
    // GroupMetadataManager.consumerGroupHeartbeat bumps the first join to epoch 2.
    let g = ConsumerGroup::new("demo");
    assert_eq!((g.group_epoch, g.assignment_epoch, g.assignment_timestamp), (1, 1, 0));
    assert!(g.target_assignment.is_empty() && g.members.is_empty());
    assert_eq!(g.compute_state(), ConsumerGroupState::Empty);
    let t = settled_world(consumer_protocol_demo(1));
    let first_answer = t.world.trace.iter().find_map(|e| match &e.kind {
        EventKind::MessageDelivered { to: NodeId::Client(1), label, .. }
            if label.starts_with("ConsumerGroupHeartbeat ←") =>
        {
            Some(label.clone())
        }
        _ => None,
    });
    assert!(
        first_answer.as_deref().is_some_and(|l| l.starts_with("ConsumerGroupHeartbeat ← epoch=2 [")),
        "{first_answer:?}"
    );
    let g = t.consumer_group("demo");
    assert_eq!((g.group_epoch, g.assignment_epoch), (2, 2));
    assert!(t.any_note(|n| matches!(n, Note::GroupEpochBumped { group_id, epoch: 2 } if group_id == "demo")));
}

#[test]
fn a_fenced_member_rejoins_under_its_own_member_id_and_gets_its_epoch_and_assignment_back() {
    // KIP-1082: AbstractMembershipManager.memberId is Uuid.randomUuid(), made by
    // the client once and kept across fencing; Kafka 4.2+ (KAFKA-19809):
    // GroupMetadataManager.throwIfConsumerGroupMemberEpochIsInvalid accepts epoch 0
    // from a member it still holds, which gets back its epoch and assignment.
    let mut t = settled_world(consumer_protocol_demo(3));
    let id = t.async_consumer(1).member_id.clone();
    assert_eq!(id.len(), 22, "a Kafka Uuid in base64: {id}");
    assert!(t.consumer_group("demo").members.contains_key(&id));
    let (epoch, group_epoch, owned) =
        (t.async_consumer(1).member_epoch, t.consumer_group("demo").group_epoch, t.async_consumer(1).owned.clone());
    let m = t.consumer_group("demo").members[&id].clone();
    assert_eq!(validate_member_epoch(&m, 0, Some(&[])), Ok(()), "epoch 0 is a rejoin");
    // With no heartbeat in flight, whose answer would set the epoch back.
    t.sleep_until(10_000, |t| {
        !t.async_consumer(1).link.in_flight.values().any(|p| p.api == ApiKey::ConsumerGroupHeartbeat)
    });
    t.world.clients.async_consumer_mut(1).unwrap().member_epoch = 1;
    t.sleep_until(10_000, |t| t.member_states(1).contains(&"FENCED".to_string()));
    let fenced_at = t.world.now;
    t.sleep_until(2000, settled);
    assert!(t.world.now - fenced_at < 2000, "back within a few round trips, not at session expiry");
    assert_eq!(t.async_consumer(1).member_id, id, "same member id");
    assert_eq!(
        (t.async_consumer(1).member_epoch, &t.async_consumer(1).owned),
        (epoch, &owned),
        "its epoch and partitions back"
    );
    assert_eq!(t.consumer_group("demo").group_epoch, group_epoch, "no rebalance");
    assert_eq!(t.consumer_group("demo").members.len(), 3);
}

// --- E4: reconciliation ----------------------------------------------------------

#[test]
fn current_assignment_builder_revokes_before_it_assigns() {
    // facts E4: CAB build / computeNextAssignment.
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
    // facts E4 timers: entering UNREVOKED_PARTITIONS arms RebalanceTimeoutMs
    // (max.poll.interval.ms); the coordinator's answers to c1 are held, so it never revokes.
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
        t.any_note(|n| matches!(n, Note::MemberFenced { reason, .. } if reason.contains("rebalance timeout")))
    });
    let c1 = t.async_consumer(1).member_id.clone();
    assert!(!t.consumer_group("demo").members.contains_key(&c1), "c1 was removed");
    t.inject(Fault::ReleaseLink { from: format!("broker-{b}"), to: "c1".into() });
    t.sleep_until(60_000, settled);
    assert!(t.member_states(1).contains(&"FENCED".to_string()), "c1 learns it was fenced and rejoins");
}

// --- E5, E9: session expiry, leave, static members ------------------------------

#[test]
fn a_crashed_member_is_fenced_after_the_session_timeout_and_the_group_goes_assigning_reconciling_stable() {
    // facts E2, E5, E8, E9: group.consumer.session.timeout.ms = 45 s.
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

#[test]
fn poll_timer_expiry_leaves_goes_stale_loses_partitions_and_rejoins_on_the_next_poll() {
    // facts E9: leave heartbeat (epoch -1) without revocation callbacks, STALE,
    // onPartitionsLost, JOINING at the next poll().
    let mut s = consumer_protocol_demo(2);
    s.groups[0].config.max_poll_interval_ms = 10_000;
    let mut t = settled_world(s);
    let t0 = t.world.now;
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 2000 });
    t.sleep_until(40_000, |t| t.member_states(1).contains(&"STALE".to_string()));
    t.sleep(500);
    let states = t.member_states(1);
    let i = states.iter().position(|s| s == "PREPARE_LEAVING").unwrap();
    assert_eq!(states[i..i + 3], ["PREPARE_LEAVING", "LEAVING", "STALE"]);
    assert!(heartbeats_sent_by(&t, 1).iter().any(|(_, l)| l == "ConsumerGroupHeartbeat epoch=-1 (leave)"));
    assert!(
        callbacks(&t, 1, Callback::OnPartitionsRevoked).iter().all(|(at, _)| *at < t0),
        "no revocation callback when the poll timer expires"
    );
    assert_eq!(callbacks(&t, 1, Callback::OnPartitionsLost).len(), 1);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 5 });
    t.sleep_until(60_000, |t| {
        t.member_states(1).last().is_some_and(|s| s == "STABLE") && t.member_states(1).contains(&"JOINING".to_string())
    });
}

#[test]
fn a_poll_timer_that_expires_while_the_coordinator_is_unknown_sends_no_leave_and_the_next_poll_resets_it() {
    // AbstractHeartbeatRequestManager.poll returns before checking the poll timer
    // while the coordinator is unknown; the application's next poll() resets the
    // timer (resetPollTimer -> maybeRejoinStaleMember, a no-op unless STALE).
    let mut s = consumer_protocol_demo(2);
    s.groups[0].config.max_poll_interval_ms = 10_000;
    s.groups[0].config.max_poll_records = 8;
    s.groups[0].config.request_timeout_ms = 2000;
    let mut t = settled_world(s);
    let t0 = t.world.now;
    let brokers: Vec<String> = (0..t.world.brokers.len()).map(|b| format!("broker-{b}")).collect();
    // 2 s a record: once a batch of more than 5 records (prefetched from the
    // partition leaders) is being processed, the poll timer expires during it.
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 2000 });
    t.sleep_until(
        60_000,
        |t| matches!(t.async_consumer(1).main, MainThread::Processing { until, .. } if until > t.world.now + 10_000),
    );
    for b in &brokers {
        t.inject(Fault::CutLink { a: "c1".into(), b: b.clone() });
    }
    t.sleep_until(30_000, |t| t.any_note(|n| matches!(n, Note::PollTimeoutCoordinatorUnknown { .. })));
    assert!(t.async_consumer(1).link.coordinator.is_none());
    t.sleep(3000);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 5 });
    t.sleep(8000);
    for b in &brokers {
        t.inject(Fault::HealLink { a: "c1".into(), b: b.clone() });
    }
    t.sleep_until(20_000, settled);
    let states = t.member_states(1);
    assert!(!states.iter().any(|s| s == "PREPARE_LEAVING" || s == "LEAVING" || s == "STALE"), "no leave: {states:?}");
    assert!(!heartbeats_sent_by(&t, 1).iter().any(|(at, l)| *at > t0 && l.contains("leave")));
    assert!(callbacks(&t, 1, Callback::OnPartitionsLost).is_empty(), "c1 never lost its partitions");
}

#[test]
fn a_poll_timer_expiry_sends_the_leave_at_once_even_with_a_heartbeat_in_flight() {
    // AbstractHeartbeatRequestManager.poll: an expired poll timer builds the leave
    // heartbeat at once (makeHeartbeatRequest), whatever is in flight.
    let mut s = consumer_protocol_demo(2);
    s.groups[0].config.max_poll_interval_ms = 10_000;
    let mut t = settled_world(s);
    let b = coordinator(&t);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 2000 });
    // Hold the coordinator's answers to c1 once a heartbeat is on its way.
    let sent = heartbeats_sent_by(&t, 1).len();
    t.sleep_until(10_000, |t| heartbeats_sent_by(t, 1).len() > sent);
    t.inject(Fault::HoldLink { from: format!("broker-{b}"), to: "c1".into() });
    t.sleep_until(40_000, |t| t.any_note(|n| matches!(n, Note::PollTimeoutLeaving { .. })));
    assert!(
        t.async_consumer(1)
            .link
            .in_flight
            .values()
            .any(|p| p.api == ApiKey::ConsumerGroupHeartbeat && p.member_epoch > 0),
        "a heartbeat is still in flight"
    );
    let expired_at = t
        .world
        .trace
        .iter()
        .rev()
        .find(|e| matches!(&e.kind, EventKind::Note { note: Note::PollTimeoutLeaving { .. }, .. }))
        .unwrap()
        .at;
    assert!(
        heartbeats_sent_by(&t, 1)
            .iter()
            .any(|(at, l)| *at == expired_at && l == "ConsumerGroupHeartbeat epoch=-1 (leave)"),
        "leave sent at {expired_at}"
    );
    assert_eq!(t.async_consumer(1).state, MemberState::STALE);
}

#[test]
fn a_heartbeat_answered_coordinator_load_in_progress_is_retried_after_the_backoff_not_a_full_interval() {
    // HeartbeatRequestState.onFailedAttempt resets the heartbeat timer to zero:
    // the retry waits only retry.backoff.ms (doubling), not the 5 s interval.
    let mut s = consumer_protocol_demo(2);
    s.broker.coordinator_load_ms = 4000;
    let mut t = settled_world(s);
    let old = coordinator(&t);
    t.inject(Fault::KillBroker { broker: old });
    t.sleep_until(40_000, |t| {
        t.labels_sent().iter().any(|l| l == "ConsumerGroupHeartbeat → COORDINATOR_LOAD_IN_PROGRESS")
    });
    t.sleep(6000);
    let answered: Vec<u64> = t
        .world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageDelivered { to: NodeId::Client(c), label, .. }
                if *c <= 2 && label == "ConsumerGroupHeartbeat → COORDINATOR_LOAD_IN_PROGRESS" =>
            {
                Some(e.at)
            }
            _ => None,
        })
        .collect();
    assert!(!answered.is_empty());
    let sends: Vec<u64> = [1, 2].iter().flat_map(|c| heartbeats_sent_by(&t, *c)).map(|(at, _)| at).collect();
    for at in answered {
        let next = sends.iter().copied().filter(|s| *s >= at).min().expect("retried");
        assert!(next - at <= 1000, "retried {} ms after COORDINATOR_LOAD_IN_PROGRESS at {at}", next - at);
    }
}

#[test]
fn a_static_member_that_leaves_temporarily_keeps_its_partitions_and_gets_them_back_without_a_bump() {
    // facts E9: epoch -2 keeps the member and its partitions; the same instance id
    // rejoining replaces it with no group-epoch bump.
    let mut s = consumer_protocol_demo(2);
    s.groups[0].static_members = true;
    s.groups[0].config.max_poll_interval_ms = 10_000;
    let mut t = settled_world(s);
    let epoch = t.consumer_group("demo").group_epoch;
    let owned = t.async_owned(1);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 2000 });
    t.sleep_until(40_000, |t| t.member_states(1).contains(&"STALE".to_string()));
    t.sleep(500);
    assert!(heartbeats_sent_by(&t, 1).iter().any(|(_, l)| l == "ConsumerGroupHeartbeat epoch=-2 (static leave)"));
    let g = t.consumer_group("demo");
    let m = &g.members[&g.static_members["demo-1"]];
    assert_eq!(m.member_epoch, -2);
    assert_eq!(
        m.assigned_partitions.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        owned,
        "its partitions are not reassigned"
    );
    assert_eq!(g.group_epoch, epoch);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 5 });
    t.sleep_until(60_000, settled);
    assert_eq!(t.async_owned(1), owned);
    assert_eq!(t.consumer_group("demo").group_epoch, epoch, "no rebalance");
}

#[test]
fn a_static_member_restarted_before_the_old_one_left_gets_unreleased_instance_id() {
    // facts E9: UNRELEASED_INSTANCE_ID (111), fatal for the client.
    let mut s = consumer_protocol_demo(2);
    s.groups[0].static_members = true;
    let mut t = settled_world(s);
    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.inject(Fault::RestartConsumer { consumer: 2 });
    t.sleep(3000);
    assert!(t.labels_sent().iter().any(|l| l == "ConsumerGroupHeartbeat → UNRELEASED_INSTANCE_ID"));
    assert_eq!(t.async_consumer(2).fatal.as_deref(), Some("UNRELEASED_INSTANCE_ID"));
    assert_eq!(t.async_consumer(2).state, MemberState::FATAL);
    assert_eq!(Errors::UNRELEASED_INSTANCE_ID.code(), 111);
}

#[test]
fn a_full_consumer_group_rejects_the_next_member() {
    // facts E8: group.consumer.max.size -> GROUP_MAX_SIZE_REACHED, fatal.
    let mut s = consumer_protocol_demo(3);
    s.broker.consumer_group_max_size = 2;
    let t = settled_world(s);
    assert_eq!(t.async_consumer(3).fatal.as_deref(), Some("GROUP_MAX_SIZE_REACHED"));
    assert_eq!(t.consumer_group("demo").members.len(), 2);
}

// --- E6: target assignment --------------------------------------------------------

#[test]
fn the_group_uses_the_most_requested_server_assignor_or_the_first_configured() {
    // facts E6: computePreferredServerAssignor; default group.consumer.assignors[0] = uniform.
    let m = |a: Option<&str>| {
        let mut x = ConsumerGroupMember::new("x");
        x.server_assignor = a.map(String::from);
        x
    };
    let members = [m(Some("range")), m(Some("uniform")), m(Some("range")), m(None)];
    assert_eq!(ConsumerGroup::preferred_server_assignor(members.iter()).as_deref(), Some("range"));
    assert_eq!(ConsumerGroup::preferred_server_assignor([m(None)].iter()), None);
    let mut s = consumer_protocol_demo(3);
    s.groups[0].config.group_remote_assignor = Some("range".into());
    let t = settled_world(s);
    assert!(t.any_note(|n| matches!(n, Note::TargetAssignmentComputed { assignor, .. } if assignor == "range")));
    let mut ranges: Vec<Vec<String>> = (1..=3).map(|c| t.async_owned(c)).collect();
    ranges.sort();
    assert_eq!(
        ranges,
        vec![vec!["orders-0", "orders-1"], vec!["orders-2", "orders-3"], vec!["orders-4", "orders-5"]],
        "server range: contiguous blocks"
    );
    let t = settled_world(consumer_protocol_demo(1));
    assert!(t.any_note(|n| matches!(n, Note::TargetAssignmentComputed { assignor, .. } if assignor == "uniform")));
}

#[test]
fn the_assignor_is_given_the_previous_target_not_what_members_own() {
    // facts E6: TAB member specs carry the previous target assignment.
    let mut g = ConsumerGroup::new("demo");
    g.group_epoch = 3;
    g.subscription_metadata = BTreeMap::from([("orders".to_string(), 4)]);
    for (id, target, owns) in [("a", [0, 1], [2, 3]), ("b", [2, 3], [0, 1])] {
        let mut m = ConsumerGroupMember::new(id);
        m.subscribed_topic_names = vec!["orders".into()];
        m.assigned_partitions = set(&owns);
        g.members.insert(id.into(), m);
        g.target_assignment.insert(id.into(), set(&target));
    }
    let mut c = ConsumerGroupMember::new("c");
    c.subscribed_topic_names = vec!["orders".into()];
    g.members.insert("c".into(), c);
    let next = groupscope::sim::coordinator::consumer::target_assignment::compute(&g, "uniform").unwrap();
    assert!(next["a"].is_subset(&set(&[0, 1])), "a stays on its old target: {:?}", next["a"]);
    assert!(next["b"].is_subset(&set(&[2, 3])), "b stays on its old target: {:?}", next["b"]);
    assert_eq!(next.values().map(BTreeSet::len).sum::<usize>(), 4);
}

#[test]
fn a_subscribed_topic_that_does_not_exist_makes_the_subscription_heterogeneous() {
    // ModernGroup.subscriptionType counts subscribed topic names (byNameCount),
    // whether or not the topics exist, so the assignor gets the heterogeneous builder.
    use groupscope::assign::server::SubscriptionType;
    use groupscope::sim::coordinator::consumer::target_assignment::subscription_type;
    let mut g = ConsumerGroup::new("demo");
    g.subscription_metadata = BTreeMap::from([("orders".to_string(), 6)]);
    for (id, topics) in [("a", vec!["orders"]), ("b", vec!["orders", "not-created-yet"])] {
        let mut m = ConsumerGroupMember::new(id);
        m.subscribed_topic_names = topics.into_iter().map(String::from).collect();
        g.members.insert(id.into(), m);
    }
    assert_eq!(subscription_type(&g), SubscriptionType::Heterogeneous);
    g.members.get_mut("b").unwrap().subscribed_topic_names = vec!["orders".into()];
    assert_eq!(subscription_type(&g), SubscriptionType::Homogeneous);
    g.members.values_mut().for_each(|m| m.subscribed_topic_names.clear());
    assert_eq!(subscription_type(&g), SubscriptionType::Homogeneous, "nothing subscribed");
}

#[test]
fn new_partitions_and_a_changed_subscription_bump_the_group_epoch() {
    // facts E2: subscription metadata and subscribed topics are inputs of the group epoch.
    let mut s = consumer_protocol_demo(2);
    s.topics.push(groupscope::sim::scenario::TopicSpec { name: "payments".into(), partitions: 2, records_per_sec: 10 });
    let mut t = settled_world(s);
    let epoch = t.consumer_group("demo").group_epoch;
    t.inject(Fault::AddPartitions { topic: "orders".into(), count: 8 });
    t.sleep_until(30_000, |t| settled(t) && t.async_owned(1).len() + t.async_owned(2).len() == 8);
    assert_eq!(t.consumer_group("demo").group_epoch, epoch + 1);
    assert_eq!(t.async_owned(1).len() + t.async_owned(2).len(), 8);
    t.inject(Fault::ChangeSubscription { consumer: 2, topics: vec!["orders".into(), "payments".into()] });
    t.sleep_until(30_000, |t| settled(t) && t.async_owned(2).iter().any(|p| p.starts_with("payments")));
    assert_eq!(t.consumer_group("demo").group_epoch, epoch + 2);
}

#[test]
fn a_member_joining_within_the_assignment_interval_waits_in_assigning_until_a_heartbeat_after_it() {
    // KIP-1263 (Kafka 4.3+): GroupMetadataManager.maybeUpdateTargetAssignment
    // computes a new target only if canComputeNextTargetAssignment, i.e.
    // group.consumer.assignment.interval.ms (1000) passed since the last one; until
    // then heartbeats reconcile against the previous target and the group stays
    // Assigning. No timer: the first heartbeat after the interval computes it.
    use groupscope::sim::coordinator::consumer::heartbeat::can_compute_next_target_assignment;
    assert!(can_compute_next_target_assignment(0, 1000, 5), "no assignment yet");
    assert!(!can_compute_next_target_assignment(500, 1000, 1499));
    assert!(can_compute_next_target_assignment(500, 1000, 1500));
    assert!(can_compute_next_target_assignment(500, 0, 501), "interval 0 disables batching");
    let mut t = settled_world(consumer_protocol_demo(1));
    t.sleep(2000);
    let epoch = t.consumer_group("demo").group_epoch;
    let n = t.consumer_group_transitions().len();
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep(50);
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep_until(30_000, |t| {
        settled(t) && t.world.clients.async_consumers().count() == 3 && (1..=3).all(|c| t.async_owned(c).len() == 2)
    });
    let computed_at = |e: i32| {
        t.world
            .trace
            .iter()
            .find(|ev| {
                matches!(&ev.kind, EventKind::Note { note: Note::TargetAssignmentComputed { group_id, assignor, epoch, .. }, .. }
                    if group_id == "demo" && assignor == "uniform" && *epoch == e)
            })
            .map(|ev| ev.at)
    };
    let (first, second) =
        (computed_at(epoch + 1).expect("c2's join computed at once"), computed_at(epoch + 2).expect("then c3's"));
    assert!(second >= first + 1000, "the next target waits the interval: {first} then {second}");
    assert!(t.any_note(|n| matches!(n, Note::TargetAssignmentDeferred { group_id, .. } if group_id == "demo")));
    let c3_first = t.world.trace.iter().find_map(|e| match &e.kind {
        EventKind::MessageDelivered { to: NodeId::Client(3), label, .. }
            if label.starts_with("ConsumerGroupHeartbeat ←") =>
        {
            Some(label.clone())
        }
        _ => None,
    });
    assert_eq!(
        c3_first,
        Some(format!("ConsumerGroupHeartbeat ← epoch={} []", epoch + 1)),
        "c3 joins at the old target epoch with nothing"
    );
    let states: Vec<String> = t.consumer_group_transitions()[n..].iter().map(|(_, to)| to.clone()).collect();
    assert_eq!(states.first().map(String::as_str), Some("Reconciling"));
    assert!(states.contains(&"Assigning".to_string()), "the group sits in Assigning: {states:?}");
}

// --- E8: configs --------------------------------------------------------------------

#[test]
fn consumer_group_broker_configs_keep_kafkas_bounds() {
    // facts E8: GroupCoordinatorConfig requires min <= value <= max and heartbeat < session.
    let with = |f: &dyn Fn(&mut Scenario)| {
        let mut s = consumer_protocol_demo(1);
        f(&mut s);
        s.validate()
    };
    assert!(with(&|_| {}).is_ok());
    assert!(with(&|s| s.broker.consumer_group_session_timeout_ms = 30_000)
        .unwrap_err()
        .contains("group.consumer.session.timeout.ms"));
    assert!(with(&|s| s.broker.consumer_group_heartbeat_interval_ms = 20_000)
        .unwrap_err()
        .contains("group.consumer.heartbeat.interval.ms"));
    assert!(with(&|s| {
        s.broker.consumer_group_min_session_timeout_ms = 6000;
        s.broker.consumer_group_session_timeout_ms = 6000;
        s.broker.consumer_group_min_heartbeat_interval_ms = 1000;
        s.broker.consumer_group_heartbeat_interval_ms = 6000;
    })
    .unwrap_err()
    .contains("less than group.consumer.session.timeout.ms"));
    let json = r#"{"topics":[{"name":"orders","partitions":3}],"groups":[{"groupId":"g","consumers":1,"config":{"group.protocol":"consumer","group.remote.assignor":"range","topics":["orders"]}}],"broker":{"group.consumer.session.timeout.ms":50000}}"#;
    let s = Scenario::from_json(json).unwrap();
    assert_eq!(s.broker.consumer_group_session_timeout_ms, 50_000);
    assert_eq!(s.groups[0].config.group_remote_assignor.as_deref(), Some("range"));
}

// --- A3, A4, F: failover and offsets ---------------------------------------------------

#[test]
fn a_new_coordinator_replays_the_consumer_group_and_rearms_its_session_timers() {
    // facts A3: records replayed, every member's session timeout re-armed on load; A4:
    // clients rediscover the coordinator and stay in the group (no epoch bump).
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
    // facts F: CSG validateOffsetCommit -> STALE_MEMBER_EPOCH (113), UNKNOWN_MEMBER_ID.
    let mut shard = Shard {
        state: CoordinatorState::ACTIVE,
        groups: BTreeMap::new(),
        offsets: BTreeMap::new(),
        consumer_groups: BTreeMap::new(),
    };
    let mut g = ConsumerGroup::new("demo");
    shard.consumer_groups.insert("demo".into(), g.clone());
    assert_eq!(
        shard.validate_consumer_group_offset_commit("demo", "", -1),
        Some(Errors::NONE),
        "admin commit to an empty group"
    );
    let mut m = ConsumerGroupMember::new("m");
    m.member_epoch = 5;
    g.members.insert("m".into(), m);
    shard.consumer_groups.insert("demo".into(), g);
    assert_eq!(shard.validate_consumer_group_offset_commit("demo", "m", 5), Some(Errors::NONE));
    assert_eq!(shard.validate_consumer_group_offset_commit("demo", "m", 4), Some(Errors::STALE_MEMBER_EPOCH));
    assert_eq!(shard.validate_consumer_group_offset_commit("demo", "x", 5), Some(Errors::UNKNOWN_MEMBER_ID));
    assert_eq!(shard.validate_consumer_group_offset_commit("demo", "", -1), Some(Errors::UNKNOWN_MEMBER_ID));
    assert_eq!(Errors::STALE_MEMBER_EPOCH.code(), 113);
    // In a run, members commit with their epoch and the offsets only move forward.
    let t = settled_world(consumer_protocol_demo(3));
    assert!(t
        .world
        .trace
        .iter()
        .any(|e| matches!(&e.kind, EventKind::OffsetsCommitted { group_id, .. } if group_id == "demo")));
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
    let s = Scenario::from_json(include_str!("../scenarios/consumer-protocol-crash.json")).unwrap();
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

/// The auto-commit before a revocation (`maybeAutoCommitSyncBeforeRevocation`)
/// is retried through a coordinator failover until it succeeds (within the
/// rebalance timeout), and only then are the partitions revoked: the new
/// owner starts from the offsets committed just before (facts A4; E9).
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
                    Some((e.at, *to, label.clone()))
                }
                EventKind::MessageDelivered { to: NodeId::Client(1), label, .. }
                    if label.starts_with("OffsetCommit") =>
                {
                    Some((e.at, NodeId::Client(1), label.clone()))
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
    let new_owner_redelivered: i64 = failover.world.cluster.stats.redelivered.values().sum();
    let calm_redelivered: i64 = calm.world.cluster.stats.redelivered.values().sum();
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
