//! The partition leader's side of share groups: Kafka's `SharePartitionManager`
//! (core/.../server/share/SharePartitionManager.java) with its share
//! sessions (`ShareSessionCache`), ShareFetch with piggybacked
//! acknowledgements, ShareAcknowledge, held fetches (`DelayedShareFetch`),
//! acquisition-lock timeouts, and the release of a member's records when its
//! connection closes. The leader never asks the group coordinator who is a
//! member: it serves whoever fetches (SPM has no group-coordinator reference).

use crate::assign::TopicPartition;
use crate::sim::cluster::share_partition::{PersistedShareState, RecordState, SharePartition, Transition};
use crate::sim::cluster::share_state::ShareStateWrite;
use crate::sim::ctx::Ctx;
use crate::sim::message::Response;
use crate::sim::note::Note;
use crate::sim::out::{BrokerTimer, Out};
use crate::sim::scenario::share_config::ShareAutoOffsetReset;
use crate::sim::share_message::{
    AcknowledgeType, ShareAcknowledgeRequest, ShareAcknowledgeResponse, ShareFetchRequest, ShareFetchResponse,
    ShareFetchedPartition, SharePartitionAcks, SHARE_SESSION_FINAL_EPOCH, SHARE_SESSION_INITIAL_EPOCH,
};
use crate::sim::share_note::{ReleaseCause, ShareNote};
use crate::sim::trace::EventKind;
use crate::sim::types::{Errors, Millis, NodeId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One member's share session on this broker (`ShareSession`): the client
/// process whose connection carries it, and the epoch its next request must use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareSession {
    pub client: NodeId,
    pub next_epoch: i32,
}

/// A ShareFetch held until records can be acquired or its wait ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldShareFetch {
    pub group_id: String,
    pub member_id: String,
    pub max_records: i64,
    /// Each partition with the outcome of the acknowledgements it carried.
    pub partitions: Vec<(TopicPartition, Errors)>,
    pub deadline: Millis,
}

/// The share state a broker holds in memory, all lost when it crashes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharePartitionManager {
    /// group id → topic-partition → share-partition (`partitionCache`).
    pub partitions: BTreeMap<String, BTreeMap<TopicPartition, SharePartition>>,
    /// group id → member id → session.
    pub sessions: BTreeMap<String, BTreeMap<String, ShareSession>>,
    /// Held fetches by (client, correlation).
    pub held: BTreeMap<NodeId, BTreeMap<u64, HeldShareFetch>>,
}

/// Who a ShareFetch or ShareAcknowledge is from, and on which session epoch.
#[derive(Clone, Copy)]
struct SessionRef<'a> {
    group_id: &'a str,
    member_id: &'a str,
    epoch: i32,
}

/// `PartitionRotateStrategy.rotateRoundRobin`, applied by
/// `SharePartitionManager.fetchMessages` with the request's share session
/// epoch so that no share-partition is starved of the fetch's records: the
/// first `epoch % n` partitions move to the end (none at the initial and
/// final epochs, 0 and -1).
fn rotate_round_robin<T>(mut partitions: Vec<T>, session_epoch: i32) -> Vec<T> {
    if partitions.len() > 1 && session_epoch >= 1 {
        let at = session_epoch as usize % partitions.len();
        partitions.rotate_left(at);
    }
    partitions
}

/// The short name the narration uses for a member: the client process (`c3`).
fn client_name(client: NodeId) -> String {
    client.to_string()
}

impl SharePartitionManager {
    pub fn clear(&mut self) {
        *self = SharePartitionManager::default();
    }

    /// `ShareSessionCache.maybeCreateSession` and the epoch check of
    /// `ShareFetchContext`: epoch 0 opens (or replaces) the session, −1 is the
    /// last request on it, anything else must be the next in sequence.
    fn check_session(
        &mut self,
        ctx: &Ctx,
        broker: u32,
        from: NodeId,
        who: SessionRef,
        out: &mut Out,
    ) -> Result<(), Errors> {
        let SessionRef { group_id, member_id, epoch } = who;
        let sessions = self.sessions.entry(group_id.to_string()).or_default();
        if epoch == SHARE_SESSION_INITIAL_EPOCH {
            sessions.insert(member_id.to_string(), ShareSession { client: from, next_epoch: 1 });
            let note = ShareNote::SessionOpened { client: client_name(from), broker };
            out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
            return Ok(());
        }
        let error = match sessions.get_mut(member_id) {
            None => Some(Errors::SHARE_SESSION_NOT_FOUND),
            Some(_) if epoch == SHARE_SESSION_FINAL_EPOCH => None,
            Some(s) if s.next_epoch != epoch => Some(Errors::INVALID_SHARE_SESSION_EPOCH),
            Some(s) => {
                s.next_epoch = s.next_epoch.wrapping_add(1).max(1);
                None
            }
        };
        match error {
            Some(e) => {
                let note = ShareNote::SessionRefused { client: client_name(from), broker, error: e };
                out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
                Err(e)
            }
            None => Ok(()),
        }
    }

    /// The share-partition of `group_id` on `tp`, loaded from the share
    /// coordinator on first use (`SharePartition.maybeInitialize`): a start
    /// offset of −1 applies `share.auto.offset.reset` (`startOffsetDuringInitialization`).
    fn share_partition<'a>(
        &'a mut self,
        ctx: &Ctx,
        group_id: &str,
        tp: &TopicPartition,
        out: &mut Out,
    ) -> Option<&'a mut SharePartition> {
        let group = self.partitions.entry(group_id.to_string()).or_default();
        if !group.contains_key(tp) {
            let stored = ctx.cluster.share_state.get(group_id).and_then(|g| g.get(tp))?;
            let sp = if stored.start_offset < 0 {
                let start = match ctx.cluster.share_group_config(group_id).auto_offset_reset {
                    ShareAutoOffsetReset::Latest => ctx.cluster.end_offset(tp),
                    ShareAutoOffsetReset::Earliest => 0,
                };
                SharePartition::starting_at(start)
            } else {
                let sp = SharePartition::from_persisted(stored);
                let note = ShareNote::SharePartitionLoaded {
                    partition: tp.clone(),
                    start_offset: sp.start_offset,
                    end_offset: sp.end_offset,
                };
                out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
                sp
            };
            group.insert(tp.clone(), sp);
        }
        group.get_mut(tp)
    }

    /// Why `broker` cannot serve `tp`: NOT_LEADER_OR_FOLLOWER with the leader
    /// its metadata names, or UNKNOWN_TOPIC_OR_PARTITION.
    fn leadership_error(ctx: &Ctx, broker: u32, tp: &TopicPartition) -> Option<(Errors, Option<u32>)> {
        match ctx.cluster.partition_leader(tp) {
            None => Some((Errors::UNKNOWN_TOPIC_OR_PARTITION, None)),
            Some(l) if l != Some(broker) => Some((Errors::NOT_LEADER_OR_FOLLOWER, l)),
            Some(_) => None,
        }
    }

    /// Applies one partition's acknowledgements, writing the new state.
    fn acknowledge(
        &mut self,
        ctx: &Ctx,
        group_id: &str,
        member_id: &str,
        from: NodeId,
        acks: &SharePartitionAcks,
        out: &mut Out,
    ) -> Errors {
        if acks.acknowledgements.is_empty() {
            return Errors::NONE;
        }
        let cfg = ctx.cluster.share_group_config(group_id);
        let tp = &acks.partition;
        let Some(sp) = self.share_partition(ctx, group_id, tp, out) else { return Errors::UNKNOWN_TOPIC_OR_PARTITION };
        match sp.acknowledge(member_id, &acks.acknowledgements, &cfg, ctx.now) {
            Ok(done) => {
                let mut by_type: BTreeMap<AcknowledgeType, i64> = BTreeMap::new();
                for b in &acks.acknowledgements {
                    *by_type.entry(b.ack_type).or_default() += b.last_offset - b.first_offset + 1;
                }
                for (ack_type, records) in by_type {
                    let note = ShareNote::RecordsAcknowledged {
                        partition: tp.clone(),
                        client: client_name(from),
                        ack_type,
                        records,
                    };
                    out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
                }
                note_archived(ctx, group_id, tp, &done, out);
                self.write(ctx, group_id, tp, out);
                Errors::NONE
            }
            Err(error) => {
                let note =
                    ShareNote::AcknowledgementRefused { partition: tp.clone(), client: client_name(from), error };
                out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
                error
            }
        }
    }

    /// WriteShareGroupState: the share-partition's state after a change.
    fn write(&self, ctx: &Ctx, group_id: &str, tp: &TopicPartition, out: &mut Out) {
        let Some(sp) = self.partitions.get(group_id).and_then(|g| g.get(tp)) else { return };
        let before = ctx.cluster.share_state.get(group_id).and_then(|g| g.get(tp)).cloned().unwrap_or_default();
        let state = sp.persisted(&before);
        out.share_state.push(ShareStateWrite { group_id: group_id.to_string(), partition: tp.clone(), state });
    }

    /// Acquires records for `member_id` on each partition it can; the
    /// answer, and whether anything was acquired.
    fn acquire_all(
        &mut self,
        ctx: &Ctx,
        broker: u32,
        held: &HeldShareFetch,
        from: NodeId,
        out: &mut Out,
    ) -> (Vec<ShareFetchedPartition>, bool) {
        let cfg = ctx.cluster.share_group_config(&held.group_id);
        let mut left = held.max_records;
        let mut answer = Vec::new();
        let mut any = false;
        for (tp, ack_error) in &held.partitions {
            let mut p = ShareFetchedPartition {
                partition: tp.clone(),
                error: Errors::NONE,
                acknowledge_error: *ack_error,
                acquired: Vec::new(),
                current_leader: None,
            };
            if let Some((error, leader)) = Self::leadership_error(ctx, broker, tp) {
                p.error = error;
                p.current_leader = leader;
                answer.push(p);
                continue;
            }
            let log_end = ctx.cluster.end_offset(tp);
            let (now, member) = (ctx.now, held.member_id.clone());
            match self.share_partition(ctx, &held.group_id, tp, out) {
                None => p.error = Errors::UNKNOWN_TOPIC_OR_PARTITION,
                Some(sp) if left > 0 => {
                    p.acquired = sp.acquire(&member, log_end, left, &cfg, now);
                    let next = sp.next_lock_deadline();
                    left -= p.records();
                    for a in &p.acquired {
                        let note = ShareNote::RecordsAcquired {
                            partition: tp.clone(),
                            client: client_name(from),
                            first: a.first_offset,
                            last: a.last_offset,
                            delivery_count: a.delivery_count,
                        };
                        out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
                    }
                    if !p.acquired.is_empty() {
                        any = true;
                        if let Some(at) = next {
                            out.set_timer(
                                BrokerTimer::ShareLock { group_id: held.group_id.clone(), partition: tp.clone() },
                                at,
                            );
                        }
                    }
                }
                Some(_) => {}
            }
            answer.push(p);
        }
        (answer, any)
    }

    /// The session check of a ShareFetch or ShareAcknowledge, then its
    /// acknowledgements, partition by partition (a partition this broker does
    /// not lead gets its leadership error for them).
    fn session_acks(
        &mut self,
        ctx: &Ctx,
        broker: u32,
        from: NodeId,
        who: SessionRef,
        acks: &[SharePartitionAcks],
        out: &mut Out,
    ) -> Result<Vec<(TopicPartition, Errors)>, Errors> {
        self.check_session(ctx, broker, from, who, out)?;
        let mut partitions = Vec::new();
        for a in acks {
            let error = match Self::leadership_error(ctx, broker, &a.partition) {
                Some((e, _)) if !a.acknowledgements.is_empty() => e,
                Some(_) => Errors::NONE,
                None => self.acknowledge(ctx, who.group_id, who.member_id, from, a, out),
            };
            partitions.push((a.partition.clone(), error));
        }
        Ok(partitions)
    }

    /// ShareFetch (`KafkaApis.handleShareFetchRequest`): the session, the
    /// piggybacked acknowledgements, then acquisition; with nothing to
    /// acquire the fetch waits up to `max_wait_ms` (`DelayedShareFetch`).
    pub(crate) fn handle_fetch(
        &mut self,
        ctx: &mut Ctx,
        broker: u32,
        from: NodeId,
        correlation: u64,
        req: ShareFetchRequest,
        out: &mut Out,
    ) {
        let fail = |error| {
            Response::ShareFetch(ShareFetchResponse { error, acquisition_lock_timeout_ms: 0, partitions: vec![] })
        };
        if req.member_id.is_empty() || req.group_id.is_empty() {
            return out.respond(from, correlation, fail(Errors::INVALID_REQUEST));
        }
        let who = SessionRef { group_id: &req.group_id, member_id: &req.member_id, epoch: req.share_session_epoch };
        let partitions = match self.session_acks(ctx, broker, from, who, &req.partitions, out) {
            Ok(p) => p,
            Err(e) => return out.respond(from, correlation, fail(e)),
        };
        let lock_ms = ctx.cluster.share_group_config(&req.group_id).record_lock_duration_ms;
        if req.share_session_epoch == SHARE_SESSION_FINAL_EPOCH {
            self.close_session(ctx, &req.group_id, &req.member_id, ReleaseCause::SessionClosed, out);
            let partitions = partitions
                .into_iter()
                .map(|(tp, e)| ShareFetchedPartition {
                    partition: tp,
                    error: Errors::NONE,
                    acknowledge_error: e,
                    acquired: vec![],
                    current_leader: None,
                })
                .collect();
            let r = ShareFetchResponse { error: Errors::NONE, acquisition_lock_timeout_ms: lock_ms, partitions };
            return out.respond(from, correlation, Response::ShareFetch(r));
        }
        let held = HeldShareFetch {
            group_id: req.group_id.clone(),
            member_id: req.member_id.clone(),
            max_records: req.max_records,
            partitions: rotate_round_robin(partitions, req.share_session_epoch),
            deadline: ctx.now + req.max_wait_ms,
        };
        let (answer, any) = self.acquire_all(ctx, broker, &held, from, out);
        let failed = answer.iter().any(|p| p.error != Errors::NONE);
        if any || failed || req.max_wait_ms == 0 {
            let r =
                ShareFetchResponse { error: Errors::NONE, acquisition_lock_timeout_ms: lock_ms, partitions: answer };
            return out.respond(from, correlation, Response::ShareFetch(r));
        }
        let wake = next_wake(ctx, &held);
        self.held.entry(from).or_default().insert(correlation, held);
        out.set_timer(BrokerTimer::ShareFetchWait { client: from, correlation }, wake);
    }

    /// A held ShareFetch wakes: it answers with what it can acquire now, or
    /// at its deadline with nothing.
    pub(crate) fn complete_fetch(
        &mut self,
        ctx: &mut Ctx,
        broker: u32,
        client: NodeId,
        correlation: u64,
        out: &mut Out,
    ) {
        let Some(held) = self.held.get_mut(&client).and_then(|h| h.remove(&correlation)) else { return };
        let (answer, any) = self.acquire_all(ctx, broker, &held, client, out);
        if !any && ctx.now < held.deadline {
            let wake = next_wake(ctx, &held);
            self.held.entry(client).or_default().insert(correlation, held);
            return out.set_timer(BrokerTimer::ShareFetchWait { client, correlation }, wake);
        }
        let lock_ms = ctx.cluster.share_group_config(&held.group_id).record_lock_duration_ms;
        let r = ShareFetchResponse { error: Errors::NONE, acquisition_lock_timeout_ms: lock_ms, partitions: answer };
        out.respond(client, correlation, Response::ShareFetch(r));
    }

    /// ShareAcknowledge (`KafkaApis.handleShareAcknowledgeRequest`).
    pub(crate) fn handle_acknowledge(
        &mut self,
        ctx: &mut Ctx,
        broker: u32,
        from: NodeId,
        correlation: u64,
        req: ShareAcknowledgeRequest,
        out: &mut Out,
    ) {
        let answer = |error, partitions| Response::ShareAcknowledge(ShareAcknowledgeResponse { error, partitions });
        let who = SessionRef { group_id: &req.group_id, member_id: &req.member_id, epoch: req.share_session_epoch };
        let partitions = match self.session_acks(ctx, broker, from, who, &req.partitions, out) {
            Ok(p) => p,
            Err(e) => return out.respond(from, correlation, answer(e, vec![])),
        };
        if req.share_session_epoch == SHARE_SESSION_FINAL_EPOCH {
            self.close_session(ctx, &req.group_id, &req.member_id, ReleaseCause::SessionClosed, out);
        }
        out.respond(from, correlation, answer(Errors::NONE, partitions));
    }

    /// A share-partition's earliest lock expired: every record whose lock
    /// has run out is released (`releaseAcquisitionLockOnTimeout`); the state
    /// is written, and held fetches may now acquire them.
    pub(crate) fn lock_timeout(
        &mut self,
        ctx: &mut Ctx,
        broker: u32,
        group_id: &str,
        tp: &TopicPartition,
        out: &mut Out,
    ) {
        let cfg = ctx.cluster.share_group_config(group_id);
        let Some(sp) = self.partitions.get_mut(group_id).and_then(|g| g.get_mut(tp)) else { return };
        let holders: BTreeMap<i64, Option<String>> =
            sp.records.iter().map(|(o, r)| (*o, r.member_id.clone())).collect();
        let done = sp.expire_locks(ctx.now, &cfg);
        if let Some(at) = sp.next_lock_deadline() {
            out.set_timer(BrokerTimer::ShareLock { group_id: group_id.to_string(), partition: tp.clone() }, at);
        }
        if done.is_empty() {
            return;
        }
        let sessions = self.sessions.get(group_id);
        let mut by_member: BTreeMap<String, (i64, i64)> = BTreeMap::new();
        for t in &done {
            let member = holders.get(&t.offset).cloned().flatten().unwrap_or_default();
            let e = by_member.entry(member).or_default();
            e.0 += 1;
            e.1 += i64::from(t.to == RecordState::ARCHIVED);
        }
        for (member, (records, archived)) in by_member {
            let client = sessions.and_then(|s| s.get(&member)).map_or(member.clone(), |s| client_name(s.client));
            let note = ShareNote::LocksExpired { partition: tp.clone(), client, records, archived };
            out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
        }
        note_archived(ctx, group_id, tp, &done, out);
        self.write(ctx, group_id, tp, out);
        self.wake_held(ctx, broker, out);
    }

    /// Held fetches answer now if records became available.
    fn wake_held(&mut self, ctx: &mut Ctx, _broker: u32, out: &mut Out) {
        for (client, held) in &self.held {
            for correlation in held.keys() {
                out.set_timer(BrokerTimer::ShareFetchWait { client: *client, correlation: *correlation }, ctx.now);
            }
        }
    }

    /// `releaseSession` (SPM L416-468): the member's records on every
    /// share-partition of its group here are released at once, and its
    /// session removed.
    fn close_session(&mut self, ctx: &Ctx, group_id: &str, member_id: &str, cause: ReleaseCause, out: &mut Out) {
        let client = self
            .sessions
            .get_mut(group_id)
            .and_then(|s| s.remove(member_id))
            .map_or(member_id.to_string(), |s| client_name(s.client));
        let cfg = ctx.cluster.share_group_config(group_id);
        let tps: Vec<TopicPartition> =
            self.partitions.get(group_id).map(|g| g.keys().cloned().collect()).unwrap_or_default();
        for tp in tps {
            let Some(sp) = self.partitions.get_mut(group_id).and_then(|g| g.get_mut(&tp)) else { continue };
            let done = sp.release_member(member_id, &cfg);
            if done.is_empty() {
                continue;
            }
            let archived = done.iter().filter(|t| t.to == RecordState::ARCHIVED).count() as i64;
            let note = ShareNote::RecordsReleased {
                partition: tp.clone(),
                client: client.clone(),
                records: done.len() as i64,
                archived,
                cause,
            };
            out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
            note_archived(ctx, group_id, &tp, &done, out);
            self.write(ctx, group_id, &tp, out);
        }
        if self.sessions.get(group_id).is_some_and(|s| s.is_empty()) {
            // `onGroupEmpty` (SPM L940-953): the last session of the group here is gone.
            self.sessions.remove(group_id);
        }
    }

    /// The connection of `client` closed (`ClientConnectionDisconnectListener.onDisconnect`):
    /// every share session it carried is released, and its held fetches dropped.
    pub(crate) fn client_disconnected(&mut self, ctx: &mut Ctx, broker: u32, client: NodeId, out: &mut Out) {
        let mine: Vec<(String, String)> = self
            .sessions
            .iter()
            .flat_map(|(g, s)| s.iter().filter(|(_, x)| x.client == client).map(|(m, _)| (g.clone(), m.clone())))
            .collect();
        for (group_id, member_id) in mine {
            self.close_session(ctx, &group_id, &member_id, ReleaseCause::ConnectionClosed, out);
        }
        if let Some(held) = self.held.remove(&client) {
            for correlation in held.keys() {
                out.cancel_timer(BrokerTimer::ShareFetchWait { client, correlation: *correlation });
            }
        }
        self.wake_held(ctx, broker, out);
    }

    /// This broker no longer leads `tp`: its share-partitions there are
    /// dropped (the next leader loads them from the share coordinator).
    pub(crate) fn leadership_lost(&mut self, tp: &TopicPartition) {
        for g in self.partitions.values_mut() {
            g.remove(tp);
        }
    }

    /// The share-partitions it holds of `group_id`, for the page.
    pub fn group_partitions(&self, group_id: &str) -> impl Iterator<Item = (&TopicPartition, &SharePartition)> {
        self.partitions.get(group_id).into_iter().flatten()
    }
}

/// When a held fetch looks again: the next append to one of its partitions
/// (producers write `records_per_sec` spread evenly over each second), or
/// its deadline. A release on the leader wakes it sooner (`wake_held`).
fn next_wake(ctx: &Ctx, held: &HeldShareFetch) -> Millis {
    let append = held
        .partitions
        .iter()
        .filter_map(|(tp, _)| ctx.cluster.topics.get(tp.topic.as_str()).map(|t| t.records_per_sec))
        .filter(|r| *r > 0)
        .map(|r| ((ctx.now * r / 1000 + 1) * 1000).div_ceil(r))
        .min();
    append.map_or(held.deadline, |t| t.min(held.deadline)).max(ctx.now + 1)
}

/// One note for each record that a release sent to ARCHIVED at the delivery limit.
fn note_archived(ctx: &Ctx, group_id: &str, tp: &TopicPartition, done: &[Transition], out: &mut Out) {
    let limit = ctx.cluster.share_group_config(group_id).delivery_count_limit;
    for t in done.iter().filter(|t| t.to == RecordState::ARCHIVED && t.delivery_count >= limit) {
        let note =
            ShareNote::RecordArchived { partition: tp.clone(), offset: t.offset, delivery_count: t.delivery_count };
        out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
    }
}

/// The default state a freshly initialized share-partition is written with.
pub fn initial_state() -> PersistedShareState {
    PersistedShareState { start_offset: -1, end_offset: -1, batches: BTreeMap::new() }
}
