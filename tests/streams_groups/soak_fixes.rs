//! What the streams soak (tests/soak/streams.rs) found, each checked against
//! Kafka 4.4: GroupMetadataManager `streamsGroupStaticMemberGroupLeave` and
//! `scheduleStreamsGroupRebalanceTimeout`; the streams
//! `CurrentAssignmentBuilder.computeNextAssignment` / `buildNewMember`.

use crate::common::TestWorld;
use groupscope::sim::coordinator::streams::reconcile;
use groupscope::sim::coordinator::streams::{StreamsGroup, StreamsGroupMember, StreamsMemberState};
use groupscope::sim::note::Note;
use groupscope::sim::reason::FenceReason;
use groupscope::sim::streams_message::{task_names, Tasks, TasksTuple};
use groupscope::sim::trace::EventKind;
use groupscope::sim::Scenario;

/// Instance 1 (static, `group.instance.id`, a 10 s `max.poll.interval.ms`)
/// owns the four tasks and never finishes revoking; instance 2 joins at 15 s
/// and waits for two of them; instance 1 closes at 20 s, leaving with epoch −2.
const STATIC_LEAVE_MID_REVOCATION: &str = r#"{
  "seed": 1, "brokers": 1,
  "topics": [{"name": "orders", "partitions": 4, "recordsPerSec": 10}],
  "streamsApps": [
    {"applicationId": "totals", "instances": 1,
     "topology": {"epoch": 1, "subtopologies": [{"subtopologyId": "0", "sourceTopics": ["orders"]}]},
     "instance": {"group.instance.id": "totals", "max.poll.interval.ms": 10000, "onTasksRevokedMs": 3600000}},
    {"applicationId": "totals", "instances": 1, "startAtMs": 15000,
     "topology": {"epoch": 1, "subtopologies": [{"subtopologyId": "0", "sourceTopics": ["orders"]}]},
     "instance": {"group.instance.id": "other"}}
  ],
  "faults": [{"at": 20000, "fault": {"type": "closeConsumer", "consumer": 1}}]
}"#;

fn member<'a>(g: &'a StreamsGroup, client: &str) -> &'a StreamsGroupMember {
    g.members.values().find(|m| m.client_id == client).expect("a member")
}

/// `GroupMetadataManager.streamsGroupStaticMemberGroupLeave` writes the
/// leaving static member at epoch −2 with no tasks pending revocation (it
/// closed them all), so the tasks it was revoking go to their new owner at
/// once; the rebalance timeout armed while it revoked (at its old epoch)
/// then fires for a member at epoch −2 and is ignored
/// (`scheduleStreamsGroupRebalanceTimeout` fences only a member still at the
/// armed epoch). Only its session can fence it.
#[test]
fn streams_group_static_member_group_leave_mid_revocation_keeps_no_pending_revocation_and_no_rebalance_timeout() {
    let mut t = TestWorld::new(Scenario::from_json(STATIC_LEAVE_MID_REVOCATION).expect("a valid scenario"));
    t.sleep(19_000);
    {
        let (_, g) = t.world.streams_group("totals").expect("the group");
        let c1 = member(g, "c1");
        assert_eq!(c1.state, StreamsMemberState::UNREVOKED_TASKS, "c1 revokes when the leave comes");
        assert_eq!(task_names(&c1.pending_revocation.active), ["0_2", "0_3"]);
    }
    t.sleep(1_500);
    {
        let (_, g) = t.world.streams_group("totals").expect("the group");
        let c1 = member(g, "c1");
        assert_eq!(c1.member_epoch, -2);
        assert!(c1.pending_revocation.is_empty(), "nothing pending after the leave: {:?}", c1.pending_revocation);
        assert_eq!(task_names(&c1.assigned.active), ["0_0", "0_1"], "it keeps its assigned tasks");
    }
    // Past the rebalance timeout (armed at ~16 s for 10 s), before the session (45 s).
    t.sleep(20_000);
    let revocation_fence = t.world.trace.iter().find(|e| {
        matches!(&e.kind, EventKind::Note { note: Note::MemberFenced { member_id, reason: FenceReason::RevocationTimeout { .. }, .. }, .. } if member_id == "c1")
    });
    assert!(revocation_fence.is_none(), "c1 fenced by a rebalance timeout armed at an old epoch");
    let (_, g) = t.world.streams_group("totals").expect("the group");
    assert_eq!(member(g, "c1").member_epoch, -2, "still a member until its session expires");
    assert_eq!(task_names(&member(g, "c2").assigned.active), ["0_2", "0_3"], "c2 got the released tasks");
}

fn tasks(subtopology: &str, partitions: &[i32]) -> Tasks {
    Tasks::from([(subtopology.to_string(), partitions.iter().copied().collect())])
}

fn active(partitions: &[i32]) -> TasksTuple {
    TasksTuple { active: tasks("0", partitions), ..TasksTuple::default() }
}

/// Streams `CurrentAssignmentBuilder.buildNewMember`: a member has tasks to
/// be revoked only if the revocation set is not empty **and** `hasNotReleased`
/// it; a heartbeat that already reports the tasks gone moves the member
/// straight to the target epoch (a static member rejoining with nothing
/// owned, whose target changed while it was away, is one). Without a report
/// the revocation round stays.
#[test]
fn streams_current_assignment_builder_build_new_member_skips_revocation_of_released_tasks() {
    let mut g = StreamsGroup::new("app");
    let m = StreamsGroupMember {
        member_id: "m1".into(),
        client_id: "c1".into(),
        process_id: "p1".into(),
        member_epoch: 2,
        previous_member_epoch: 1,
        state: StreamsMemberState::STABLE,
        assigned: active(&[0, 1]),
        ..StreamsGroupMember::default()
    };
    g.members.insert(m.member_id.clone(), m.clone());
    let target = active(&[0]);
    let next = reconcile::build(&g, &m, &target, 3, Some(&active(&[0]))).expect("reconciled");
    assert_eq!((next.state, next.member_epoch), (StreamsMemberState::STABLE, 3));
    assert_eq!(next.assigned, target);
    assert!(next.pending_revocation.is_empty());
    let unreported = reconcile::build(&g, &m, &target, 3, None).expect("reconciled");
    assert_eq!((unreported.state, unreported.member_epoch), (StreamsMemberState::UNREVOKED_TASKS, 2));
    assert_eq!(unreported.pending_revocation, active(&[1]));
    let still_owned = reconcile::build(&g, &m, &target, 3, Some(&active(&[0, 1]))).expect("reconciled");
    assert_eq!(still_owned.state, StreamsMemberState::UNREVOKED_TASKS);
}
