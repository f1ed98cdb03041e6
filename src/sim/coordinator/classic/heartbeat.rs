//! Classic group liveness on the coordinator: Heartbeat, LeaveGroup, session
//! expiry and the group's timers (GroupMetadataManager `classicGroupHeartbeat`,
//! `classicGroupLeave`, `expireClassicGroupMemberHeartbeat`, the join and
//! pending-sync timeouts).

use crate::sim::coordinator::classic::join::{
    complete_join, maybe_complete_join_phase, prepare_rebalance, remove_member, try_complete_initial_rebalance,
};
use crate::sim::coordinator::classic::members::{rearm_heartbeat, validate_member};
use crate::sim::coordinator::classic::sync::expire_pending_sync;
use crate::sim::coordinator::classic::{ClassicGroup, ClassicGroupState};
use crate::sim::coordinator::shard::Shard;
use crate::sim::ctx::Ctx;
use crate::sim::message::MemberIdentity;
use crate::sim::note::Note;
use crate::sim::out::{GroupTimer, Out};
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::Errors;

impl Shard {
    pub(crate) fn heartbeat(
        &mut self,
        ctx: &mut Ctx,
        group_id: &str,
        generation_id: i32,
        member_id: &str,
        instance_id: Option<&str>,
        out: &mut Out,
    ) -> Errors {
        let Some(group) = self.classic_mut(group_id) else { return Errors::UNKNOWN_MEMBER_ID };
        if group.is(ClassicGroupState::Dead) {
            return Errors::COORDINATOR_NOT_AVAILABLE;
        }
        if let Some(e) = validate_member(group, member_id, instance_id) {
            return e;
        }
        if generation_id != group.generation_id {
            return Errors::ILLEGAL_GENERATION;
        }
        if group.is(ClassicGroupState::Empty) {
            return Errors::UNKNOWN_MEMBER_ID;
        }
        let timeout = group.members[member_id].session_timeout_ms;
        rearm_heartbeat(ctx, group_id, member_id, timeout, out);
        if group.is(ClassicGroupState::PreparingRebalance) {
            Errors::REBALANCE_IN_PROGRESS
        } else {
            Errors::NONE
        }
    }

    pub(crate) fn leave_group(
        &mut self,
        ctx: &mut Ctx,
        group_id: &str,
        members: &[MemberIdentity],
        out: &mut Out,
    ) -> Errors {
        let Some(group) = self.classic_mut(group_id) else { return Errors::UNKNOWN_MEMBER_ID };
        if group.is(ClassicGroupState::Dead) {
            return Errors::COORDINATOR_NOT_AVAILABLE;
        }
        let mut removed = 0;
        let mut error = Errors::NONE;
        for who in members {
            let member_id = if who.member_id.is_empty() {
                match who.group_instance_id.as_ref().and_then(|i| group.static_members.get(i)) {
                    Some(id) => id.clone(),
                    None => {
                        error = Errors::UNKNOWN_MEMBER_ID;
                        continue;
                    }
                }
            } else if group.pending_members.remove(&who.member_id) {
                // A pending member's leave counts as a valid one (classicGroupLeaveToClassicGroup).
                out.cancel_timer(GroupTimer::MemberHeartbeat {
                    group_id: group_id.into(),
                    member_id: who.member_id.clone(),
                });
                removed += 1;
                continue;
            } else if let Some(e) = validate_member(group, &who.member_id, who.group_instance_id.as_deref()) {
                error = e;
                continue;
            } else {
                who.member_id.clone()
            };
            remove_member(group, &member_id, out);
            removed += 1;
        }
        if removed > 0 {
            // classicGroupLeaveToClassicGroup: Stable or CompletingRebalance rebalance;
            // PreparingRebalance only `maybeCompleteJoinPhase`, which waits while this
            // is the initial rebalance (previous state Empty).
            match group.state {
                ClassicGroupState::Stable | ClassicGroupState::CompletingRebalance => {
                    prepare_rebalance(ctx, group, Trigger::MembersLeft { count: removed }, out)
                }
                ClassicGroupState::PreparingRebalance => maybe_complete_join_phase(ctx, group, out),
                ClassicGroupState::Empty | ClassicGroupState::Dead => {}
            }
        }
        error
    }

    /// `heartbeat-<group>-<member>` fired: the member's session expired.
    pub(crate) fn member_heartbeat_expired(&mut self, ctx: &mut Ctx, group_id: &str, member_id: &str, out: &mut Out) {
        let Some(group) = self.classic_mut(group_id) else { return };
        expire_member_heartbeat(ctx, group, member_id, out);
    }

    /// `join-<group>` fired: the initial-rebalance delay or the join phase's rebalance timeout.
    pub(crate) fn join_deadline(&mut self, ctx: &mut Ctx, group_id: &str, out: &mut Out) {
        let partition = ctx.cluster.offsets_partition_for(group_id);
        let Some(group) = self.classic_mut(group_id) else { return };
        match group.initial_delay.take() {
            Some(delay) => try_complete_initial_rebalance(ctx, partition, group, delay, out),
            None => complete_join(ctx, partition, group, out),
        }
    }

    /// `sync-<group>` fired: members that have not synced are removed.
    pub(crate) fn sync_deadline(&mut self, ctx: &mut Ctx, group_id: &str, out: &mut Out) {
        let Some(group) = self.classic_mut(group_id) else { return };
        expire_pending_sync(ctx, group, out);
    }
}

/// What the group does after losing members (`removeMemberAndUpdateClassicGroup`).
fn after_member_removed(ctx: &mut Ctx, group: &mut ClassicGroup, reason: Trigger, out: &mut Out) {
    match group.state {
        ClassicGroupState::Stable | ClassicGroupState::CompletingRebalance => {
            prepare_rebalance(ctx, group, reason, out)
        }
        ClassicGroupState::PreparingRebalance if group.has_all_members_joined() => {
            out.cancel_timer(GroupTimer::Join { group_id: group.group_id.clone() });
            group.initial_delay = None;
            let partition = ctx.cluster.offsets_partition_for(&group.group_id);
            complete_join(ctx, partition, group, out);
        }
        _ => {}
    }
}

/// `expireClassicGroupMemberHeartbeat`.
fn expire_member_heartbeat(ctx: &mut Ctx, group: &mut ClassicGroup, member_id: &str, out: &mut Out) {
    if group.is(ClassicGroupState::Dead) {
        return;
    }
    if group.pending_members.remove(member_id) {
        out.emit(EventKind::Note {
            node: ctx.me,
            note: Note::PendingMemberDropped { member_id: member_id.to_string() },
        });
        if group.is(ClassicGroupState::PreparingRebalance) && group.has_all_members_joined() {
            out.cancel_timer(GroupTimer::Join { group_id: group.group_id.clone() });
            group.initial_delay = None;
            let partition = ctx.cluster.offsets_partition_for(&group.group_id);
            complete_join(ctx, partition, group, out);
        }
        return;
    }
    let Some(m) = group.members.get(member_id) else { return };
    if m.has_satisfied_heartbeat() {
        return;
    }
    let timeout = m.session_timeout_ms;
    let note = Note::SessionTimeout { member_id: member_id.to_string(), session_timeout_ms: timeout };
    out.emit(EventKind::Note { node: ctx.me, note });
    remove_member(group, member_id, out);
    after_member_removed(ctx, group, Trigger::MemberExpired { member_id: member_id.to_string() }, out);
}
