//! ShareGroupHeartbeat on one coordinator, request by request
//! (`GroupMetadataManager.shareGroupHeartbeat`, L2940-3070 at Kafka 4.4).

use crate::common::coordinator::{Coordinator, GROUP};
use groupscope::assign::TopicPartition;
use groupscope::sim::coordinator::share::{initialize_key, session_key, ShareGroup, ShareGroupState};
use groupscope::sim::message::{ConsumerGroupHeartbeatRequest, Request, Response};
use groupscope::sim::note::Note;
use groupscope::sim::reason::FenceReason;
use groupscope::sim::share_message::{ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse};
use groupscope::sim::share_note::ShareNote;
use groupscope::sim::Errors;

fn coordinator() -> Coordinator {
    let mut c = Coordinator::demo(true);
    c.cluster.add_topic("orders", 3, 0);
    c
}

fn hb(member: &str, epoch: i32, topics: Option<&[&str]>) -> Request {
    Request::ShareGroupHeartbeat(ShareGroupHeartbeatRequest {
        group_id: GROUP.into(),
        member_id: member.into(),
        member_epoch: epoch,
        rack_id: None,
        subscribed_topic_names: topics.map(|t| t.iter().map(|s| s.to_string()).collect()),
    })
}

fn answer(c: &Coordinator, correlation: u64) -> ShareGroupHeartbeatResponse {
    match c.answer(correlation) {
        Some(Response::ShareGroupHeartbeat(r)) => r.clone(),
        other => panic!("no ShareGroupHeartbeat answer: {other:?}"),
    }
}

/// Sends a ShareGroupHeartbeat and returns its answer.
fn ask(c: &mut Coordinator, client: u32, req: Request) -> ShareGroupHeartbeatResponse {
    let correlation = c.send(client, req);
    answer(c, correlation)
}

/// Sends a request and returns its answer's error.
fn err(c: &mut Coordinator, client: u32, req: Request) -> Errors {
    let correlation = c.send(client, req);
    c.error_of(correlation).expect("answered at once")
}

fn group(c: &Coordinator) -> &ShareGroup {
    let p = c.cluster.offsets_partition_for(GROUP);
    c.broker.coordinator.shards[&p].share_group(GROUP).expect("a share group")
}

fn all() -> Vec<TopicPartition> {
    (0..3).map(|p| TopicPartition::new("orders", p)).collect()
}

/// Fact sheet §5 scenario 1 and §1.4 (derived): epochs start at 1 (4.3+), so
/// the first member's epoch is 2, and its first answer has no partitions:
/// only share-partitions whose state is initialized are assignable
/// (`maybeCreateInitializeShareGroupStateRequest`, `initializeShareGroupState`).
/// After the initialize round trip, the next heartbeat bumps the epoch to 3
/// (`initializedAssignmentPending`) and hands the member all three.
#[test]
fn a_new_groups_first_member_gets_epoch_2_and_nothing_until_the_share_state_is_initialized() {
    let mut c = coordinator();
    let first = c.send(1, hb("m1", 0, Some(&["orders"])));
    let r = answer(&c, first);
    assert_eq!((r.error, r.member_epoch, r.assignment.clone()), (Errors::NONE, 2, Some(vec![])));
    assert!(c
        .notes
        .iter()
        .any(|n| matches!(n, Note::Share(ShareNote::StateInitializing { partitions, .. }) if *partitions == all())));
    assert_eq!(group(&c).state, ShareGroupState::Stable);
    c.advance_to(c.timers[&initialize_key(GROUP).into()]);
    assert_eq!(group(&c).initialized.len(), 3);
    assert_eq!(c.cluster.share_state[GROUP].len(), 3, "the share coordinator holds the three share-partitions");
    assert!(c.cluster.share_state[GROUP].values().all(|s| s.start_offset == -1), "-1: share.auto.offset.reset applies");
    c.advance_to(5000);
    let second = c.send(1, hb("m1", 2, None));
    let r = answer(&c, second);
    assert_eq!((r.member_epoch, r.assignment), (3, Some(all())));
}

/// `throwIfShareGroupMemberEpochIsInvalid` (L1690): ahead → FENCED_MEMBER_EPOCH;
/// behind → only the previous epoch; 0 → a rejoin that keeps the member's
/// epoch and assignment (Kafka 4.2+, KAFKA-19233); an unknown member with a
/// non-zero epoch → UNKNOWN_MEMBER_ID (`ShareGroup.getOrMaybeCreateMember`).
#[test]
fn member_epochs_are_checked_as_kafka_checks_them() {
    let mut c = coordinator();
    c.send(1, hb("m1", 0, Some(&["orders"])));
    c.advance_to(2000);
    let r = ask(&mut c, 1, hb("m1", 2, None));
    assert_eq!(r.member_epoch, 3);
    assert_eq!(err(&mut c, 1, hb("m1", 4, None)), Errors::FENCED_MEMBER_EPOCH);
    assert_eq!(err(&mut c, 1, hb("m1", 2, None)), Errors::NONE, "the previous epoch is accepted");
    assert_eq!(err(&mut c, 1, hb("m1", 1, None)), Errors::FENCED_MEMBER_EPOCH);
    assert_eq!(err(&mut c, 2, hb("ghost", 3, None)), Errors::UNKNOWN_MEMBER_ID);
    let rejoin = ask(&mut c, 1, hb("m1", 0, Some(&["orders"])));
    assert_eq!((rejoin.member_epoch, rejoin.assignment), (3, Some(all())));
}

/// `throwIfShareGroupHeartbeatRequestIsInvalid` (GroupCoordinatorService L1019-1033).
#[test]
fn invalid_heartbeats_are_refused_with_invalid_request() {
    let mut c = coordinator();
    for req in [hb("m1", 0, None), hb("m1", 0, Some(&[])), hb("m1", -2, None), hb("", 0, Some(&["orders"]))] {
        assert_eq!(err(&mut c, 1, req), Errors::INVALID_REQUEST);
    }
}

/// A group id names one group of one type: `getOrMaybeCreateShareGroup`
/// (L1173) refuses another type's id, and the other types' requests to a
/// share group are not found either; a heartbeat with a non-zero epoch does
/// not create a group.
#[test]
fn another_types_group_id_is_not_found() {
    let mut c = coordinator();
    c.join_dynamic(9);
    assert_eq!(err(&mut c, 1, hb("m1", 0, Some(&["orders"]))), Errors::GROUP_ID_NOT_FOUND);

    let mut c = coordinator();
    assert_eq!(err(&mut c, 1, hb("m1", 3, None)), Errors::GROUP_ID_NOT_FOUND);
    c.send(1, hb("m1", 0, Some(&["orders"])));
    let consumer = Request::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest {
        group_id: GROUP.into(),
        member_id: "c1".into(),
        member_epoch: 0,
        rebalance_timeout_ms: 300_000,
        subscribed_topic_names: Some(vec!["orders".into()]),
        topic_partitions: Some(vec![]),
        ..Default::default()
    });
    assert_eq!(err(&mut c, 2, consumer), Errors::GROUP_ID_NOT_FOUND);
    assert_eq!(group(&c).members.len(), 1, "the share group is untouched");
}

/// `throwIfShareGroupIsFull` (L1620): `group.share.max.size` = 200; a member
/// already in the group is not refused.
#[test]
fn the_201st_member_is_refused_with_group_max_size_reached() {
    let mut c = coordinator();
    for i in 0..200 {
        let id = format!("m{i}");
        assert_eq!(err(&mut c, 1, hb(&id, 0, Some(&["orders"]))), Errors::NONE);
    }
    assert_eq!(err(&mut c, 1, hb("m200", 0, Some(&["orders"]))), Errors::GROUP_MAX_SIZE_REACHED);
    assert_eq!(err(&mut c, 1, hb("m7", 0, Some(&["orders"]))), Errors::NONE);
}

/// `scheduleShareGroupSessionTimeout` (45 s) → `shareGroupFenceMember`
/// (L4960): tombstones, group epoch +1, and as the member was the last one,
/// a target at the new epoch with timestamp 0 (Kafka 4.4). The group is Empty.
#[test]
fn a_silent_member_is_fenced_after_the_45_s_session_timeout() {
    let mut c = coordinator();
    c.send(1, hb("m1", 0, Some(&["orders"])));
    let deadline = c.timers[&session_key(GROUP, "m1").into()];
    assert_eq!(deadline, 45_000);
    c.advance_to(45_000);
    assert!(c.notes.iter().any(|n| matches!(n, Note::MemberFenced { reason: FenceReason::SessionExpired, .. })));
    let g = group(&c);
    assert!(g.members.is_empty());
    assert_eq!(g.state, ShareGroupState::Empty);
    assert_eq!((g.group_epoch, g.assignment_epoch, g.assignment_timestamp), (3, 3, 0));
}

/// KIP-1263 (4.3+): a new target at most every `share.assignment.interval.ms`
/// (1 s), computed by the first heartbeat after it (no timer). A member that
/// leaves (epoch −1) is fenced at once; the others simply get more on their
/// next heartbeat — no revocation step (`ShareGroupAssignmentBuilder`).
#[test]
fn targets_are_batched_and_a_leaver_s_partitions_go_to_the_others_without_revocation() {
    let mut c = coordinator();
    c.send(1, hb("m1", 0, Some(&["orders"])));
    c.advance_to(100);
    c.send(2, hb("m2", 0, Some(&["orders"])));
    // Deferred by the share group's own interval (`GroupMetadataManager.maybeUpdateTargetAssignment`
    // for a ShareGroup reads `shareGroupAssignmentIntervalMs`), and the narration names it.
    let deferred = c.notes.iter().find(|n| matches!(n, Note::Share(ShareNote::TargetAssignmentDeferred { .. })));
    let text = deferred.expect("the second member's epoch bump waits for the interval").to_string();
    assert!(text.contains("share.assignment.interval.ms") && !text.contains("consumer"), "{text}");
    assert!(
        !c.notes.iter().any(|n| matches!(n, Note::TargetAssignmentDeferred { .. })),
        "not the consumer group's note"
    );
    c.advance_to(1500);
    let a1 = ask(&mut c, 1, hb("m1", 2, None));
    let e = a1.member_epoch;
    let a2 = ask(&mut c, 2, hb("m2", e - 1, None));
    let (p1, p2) = (a1.assignment.unwrap_or_default(), a2.assignment.unwrap_or_default());
    assert_eq!(p1.len() + p2.len(), 3, "three partitions, two members, no sharing: {p1:?} {p2:?}");
    c.advance_to(3000);
    assert_eq!(ask(&mut c, 2, hb("m2", -1, None)).member_epoch, -1);
    c.advance_to(4100);
    let a1 = ask(&mut c, 1, hb("m1", e, None));
    assert_eq!(a1.assignment, Some(all()), "m1 now has all three, straight away");
}

/// A coordinator failover rebuilds the share group from its records
/// (`GroupMetadataManager.replay` of ShareGroup* records).
#[test]
fn a_reloaded_coordinator_rebuilds_the_share_group_from_its_records() {
    let mut c = coordinator();
    c.send(1, hb("m1", 0, Some(&["orders"])));
    c.advance_to(2000);
    c.send(1, hb("m1", 2, None));
    let before = group(&c).clone();
    c.reload();
    let after = group(&c);
    assert_eq!(after.group_epoch, before.group_epoch);
    assert_eq!(after.assignment_epoch, before.assignment_epoch);
    assert_eq!(after.members, before.members);
    assert_eq!(after.initialized, before.initialized);
    assert_eq!(after.target_assignment, before.target_assignment);
    assert!(c.timers.contains_key(&session_key(GROUP, "m1").into()), "onLoaded re-arms the session timeout");
}
