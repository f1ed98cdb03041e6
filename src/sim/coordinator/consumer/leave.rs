//! Leaving and fencing on the coordinator (GroupMetadataManager
//! `consumerGroupLeave`, `consumerGroupFenceMember`) and the session and
//! rebalance timeouts that fence a member (`consumerGroupSessionTimeout`,
//! `consumerGroupRebalanceTimeout`).

use crate::sim::coordinator::consumer::records::ConsumerGroupRecord;
use crate::sim::coordinator::consumer::{rebalance_key, session_key};
use crate::sim::coordinator::shard::Shard;
use crate::sim::ctx::Ctx;
use crate::sim::message::{
    ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, Response, LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
};
use crate::sim::note::Note;
use crate::sim::out::Out;
use crate::sim::reason::FenceReason;
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::Errors;

impl Shard {
    /// `consumerGroupLeave`: epoch −1 removes the member; −2 (static) keeps it at
    /// epoch −2 with its partitions until it returns or its session expires.
    pub(super) fn consumer_group_leave(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        req: &ConsumerGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Result<Response, Errors> {
        let group = self.consumer_group(&req.group_id).ok_or(Errors::GROUP_ID_NOT_FOUND)?;
        let member = match &req.instance_id {
            None => group.members.get(&req.member_id).ok_or(Errors::UNKNOWN_MEMBER_ID)?,
            Some(inst) => {
                let m = group
                    .static_members
                    .get(inst)
                    .and_then(|id| group.members.get(id))
                    .ok_or(Errors::UNKNOWN_MEMBER_ID)?;
                if m.member_id != req.member_id {
                    return Err(Errors::FENCED_INSTANCE_ID);
                }
                m
            }
        };
        let mut epoch = req.member_epoch;
        if req.instance_id.is_some() && req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH {
            // consumerGroupStaticMemberGroupLeave: nothing pending revocation, and
            // every assignment epoch reset to 0 (`resetAssignedPartitionsEpochsToZero`), so
            // the member that takes over the instance id holds them from epoch 0.
            let mut leaving = member.clone();
            leaving.member_epoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH;
            leaving.partitions_pending_revocation.clear();
            leaving.assignment_epochs = leaving.assigned_partitions.iter().map(|tp| (tp.clone(), 0)).collect();
            let value = Some(leaving.current_assignment());
            let record = ConsumerGroupRecord::CurrentMemberAssignment {
                group_id: req.group_id.clone(),
                member_id: req.member_id.clone(),
                value,
            };
            self.write(out, partition, record);
            out.emit(EventKind::Note {
                node: ctx.me,
                note: Note::StaticMemberLeftTemporarily { member_id: req.member_id.clone() },
            });
        } else {
            self.fence_member(ctx, partition, &req.group_id, &req.member_id, FenceReason::LeftGroup, out);
            epoch = LEAVE_GROUP_MEMBER_EPOCH;
        }
        Ok(Response::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatResponse {
            error: Errors::NONE,
            member_id: Some(req.member_id.clone()),
            member_epoch: epoch,
            heartbeat_interval_ms: 0,
            assignment: None,
        }))
    }

    /// `consumerGroupFenceMember`: remove the member, update the subscription
    /// metadata, bump the group epoch and cancel its timers. The next heartbeat of
    /// any member computes the new target.
    pub(crate) fn fence_member(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        why: FenceReason,
        out: &mut Out,
    ) {
        self.remove_member_records(partition, group_id, member_id, out);
        self.refresh_subscription_metadata(ctx, partition, group_id, out);
        let epoch = self.held(group_id).group_epoch + 1;
        self.write(out, partition, ConsumerGroupRecord::Metadata { group_id: group_id.into(), epoch });
        if self.held(group_id).members.is_empty() {
            // Kafka 4.4: an emptied group's assignment epoch follows its group epoch,
            // with timestamp 0 so that batching does not delay the next member.
            let record = ConsumerGroupRecord::TargetAssignmentMetadata {
                group_id: group_id.into(),
                assignment_epoch: epoch,
                assignment_timestamp: 0,
            };
            self.write(out, partition, record);
        }
        out.cancel_timer(session_key(group_id, member_id));
        out.cancel_timer(rebalance_key(group_id, member_id));
        out.emit(EventKind::Note {
            node: ctx.me,
            note: Note::MemberFenced {
                member_id: member_id.to_string(),
                group_id: group_id.to_string(),
                reason: why,
                epoch,
            },
        });
    }

    /// A consumer-group member's session timeout fired (`group.consumer.session.timeout.ms`).
    pub(crate) fn consumer_session_expired(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        out: &mut Out,
    ) {
        self.fence_on_timeout(ctx, partition, group_id, member_id, FenceReason::SessionExpired, out);
    }

    /// A consumer-group member's rebalance timeout fired while it revoked
    /// partitions; stale if the member's epoch moved on since it was armed.
    pub(crate) fn consumer_rebalance_timed_out(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        out: &mut Out,
    ) {
        let Some(g) = self.consumer_group(group_id) else { return };
        let (armed, current) = (g.rebalance_timeouts.get(member_id), g.members.get(member_id).map(|m| m.member_epoch));
        if armed.is_none() || armed.copied() != current {
            return;
        }
        let why = FenceReason::RevocationTimeout { epoch: current.unwrap_or(0) };
        self.fence_on_timeout(ctx, partition, group_id, member_id, why, out);
    }

    fn fence_on_timeout(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        why: FenceReason,
        out: &mut Out,
    ) {
        if !self.consumer_group(group_id).is_some_and(|g| g.members.contains_key(member_id)) {
            return;
        }
        self.fence_member(ctx, partition, group_id, member_id, why.clone(), out);
        self.update_consumer_group_state(ctx, group_id, Trigger::Fenced(why), out);
    }
}
