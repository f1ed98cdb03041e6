//! The classic protocol's error codes, each from the state that causes it:
//! GROUP_MAX_SIZE_REACHED, INCONSISTENT_GROUP_PROTOCOL,
//! COORDINATOR_NOT_AVAILABLE, ILLEGAL_GENERATION and INVALID_GROUP_ID, as
//! GroupMetadataManager and KafkaApis answer them and AbstractCoordinator's response handlers react.

use super::*;
use groupscope::sim::commit_exception::CommitException;
use groupscope::sim::Errors;

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

/// COORDINATOR_NOT_AVAILABLE (15). With `offsets.topic.replication.factor` = 1
/// the coordinator's death leaves the group's `__consumer_offsets` partition
/// without a leader, so every broker left answers FindCoordinator with
/// COORDINATOR_NOT_AVAILABLE (KafkaApis `getCoordinator`). The consumers keep looking the
/// coordinator up after a backoff (AbstractCoordinator `ensureCoordinatorReady`) and keep their generation,
/// member id and partitions (`markCoordinatorUnknown`); once the broker is back the group is loaded at its
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

/// ILLEGAL_GENERATION (22). A static member paused through a whole rebalance is kept by the coordinator though it
/// did not rejoin (GroupMetadataManager `completeClassicGroupJoin`), but misses the new generation. When it resumes,
/// its OffsetCommit and Heartbeat carry the old generation and are answered ILLEGAL_GENERATION (ClassicGroup
/// `validateOffsetCommit`, GroupMetadataManager `classicGroupHeartbeatToClassicGroup`): the auto-commit fails with
/// CommitFailedException, the member resets its generation but keeps its member id, treats its partitions as lost
/// and rejoins (AbstractCoordinator `HeartbeatResponseHandler`, ConsumerCoordinator `onJoinPrepare`). As a follower
/// with unchanged metadata in a Stable group it gets the current generation back without another rebalance
/// (GroupMetadataManager `classicGroupJoinExistingMember`).
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
    assert!(t.any_note(|n| matches!(
        n,
        Note::AutoCommitFailed { exception: CommitException::Failed(Errors::ILLEGAL_GENERATION) }
    )));
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
/// is refused before anything else is looked at, and no group is created (GroupCoordinatorService
/// `joinGroup`).
#[test]
fn a_join_group_for_the_empty_group_id_gets_invalid_group_id() {
    use common::coordinator::{join_request, Coordinator};
    use groupscope::sim::message::Request;

    let mut c = Coordinator::demo(true);
    let mut request = join_request(1, "", None);
    request.group_id = String::new();
    let join = c.send(1, Request::JoinGroup(request));
    assert_eq!(c.error_of(join), Some(Errors::INVALID_GROUP_ID));
    assert!(c.broker.coordinator.shards.values().all(|s| s.groups.is_empty()), "no group created");
    assert!(c.records.is_empty(), "nothing written");
}

/// INVALID_GROUP_ID (24), on the client: a consumer configured with an empty
/// group.id raises the fatal error to the application and never joins (AbstractCoordinator
/// `JoinGroupResponseHandler`). The simulator's broker already refuses the empty key at
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
