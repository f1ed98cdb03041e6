//! `SharePartition` on its leader, driven by hand: acquisition, acknowledgement
//! types, lock expiry, a member's release, the delivery limit, throttling, the
//! in-flight cap and what the share coordinator keeps.

use groupscope::sim::cluster::share_partition::{PersistedShareState, RecordState, SharePartition};
use groupscope::sim::scenario::share_config::ShareGroupConfig;
use groupscope::sim::share_message::{AcknowledgeType, AcknowledgementBatch, AcquiredRecords};
use groupscope::sim::Errors;

fn cfg() -> ShareGroupConfig {
    ShareGroupConfig::default()
}

fn ack(first: i64, last: i64, ack_type: AcknowledgeType) -> AcknowledgementBatch {
    AcknowledgementBatch { first_offset: first, last_offset: last, ack_type }
}

fn state(sp: &SharePartition, offset: i64) -> Option<(RecordState, i32)> {
    sp.records.get(&offset).map(|r| (r.state, r.delivery_count))
}

/// `SharePartition.acquire`: new records become ACQUIRED by the member with
/// delivery count 1 and a lock of `share.record.lock.duration.ms` (30 s).
#[test]
fn acquire_hands_out_new_records_with_delivery_count_one_and_a_30_s_lock() {
    let mut sp = SharePartition::starting_at(100);
    let got = sp.acquire("m1", 150, 500, &cfg(), 1000);
    assert_eq!(got, vec![AcquiredRecords { first_offset: 100, last_offset: 149, delivery_count: 1 }]);
    assert_eq!((sp.start_offset, sp.end_offset), (100, 150));
    let r = &sp.records[&120];
    assert_eq!((r.state, r.member_id.as_deref(), r.lock_deadline), (RecordState::ACQUIRED, Some("m1"), Some(31_000)));
    // Nothing left for a second member: the leader hands out disjoint records.
    assert!(sp.acquire("m2", 150, 500, &cfg(), 1000).is_empty());
}

/// Scenario 3 of the fact sheet: ACCEPT makes records ACKNOWLEDGED; the
/// start offset moves only past a terminal head (`canMoveStartOffset`).
#[test]
fn the_start_offset_slides_only_past_a_terminal_head() {
    let mut sp = SharePartition::starting_at(100);
    sp.acquire("m1", 110, 500, &cfg(), 0);
    sp.acknowledge("m1", &[ack(101, 109, AcknowledgeType::Accept)], &cfg(), 10).unwrap();
    assert_eq!(sp.start_offset, 100, "offset 100 is still ACQUIRED: it holds SPSO back");
    sp.acknowledge("m1", &[ack(100, 100, AcknowledgeType::Accept)], &cfg(), 20).unwrap();
    assert_eq!(sp.start_offset, 110);
    assert!(sp.records.is_empty(), "terminal records below SPSO are dropped from the cache");
}

/// `ACK_TYPE_TO_RECORD_STATE`: RELEASE → AVAILABLE (count kept), REJECT →
/// ARCHIVED, RENEW → still ACQUIRED with a new lock (KIP-1222).
#[test]
fn release_reject_and_renew_do_what_kafka_maps_them_to() {
    let mut sp = SharePartition::starting_at(0);
    sp.acquire("m1", 3, 500, &cfg(), 0);
    sp.acknowledge(
        "m1",
        &[ack(0, 0, AcknowledgeType::Release), ack(1, 1, AcknowledgeType::Reject), ack(2, 2, AcknowledgeType::Renew)],
        &cfg(),
        5000,
    )
    .unwrap();
    assert_eq!(state(&sp, 0), Some((RecordState::AVAILABLE, 1)));
    assert_eq!(state(&sp, 1), Some((RecordState::ARCHIVED, 1)));
    assert_eq!(state(&sp, 2), Some((RecordState::ACQUIRED, 1)));
    assert_eq!(sp.records[&2].lock_deadline, Some(35_000), "RENEW restarts the 30 s lock");
    // The released record is delivered again, with its count going up.
    let again = sp.acquire("m2", 3, 500, &cfg(), 6000);
    assert_eq!(again, vec![AcquiredRecords { first_offset: 0, last_offset: 0, delivery_count: 2 }]);
}

/// RENEW is refused with INVALID_RECORD_STATE when `share.renew.acknowledge.enable` is false.
#[test]
fn renew_is_refused_when_the_group_disables_it() {
    let mut sp = SharePartition::starting_at(0);
    sp.acquire("m1", 1, 500, &cfg(), 0);
    let off = ShareGroupConfig { renew_acknowledge_enable: false, ..cfg() };
    assert_eq!(sp.acknowledge("m1", &[ack(0, 0, AcknowledgeType::Renew)], &off, 1), Err(Errors::INVALID_RECORD_STATE));
}

/// "Member is not the owner of offset" (SharePartition L2336-2343): another
/// member's acknowledgement, or one after the lock expired, is refused and
/// changes nothing.
#[test]
fn only_the_member_holding_a_record_may_acknowledge_it() {
    let mut sp = SharePartition::starting_at(0);
    sp.acquire("m1", 2, 500, &cfg(), 0);
    assert_eq!(
        sp.acknowledge("m2", &[ack(0, 1, AcknowledgeType::Accept)], &cfg(), 1),
        Err(Errors::INVALID_RECORD_STATE)
    );
    assert_eq!(state(&sp, 0), Some((RecordState::ACQUIRED, 1)));
    // The lock expires (releaseAcquisitionLockOnTimeout): a late ACCEPT is refused.
    let expired = sp.expire_locks(30_000, &cfg());
    assert_eq!(expired.len(), 2);
    assert_eq!(state(&sp, 1), Some((RecordState::AVAILABLE, 1)), "the count is kept on a timeout");
    assert_eq!(
        sp.acknowledge("m1", &[ack(0, 1, AcknowledgeType::Accept)], &cfg(), 30_001),
        Err(Errors::INVALID_RECORD_STATE)
    );
}

/// `releaseAcquiredRecords(memberId)`: a closed session releases every record
/// the member holds at once, delivery count kept (NO_OP since 4.2, KAFKA-19972).
#[test]
fn a_members_release_keeps_the_delivery_count() {
    let mut sp = SharePartition::starting_at(0);
    sp.acquire("m1", 2, 1, &cfg(), 0);
    sp.acquire("m2", 2, 1, &cfg(), 0);
    let done = sp.release_member("m1", &cfg());
    assert_eq!(done.len(), 1);
    assert_eq!(state(&sp, 0), Some((RecordState::AVAILABLE, 1)));
    assert_eq!(state(&sp, 1), Some((RecordState::ACQUIRED, 1)), "m2's record is untouched");
}

/// `InFlightState.tryUpdateState`: at the delivery limit (5) a release
/// archives the record instead, and SPSO moves past it. Throttling
/// (`shouldThrottleRecordsDelivery`, `throttleRecordsDeliveryLimit` =
/// `max(2, ceil(5/2))` = 3): once a record has been delivered 3 times it is
/// handed out on its own, though new records wait behind it.
#[test]
fn a_poison_record_is_delivered_five_times_alone_after_three_then_archived() {
    let mut sp = SharePartition::starting_at(0);
    let mut alone = Vec::new();
    for delivery in 1..=5 {
        // Two new records arrive before every fetch.
        let got = sp.acquire("m1", 1 + 2 * delivery, 500, &cfg(), 0);
        assert_eq!((got[0].first_offset, got[0].delivery_count), (0, delivery as i32));
        let offsets: Vec<i64> = got.iter().flat_map(|a| a.first_offset..=a.last_offset).collect();
        alone.push(offsets == vec![0]);
        // The application fails on offset 0 (RELEASE) and accepts the rest.
        let mut acks = vec![ack(0, 0, AcknowledgeType::Release)];
        if offsets.len() > 1 {
            acks.push(ack(offsets[1], *offsets.last().unwrap(), AcknowledgeType::Accept));
        }
        sp.acknowledge("m1", &acks, &cfg(), 1).unwrap();
    }
    assert_eq!(alone, vec![false, false, false, true, true], "deliveries 4 and 5 of offset 0 come alone");
    assert_eq!(state(&sp, 0), None, "archived at the fifth release, then dropped below SPSO");
    assert!(sp.start_offset > 0, "SPSO moved past the archived record");
    let next = sp.acquire("m1", 11, 500, &cfg(), 0);
    assert!(next.iter().all(|a| a.first_offset > 0), "never delivered again");
}

/// `canAcquireRecords`: no record past the window is acquired once it holds
/// `share.partition.max.record.locks` records; released ones inside still are.
#[test]
fn the_in_flight_cap_stops_new_records_but_not_released_ones() {
    let small = ShareGroupConfig { partition_max_record_locks: 100, ..cfg() };
    let mut sp = SharePartition::starting_at(0);
    let got = sp.acquire("m1", 1000, 500, &small, 0);
    assert_eq!(got[0].last_offset, 99, "100 records at most in flight");
    assert!(sp.acquire("m2", 1000, 500, &small, 0).is_empty());
    sp.acknowledge("m1", &[ack(50, 50, AcknowledgeType::Release)], &small, 1).unwrap();
    let got = sp.acquire("m2", 1000, 500, &small, 2);
    assert_eq!(got, vec![AcquiredRecords { first_offset: 50, last_offset: 50, delivery_count: 2 }]);
    sp.acknowledge("m1", &[ack(0, 9, AcknowledgeType::Accept)], &small, 3).unwrap();
    assert_eq!(sp.acquire("m2", 1000, 500, &small, 4)[0].first_offset, 100, "the window moved by 10");
    assert_eq!(sp.end_offset, 110);
}

/// Acquisitions are never persisted (SharePartition writes on acknowledge,
/// release and timeout only), so a new leader rebuilt from the share
/// coordinator's state finds acquired-but-unacknowledged records AVAILABLE.
#[test]
fn a_new_leader_finds_acquired_records_available_and_acknowledged_ones_terminal() {
    let mut sp = SharePartition::starting_at(0);
    sp.acquire("m1", 10, 500, &cfg(), 0);
    sp.acknowledge("m1", &[ack(3, 4, AcknowledgeType::Accept)], &cfg(), 1).unwrap();
    let stored = sp.persisted(&PersistedShareState::default());
    assert_eq!(stored.start_offset, 0);
    let rebuilt = SharePartition::from_persisted(&stored);
    assert_eq!(state(&rebuilt, 3), Some((RecordState::ACKNOWLEDGED, 1)));
    assert!(rebuilt.records.values().filter(|r| !r.state.is_terminal()).all(|r| r.state == RecordState::AVAILABLE));
    let mut rebuilt = rebuilt;
    let again = rebuilt.acquire("m2", 10, 500, &cfg(), 2);
    let offsets: Vec<i64> = again.iter().flat_map(|a| a.first_offset..=a.last_offset).collect();
    assert_eq!(offsets, vec![0, 1, 2, 5, 6, 7, 8, 9], "delivered again, except what was acknowledged");
}
