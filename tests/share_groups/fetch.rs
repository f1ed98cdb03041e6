//! `SharePartitionManager` on a partition leader, through whole runs: how one
//! ShareFetch spreads its `max.poll.records` over the share-partitions it names.

use crate::common::TestWorld;
use groupscope::sim::note::Note;
use groupscope::sim::share_note::ShareNote;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Scenario, World};
use std::collections::BTreeMap;

/// `SharePartitionManager.fetchMessages` rotates the fetch's partitions by
/// the request's share session epoch (`PartitionRotateStrategy.rotateRoundRobin`,
/// ROUND_ROBIN: `rotateAt = sessionEpoch % partitions`, none at epochs 0 and
/// -1) "to ensure no share-partitions are starved from records being
/// fetched". With `max.poll.records` = 1 and two busy partitions on one
/// leader, each fetch fills its one record from a different first partition,
/// so both partitions are consumed — not only the first one named.
#[test]
fn share_partition_manager_fetch_messages_rotates_partitions_round_robin_so_none_starves() {
    let json = r#"{
      "seed": 1, "brokers": 1,
      "topics": [{"name": "orders", "partitions": 2, "recordsPerSec": 10}],
      "shareGroups": [{"groupId": "queue", "consumers": 1, "topics": ["orders"],
        "config": {"share.auto.offset.reset": "earliest"},
        "consumer": {"max.poll.records": 1, "processingMsPerRecord": 5}}]
    }"#;
    let mut t = TestWorld::new(Scenario::from_json(json).expect("valid"));
    t.sleep(30_000);
    let w = t.world;
    let mut acquired: BTreeMap<i32, i64> = BTreeMap::new();
    for e in w.trace.iter() {
        if let EventKind::Note {
            note: Note::Share(ShareNote::RecordsAcquired { partition, first, last, .. }), ..
        } = &e.kind
        {
            *acquired.entry(partition.partition).or_default() += last - first + 1;
        }
    }
    let (p0, p1) = (acquired.get(&0).copied().unwrap_or(0), acquired.get(&1).copied().unwrap_or(0));
    assert!(p0 > 0 && p1 > 0, "records acquired per partition: {acquired:?}");
    // Alternating first partitions share the fetches about evenly.
    assert!(p0.abs_diff(p1) <= (p0.max(p1) / 2 + 2) as u64, "records acquired per partition: {acquired:?}");
}

/// `AbstractMembershipManager.onConsumerPoll` (which `ShareMembershipManager`
/// inherits) joins only when the subscription changed *and* the member is
/// UNSUBSCRIBED: `subscribe()` then `poll()` on a member already in the group
/// does not send it back to JOINING. Here c2 is closed and started again
/// before its own staggered start comes round (at 10 s); that start then finds
/// it STABLE in the group and leaves it there.
#[test]
fn abstract_membership_manager_on_consumer_poll_joins_only_from_unsubscribed() {
    let json = r#"{
      "seed": 1, "brokers": 1,
      "topics": [{"name": "orders", "partitions": 2, "recordsPerSec": 5}],
      "shareGroups": [{"groupId": "queue", "consumers": 2, "topics": ["orders"], "startStaggerMs": 10000}],
      "faults": [
        {"at": 1000, "fault": {"type": "closeConsumer", "consumer": 2}},
        {"at": 1001, "fault": {"type": "restartConsumer", "consumer": 2}}
      ]
    }"#;
    let mut t = TestWorld::new(Scenario::from_json(json).expect("valid"));
    t.sleep(20_000);
    let w = t.world;
    let bad = crate::common::member_states::invalid_member_transitions(&w, 0);
    assert!(bad.is_empty(), "{bad:?}");
    let c2 = w.clients.share_consumer(2).expect("c2 is a share consumer");
    let (_, group) = w.share_group("queue").expect("the group is loaded");
    assert_eq!(c2.state, groupscope::sim::client::consumer::MemberState::STABLE);
    assert!(group.members.contains_key(&c2.member_id));
}

/// `NetworkClient.handleTimedOutRequests`: a request not answered within
/// `request.timeout.ms` (30 s by default) is given up as if its connection
/// broke, and the share consumer's request managers send anew. A ShareFetch
/// lost on a cut link therefore does not stop the consumer for good: once
/// the link is healed, it fetches and acquires records again.
#[test]
fn network_client_handle_timed_out_requests_frees_a_share_fetch_lost_on_a_cut_link() {
    let json = r#"{
      "seed": 1, "brokers": 1,
      "topics": [{"name": "orders", "partitions": 1, "recordsPerSec": 10}],
      "shareGroups": [{"groupId": "queue", "consumers": 1, "topics": ["orders"]}],
      "faults": [
        {"at": 20000, "fault": {"type": "cutLink", "a": "c1", "b": "broker-0"}},
        {"at": 21000, "fault": {"type": "healLink", "a": "c1", "b": "broker-0"}}
      ]
    }"#;
    let mut t = TestWorld::new(Scenario::from_json(json).expect("valid"));
    t.sleep(90_000);
    let w = t.world;
    let acquired_after: Vec<u64> = w
        .trace
        .iter()
        .filter(|e| e.at > 21_000)
        .filter(|e| matches!(&e.kind, EventKind::Note { note: Note::Share(ShareNote::RecordsAcquired { .. }), .. }))
        .map(|e| e.at)
        .collect();
    // Not before the lost request's 30 s have run out (the fetch in flight at
    // the cut was sent just before 20 s), and soon after.
    let first = acquired_after.first().copied();
    assert!(first.is_some_and(|t| (49_000..60_000).contains(&t)), "first acquisition after the heal: {first:?}");
}

/// `ShareHeartbeatRequestManager.HeartbeatState.reset` (called by
/// `AbstractHeartbeatRequestManager.onFailure` and `onErrorResponse`): after a
/// heartbeat fails, the next one carries the subscription again — a full
/// request — and `GroupMetadataManager.shareGroupHeartbeat` answers a full
/// request with the member's whole assignment. Here the answer that brings
/// c1 its first assignment is lost: the coordinator already moved c1 to the
/// new epoch with the partition, the request times out
/// (`request.timeout.ms`), and c1 heartbeats again at its previous epoch,
/// which the coordinator accepts. Without the full request, that answer
/// carries no assignment (nothing changed for the coordinator) and c1 would
/// stay in the group with no partition for good.
#[test]
fn share_heartbeat_request_manager_sends_a_full_request_after_a_failed_heartbeat() {
    use groupscope::sim::scenario::ScheduledFault;
    use groupscope::sim::{Fault, NodeId};
    let json = r#"{
      "seed": 1, "brokers": 1,
      "topics": [{"name": "orders", "partitions": 1, "recordsPerSec": 5}],
      "shareGroups": [{"groupId": "queue", "consumers": 1, "topics": ["orders"],
        "config": {"share.auto.offset.reset": "earliest"}}]
    }"#;
    let scenario = Scenario::from_json(json).expect("valid");
    // When the coordinator sends c1 its first non-empty assignment.
    let mut probe = World::new(scenario.clone()).expect("valid");
    probe.run_until(20_000);
    let sent = probe
        .trace
        .iter()
        .find(|e| {
            matches!(&e.kind, EventKind::MessageSent { label, to: NodeId::Client(1), .. }
                if label.starts_with("ShareGroupHeartbeat ←") && label.contains("[orders-0]"))
        })
        .map(|e| e.at)
        .expect("c1 is assigned orders-0");
    // That answer is lost on its way (sent, not yet delivered).
    let mut lossy = scenario;
    lossy.faults.push(ScheduledFault {
        at: sent + 1,
        fault: Fault::DropNextMessage { from: "broker-0".into(), to: "c1".into() },
    });
    let mut t = TestWorld::new(lossy);
    t.sleep(sent + 60_000);
    let w = t.world;
    let lost = w.trace.iter().any(
        |e| matches!(&e.kind, EventKind::MessageDropped { label, .. } if label.starts_with("ShareGroupHeartbeat ←")),
    );
    assert!(lost, "the assignment's answer is lost");
    let c1 = w.clients.share_consumer(1).expect("c1 is a share consumer");
    let (_, group) = w.share_group("queue").expect("the group is loaded");
    assert_eq!(c1.member_epoch, group.members[&c1.member_id].member_epoch);
    assert_eq!(c1.assignment, vec![groupscope::assign::TopicPartition::new("orders", 0)]);
    let acquired = w.trace.iter().any(|e| {
        e.at > sent + 30_000
            && matches!(&e.kind, EventKind::Note { note: Note::Share(ShareNote::RecordsAcquired { .. }), .. })
    });
    assert!(acquired, "c1 fetches orders-0 once it has its assignment again");
}
