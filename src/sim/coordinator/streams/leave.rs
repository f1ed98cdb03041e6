//! A streams member leaving or fenced (GroupMetadataManager
//! `streamsGroupLeave`, `streamsGroupStaticMemberGroupLeave` L4799,
//! `streamsGroupFenceMember` L5082), the group's timers (session timeout,
//! rebalance timeout, initial rebalance delay) and what loading restarts.

use crate::sim::coordinator::shard::Shard;
use crate::sim::coordinator::streams::heartbeat::{current_record, Refusal};
use crate::sim::coordinator::streams::records::StreamsGroupRecord;
use crate::sim::coordinator::streams::{rebalance_key, session_key, StreamsMemberState};
use crate::sim::ctx::Ctx;
use crate::sim::message::Response;
use crate::sim::note::Note;
use crate::sim::out::Out;
use crate::sim::reason::FenceReason;
use crate::sim::streams_message::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use crate::sim::streams_note::StreamsNote;
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::Errors;
use std::collections::BTreeMap;

impl Shard {
    /// Epoch −1: the member leaves for good (a static one too); −2: a static
    /// member leaves for a while and keeps its assigned tasks, its session
    /// timer still running from its last heartbeat
    /// (`streamsGroupStaticMemberGroupLeave`): it has closed every task, so
    /// nothing stays pending revocation, and a rebalance timeout armed at its
    /// old epoch no longer fences it (`scheduleStreamsGroupRebalanceTimeout`
    /// fences only a member still at the epoch it was armed at).
    pub(crate) fn streams_group_leave(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        req: &StreamsGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Result<Response, Refusal> {
        let group = self.streams_group(&req.group_id).ok_or((Errors::GROUP_ID_NOT_FOUND, None))?;
        let member = match group.members.get(&req.member_id) {
            Some(m) => m.clone(),
            None => return Err((Errors::UNKNOWN_MEMBER_ID, None)),
        };
        if req.member_epoch == -2 {
            let mut m = member;
            m.left_temporarily = true;
            m.member_epoch = -2;
            m.pending_revocation = crate::sim::streams_message::TasksTuple::default();
            self.write_streams(partition, &req.group_id, vec![current_record(&req.group_id, &m)], out);
            let note = StreamsNote::StaticMemberLeftTemporarily {
                group_id: req.group_id.clone(),
                client: m.client_id.clone(),
            };
            out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
        } else {
            self.fence_streams_member(ctx, partition, &req.group_id, &req.member_id, FenceReason::LeftGroup, out);
        }
        Ok(Response::StreamsGroupHeartbeat(StreamsGroupHeartbeatResponse {
            error: Errors::NONE,
            error_message: None,
            member_id: Some(req.member_id.clone()),
            member_epoch: req.member_epoch,
            heartbeat_interval_ms: 0,
            status: Vec::new(),
            assignment: None,
        }))
    }

    /// `streamsGroupFenceMember`: the member's tombstones and the group epoch
    /// +1; when it was the last member, a target at the new epoch with
    /// timestamp 0 (Kafka 4.4). Its tasks are re-targeted on the next
    /// heartbeat of another member.
    pub(crate) fn fence_streams_member(
        &mut self,
        ctx: &Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        reason: FenceReason,
        out: &mut Out,
    ) {
        let Some(group) = self.streams_group(group_id) else { return };
        let Some(member) = group.members.get(member_id) else { return };
        let epoch = group.group_epoch + 1;
        let last = group.members.len() == 1;
        let client = member.client_id.clone();
        let mut records = vec![
            StreamsGroupRecord::CurrentMemberAssignment {
                group_id: group_id.into(),
                member_id: member_id.into(),
                value: None,
            },
            StreamsGroupRecord::MemberMetadata { group_id: group_id.into(), member_id: member_id.into(), value: None },
            StreamsGroupRecord::Metadata {
                group_id: group_id.into(),
                epoch,
                metadata: group.metadata.clone(),
                num_standby_replicas: group.num_standby_replicas,
            },
        ];
        if last {
            records.push(StreamsGroupRecord::TargetAssignment {
                group_id: group_id.into(),
                assignment_epoch: epoch,
                timestamp: 0,
                targets: BTreeMap::new(),
            });
        }
        out.emit(EventKind::Note {
            node: ctx.me,
            note: Note::MemberFenced { member_id: client, group_id: group_id.into(), reason, epoch },
        });
        out.cancel_timer(session_key(group_id, member_id));
        out.cancel_timer(rebalance_key(group_id, member_id));
        if let Some(g) = self.streams_group_mut(group_id) {
            g.rebalance_timeouts.remove(member_id);
        }
        self.write_streams(partition, group_id, records, out);
    }

    /// The session timeout of a member fired (`streamsGroupFenceMemberOperation`).
    pub(crate) fn streams_session_expired(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        out: &mut Out,
    ) {
        if self.streams_group(group_id).is_some_and(|g| g.members.contains_key(member_id)) {
            self.fence_streams_member(ctx, partition, group_id, member_id, FenceReason::SessionExpired, out);
            self.update_streams_group_state(ctx, group_id, Trigger::Fenced(FenceReason::SessionExpired), out);
        }
    }

    /// The rebalance timeout fired (`scheduleStreamsGroupRebalanceTimeout`):
    /// a member still at the epoch the timeout was armed at has not finished
    /// revoking and is fenced, so its tasks can go to their new owners; a
    /// member that moved on (a static member that left with epoch −2
    /// among them) is not.
    pub(crate) fn streams_rebalance_timed_out(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        out: &mut Out,
    ) {
        let Some(g) = self.streams_group(group_id) else { return };
        let Some(m) = g.members.get(member_id) else { return };
        if g.rebalance_timeouts.get(member_id) != Some(&m.member_epoch) {
            return;
        }
        let reason = FenceReason::RevocationTimeout { epoch: m.member_epoch };
        self.fence_streams_member(ctx, partition, group_id, member_id, reason.clone(), out);
        self.update_streams_group_state(ctx, group_id, Trigger::Fenced(reason), out);
    }

    /// The initial rebalance delay ended (`computeDelayedTargetAssignment`):
    /// the target is computed now; members take it on their next heartbeat.
    pub(crate) fn streams_initial_delay_over(&mut self, ctx: &mut Ctx, partition: u32, group_id: &str, out: &mut Out) {
        let cfg = ctx.cluster.streams_group_config(group_id);
        let Some(g) = self.streams_group_mut(group_id) else { return };
        g.initial_delay_until = None;
        self.maybe_update_streams_target(ctx, partition, group_id, &cfg, true, out);
        self.update_streams_group_state(ctx, group_id, Trigger::StreamsGroupHeartbeat, out);
    }

    /// `onLoaded` for streams groups: every member gets a fresh session
    /// timeout and a revoking member a fresh rebalance timeout; the configured
    /// topology is recomputed from the replayed topology and metadata. The
    /// initial rebalance delay is not persisted (a replayed group has none).
    pub(crate) fn streams_groups_loaded(&mut self, ctx: &Ctx, out: &mut Out) {
        for group in self.streams_groups_mut() {
            group.rebalance_timeouts.clear();
            let cfg = ctx.cluster.streams_group_config(&group.group_id);
            group.configured = group
                .topology
                .as_ref()
                .map(|t| crate::sim::coordinator::streams::topology::configure(t, &group.metadata));
            group.state = group.compute_state();
            for m in group.members.values() {
                out.set_timer(session_key(&group.group_id, &m.member_id), ctx.now + cfg.session_timeout_ms);
                if m.state == StreamsMemberState::UNREVOKED_TASKS {
                    group.rebalance_timeouts.insert(m.member_id.clone(), m.member_epoch);
                    out.set_timer(
                        rebalance_key(&group.group_id, &m.member_id),
                        ctx.now + m.rebalance_timeout_ms.max(0) as u64,
                    );
                }
            }
        }
    }
}
