//! The group coordinator hosted by one broker: one context per
//! `__consumer_offsets` partition it leads (CoordinatorRuntime), routing of
//! group requests, loading after failover, and offsets (OffsetMetadataManager).
//! Classic-group request handling is in `classic_join.rs` and `classic_sync.rs`.

use super::classic_group::{ClassicGroup, ClassicGroupMember, ClassicGroupState};
use super::cluster::CoordinatorRecord;
use super::ctx::Ctx;
use super::message::{Body, Request, Response};
use super::out::{Out, TimerKey};
use super::trace::{EventKind, Machine};
use super::types::{Errors, Millis, NodeId};
use crate::assign::TopicPartition;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `CoordinatorState` of one partition's context (INITIAL/FAILED are not modelled).
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoordinatorState {
    LOADING,
    ACTIVE,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub state: CoordinatorState,
    pub groups: BTreeMap<String, ClassicGroup>,
    pub offsets: BTreeMap<String, BTreeMap<TopicPartition, i64>>,
    /// Consumer groups (KIP-848), next to the classic groups.
    pub consumer_groups: BTreeMap<String, super::consumer_group::ConsumerGroup>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupCoordinator {
    pub shards: BTreeMap<u32, Shard>,
}

pub(crate) fn respond(out: &mut Out, to: NodeId, correlation: u64, response: Response) {
    out.send(to, Body::Response { correlation, response });
}

/// The error a request gets when this broker cannot serve the group's partition.
fn context_error(shard: Option<&Shard>) -> Option<Errors> {
    match shard.map(|s| s.state) {
        None => Some(Errors::NOT_COORDINATOR),
        Some(CoordinatorState::LOADING) => Some(Errors::COORDINATOR_LOAD_IN_PROGRESS),
        Some(CoordinatorState::ACTIVE) => None,
    }
}

fn error_response(request: &Request, error: Errors) -> Response {
    match request {
        Request::FindCoordinator { .. } => Response::FindCoordinator { error, node_id: None },
        Request::JoinGroup(r) => super::classic_join::join_error(&r.member_id, error),
        Request::SyncGroup(_) => super::classic_sync::sync_error(error),
        Request::Heartbeat { .. } => Response::Heartbeat { error },
        Request::LeaveGroup { .. } => Response::LeaveGroup { error },
        Request::OffsetCommit { offsets, .. } => Response::OffsetCommit { error, offsets: offsets.clone() },
        Request::OffsetFetch { .. } => Response::OffsetFetch { error, offsets: Vec::new() },
        Request::ConsumerGroupHeartbeat(_) => super::consumer_group_heartbeat::heartbeat_error(error),
        Request::Fetch { .. } => Response::Fetch { error, partitions: Vec::new() },
    }
}

fn group_of(request: &Request) -> &str {
    match request {
        Request::FindCoordinator { key } => key,
        Request::JoinGroup(r) => &r.group_id,
        Request::SyncGroup(r) => &r.group_id,
        Request::Heartbeat { group_id, .. }
        | Request::LeaveGroup { group_id, .. }
        | Request::OffsetCommit { group_id, .. }
        | Request::OffsetFetch { group_id, .. } => group_id,
        Request::ConsumerGroupHeartbeat(r) => &r.group_id,
        Request::Fetch { .. } => "",
    }
}

/// Records a group state transition, enforcing Kafka's valid-previous-state table.
pub(crate) fn transition(ctx: &Ctx, group: &mut ClassicGroup, to: ClassicGroupState, trigger: &str, out: &mut Out) {
    let from = group.state;
    if !to.valid_previous_states().contains(&from) {
        out.emit(EventKind::InvariantViolated {
            invariant: "valid-previous-state".into(),
            detail: format!("group {} cannot go from {} to {}", group.group_id, from.name(), to.name()),
        });
    }
    group.previous_state = Some(from);
    group.state = to;
    out.emit(EventKind::StateChanged {
        node: ctx.me,
        machine: Machine::Group { group_id: group.group_id.clone() },
        from: from.name().into(),
        to: to.name().into(),
        trigger: trigger.into(),
    });
}

impl GroupCoordinator {
    pub fn handle_request(&mut self, ctx: &mut Ctx, from: NodeId, correlation: u64, request: Request, out: &mut Out) {
        let partition = ctx.cluster.offsets_partition_for(group_of(&request));
        if let Some(error) = context_error(self.shards.get(&partition)) {
            // GroupCoordinatorService.heartbeat: "The group is still loading, so
            // blindly respond" NONE to a classic Heartbeat.
            let error = match (&request, error) {
                (Request::Heartbeat { .. }, Errors::COORDINATOR_LOAD_IN_PROGRESS) => Errors::NONE,
                (_, e) => e,
            };
            respond(out, from, correlation, error_response(&request, error));
            return;
        }
        let shard = self.shards.get_mut(&partition).expect("active shard");
        if let Some(error) = shard.classic_request_for_consumer_group(&request) {
            respond(out, from, correlation, error_response(&request, error));
            return;
        }
        match request {
            Request::JoinGroup(r) => shard.join_group(ctx, partition, from, correlation, r, out),
            Request::SyncGroup(r) => shard.sync_group(ctx, partition, from, correlation, r, out),
            Request::Heartbeat { group_id, generation_id, member_id, group_instance_id } => {
                let error = shard.heartbeat(ctx, &group_id, generation_id, &member_id, group_instance_id.as_deref(), out);
                respond(out, from, correlation, Response::Heartbeat { error });
            }
            Request::LeaveGroup { group_id, members } => {
                let error = shard.leave_group(ctx, &group_id, &members, out);
                respond(out, from, correlation, Response::LeaveGroup { error });
            }
            Request::OffsetCommit { group_id, generation_id, member_id, offsets, .. }
                if shard.consumer_groups.contains_key(&group_id) =>
            {
                let error = shard.commit_consumer_group_offsets(ctx, partition, &group_id, generation_id, &member_id, &offsets, out);
                respond(out, from, correlation, Response::OffsetCommit { error, offsets });
            }
            Request::ConsumerGroupHeartbeat(r) => {
                let response = shard.consumer_group_heartbeat(ctx, partition, from, r, out);
                respond(out, from, correlation, response);
            }
            Request::OffsetCommit { group_id, generation_id, member_id, group_instance_id, offsets } => {
                let error = shard.commit_offsets(
                    ctx,
                    partition,
                    &group_id,
                    generation_id,
                    &member_id,
                    group_instance_id.as_deref(),
                    &offsets,
                    out,
                );
                respond(out, from, correlation, Response::OffsetCommit { error, offsets });
            }
            Request::OffsetFetch { group_id, partitions } => {
                let response = shard.fetch_offsets(&group_id, &partitions);
                respond(out, from, correlation, response);
            }
            Request::FindCoordinator { .. } | Request::Fetch { .. } => unreachable!("brokers answer FindCoordinator and Fetch themselves"),
        }
    }

    /// This broker became leader of `__consumer_offsets-<partition>`: load it.
    pub fn become_leader(&mut self, ctx: &mut Ctx, partition: u32, out: &mut Out) {
        self.shards.insert(
            partition,
            Shard {
                state: CoordinatorState::LOADING,
                groups: BTreeMap::new(),
                offsets: BTreeMap::new(),
                consumer_groups: BTreeMap::new(),
            },
        );
        out.emit(EventKind::StateChanged {
            node: ctx.me,
            machine: Machine::CoordinatorContext { partition },
            from: "INITIAL".into(),
            to: "LOADING".into(),
            trigger: "became leader of the partition".into(),
        });
        out.set_timer(TimerKey::Load { partition }, ctx.now + ctx.broker_config.coordinator_load_ms);
    }

    /// This broker is no longer leader of `__consumer_offsets-<partition>`
    /// (`scheduleUnloadOperation`, GMM `onUnloaded`): the context is closed, its
    /// classic groups become Dead and every parked JoinGroup and SyncGroup is
    /// answered NOT_COORDINATOR.
    pub fn resign_leader(&mut self, ctx: &mut Ctx, partition: u32, out: &mut Out) {
        let Some(shard) = self.shards.remove(&partition) else { return };
        for group in shard.groups.values() {
            for m in group.members.values() {
                if let Some(p) = &m.awaiting_join {
                    respond(out, p.client, p.correlation, super::classic_join::join_error(&m.member_id, Errors::NOT_COORDINATOR));
                }
                if let Some(p) = &m.awaiting_sync {
                    respond(out, p.client, p.correlation, super::classic_sync::sync_error(Errors::NOT_COORDINATOR));
                }
            }
        }
        let from = match shard.state {
            CoordinatorState::LOADING => "LOADING",
            CoordinatorState::ACTIVE => "ACTIVE",
        };
        out.emit(EventKind::StateChanged {
            node: ctx.me,
            machine: Machine::CoordinatorContext { partition },
            from: from.into(),
            to: "CLOSED".into(),
            trigger: "leadership of the partition moved away".into(),
        });
    }

    pub fn handle_timer(&mut self, ctx: &mut Ctx, key: &TimerKey, out: &mut Out) {
        match key {
            TimerKey::Load { partition } => self.finish_load(ctx, *partition, out),
            TimerKey::MemberHeartbeat { group_id, .. } | TimerKey::Join { group_id } | TimerKey::Sync { group_id } => {
                let partition = ctx.cluster.offsets_partition_for(group_id);
                if let Some(shard) = self.shards.get_mut(&partition) {
                    shard.handle_group_timer(ctx, key, out);
                }
            }
            TimerKey::ConsumerGroupSessionTimeout { group_id, .. } | TimerKey::ConsumerGroupRebalanceTimeout { group_id, .. } => {
                let partition = ctx.cluster.offsets_partition_for(group_id);
                if let Some(shard) = self.shards.get_mut(&partition) {
                    shard.handle_consumer_group_timer(ctx, partition, key, out);
                }
            }
            _ => {}
        }
    }

    /// Replays the partition's log (GMM `replay`) and re-arms timers (`onLoaded`).
    fn finish_load(&mut self, ctx: &mut Ctx, partition: u32, out: &mut Out) {
        let Some(shard) = self.shards.get_mut(&partition) else { return };
        for record in ctx.cluster.offsets_logs[partition as usize].iter() {
            shard.replay(record.clone());
        }
        shard.state = CoordinatorState::ACTIVE;
        out.emit(EventKind::StateChanged {
            node: ctx.me,
            machine: Machine::CoordinatorContext { partition },
            from: "LOADING".into(),
            to: "ACTIVE".into(),
            trigger: format!("replayed {} records", ctx.cluster.offsets_logs[partition as usize].len()),
        });
        for group in shard.groups.values() {
            if !group.members.is_empty() {
                out.emit(EventKind::Note {
                    node: ctx.me,
                    text: format!(
                        "loaded group {} as {} at generation {} with {} members",
                        group.group_id,
                        group.state.name(),
                        group.generation_id,
                        group.members.len()
                    ),
                });
            }
            for m in group.members.values() {
                out.set_timer(
                    TimerKey::MemberHeartbeat { group_id: group.group_id.clone(), member_id: m.member_id.clone() },
                    ctx.now + m.session_timeout_ms,
                );
            }
        }
        shard.consumer_groups_loaded(ctx, out);
    }
}

impl Shard {
    pub(crate) fn append(ctx: &mut Ctx, partition: u32, record: CoordinatorRecord) {
        ctx.cluster.offsets_logs[partition as usize].push(record);
    }

    /// Recreates state from one record: a classic group comes back Stable if it
    /// has members, Empty otherwise, at its last synced generation.
    fn replay(&mut self, record: CoordinatorRecord) {
        match record {
            CoordinatorRecord::GroupMetadata { group_id, generation_id, protocol_type, protocol_name, leader, members } => {
                let mut g = ClassicGroup::new(&group_id);
                g.generation_id = generation_id;
                g.protocol_type = protocol_type;
                g.protocol_name = protocol_name;
                for pm in members {
                    g.add(ClassicGroupMember {
                        member_id: pm.member_id,
                        group_instance_id: pm.group_instance_id,
                        client_id: pm.client_id,
                        session_timeout_ms: pm.session_timeout_ms,
                        rebalance_timeout_ms: pm.rebalance_timeout_ms,
                        protocols: pm.protocols,
                        assignment: pm.assignment,
                        connect_assignment: pm.connect_assignment,
                        awaiting_join: None,
                        awaiting_sync: None,
                        is_new: false,
                    });
                }
                g.leader_id = leader;
                g.state = if g.members.is_empty() { ClassicGroupState::Empty } else { ClassicGroupState::Stable };
                self.groups.insert(group_id, g);
            }
            CoordinatorRecord::OffsetCommit { group_id, partition, offset } => {
                self.offsets.entry(group_id.clone()).or_default().insert(partition, offset);
                if !self.consumer_groups.contains_key(&group_id) {
                    self.groups.entry(group_id.clone()).or_insert_with(|| ClassicGroup::new(&group_id));
                }
            }
            CoordinatorRecord::ConsumerGroup(r) => super::consumer_group_records::replay(&mut self.consumer_groups, &r),
        }
    }

    /// OffsetCommit validation for classic groups (CG `validateOffsetCommit`).
    #[allow(clippy::too_many_arguments)]
    fn commit_offsets(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        generation_id: i32,
        member_id: &str,
        instance_id: Option<&str>,
        offsets: &[(TopicPartition, i64)],
        out: &mut Out,
    ) -> Errors {
        let group = self.groups.entry(group_id.to_string()).or_insert_with(|| ClassicGroup::new(group_id));
        let error = if group.is(ClassicGroupState::Dead) {
            Errors::COORDINATOR_NOT_AVAILABLE
        } else if generation_id < 0 && group.is(ClassicGroupState::Empty) {
            Errors::NONE
        } else if let Some(e) = validate_member(group, member_id, instance_id) {
            e
        } else if generation_id != group.generation_id {
            Errors::ILLEGAL_GENERATION
        } else if group.is(ClassicGroupState::CompletingRebalance) {
            Errors::REBALANCE_IN_PROGRESS
        } else {
            Errors::NONE
        };
        if error != Errors::NONE {
            return error;
        }
        if let Some(m) = group.members.get(member_id) {
            if matches!(group.state, ClassicGroupState::Stable | ClassicGroupState::PreparingRebalance) {
                out.set_timer(
                    TimerKey::MemberHeartbeat { group_id: group_id.into(), member_id: member_id.into() },
                    ctx.now + m.session_timeout_ms,
                );
            }
        }
        self.store_offsets(ctx, partition, group_id, offsets, out);
        Errors::NONE
    }

    /// Writes accepted offsets: one `OffsetCommit` record per partition.
    pub(crate) fn store_offsets(&mut self, ctx: &mut Ctx, partition: u32, group_id: &str, offsets: &[(TopicPartition, i64)], out: &mut Out) {
        let stored = self.offsets.entry(group_id.to_string()).or_default();
        for (tp, offset) in offsets {
            stored.insert(tp.clone(), *offset);
            Shard::append(
                ctx,
                partition,
                CoordinatorRecord::OffsetCommit { group_id: group_id.into(), partition: tp.clone(), offset: *offset },
            );
        }
        out.emit(EventKind::OffsetsCommitted { group_id: group_id.into(), offsets: offsets.to_vec() });
    }

    fn fetch_offsets(&self, group_id: &str, partitions: &[TopicPartition]) -> Response {
        if self.groups.get(group_id).is_some_and(|g| g.is(ClassicGroupState::Dead)) {
            return Response::OffsetFetch { error: Errors::COORDINATOR_NOT_AVAILABLE, offsets: Vec::new() };
        }
        let stored = self.offsets.get(group_id);
        let offsets = partitions
            .iter()
            .map(|tp| (tp.clone(), stored.and_then(|s| s.get(tp)).copied().unwrap_or(-1)))
            .collect();
        Response::OffsetFetch { error: Errors::NONE, offsets }
    }
}

/// `validateMember`: unknown ids and zombie static members.
pub(crate) fn validate_member(group: &ClassicGroup, member_id: &str, instance_id: Option<&str>) -> Option<Errors> {
    if let Some(inst) = instance_id {
        match group.static_members.get(inst) {
            Some(current) if current != member_id => return Some(Errors::FENCED_INSTANCE_ID),
            None if !group.members.contains_key(member_id) => return Some(Errors::UNKNOWN_MEMBER_ID),
            _ => {}
        }
    }
    if !group.members.contains_key(member_id) {
        return Some(Errors::UNKNOWN_MEMBER_ID);
    }
    None
}

/// Session deadline of `member` from now.
pub(crate) fn rearm_heartbeat(ctx: &Ctx, group_id: &str, member_id: &str, after: Millis, out: &mut Out) {
    out.set_timer(TimerKey::MemberHeartbeat { group_id: group_id.into(), member_id: member_id.into() }, ctx.now + after);
}
