//! A share-partition on the leader of its data partition (KIP-932): Kafka's
//! `SharePartition` (core/src/main/java/kafka/server/share/SharePartition.java)
//! with its in-flight records (`InFlightState`, `RecordState`).
//!
//! The window runs from the share-partition start offset (SPSO, `startOffset`,
//! the first offset not yet in a terminal state) to `end_offset` (one past the
//! last offset held, Kafka's SPEO + 1). Every record inside it is AVAILABLE,
//! ACQUIRED by one member with a lock deadline, or terminal (ACKNOWLEDGED,
//! ARCHIVED). Kafka keeps batches and splits them into single offsets when
//! their records part ways; records here are kept per offset from the start,
//! which gives the same states (fidelity notes).

use crate::sim::scenario::share_config::ShareGroupConfig;
use crate::sim::share_message::{AcknowledgeType, AcknowledgementBatch, AcquiredRecords};
use crate::sim::types::{Errors, Millis};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `RecordState` (server/.../share/fetch/RecordState.java). ARCHIVING (the
/// 4.4 dead-letter queue, `share.version=2`) is not modelled.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum RecordState {
    AVAILABLE,
    ACQUIRED,
    ACKNOWLEDGED,
    ARCHIVED,
}

impl RecordState {
    /// ACKNOWLEDGED and ARCHIVED never change again.
    pub fn is_terminal(self) -> bool {
        matches!(self, RecordState::ACKNOWLEDGED | RecordState::ARCHIVED)
    }
}

/// `InFlightState` of one offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InFlightRecord {
    pub state: RecordState,
    /// Deliveries so far (`deliveryCount`, +1 on every acquisition).
    pub delivery_count: i32,
    /// The member holding it while ACQUIRED.
    pub member_id: Option<String>,
    /// When its acquisition lock expires while ACQUIRED (`acquisitionLockTimeoutTask`).
    pub lock_deadline: Option<Millis>,
}

/// What a state change did to one record, for the trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transition {
    pub offset: i64,
    pub to: RecordState,
    pub delivery_count: i32,
}

/// One share-partition: (group, topic-partition) on its leader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharePartition {
    /// SPSO.
    pub start_offset: i64,
    /// One past the last offset in the window (SPEO + 1); the next new offset to acquire.
    pub end_offset: i64,
    pub records: BTreeMap<i64, InFlightRecord>,
}

impl SharePartition {
    /// A share-partition whose window starts (and is empty) at `offset`.
    pub fn starting_at(offset: i64) -> SharePartition {
        SharePartition { start_offset: offset, end_offset: offset, records: BTreeMap::new() }
    }

    /// Records in the window that are not terminal.
    pub fn in_flight(&self) -> usize {
        self.records.values().filter(|r| !r.state.is_terminal()).count()
    }

    /// `acquire` (SharePartition L755): hands `member` up to `max_records`
    /// records — AVAILABLE ones inside the window first (`nextFetchOffset`
    /// rewinds to them), then new ones up to `log_end` while the window stays
    /// within `share.partition.max.record.locks` (`canAcquireRecords`). Each
    /// becomes ACQUIRED with its delivery count +1 and a lock until
    /// `now + share.record.lock.duration.ms`. A record already delivered
    /// `throttleRecordsDeliveryLimit` times is handed out on its own
    /// (`acquireSubsetBatchRecords`, `shouldThrottleRecordsDelivery`).
    pub fn acquire(
        &mut self,
        member: &str,
        log_end: i64,
        max_records: i64,
        cfg: &ShareGroupConfig,
        now: Millis,
    ) -> Vec<AcquiredRecords> {
        let throttle = cfg.throttle_delivery_limit();
        let mut picked: Vec<i64> = Vec::new();
        let mut alone = false;
        let available: Vec<(i64, i32)> = self
            .records
            .iter()
            .filter(|(_, r)| r.state == RecordState::AVAILABLE)
            .map(|(o, r)| (*o, r.delivery_count))
            .collect();
        for (offset, count) in available {
            if picked.len() as i64 >= max_records {
                break;
            }
            if count >= throttle {
                if picked.is_empty() {
                    picked.push(offset);
                    alone = true;
                }
                break;
            }
            picked.push(offset);
        }
        if !alone {
            while (picked.len() as i64) < max_records
                && self.end_offset < log_end
                && self.end_offset - self.start_offset < cfg.partition_max_record_locks
            {
                picked.push(self.end_offset);
                self.records.insert(
                    self.end_offset,
                    InFlightRecord {
                        state: RecordState::AVAILABLE,
                        delivery_count: 0,
                        member_id: None,
                        lock_deadline: None,
                    },
                );
                self.end_offset += 1;
            }
        }
        let deadline = now + cfg.record_lock_duration_ms;
        let mut out: Vec<AcquiredRecords> = Vec::new();
        for offset in picked {
            let r = self.records.get_mut(&offset).expect("picked from the window");
            r.state = RecordState::ACQUIRED;
            r.delivery_count += 1;
            r.member_id = Some(member.to_string());
            r.lock_deadline = Some(deadline);
            match out.last_mut() {
                Some(a) if a.last_offset + 1 == offset && a.delivery_count == r.delivery_count => {
                    a.last_offset = offset
                }
                _ => out.push(AcquiredRecords {
                    first_offset: offset,
                    last_offset: offset,
                    delivery_count: r.delivery_count,
                }),
            }
        }
        out
    }

    /// `acknowledge` (SharePartition L1016): every offset of every batch must
    /// be ACQUIRED by `member` (else INVALID_RECORD_STATE and nothing
    /// changes, "Member is not the owner of offset"); then ACCEPT →
    /// ACKNOWLEDGED, RELEASE → AVAILABLE (ARCHIVED at the delivery limit),
    /// REJECT → ARCHIVED, RENEW → the lock starts again (`ACK_TYPE_TO_RECORD_STATE`).
    pub fn acknowledge(
        &mut self,
        member: &str,
        batches: &[AcknowledgementBatch],
        cfg: &ShareGroupConfig,
        now: Millis,
    ) -> Result<Vec<Transition>, Errors> {
        for b in batches {
            if b.first_offset > b.last_offset {
                return Err(Errors::INVALID_REQUEST);
            }
            if b.ack_type == AcknowledgeType::Renew && !cfg.renew_acknowledge_enable {
                return Err(Errors::INVALID_RECORD_STATE);
            }
            for o in b.first_offset..=b.last_offset {
                let held = self
                    .records
                    .get(&o)
                    .is_some_and(|r| r.state == RecordState::ACQUIRED && r.member_id.as_deref() == Some(member));
                if !held {
                    return Err(Errors::INVALID_RECORD_STATE);
                }
            }
        }
        let mut done = Vec::new();
        for b in batches {
            for o in b.first_offset..=b.last_offset {
                let r = self.records.get_mut(&o).expect("validated above");
                match b.ack_type {
                    AcknowledgeType::Accept => finish(r, RecordState::ACKNOWLEDGED),
                    AcknowledgeType::Reject => finish(r, RecordState::ARCHIVED),
                    AcknowledgeType::Release => release(r, cfg),
                    AcknowledgeType::Renew => r.lock_deadline = Some(now + cfg.record_lock_duration_ms),
                }
                done.push(Transition { offset: o, to: r.state, delivery_count: r.delivery_count });
            }
        }
        self.advance_start();
        Ok(done)
    }

    /// `releaseAcquiredRecords(memberId)` (SharePartition L1088): the member's
    /// share session closed (its connection dropped, or it closed it): every
    /// record it holds is released at once, its delivery count kept (NO_OP
    /// since 4.2, KAFKA-19972).
    pub fn release_member(&mut self, member: &str, cfg: &ShareGroupConfig) -> Vec<Transition> {
        self.release_where(cfg, |r| r.member_id.as_deref() == Some(member))
    }

    /// `releaseAcquisitionLockOnTimeout` (SharePartition L2961): records whose
    /// lock has expired by `now` become AVAILABLE again (ARCHIVED at the limit).
    pub fn expire_locks(&mut self, now: Millis, cfg: &ShareGroupConfig) -> Vec<Transition> {
        self.release_where(cfg, |r| r.lock_deadline.is_some_and(|d| d <= now))
    }

    fn release_where(&mut self, cfg: &ShareGroupConfig, pick: impl Fn(&InFlightRecord) -> bool) -> Vec<Transition> {
        let mut done = Vec::new();
        for (o, r) in self.records.iter_mut() {
            if r.state == RecordState::ACQUIRED && pick(r) {
                release(r, cfg);
                done.push(Transition { offset: *o, to: r.state, delivery_count: r.delivery_count });
            }
        }
        self.advance_start();
        done
    }

    /// The earliest lock deadline, when the leader checks again.
    pub fn next_lock_deadline(&self) -> Option<Millis> {
        self.records.values().filter_map(|r| r.lock_deadline).min()
    }

    /// `maybeUpdateCachedStateAndOffsets` / `canMoveStartOffset`: SPSO moves
    /// past terminal records at the head of the window, which are dropped;
    /// an empty window starts at its end.
    fn advance_start(&mut self) {
        while let Some(e) = self.records.first_entry() {
            if !e.get().state.is_terminal() {
                break;
            }
            e.remove();
        }
        self.start_offset = self.records.keys().next().copied().unwrap_or(self.end_offset);
    }

    /// What the share coordinator keeps of it (`ShareSnapshot`: StartOffset
    /// and the state batches). An ACQUIRED record is written as it was before
    /// its acquisition, since acquisitions are never persisted (SharePartition
    /// writes only on acknowledge, release and lock timeout).
    pub fn persisted(&self, before: &PersistedShareState) -> PersistedShareState {
        let mut batches = BTreeMap::new();
        for (o, r) in &self.records {
            let entry = if r.state == RecordState::ACQUIRED {
                before.batches.get(o).copied()
            } else {
                Some((r.state, r.delivery_count))
            };
            if let Some(e) = entry {
                batches.insert(*o, e);
            }
        }
        let last = batches.keys().next_back().map_or(self.start_offset, |o| o + 1);
        PersistedShareState { start_offset: self.start_offset, end_offset: last, batches }
    }

    /// A new leader's share-partition, rebuilt from the share coordinator's
    /// state (`maybeInitialize`): the window from SPSO to the last persisted
    /// offset, every offset without a state batch AVAILABLE with no delivery
    /// (the gap handling of `GapWindow`).
    pub fn from_persisted(p: &PersistedShareState) -> SharePartition {
        let mut sp = SharePartition::starting_at(p.start_offset);
        for o in p.start_offset..p.end_offset.max(p.start_offset) {
            let (state, delivery_count) = p.batches.get(&o).copied().unwrap_or((RecordState::AVAILABLE, 0));
            // An ACQUIRED record is never persisted; a stored one reads as AVAILABLE.
            let state = if state == RecordState::ACQUIRED { RecordState::AVAILABLE } else { state };
            sp.records.insert(o, InFlightRecord { state, delivery_count, member_id: None, lock_deadline: None });
        }
        sp.end_offset = p.end_offset.max(p.start_offset);
        sp.advance_start();
        sp
    }
}

/// A share-partition's durable state in `__share_group_state` (`ShareSnapshot`):
/// SPSO, the end of the window as written, and each written offset's state
/// and delivery count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersistedShareState {
    pub start_offset: i64,
    pub end_offset: i64,
    pub batches: BTreeMap<i64, (RecordState, i32)>,
}

fn finish(r: &mut InFlightRecord, to: RecordState) {
    r.state = to;
    r.member_id = None;
    r.lock_deadline = None;
}

/// `InFlightState.tryUpdateState` to AVAILABLE: ARCHIVED instead once the
/// record has been delivered `share.delivery.count.limit` times.
fn release(r: &mut InFlightRecord, cfg: &ShareGroupConfig) {
    let to = if r.delivery_count >= cfg.delivery_count_limit { RecordState::ARCHIVED } else { RecordState::AVAILABLE };
    finish(r, to);
}
