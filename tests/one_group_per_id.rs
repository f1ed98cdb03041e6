//! One group per id, whatever its type (GroupMetadataManager's one `groups`
//! map): an empty group of one type gives its id to the first member of the
//! other type, and a failover's replay ends with the same one group.

use crate::common::coordinator::{join_request, Coordinator, GROUP};
use groupscope::sim::coordinator::shard::Shard;
use groupscope::sim::message::{ConsumerGroupHeartbeatRequest, Request};
use groupscope::sim::Errors;

fn shard(c: &Coordinator) -> &Shard {
    let partition = c.cluster.offsets_partition_for(GROUP);
    c.broker.coordinator.shards.get(&partition).expect("the demo group's context")
}

fn consumer_heartbeat(member_epoch: i32) -> Request {
    Request::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest {
        group_id: GROUP.into(),
        member_id: "k5x0mFbCQ5yYh3vW9Xb3Jw".into(),
        member_epoch,
        rebalance_timeout_ms: 300_000,
        subscribed_topic_names: Some(vec!["orders".into()]),
        topic_partitions: Some(vec![]),
        ..Default::default()
    })
}

/// `classicGroupJoinToClassicGroup` → `maybeDeleteEmptyConsumerGroup`: a
/// JoinGroup for the id of an empty consumer group deletes it and creates a
/// classic group ("Converted the empty consumer group to a classic group").
#[test]
fn an_empty_consumer_group_gives_its_id_to_a_classic_groups_first_member() {
    let mut c = Coordinator::demo(true);
    let joined = c.send(1, consumer_heartbeat(0));
    assert_eq!(c.error_of(joined), Some(Errors::NONE));
    let left = c.send(1, consumer_heartbeat(-1));
    assert_eq!(c.error_of(left), Some(Errors::NONE));
    assert!(shard(&c).consumer_group(GROUP).is_some_and(|g| g.members.is_empty()), "an empty consumer group");
    let join = c.send(2, Request::JoinGroup(join_request(2, "", None)));
    assert_eq!(c.error_of(join), Some(Errors::MEMBER_ID_REQUIRED), "accepted as a classic group's new member");
    assert!(shard(&c).classic(GROUP).is_some(), "a classic group holds the id");
    assert!(shard(&c).consumer_group(GROUP).is_none(), "the empty consumer group is gone: {:?}", shard(&c).groups);
    c.reload();
    assert!(shard(&c).consumer_group(GROUP).is_none(), "and stays gone after a failover: {:?}", shard(&c).groups);
}

/// `getOrMaybeCreateConsumerGroup` → `maybeDeleteEmptyClassicGroup`: a
/// ConsumerGroupHeartbeat joining an empty classic group deletes it and
/// creates a consumer group ("Converted the empty classic group to a
/// consumer group"); replaying the log after a failover
/// (`getOrMaybeCreatePersistedConsumerGroup`) gives the consumer group back.
#[test]
fn an_empty_classic_group_gives_its_id_to_a_consumer_groups_first_member() {
    let mut c = Coordinator::demo(true);
    let join = c.send(2, Request::JoinGroup(join_request(2, "", None)));
    assert_eq!(c.error_of(join), Some(Errors::MEMBER_ID_REQUIRED));
    assert!(c.group().is_some_and(|g| g.members.is_empty()), "an empty classic group, written to the log");
    let joined = c.send(1, consumer_heartbeat(0));
    assert_eq!(c.error_of(joined), Some(Errors::NONE), "the empty classic group does not keep the id");
    assert!(c.group().is_none(), "the classic group is gone: {:?}", shard(&c).groups);
    let epoch = shard(&c).consumer_group(GROUP).map(|g| g.group_epoch);
    assert_eq!(epoch, Some(2), "the first member's join: epoch 1 + 1");
    c.reload();
    assert!(c.group().is_none(), "no classic group after a failover: {:?}", shard(&c).groups);
    assert_eq!(shard(&c).consumer_group(GROUP).map(|g| g.group_epoch), epoch, "the consumer group, replayed");
}
