//! The learner scenarios of facts-share-streams.md §5 (share groups 1–10),
//! each a shipped example (`scenarios/share-*.json`) run whole and checked
//! against the fact sheet's numbers, with every invariant checked after
//! every step.

use crate::common::TestWorld;
use groupscope::assign::TopicPartition;
use groupscope::sim::note::Note;
use groupscope::sim::reason::FenceReason;
use groupscope::sim::share_note::{ReleaseCause, ShareNote};
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Errors, Millis, NodeId, Scenario, World};
use std::collections::BTreeMap;

/// Loads an example scenario by file name.
fn example(name: &str) -> Scenario {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs to `until`, checking every invariant after every step.
fn run(scenario: Scenario, until: Millis) -> World {
    let mut t = TestWorld::new(scenario);
    t.sleep(until);
    t.world
}

/// Every share note with its time.
fn share_notes(w: &World) -> Vec<(Millis, ShareNote)> {
    w.trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { note: Note::Share(n), .. } => Some((e.at, n.clone())),
            _ => None,
        })
        .collect()
}

/// (time, client, partition, first, last, delivery count) of every acquisition.
fn acquisitions(w: &World) -> Vec<(Millis, String, TopicPartition, i64, i64, i32)> {
    share_notes(w)
        .into_iter()
        .filter_map(|(at, n)| match n {
            ShareNote::RecordsAcquired { partition, client, first, last, delivery_count } => {
                Some((at, client, partition, first, last, delivery_count))
            }
            _ => None,
        })
        .collect()
}

fn tp(p: i32) -> TopicPartition {
    TopicPartition::new("orders", p)
}

/// Scenario 1: the group goes 1 → 2 with an empty first answer; the share
/// coordinator initializes the share-partitions; a later heartbeat moves the
/// member to epoch 3 with all three (`GroupMetadataManager.shareGroupHeartbeat`).
#[test]
fn s1_join_then_initialize_then_assign() {
    let w = run(example("share-1-join.json"), 12_000);
    let answers: Vec<String> = w
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent { label, to: NodeId::Client(1), .. }
                if label.starts_with("ShareGroupHeartbeat ←") =>
            {
                Some(label.to_string())
            }
            _ => None,
        })
        .collect();
    assert_eq!(answers[0], "ShareGroupHeartbeat ← epoch=2 []");
    assert!(answers.iter().any(|a| a == "ShareGroupHeartbeat ← epoch=3 [orders-0, orders-1, orders-2]"), "{answers:?}");
    let notes = share_notes(&w);
    let init = notes.iter().position(|(_, n)| matches!(n, ShareNote::StateInitializing { .. })).unwrap();
    let done = notes.iter().position(|(_, n)| matches!(n, ShareNote::StateInitialized { .. })).unwrap();
    assert!(init < done);
    assert_eq!(w.cluster.share_state["queue"].len(), 3, "the share coordinator holds orders-0..2");
}

/// Scenario 2: five consumers, two partitions: `desiredSharing` =
/// ceil(5/2) = 3, so each partition is assigned to three members, counts
/// 2,1,1,1,1 (`SimpleHomogeneousAssignmentBuilder`). The leader hands out
/// disjoint records (the single-acquirer invariant holds at every step).
#[test]
fn s2_more_consumers_than_partitions_share_each_partition() {
    let w = run(example("share-2-more-consumers.json"), 20_000);
    let (_, g) = w.share_group("queue").expect("the group");
    assert_eq!(g.holders(&tp(0)).len(), 3);
    assert_eq!(g.holders(&tp(1)).len(), 3);
    let mut counts: Vec<usize> = g.members.values().map(|m| m.assigned_partitions.len()).collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(counts, vec![2, 1, 1, 1, 1]);
    let readers: std::collections::BTreeSet<String> =
        acquisitions(&w).into_iter().filter(|a| a.2 == tp(0)).map(|a| a.1).collect();
    assert!(readers.len() >= 2, "several members read orders-0: {readers:?}");
    // The page's ownership table lists every member the coordinator gave the
    // partition to (`ShareGroupAssignmentBuilder`: sharing = ceil(5 / 2) = 3), not one owner.
    for p in [0, 1] {
        let row =
            groupscope::view::partitions(&w).into_iter().find(|r| r.group == "queue" && r.partition == tp(p)).unwrap();
        let mut shown: Vec<u32> = row.owner.into_iter().chain(row.also_read_by).collect();
        shown.sort_unstable();
        let mut holders: Vec<u32> = g
            .holders(&tp(p))
            .iter()
            .map(|m| w.members().find(|c| c.member_id == *m).expect("a live member").idx)
            .collect();
        holders.sort_unstable();
        assert_eq!(shown, holders, "orders-{p}");
    }
}

/// Scenario 3: implicit mode accepts a poll's records on the next poll; the
/// start offset follows behind (`SharePartition.acknowledge`,
/// `maybeUpdateCachedStateAndOffsets`).
#[test]
fn s3_acquire_then_accept_moves_the_start_offset() {
    let w = run(example("share-3-acquire-ack.json"), 30_000);
    let stored = &w.cluster.share_state["queue"][&tp(0)];
    let end = w.cluster.end_offset(&tp(0));
    assert!(stored.start_offset > end / 2 && stored.start_offset <= end, "SPSO {} of {end}", stored.start_offset);
    assert!(acquisitions(&w).iter().all(|a| a.5 == 1), "nothing was delivered twice");
    let accepted = share_notes(&w)
        .iter()
        .filter(|(_, n)| matches!(n, ShareNote::RecordsAcknowledged { ack_type, .. } if ack_type.name() == "ACCEPT"))
        .count();
    assert!(accepted > 5);
}

/// Scenario 4: a consumer crashes holding records and its connection
/// closes: the leader releases them at once (`releaseAcquiredRecords`,
/// delivery count kept), another member acquires them at delivery 2, and
/// the coordinator fences the dead member only at its 45 s session timeout.
#[test]
fn s4_a_crash_releases_at_once_but_the_group_notices_after_45_s() {
    let s = example("share-4-crash.json");
    let crash_at = s.faults[0].at;
    let w = run(s, crash_at + 60_000);
    let notes = share_notes(&w);
    let (released_at, records) = notes
        .iter()
        .find_map(|(at, n)| match n {
            ShareNote::RecordsReleased { client, records, cause: ReleaseCause::ConnectionClosed, .. }
                if client == "c1" =>
            {
                Some((*at, *records))
            }
            _ => None,
        })
        .expect("c1's records released on disconnect");
    assert!(released_at - crash_at <= 200, "released {} ms after the crash", released_at - crash_at);
    assert!(records > 0);
    assert!(
        acquisitions(&w).iter().any(|a| a.0 >= released_at && a.1 == "c2" && a.5 == 2),
        "c2 acquires them again at delivery 2"
    );
    assert!(!notes.iter().any(|(_, n)| matches!(n, ShareNote::LocksExpired { client, .. } if client == "c1")));
    let fenced_at = w
        .trace
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Note { note: Note::MemberFenced { reason: FenceReason::SessionExpired, .. }, .. } => Some(e.at),
            _ => None,
        })
        .expect("fenced at the session timeout");
    let waited = fenced_at - crash_at;
    assert!((40_000..=45_100).contains(&waited), "fenced {waited} ms after the crash (45 s after its last heartbeat)");
}

/// Scenario 5: a consumer hangs with its connection open: nothing happens
/// until its acquisition locks expire, 30 s after it acquired the records
/// (`releaseAcquisitionLockOnTimeout`); they are delivered again; its late
/// ACCEPT is answered INVALID_RECORD_STATE. A 35 s hang is shorter than the
/// 45 s session timeout, so the group never fences it.
#[test]
fn s5_a_hung_consumer_loses_its_records_after_the_30_s_lock() {
    let s = example("share-5-hang.json");
    let hang_at = s.faults[0].at;
    let w = run(s, hang_at + 60_000);
    let notes = share_notes(&w);
    let expired_at = notes
        .iter()
        .find_map(|(at, n)| matches!(n, ShareNote::LocksExpired { client, .. } if client == "c1").then_some(*at))
        .expect("c1's locks expire");
    assert!(expired_at >= hang_at + 25_000, "nothing happens for a while: {expired_at}");
    assert!(
        acquisitions(&w).iter().any(|a| a.1 == "c1" && a.0 + 30_000 == expired_at),
        "exactly share.record.lock.duration.ms after c1 acquired them"
    );
    assert!(acquisitions(&w).iter().any(|a| a.0 >= expired_at && a.1 == "c2" && a.5 == 2));
    assert!(notes.iter().any(|(at, n)| *at > expired_at
        && matches!(n, ShareNote::AcknowledgementRefused { client, error: Errors::INVALID_RECORD_STATE, .. } if client == "c1")));
    assert!(!w.trace.iter().any(|e| matches!(&e.kind, EventKind::Note { note: Note::MemberFenced { .. }, .. })));
}

/// Scenario 6: a poison record is released again and again: delivery 1…5,
/// on its own from the 4th delivery (after `max(2, ceil(5/2))` = 3), then
/// ARCHIVED at the limit (`InFlightState.tryUpdateState`), and SPSO moves past it.
#[test]
fn s6_a_poison_record_is_archived_after_five_deliveries() {
    let w = run(example("share-6-poison.json"), 40_000);
    let poison: Vec<(i64, i64, i32)> = acquisitions(&w)
        .into_iter()
        .filter(|a| a.2 == tp(0) && a.3 <= 5 && 5 <= a.4)
        .map(|a| (a.3, a.4, a.5))
        .collect();
    let counts: Vec<i32> = poison.iter().map(|p| p.2).collect();
    assert_eq!(counts, vec![1, 2, 3, 4, 5], "{poison:?}");
    assert_eq!(poison[3], (5, 5, 4), "alone from the 4th delivery");
    assert_eq!(poison[4], (5, 5, 5));
    assert!(share_notes(&w)
        .iter()
        .any(|(_, n)| matches!(n, ShareNote::RecordArchived { offset: 5, delivery_count: 5, .. })));
    assert!(w.cluster.share_state["queue"][&tp(0)].start_offset > 5);
}

/// Scenario 7: REJECT archives a record at once: it is never delivered again.
#[test]
fn s7_a_rejected_record_is_never_delivered_again() {
    let w = run(example("share-7-reject.json"), 20_000);
    let deliveries = acquisitions(&w).into_iter().filter(|a| a.2 == tp(0) && a.3 <= 5 && 5 <= a.4).count();
    assert_eq!(deliveries, 1);
    assert!(w.cluster.share_state["queue"][&tp(0)].start_offset > 5);
}

/// Scenario 8: with `share.partition.max.record.locks` = 100 the window
/// (SPSO … SPEO) never holds more than 100 records (`canAcquireRecords`).
#[test]
fn s8_the_in_flight_window_never_exceeds_the_cap() {
    let mut w = World::new(example("share-8-in-flight-cap.json")).unwrap();
    let mut widest = 0;
    for t in (1000..=30_000).step_by(250) {
        w.run_until(t);
        for b in w.brokers.values() {
            for (_, sp) in b.share.group_partitions("queue") {
                widest = widest.max(sp.end_offset - sp.start_offset);
            }
        }
    }
    assert_eq!(widest, 100, "the window fills up to the cap and no further");
}

/// Scenario 9: the partition leader dies: the new leader loads the
/// share-partition from the share coordinator; acquisitions were never
/// written, so what the consumer held is delivered again; the consumer opens
/// a new share session there.
#[test]
fn s9_a_leader_failover_delivers_unacknowledged_records_again() {
    let s = example("share-9-leader-failover.json");
    let kill_at = s.faults[0].at;
    let w = run(s, kill_at + 30_000);
    let notes = share_notes(&w);
    assert!(notes.iter().any(|(at, n)| *at > kill_at
        && matches!(n, ShareNote::SharePartitionLoaded { partition, .. } if *partition == tp(0))));
    let before: Vec<i64> = acquisitions(&w)
        .into_iter()
        .filter(|a| a.0 < kill_at && a.2 == tp(0))
        .last()
        .map(|a| (a.3..=a.4).collect())
        .unwrap();
    let after: std::collections::BTreeSet<i64> =
        acquisitions(&w).into_iter().filter(|a| a.0 > kill_at && a.2 == tp(0)).flat_map(|a| a.3..=a.4).collect();
    assert!(before.iter().all(|o| after.contains(o)), "the last batch before the failover is delivered again");
    let sessions: BTreeMap<u32, usize> = notes.iter().fold(BTreeMap::new(), |mut m, (at, n)| {
        if let ShareNote::SessionOpened { broker, .. } = n {
            if *at > kill_at {
                *m.entry(*broker).or_default() += 1;
            }
        }
        m
    });
    assert!(!sessions.is_empty(), "a new share session on the new leader");
}

/// Scenario 10: a member leaves (`close()`, epoch −1): the others take its
/// partition on their next heartbeat after the 1 s assignment interval,
/// with no revocation step (share members are always STABLE on the coordinator).
#[test]
fn s10_scale_in_needs_no_revocation() {
    let s = example("share-10-scale-in.json");
    let close_at = s.faults[0].at;
    let w = run(s, close_at + 8_000);
    let (_, g) = w.share_group("queue").unwrap();
    assert_eq!(g.members.len(), 2);
    let held: std::collections::BTreeSet<&TopicPartition> =
        g.members.values().flat_map(|m| &m.assigned_partitions).collect();
    assert_eq!(held.len(), 3, "the leaver's partition is held again");
    assert!(!w
        .trace
        .iter()
        .any(|e| matches!(&e.kind, EventKind::StateChanged { to, .. } if to.as_str().contains("UNREVOKED"))));
}
