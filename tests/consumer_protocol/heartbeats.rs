//! The ConsumerGroupHeartbeat request and member epochs: requests checked
//! as Kafka checks them, full and incremental heartbeats, the broker's
//! interval, epoch validation and fencing, a new group's first epochs (GroupMetadataManager `consumerGroupHeartbeat`).

use super::*;

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
    // ConsumerHeartbeatRequestManager `HeartbeatState` sends every field while JOINING, then only changes;
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
    // GroupCoordinatorConfig group.consumer.heartbeat.interval.ms, not the client's heartbeat.interval.ms.
    let mut s = consumer_protocol_demo(1);
    s.broker.consumer_group_heartbeat_interval_ms = 7000;
    let mut t = settled_world(s);
    t.sleep(30_000);
    let times: Vec<u64> = heartbeats_sent_by(&t, 1).iter().map(|(at, _)| *at).collect();
    let gaps: Vec<u64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.len() >= 4 && gaps[gaps.len() - 3..].iter().all(|g| *g == 7000), "one heartbeat every 7 s: {gaps:?}");
}

// --- epochs --------------------------------------------------------------------

#[test]
fn member_epochs_are_validated_with_the_previous_epoch_exception() {
    // GroupMetadataManager `throwIfConsumerGroupMemberEpochIsInvalid`.
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
    // GroupMetadataManager `throwIfConsumerGroupMemberEpochIsInvalid`, AbstractMembershipManager
    // `transitionToFenced`: FENCED_MEMBER_EPOCH -> FENCED, epoch 0, onPartitionsLost, JOINING.
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
    // GroupMetadataManager `consumerGroupHeartbeat`: the join bumps the epoch and computes the target at once;
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
    // AbstractMembershipManager `maybeReconcile`, ConsumerGroup `maybeUpdateGroupState`.
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

// --- reconciliation --------------------------------------------------------------
