//! The share consumer's records (`ShareConsumeRequestManager`, `ShareConsumerImpl.poll`):
//! each `poll()` first acknowledges what the previous one returned —
//! implicit mode ACCEPTs all of it; explicit mode ACCEPTs what the
//! application processed and RELEASEs or REJECTs what it failed on — then
//! sends one ShareFetch per partition leader, the acknowledgements for that
//! leader's partitions piggybacked, each on its share session (epoch 0 opens
//! it, then 1, 2, ...). What the fetches acquire, the application processes
//! until its next `poll()`.

use super::{HeldRecord, ShareConsumer};
use crate::assign::TopicPartition;
use crate::sim::client::poll_loop::{MainThread, IDLE_POLL_MS};
use crate::sim::ctx::Ctx;
use crate::sim::message::{ApiKey, Request};
use crate::sim::note::Note;
use crate::sim::out::{ClientTimer, Out};
use crate::sim::scenario::share_config::{AcknowledgementMode, OnPoison};
use crate::sim::share_message::{
    AcknowledgeType, AcknowledgementBatch, ShareAcknowledgeRequest, ShareAcknowledgeResponse, ShareFetchRequest,
    ShareFetchResponse, SharePartitionAcks, SHARE_SESSION_FINAL_EPOCH,
};
use crate::sim::share_note::ShareNote;
use crate::sim::trace::EventKind;
use crate::sim::types::Errors;
use std::collections::BTreeMap;

/// Adds one record's acknowledgement, merged into the last batch when it
/// continues it with the same type.
fn push_ack(batches: &mut Vec<AcknowledgementBatch>, offset: i64, ack_type: AcknowledgeType) {
    match batches.last_mut() {
        Some(b) if b.last_offset + 1 == offset && b.ack_type == ack_type => b.last_offset = offset,
        _ => batches.push(AcknowledgementBatch { first_offset: offset, last_offset: offset, ack_type }),
    }
}

/// The held records as (partition, from, to) ranges, for the drawing.
fn ranges(held: &[HeldRecord]) -> Vec<(TopicPartition, i64, i64)> {
    let mut out: Vec<(TopicPartition, i64, i64)> = Vec::new();
    for r in held {
        match out.last_mut() {
            Some((tp, _, to)) if *tp == r.partition && *to == r.offset => *to += 1,
            _ => out.push((r.partition.clone(), r.offset, r.offset + 1)),
        }
    }
    out
}

impl ShareConsumer {
    /// The application calls `poll()`.
    pub(crate) fn poll(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.fatal.is_some() || self.closing || self.has_in_flight(ApiKey::ShareFetch) {
            return;
        }
        if let Some(until) = self.processing_until.filter(|t| *t > ctx.now) {
            return out.set_timer(ClientTimer::Poll, until);
        }
        self.last_poll = ctx.now;
        self.acknowledge_held(out);
        self.fetched.clear();
        let mut by_leader: BTreeMap<u32, Vec<SharePartitionAcks>> = BTreeMap::new();
        let mut acks_only: BTreeMap<u32, Vec<SharePartitionAcks>> = BTreeMap::new();
        let mut tps: Vec<TopicPartition> = self.assignment.clone();
        tps.extend(self.pending_acks.keys().filter(|tp| !self.assignment.contains(tp)).cloned());
        for tp in tps {
            let Some(Some(leader)) = ctx.cluster.partition_leader(&tp) else { continue };
            let acknowledgements = self.pending_acks.remove(&tp).unwrap_or_default();
            let entry = SharePartitionAcks { partition: tp.clone(), acknowledgements };
            if self.assignment.contains(&tp) {
                by_leader.entry(leader).or_default().push(entry);
            } else {
                acks_only.entry(leader).or_default().push(entry);
            }
        }
        for (leader, partitions) in acks_only {
            // Acknowledgements for partitions no longer assigned still go to their leader.
            match by_leader.get_mut(&leader) {
                Some(fetch) => fetch.extend(partitions.into_iter().filter(|p| !p.acknowledgements.is_empty())),
                None => {
                    let epoch = self.next_session_epoch(leader);
                    let req = ShareAcknowledgeRequest {
                        group_id: self.group_id.clone(),
                        member_id: self.member_id.clone(),
                        share_session_epoch: epoch,
                        partitions,
                    };
                    self.send(ctx.now, leader, Request::ShareAcknowledge(req), out);
                }
            }
        }
        if by_leader.is_empty() {
            self.main = MainThread::Idle;
            return out.set_timer(ClientTimer::Poll, ctx.now + IDLE_POLL_MS);
        }
        for (leader, partitions) in by_leader {
            let epoch = self.next_session_epoch(leader);
            let req = ShareFetchRequest {
                group_id: self.group_id.clone(),
                member_id: self.member_id.clone(),
                share_session_epoch: epoch,
                max_wait_ms: self.config.fetch_max_wait_ms,
                max_records: self.config.max_poll_records,
                partitions,
            };
            self.send(ctx.now, leader, Request::ShareFetch(req), out);
        }
    }

    /// The epoch of the next request on the share session with `leader`.
    fn next_session_epoch(&mut self, leader: u32) -> i32 {
        let next = self.sessions.entry(leader).or_insert(0);
        let epoch = *next;
        *next = next.wrapping_add(1).max(1);
        epoch
    }

    /// The records the previous `poll()` returned are done: each gets its
    /// acknowledgement, and the processed ones are counted.
    pub(crate) fn acknowledge_held(&mut self, out: &mut Out) {
        let held = std::mem::take(&mut self.held);
        self.processing_until = None;
        self.main = MainThread::InPoll;
        let mut processed: BTreeMap<TopicPartition, Vec<i64>> = BTreeMap::new();
        for r in held {
            let poison = self.config.acknowledgement_mode == AcknowledgementMode::Explicit
                && self.config.poison_records.iter().any(|p| p.is(&r.partition, r.offset));
            let ack_type = if poison {
                match self.config.on_poison {
                    OnPoison::Release => AcknowledgeType::Release,
                    OnPoison::Reject => AcknowledgeType::Reject,
                }
            } else {
                processed.entry(r.partition.clone()).or_default().push(r.offset);
                AcknowledgeType::Accept
            };
            if poison {
                let note = ShareNote::PoisonRecord { partition: r.partition.clone(), offset: r.offset, ack_type };
                out.emit(EventKind::Note { node: self.node(), note: Note::Share(note) });
            }
            push_ack(self.pending_acks.entry(r.partition).or_default(), r.offset, ack_type);
        }
        for (tp, mut offsets) in processed {
            offsets.sort_unstable();
            let mut i = 0;
            while i < offsets.len() {
                let mut j = i;
                while j + 1 < offsets.len() && offsets[j + 1] == offsets[j] + 1 {
                    j += 1;
                }
                out.emit(EventKind::RecordsProcessed {
                    node: self.node(),
                    partition: tp.clone(),
                    from: offsets[i],
                    to: offsets[j] + 1,
                    redelivered: 0,
                });
                i = j + 1;
            }
        }
    }

    /// A ShareFetch answered: the acquired records join this poll's batch.
    pub(crate) fn on_share_fetch(&mut self, ctx: &mut Ctx, broker: u32, r: ShareFetchResponse, out: &mut Out) {
        if matches!(r.error, Errors::SHARE_SESSION_NOT_FOUND | Errors::INVALID_SHARE_SESSION_EPOCH) {
            // The acknowledgements it carried are lost; a new session opens next time.
            self.sessions.remove(&broker);
        }
        for p in r.partitions {
            for a in &p.acquired {
                for offset in a.first_offset..=a.last_offset {
                    self.fetched.push(HeldRecord {
                        partition: p.partition.clone(),
                        offset,
                        delivery_count: a.delivery_count,
                    });
                }
            }
        }
        self.maybe_finish_poll(ctx, out);
    }

    pub(crate) fn on_share_acknowledge(&mut self, broker: u32, r: ShareAcknowledgeResponse) {
        if matches!(r.error, Errors::SHARE_SESSION_NOT_FOUND | Errors::INVALID_SHARE_SESSION_EPOCH) {
            self.sessions.remove(&broker);
        }
    }

    /// Every ShareFetch of this poll answered: the application processes
    /// what they acquired, then polls again.
    pub(crate) fn maybe_finish_poll(&mut self, ctx: &mut Ctx, out: &mut Out) {
        if self.has_in_flight(ApiKey::ShareFetch) || self.closing || self.fatal.is_some() {
            return;
        }
        if self.fetched.is_empty() {
            return out.set_timer(ClientTimer::Poll, ctx.now + 1);
        }
        self.held = std::mem::take(&mut self.fetched);
        let until = ctx.now + (self.held.len() as u64 * self.config.processing_ms_per_record).max(1);
        self.processing_until = Some(until);
        self.main = MainThread::Processing { until, batch: ranges(&self.held) };
        out.set_timer(ClientTimer::Poll, until);
    }

    /// `close()`'s final request on each share session (epoch −1), carrying
    /// the last acknowledgements; the leader then releases anything else
    /// the member holds.
    pub(crate) fn send_final_acknowledgements(&mut self, ctx: &Ctx, out: &mut Out) {
        let mut by_leader: BTreeMap<u32, Vec<SharePartitionAcks>> = BTreeMap::new();
        for (tp, acknowledgements) in std::mem::take(&mut self.pending_acks) {
            if let Some(Some(leader)) = ctx.cluster.partition_leader(&tp) {
                by_leader.entry(leader).or_default().push(SharePartitionAcks { partition: tp, acknowledgements });
            }
        }
        let brokers: Vec<u32> = self.sessions.keys().copied().chain(by_leader.keys().copied()).collect();
        for b in brokers.into_iter().collect::<std::collections::BTreeSet<_>>() {
            let req = ShareAcknowledgeRequest {
                group_id: self.group_id.clone(),
                member_id: self.member_id.clone(),
                share_session_epoch: SHARE_SESSION_FINAL_EPOCH,
                partitions: by_leader.remove(&b).unwrap_or_default(),
            };
            self.send(ctx.now, b, Request::ShareAcknowledge(req), out);
        }
        self.sessions.clear();
    }
}
