//! SyncGroup on the coordinator: parking followers, storing the leader's
//! assignment, and pending-sync expiry (GMM `classicGroupSyncToClassicGroup`,
//! `expirePendingSync`, `resetAndPropagateAssignmentWithError`).

use crate::sim::coordinator::classic::errors::{propagate_assignment, sync_error};
use crate::sim::coordinator::classic::join::{persist_group, prepare_rebalance};
use crate::sim::coordinator::classic::members::validate_member;
use crate::sim::coordinator::classic::transition::transition;
use crate::sim::coordinator::classic::{ClassicGroup, ClassicGroupState, Parked};
use crate::sim::coordinator::shard::Shard;
use crate::sim::ctx::Ctx;
use crate::sim::message::{Response, SyncGroupRequest};
use crate::sim::note::Note;
use crate::sim::out::{GroupTimer, Out};
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, NodeId};

impl Shard {
    pub(crate) fn sync_group(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        from: NodeId,
        correlation: u64,
        req: SyncGroupRequest,
        out: &mut Out,
    ) {
        let group = match self.classic_mut(&req.group_id) {
            Some(g) if !g.is(ClassicGroupState::Empty) => g,
            _ => return out.respond(from, correlation, sync_error(Errors::UNKNOWN_MEMBER_ID)),
        };
        let error = if group.is(ClassicGroupState::Dead) {
            Some(Errors::COORDINATOR_NOT_AVAILABLE)
        } else if let Some(e) = validate_member(group, &req.member_id, req.group_instance_id.as_deref()) {
            Some(e)
        } else if req.generation_id != group.generation_id {
            Some(Errors::ILLEGAL_GENERATION)
        } else if req.protocol_name.is_some() && req.protocol_name != group.protocol_name {
            Some(Errors::INCONSISTENT_GROUP_PROTOCOL)
        } else {
            None
        };
        if let Some(e) = error {
            return out.respond(from, correlation, sync_error(e));
        }
        match group.state {
            ClassicGroupState::PreparingRebalance => {
                out.respond(from, correlation, sync_error(Errors::REBALANCE_IN_PROGRESS))
            }
            ClassicGroupState::CompletingRebalance => {
                group.members.get_mut(&req.member_id).expect("validated").awaiting_sync =
                    Some(Parked { client: from, correlation });
                remove_pending_sync(group, &req.member_id, out);
                if group.leader_id.as_deref() == Some(req.member_id.as_str()) {
                    complete_sync_with_leader_assignment(ctx, partition, group, req, out);
                }
            }
            ClassicGroupState::Stable => {
                remove_pending_sync(group, &req.member_id, out);
                let m = &group.members[&req.member_id];
                let response = Response::SyncGroup {
                    error: Errors::NONE,
                    assignment: m.assignment.clone(),
                    connect_assignment: m.connect_assignment.clone(),
                    streams_assignment: m.streams_assignment.clone().map(Box::new),
                };
                out.respond(from, correlation, response);
            }
            ClassicGroupState::Empty | ClassicGroupState::Dead => {}
        }
    }
}

/// `removePendingSyncMember`: the sync deadline is cancelled once every member
/// has synced (`hasReceivedSyncFromAllMembers`).
fn remove_pending_sync(group: &mut ClassicGroup, member_id: &str, out: &mut Out) {
    group.pending_sync.remove(member_id);
    if group.pending_sync.is_empty() {
        out.cancel_timer(GroupTimer::Sync { group_id: group.group_id.clone() });
    }
}

/// The leader's SyncGroup: members it left out get nothing; the assignment is
/// written to the log, every parked SyncGroup is answered
/// (`setAndPropagateAssignment`) and the group is Stable.
fn complete_sync_with_leader_assignment(
    ctx: &mut Ctx,
    partition: u32,
    group: &mut ClassicGroup,
    req: SyncGroupRequest,
    out: &mut Out,
) {
    for m in group.members.values_mut() {
        m.assignment =
            req.assignments.iter().find(|(id, _)| *id == m.member_id).map(|(_, a)| a.clone()).unwrap_or_default();
        m.connect_assignment =
            req.connect_assignments.iter().find(|(id, _)| *id == m.member_id).map(|(_, a)| a.clone());
        m.streams_assignment =
            req.streams_assignments.iter().find(|(id, _)| *id == m.member_id).map(|(_, a)| a.clone());
    }
    persist_group(partition, group, out);
    propagate_assignment(ctx, group, Errors::NONE, out);
    let gen = group.generation_id;
    transition(ctx, group, ClassicGroupState::Stable, Trigger::LeaderAssignmentStored { generation: gen }, out);
}

/// `expirePendingSync`: members that never synced (the leader included) are removed.
pub(crate) fn expire_pending_sync(ctx: &mut Ctx, group: &mut ClassicGroup, out: &mut Out) {
    if !matches!(group.state, ClassicGroupState::CompletingRebalance | ClassicGroupState::Stable)
        || group.pending_sync.is_empty()
    {
        return;
    }
    let pending: Vec<String> = group.pending_sync.iter().cloned().collect();
    for id in &pending {
        out.emit(EventKind::Note { node: ctx.me, note: Note::SyncGroupTimeout { member_id: id.to_string() } });
        if let Some(mut m) = group.remove(id) {
            if let Some(p) = m.awaiting_sync.take() {
                out.respond(p.client, p.correlation, sync_error(Errors::REBALANCE_IN_PROGRESS));
            }
        }
        out.cancel_timer(GroupTimer::MemberHeartbeat { group_id: group.group_id.clone(), member_id: id.clone() });
    }
    prepare_rebalance(ctx, group, Trigger::PendingSyncExpired, out);
}
