//! Who may be a member: static members that leave and come back
//! (UNRELEASED_INSTANCE_ID) and a group at its maximum size.

use super::*;

#[test]
fn a_static_member_that_leaves_temporarily_keeps_its_partitions_and_gets_them_back_without_a_bump() {
    // GroupMetadataManager `getOrMaybeSubscribeStaticConsumerGroupMember`: epoch -2 keeps the member and
    // its partitions; the same instance id rejoining replaces it with no group-epoch bump.
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
    // consumerGroupStaticMemberGroupLeave resets every assignment epoch to 0
    // (`resetAssignedPartitionsEpochsToZero`, Kafka 4.3+)...
    let at_zero: BTreeMap<TopicPartition, i32> = m.assigned_partitions.iter().map(|p| (p.clone(), 0)).collect();
    assert_eq!(m.assignment_epochs, at_zero);
    assert_eq!(g.group_epoch, epoch);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 5 });
    t.sleep_until(60_000, settled);
    assert_eq!(t.async_owned(1), owned);
    assert_eq!(t.consumer_group("demo").group_epoch, epoch, "no rebalance");
    // ...so the member that takes over the instance id holds them from epoch 0.
    let g = t.consumer_group("demo");
    assert_eq!(g.members[&g.static_members["demo-1"]].assignment_epochs, at_zero);
}

#[test]
fn a_static_member_restarted_before_the_old_one_left_gets_unreleased_instance_id() {
    // GroupMetadataManager `getOrMaybeSubscribeStaticConsumerGroupMember`: UNRELEASED_INSTANCE_ID (111),
    // fatal for the client.
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
    // GroupCoordinatorConfig group.consumer.max.size -> GROUP_MAX_SIZE_REACHED, fatal.
    let mut s = consumer_protocol_demo(3);
    s.broker.consumer_group_max_size = 2;
    let t = settled_world(s);
    assert_eq!(t.async_consumer(3).fatal.as_deref(), Some("GROUP_MAX_SIZE_REACHED"));
    assert_eq!(t.consumer_group("demo").members.len(), 2);
}

/// `GroupMetadataManager.throwIfConsumerGroupIsFull` skips the size check for an
/// instance id the group already holds (`group.hasStaticMember(instanceId)`): a
/// restarted static member of a full group takes over its place after a static
/// leave (epoch -2), and gets UNRELEASED_INSTANCE_ID, not GROUP_MAX_SIZE_REACHED,
/// while its old member is still active.
#[test]
fn a_full_consumer_group_lets_a_static_member_it_holds_rejoin() {
    let mut s = consumer_protocol_demo(2);
    s.groups[0].static_members = true;
    s.broker.consumer_group_max_size = 2;
    let mut t = settled_world(s);
    let owned = t.async_owned(2);
    t.inject(Fault::CloseConsumer { consumer: 2 });
    t.sleep(1_000);
    let g = t.consumer_group("demo");
    assert_eq!((g.members.len(), g.members[&g.static_members["demo-2"]].member_epoch), (2, -2), "it left its place");
    t.inject(Fault::RestartConsumer { consumer: 2 });
    t.sleep_until(30_000, settled);
    assert_eq!(t.async_consumer(2).fatal, None);
    assert_eq!(t.async_owned(2), owned, "it got its partitions back");
    assert_eq!(t.consumer_group("demo").members.len(), 2);

    t.inject(Fault::CrashConsumer { consumer: 2 });
    t.inject(Fault::RestartConsumer { consumer: 2 });
    t.sleep(3000);
    assert_eq!(t.async_consumer(2).fatal.as_deref(), Some("UNRELEASED_INSTANCE_ID"));
    assert!(!t.labels_sent().iter().any(|l| l == "ConsumerGroupHeartbeat → GROUP_MAX_SIZE_REACHED"));
}

// --- target assignment ------------------------------------------------------------
