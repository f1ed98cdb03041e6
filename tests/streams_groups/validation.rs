//! `GroupCoordinatorService.throwIfStreamsGroupHeartbeatRequestIsInvalid`
//! (facts-share-streams §2.3) and the topology's configuration
//! (`InternalTopicManager.configureTopics`, §2.4 item 4).

use groupscope::sim::coordinator::streams::heartbeat::validate_request;
use groupscope::sim::coordinator::streams::topology::configure;
use groupscope::sim::streams_message::{
    StreamsGroupHeartbeatRequest, StreamsStatus, StreamsTopology, Subtopology, TopicInfo,
};
use groupscope::sim::Errors;
use std::collections::BTreeMap;

fn topology() -> StreamsTopology {
    StreamsTopology {
        epoch: 1,
        subtopologies: vec![
            Subtopology {
                subtopology_id: "0".into(),
                source_topics: vec!["orders".into()],
                repartition_sink_topics: vec!["app-rekey-repartition".into()],
                ..Subtopology::default()
            },
            Subtopology {
                subtopology_id: "1".into(),
                repartition_source_topics: vec![TopicInfo { name: "app-rekey-repartition".into(), partitions: None }],
                state_changelog_topics: vec![TopicInfo { name: "app-store-changelog".into(), partitions: None }],
                ..Subtopology::default()
            },
        ],
    }
}

fn join() -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest {
        group_id: "app".into(),
        member_id: "m1".into(),
        member_epoch: 0,
        rebalance_timeout_ms: 300_000,
        topology: Some(topology()),
        process_id: Some("p1".into()),
        ..StreamsGroupHeartbeatRequest::default()
    }
}

#[test]
fn a_join_needs_a_topology_and_a_rebalance_timeout_and_owns_nothing() {
    assert_eq!(validate_request(&join()), Ok(()));
    let no_topology = StreamsGroupHeartbeatRequest { topology: None, ..join() };
    assert_eq!(validate_request(&no_topology), Err(Errors::INVALID_REQUEST));
    let no_timeout = StreamsGroupHeartbeatRequest { rebalance_timeout_ms: -1, ..join() };
    assert_eq!(validate_request(&no_timeout), Err(Errors::INVALID_REQUEST));
    let owning =
        StreamsGroupHeartbeatRequest { active_tasks: Some(BTreeMap::from([("0".to_string(), [1].into())])), ..join() };
    assert_eq!(validate_request(&owning), Err(Errors::INVALID_REQUEST));
}

#[test]
fn epoch_minus_two_needs_an_instance_id_and_nothing_below_it_is_valid() {
    let leave = StreamsGroupHeartbeatRequest { member_epoch: -2, topology: None, ..join() };
    assert_eq!(validate_request(&leave), Err(Errors::INVALID_REQUEST));
    let static_leave = StreamsGroupHeartbeatRequest { instance_id: Some("i-1".into()), ..leave.clone() };
    assert_eq!(validate_request(&static_leave), Ok(()));
    let below = StreamsGroupHeartbeatRequest { member_epoch: -3, ..static_leave };
    assert_eq!(validate_request(&below), Err(Errors::INVALID_REQUEST));
    let topology_later = StreamsGroupHeartbeatRequest { member_epoch: 5, ..join() };
    assert_eq!(validate_request(&topology_later), Err(Errors::INVALID_REQUEST));
}

#[test]
fn missing_source_topics_come_first_then_missing_internal_topics_with_derived_counts() {
    let none = configure(&topology(), &BTreeMap::new());
    assert!(!none.is_ready());
    assert_eq!(none.error, Some((StreamsStatus::MISSING_SOURCE_TOPICS, "Source topics orders are missing.".into())));
    let topics = BTreeMap::from([("orders".to_string(), 6)]);
    let c = configure(&topology(), &topics);
    assert_eq!(c.error.as_ref().map(|e| e.0), Some(StreamsStatus::MISSING_INTERNAL_TOPICS));
    // RepartitionTopics.setup: the repartition topic takes its writer's 6
    // tasks; ChangelogTopics.setup: one changelog partition per task.
    assert_eq!(
        c.to_create,
        BTreeMap::from([("app-rekey-repartition".to_string(), 6), ("app-store-changelog".to_string(), 6)])
    );
    let all = BTreeMap::from([
        ("orders".to_string(), 6),
        ("app-rekey-repartition".to_string(), 6),
        ("app-store-changelog".to_string(), 6),
    ]);
    let ready = configure(&topology(), &all);
    assert!(ready.is_ready());
    assert_eq!(
        ready.subtopologies.iter().map(|s| (s.num_tasks, s.stateful)).collect::<Vec<_>>(),
        [(6, false), (6, true)]
    );
}

#[test]
fn copartitioned_source_topics_must_agree() {
    let t = StreamsTopology {
        epoch: 1,
        subtopologies: vec![Subtopology {
            subtopology_id: "0".into(),
            source_topics: vec!["left".into(), "right".into()],
            copartition_groups: vec![vec!["left".into(), "right".into()]],
            ..Subtopology::default()
        }],
    };
    let c = configure(&t, &BTreeMap::from([("left".to_string(), 4), ("right".to_string(), 3)]));
    assert_eq!(c.error.map(|e| e.0), Some(StreamsStatus::INCORRECTLY_PARTITIONED_TOPICS));
}
