//! What the streams soak (tests/soak/streams.rs) found, each checked against
//! Kafka 4.4: GroupMetadataManager `streamsGroupStaticMemberGroupLeave` and
//! `scheduleStreamsGroupRebalanceTimeout`.

use crate::common::TestWorld;
use groupscope::sim::coordinator::streams::{StreamsGroup, StreamsGroupMember, StreamsMemberState};
use groupscope::sim::note::Note;
use groupscope::sim::reason::FenceReason;
use groupscope::sim::streams_message::task_names;
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
