//! Classic group membership on the coordinator: JoinGroup (KIP-394 member ids,
//! static members, the join barrier and KIP-134 initial delay), leader choice,
//! the protocol vote (GroupMetadataManager `classicGroupJoin*`,
//! `prepareRebalance`, `completeClassicGroupJoin`). Heartbeats, LeaveGroup and
//! session expiry are in `heartbeat.rs`.

use crate::sim::cluster::{CoordinatorRecord, PersistedMember};
use crate::sim::coordinator::classic::errors::{join_error, reset_and_propagate_assignment_with_error, sync_error};
use crate::sim::coordinator::classic::members::{rearm_heartbeat, validate_member};
use crate::sim::coordinator::classic::transition::transition;
use crate::sim::coordinator::classic::{ClassicGroup, ClassicGroupMember, ClassicGroupState, InitialDelay, Parked};
use crate::sim::coordinator::group::Group;
use crate::sim::coordinator::shard::Shard;
use crate::sim::ctx::Ctx;
use crate::sim::message::{JoinGroupRequest, JoinGroupResponse, JoinGroupResponseMember, Response};
use crate::sim::note::Note;
use crate::sim::out::{GroupTimer, Out};
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, NodeId};

/// CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS.
pub const NEW_MEMBER_JOIN_TIMEOUT_MS: u64 = 300_000;

/// The JoinGroup response for `member_id` at the group's current generation;
/// only the leader receives the member list.
fn join_response(group: &ClassicGroup, member_id: &str, skip_assignment: bool) -> Response {
    let leader = group.leader_id.clone().unwrap_or_default();
    let protocol = group.protocol_name.clone();
    let members = if leader == member_id {
        group
            .members_in_hash_order()
            .into_iter()
            .filter_map(|id| {
                let m = &group.members[&id];
                let metadata = m.metadata(protocol.as_deref()?)?.clone();
                Some(JoinGroupResponseMember {
                    member_id: id,
                    group_instance_id: m.group_instance_id.clone(),
                    metadata,
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    Response::JoinGroup(JoinGroupResponse {
        error: Errors::NONE,
        generation_id: group.generation_id,
        protocol_name: protocol,
        leader,
        skip_assignment,
        member_id: member_id.to_string(),
        members,
    })
}

pub(crate) fn persist_group(partition: u32, group: &ClassicGroup, out: &mut Out) {
    let members = group
        .members
        .values()
        .map(|m| PersistedMember {
            member_id: m.member_id.clone(),
            group_instance_id: m.group_instance_id.clone(),
            client_id: m.client_id.clone(),
            session_timeout_ms: m.session_timeout_ms,
            rebalance_timeout_ms: m.rebalance_timeout_ms,
            protocols: m.protocols.clone(),
            assignment: m.assignment.clone(),
            connect_assignment: m.connect_assignment.clone(),
            streams_assignment: m.streams_assignment.clone(),
        })
        .collect();
    out.append(
        partition,
        CoordinatorRecord::GroupMetadata {
            group_id: group.group_id.clone(),
            generation_id: group.generation_id,
            protocol_type: group.protocol_type.clone(),
            protocol_name: group.protocol_name.clone(),
            leader: group.leader_id.clone(),
            members,
        },
    );
}

/// `GroupCoordinatorRecordHelpers.newEmptyGroupMetadataRecord`: generation 0,
/// no protocol type, protocol, leader or members.
fn empty_group_metadata_record(group_id: &str) -> CoordinatorRecord {
    CoordinatorRecord::GroupMetadata {
        group_id: group_id.to_string(),
        generation_id: 0,
        protocol_type: None,
        protocol_name: None,
        leader: None,
        members: Vec::new(),
    }
}

impl Shard {
    /// `classicGroupJoinToClassicGroup`: a JoinGroup that created the group and
    /// wrote nothing else writes an empty group record, which commits the new
    /// group to the log (after a failover it is back, Empty, at generation 0).
    pub(crate) fn join_group(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        from: NodeId,
        correlation: u64,
        req: JoinGroupRequest,
        out: &mut Out,
    ) {
        let group_id = req.group_id.clone();
        let existed = self.classic(&group_id).is_some();
        let records = out.records.len();
        self.classic_group_join(ctx, partition, Parked { client: from, correlation }, req, out);
        if !existed && self.classic(&group_id).is_some() && out.records.len() == records {
            out.append(partition, empty_group_metadata_record(&group_id));
        }
    }

    fn classic_group_join(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        parked: Parked,
        req: JoinGroupRequest,
        out: &mut Out,
    ) {
        let (from, correlation) = (parked.client, parked.correlation);
        let cfg = ctx.broker_config;
        let reject = |out: &mut Out, e| out.respond(from, correlation, join_error(&req.member_id, e));
        if self.classic(&req.group_id).is_none() {
            if !req.member_id.is_empty() {
                return reject(out, Errors::UNKNOWN_MEMBER_ID);
            }
            // An empty consumer group of this id gives way (`classicGroupJoinToClassicGroup`,
            // `maybeDeleteEmptyConsumerGroup`; its tombstones are not modelled: the
            // classic group's record comes after the consumer group's in the log).
            self.groups.insert(req.group_id.clone(), Group::Classic(ClassicGroup::new(&req.group_id)));
            out.emit(EventKind::Note { node: ctx.me, note: Note::GroupCreated { group_id: req.group_id.clone() } });
        }
        let group = self.classic_mut(&req.group_id).expect("group exists");
        // acceptJoiningMember comes before the Dead and protocol checks of
        // classicGroupJoinNewMember and classicGroupJoinExistingMember.
        if !accept_joining_member(group, &req.member_id, cfg.group_max_size as usize) {
            remove_refused_member(ctx, group, &req.member_id, cfg.group_max_size, out);
            // The answer carries UNKNOWN_MEMBER_ID (""), not the refused id.
            return out.respond(from, correlation, join_error("", Errors::GROUP_MAX_SIZE_REACHED));
        }
        if group.is(ClassicGroupState::Dead) {
            return reject(out, Errors::COORDINATOR_NOT_AVAILABLE);
        }
        if !group.supports_protocols(&req.protocol_type, &req.protocols) {
            return reject(out, Errors::INCONSISTENT_GROUP_PROTOCOL);
        }
        if req.member_id.is_empty() {
            match req.group_instance_id.clone() {
                None => {
                    // KIP-394: hand out a member id and ask the client to come back with it.
                    let member_id = format!("{}-{}", req.client_id, ctx.random_uuid());
                    group.pending_members.insert(member_id.clone());
                    rearm_heartbeat(ctx, &req.group_id, &member_id, req.session_timeout_ms, out);
                    out.respond(from, correlation, join_error(&member_id, Errors::MEMBER_ID_REQUIRED));
                }
                Some(instance) => join_new_static_member(ctx, partition, group, instance, req, parked, out),
            }
        } else if group.pending_members.remove(&req.member_id) {
            let member = new_member(&req, req.member_id.clone(), parked);
            add_member_then_rebalance_or_complete_join(ctx, group, member, &req.protocol_type, out);
        } else {
            join_existing_member(ctx, group, req, parked, out);
        }
    }
}

/// `acceptJoiningMember`: group.max.size admission.
fn accept_joining_member(group: &ClassicGroup, member_id: &str, max: usize) -> bool {
    match group.state {
        ClassicGroupState::Empty | ClassicGroupState::Dead => true,
        ClassicGroupState::PreparingRebalance => {
            group.members.get(member_id).is_some_and(|m| m.awaiting_join.is_some()) || group.num_awaiting_join() < max
        }
        _ => group.members.contains_key(member_id) || group.members.len() < max,
    }
}

/// `classicGroupJoinToClassicGroup` answers a refused member GROUP_MAX_SIZE_REACHED
/// after `group.remove(memberId)`: a pending member is forgotten, and so is a
/// member that had not rejoined yet while the group is PreparingRebalance (its
/// place went to the members already waiting). The join phase is not completed
/// here: the next join or the join timer does that. The removed id's session
/// timer would fire without effect; it is cancelled.
fn remove_refused_member(ctx: &Ctx, group: &mut ClassicGroup, member_id: &str, max_size: u32, out: &mut Out) {
    let was_pending = group.pending_members.remove(member_id);
    let removed = group.remove(member_id).is_some();
    if removed {
        let note = Note::MemberRemovedGroupFull { member_id: member_id.to_string(), max_size };
        out.emit(EventKind::Note { node: ctx.me, note });
    }
    if was_pending || removed {
        out.cancel_timer(GroupTimer::MemberHeartbeat { group_id: group.group_id.clone(), member_id: member_id.into() });
    }
}

fn new_member(req: &JoinGroupRequest, member_id: String, parked: Parked) -> ClassicGroupMember {
    ClassicGroupMember {
        member_id,
        group_instance_id: req.group_instance_id.clone(),
        client_id: req.client_id.clone(),
        session_timeout_ms: req.session_timeout_ms,
        rebalance_timeout_ms: req.rebalance_timeout_ms,
        protocols: req.protocols.clone(),
        assignment: Vec::new(),
        connect_assignment: None,
        streams_assignment: None,
        awaiting_join: Some(parked),
        awaiting_sync: None,
        is_new: true,
    }
}

fn add_member_then_rebalance_or_complete_join(
    ctx: &mut Ctx,
    group: &mut ClassicGroup,
    member: ClassicGroupMember,
    protocol_type: &str,
    out: &mut Out,
) {
    let member_id = member.member_id.clone();
    if group.is(ClassicGroupState::PreparingRebalance) && group.previous_state == Some(ClassicGroupState::Empty) {
        group.new_member_added = true;
    }
    if group.members.is_empty() && group.protocol_type.is_none() {
        group.protocol_type = Some(protocol_type.to_string());
    }
    group.add(member);
    let note = Note::MemberAdded { member_id: member_id.clone(), group_id: group.group_id.clone() };
    out.emit(EventKind::Note { node: ctx.me, note });
    rearm_heartbeat(ctx, &group.group_id.clone(), &member_id, NEW_MEMBER_JOIN_TIMEOUT_MS, out);
    maybe_prepare_rebalance_or_complete_join(ctx, group, Trigger::MemberJoined { member_id }, out);
}

fn maybe_prepare_rebalance_or_complete_join(ctx: &mut Ctx, group: &mut ClassicGroup, reason: Trigger, out: &mut Out) {
    match group.state {
        ClassicGroupState::Stable | ClassicGroupState::CompletingRebalance | ClassicGroupState::Empty => {
            prepare_rebalance(ctx, group, reason, out)
        }
        ClassicGroupState::PreparingRebalance => maybe_complete_join_phase(ctx, group, out),
        ClassicGroupState::Dead => {}
    }
}

/// `maybeCompleteJoinPhase`: everyone is back and this is not the initial rebalance.
pub(crate) fn maybe_complete_join_phase(ctx: &mut Ctx, group: &mut ClassicGroup, out: &mut Out) {
    if group.is(ClassicGroupState::PreparingRebalance)
        && group.has_all_members_joined()
        && group.previous_state != Some(ClassicGroupState::Empty)
    {
        out.cancel_timer(GroupTimer::Join { group_id: group.group_id.clone() });
        let partition = ctx.cluster.offsets_partition_for(&group.group_id);
        complete_join(ctx, partition, group, out);
    }
}

/// `prepareRebalance`.
pub(crate) fn prepare_rebalance(ctx: &mut Ctx, group: &mut ClassicGroup, reason: Trigger, out: &mut Out) {
    if group.is(ClassicGroupState::CompletingRebalance) {
        reset_and_propagate_assignment_with_error(ctx, group, Errors::REBALANCE_IN_PROGRESS, out);
    }
    out.cancel_timer(GroupTimer::Sync { group_id: group.group_id.clone() });
    let initial = group.is(ClassicGroupState::Empty);
    let join_key = GroupTimer::Join { group_id: group.group_id.clone() };
    if initial {
        let d = ctx.broker_config.initial_rebalance_delay_ms;
        let remaining = group.rebalance_timeout_ms().saturating_sub(d);
        group.initial_delay = Some(InitialDelay { delay_ms: d, remaining_ms: remaining });
        out.set_timer(join_key, ctx.now + d);
        out.emit(EventKind::Note { node: ctx.me, note: Note::InitialRebalanceDelay { delay_ms: d } });
    }
    transition(ctx, group, ClassicGroupState::PreparingRebalance, reason, out);
    if !initial {
        if group.has_all_members_joined() {
            out.cancel_timer(GroupTimer::Join { group_id: group.group_id.clone() });
            let partition = ctx.cluster.offsets_partition_for(&group.group_id);
            complete_join(ctx, partition, group, out);
        } else {
            let t = group.rebalance_timeout_ms();
            out.set_timer(GroupTimer::Join { group_id: group.group_id.clone() }, ctx.now + t);
        }
    }
}

/// `tryCompleteInitialRebalanceElseSchedule` (GroupMetadataManager).
pub(crate) fn try_complete_initial_rebalance(
    ctx: &mut Ctx,
    partition: u32,
    group: &mut ClassicGroup,
    delay: InitialDelay,
    out: &mut Out,
) {
    if group.new_member_added && delay.remaining_ms != 0 {
        group.new_member_added = false;
        let next = delay.remaining_ms.min(ctx.broker_config.initial_rebalance_delay_ms);
        let remaining = delay.remaining_ms.saturating_sub(delay.delay_ms);
        group.initial_delay = Some(InitialDelay { delay_ms: next, remaining_ms: remaining });
        out.set_timer(GroupTimer::Join { group_id: group.group_id.clone() }, ctx.now + next);
        out.emit(EventKind::Note { node: ctx.me, note: Note::InitialDelayExtended { wait_ms: next } });
    } else {
        complete_join(ctx, partition, group, out);
    }
}

/// `completeClassicGroupJoin`: drop dynamic members that did not rejoin, pick the
/// leader, bump the generation, vote the protocol and answer every parked JoinGroup.
pub(crate) fn complete_join(ctx: &mut Ctx, partition: u32, group: &mut ClassicGroup, out: &mut Out) {
    if group.is(ClassicGroupState::Dead) {
        return;
    }
    let gone: Vec<String> = group
        .members
        .values()
        .filter(|m| m.awaiting_join.is_none() && m.group_instance_id.is_none())
        .map(|m| m.member_id.clone())
        .collect();
    for id in gone {
        out.emit(EventKind::Note { node: ctx.me, note: Note::MemberDidNotRejoin { member_id: id.clone() } });
        remove_member(group, &id, out);
    }
    if !maybe_elect_new_joined_leader(group) && !group.members.is_empty() {
        let t = group.rebalance_timeout_ms();
        out.set_timer(GroupTimer::Join { group_id: group.group_id.clone() }, ctx.now + t);
        return;
    }
    group.generation_id += 1;
    if group.members.is_empty() {
        group.protocol_name = None;
        transition(ctx, group, ClassicGroupState::Empty, Trigger::JoinPhaseNoMembers, out);
        persist_group(partition, group, out);
        return;
    }
    group.protocol_name = group.select_protocol();
    let gen = group.generation_id;
    let trigger =
        Trigger::JoinPhaseComplete { generation: gen, protocol: group.protocol_name.clone().unwrap_or_default() };
    transition(ctx, group, ClassicGroupState::CompletingRebalance, trigger, out);
    out.emit(EventKind::Note {
        node: ctx.me,
        note: Note::LeaderOfGeneration { leader_id: group.leader_id.clone().unwrap_or_default(), generation: gen },
    });
    let ids: Vec<String> = group.members.keys().cloned().collect();
    for id in &ids {
        let parked = group.members.get_mut(id).and_then(|m| m.awaiting_join.take());
        if let Some(p) = parked {
            out.respond(p.client, p.correlation, join_response(group, id, false));
        }
        let m = group.members.get_mut(id).expect("member");
        m.is_new = false;
        let timeout = m.session_timeout_ms;
        rearm_heartbeat(ctx, &group.group_id, id, timeout, out);
    }
    group.pending_sync = ids.into_iter().collect();
    let t = group.rebalance_timeout_ms();
    out.set_timer(GroupTimer::Sync { group_id: group.group_id.clone() }, ctx.now + t);
}

/// `maybeElectNewJoinedLeader`.
fn maybe_elect_new_joined_leader(group: &mut ClassicGroup) -> bool {
    if let Some(l) = &group.leader_id {
        if group.members.get(l).is_some_and(|m| m.awaiting_join.is_some()) {
            return true;
        }
    }
    let first = group.members_in_hash_order().into_iter().find(|id| group.members[id].awaiting_join.is_some());
    match first {
        Some(id) => {
            group.leader_id = Some(id);
            true
        }
        None => false,
    }
}

fn join_existing_member(ctx: &mut Ctx, group: &mut ClassicGroup, req: JoinGroupRequest, parked: Parked, out: &mut Out) {
    if let Some(e) = validate_member(group, &req.member_id, req.group_instance_id.as_deref()) {
        out.respond(parked.client, parked.correlation, join_error(&req.member_id, e));
        return;
    }
    let member_id = req.member_id.clone();
    let changed = group.members[&member_id].protocols != req.protocols;
    let is_leader = group.leader_id.as_deref() == Some(member_id.as_str());
    match group.state {
        ClassicGroupState::PreparingRebalance => {
            update_member_then_rebalance_or_complete_join(ctx, group, &req, parked, out)
        }
        ClassicGroupState::CompletingRebalance if !changed => {
            out.respond(parked.client, parked.correlation, join_response(group, &member_id, false));
        }
        ClassicGroupState::Stable if !changed && !is_leader => {
            out.respond(parked.client, parked.correlation, join_response(group, &member_id, false));
        }
        ClassicGroupState::CompletingRebalance | ClassicGroupState::Stable => {
            update_member_then_rebalance_or_complete_join(ctx, group, &req, parked, out)
        }
        ClassicGroupState::Empty | ClassicGroupState::Dead => {
            out.respond(parked.client, parked.correlation, join_error(&member_id, Errors::UNKNOWN_MEMBER_ID));
        }
    }
}

fn update_member_then_rebalance_or_complete_join(
    ctx: &mut Ctx,
    group: &mut ClassicGroup,
    req: &JoinGroupRequest,
    parked: Parked,
    out: &mut Out,
) {
    let m = group.members.get_mut(&req.member_id).expect("validated member");
    m.protocols = req.protocols.clone();
    m.rebalance_timeout_ms = req.rebalance_timeout_ms;
    m.session_timeout_ms = req.session_timeout_ms;
    m.awaiting_join = Some(parked);
    let reason = Trigger::MemberRejoined { member_id: req.member_id.clone() };
    maybe_prepare_rebalance_or_complete_join(ctx, group, reason, out);
}

/// A static member joining without a member id (KIP-345, `classicGroupJoinNewStaticMember`).
fn join_new_static_member(
    ctx: &mut Ctx,
    partition: u32,
    group: &mut ClassicGroup,
    instance: String,
    req: JoinGroupRequest,
    parked: Parked,
    out: &mut Out,
) {
    let new_id = format!("{instance}-{}", ctx.random_uuid());
    let Some(old_id) = group.static_members.get(&instance).cloned() else {
        let member = new_member(&req, new_id, parked);
        add_member_then_rebalance_or_complete_join(ctx, group, member, &req.protocol_type, out);
        return;
    };
    // replaceStaticMember: fence the old id's parked requests, keep assignment.
    let mut old = group.remove_for_replacement(&old_id);
    if let Some(p) = old.awaiting_join.take() {
        out.respond(p.client, p.correlation, join_error(&old_id, Errors::FENCED_INSTANCE_ID));
    }
    if let Some(p) = old.awaiting_sync.take() {
        // ClassicGroup.replaceStaticMember completes the old id's SyncGroup future
        // with a SyncGroup response carrying FENCED_INSTANCE_ID.
        out.respond(p.client, p.correlation, sync_error(Errors::FENCED_INSTANCE_ID));
    }
    out.cancel_timer(GroupTimer::MemberHeartbeat { group_id: group.group_id.clone(), member_id: old_id.clone() });
    let protocols_before = old.protocols.clone();
    old.member_id = new_id.clone();
    old.protocols = req.protocols.clone();
    old.session_timeout_ms = req.session_timeout_ms;
    old.rebalance_timeout_ms = req.rebalance_timeout_ms;
    old.client_id = req.client_id.clone();
    let was_leader = group.leader_id.as_deref() == Some(old_id.as_str());
    group.add(old);
    if was_leader {
        group.leader_id = Some(new_id.clone());
    }
    out.emit(EventKind::Note {
        node: ctx.me,
        note: Note::StaticMemberReplaced {
            instance_id: instance.to_string(),
            old_member_id: old_id.to_string(),
            new_member_id: new_id.to_string(),
        },
    });
    rearm_heartbeat(ctx, &group.group_id.clone(), &new_id, req.session_timeout_ms, out);
    match group.state {
        ClassicGroupState::Stable => {
            let same_vote = protocols_before == req.protocols || group.select_protocol() == group.protocol_name;
            if same_vote {
                note_lost_follow_up(ctx, group, &instance, &protocols_before, out);
                persist_group(partition, group, out);
                let leader = group.leader_id.as_deref() == Some(new_id.as_str());
                out.respond(parked.client, parked.correlation, join_response(group, &new_id, leader));
            } else {
                group.members.get_mut(&new_id).expect("added").awaiting_join = Some(parked);
                prepare_rebalance(
                    ctx,
                    group,
                    Trigger::StaticMemberNewProtocols { instance_id: instance.to_string() },
                    out,
                );
            }
        }
        ClassicGroupState::CompletingRebalance => {
            group.members.get_mut(&new_id).expect("added").awaiting_join = Some(parked);
            prepare_rebalance(
                ctx,
                group,
                Trigger::StaticMemberRejoinedCompleting { instance_id: instance.to_string() },
                out,
            );
        }
        _ => {
            group.members.get_mut(&new_id).expect("added").awaiting_join = Some(parked);
            maybe_complete_join_phase(ctx, group, out);
        }
    }
}

/// Kafka's coordinator treats a member's metadata as opaque bytes and keeps the
/// replaced static member's assignment without a rebalance
/// (`GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin`). When
/// the old process had claimed partitions (its last JoinGroup's
/// `ownedPartitions`) that the cooperative leader then withheld from everyone
/// (`AbstractStickyAssignor`: revoke first, reassign in the follow-up), the new
/// process neither owns them nor knows a follow-up rebalance was due
/// (`ConsumerCoordinator.onJoinComplete` requests it only for partitions it
/// revoked itself): they stay unassigned until something else rebalances the
/// group. The simulation can read the metadata, so it says so.
fn note_lost_follow_up(
    ctx: &Ctx,
    group: &ClassicGroup,
    instance: &str,
    protocols_before: &[crate::sim::message::JoinProtocol],
    out: &mut Out,
) {
    let assigned = |tp: &crate::assign::TopicPartition| group.members.values().any(|m| m.assignment.contains(tp));
    let mut withheld: Vec<_> = protocols_before
        .iter()
        .find(|p| Some(&p.name) == group.protocol_name.as_ref())
        .map(|p| p.metadata.owned_partitions.iter().filter(|tp| !assigned(tp)).cloned().collect())
        .unwrap_or_default();
    if withheld.is_empty() {
        return;
    }
    withheld.sort();
    withheld.dedup();
    let note = Note::FollowUpRebalanceLost {
        group_id: group.group_id.clone(),
        instance_id: instance.to_string(),
        generation: group.generation_id,
        partitions: withheld,
    };
    out.emit(EventKind::Note { node: ctx.me, note });
}

impl ClassicGroup {
    /// Takes a member out without leader re-election (it is replaced at once).
    /// `ClassicGroup.replaceStaticMember` leaves `pendingSyncMembers` alone: an
    /// old id that had not sent SyncGroup stays pending, so `expirePendingSync`
    /// still rebalances the group at the sync deadline.
    fn remove_for_replacement(&mut self, member_id: &str) -> ClassicGroupMember {
        let m = self.members.remove(member_id).expect("static member present");
        self.insertion_order.retain(|id| id != member_id);
        m
    }
}

/// Removes a member, answering its parked JoinGroup with UNKNOWN_MEMBER_ID.
pub(crate) fn remove_member(group: &mut ClassicGroup, member_id: &str, out: &mut Out) {
    if let Some(mut m) = group.remove(member_id) {
        if let Some(p) = m.awaiting_join.take() {
            out.respond(p.client, p.correlation, join_error(member_id, Errors::UNKNOWN_MEMBER_ID));
        }
        out.cancel_timer(GroupTimer::MemberHeartbeat { group_id: group.group_id.clone(), member_id: member_id.into() });
    }
}
