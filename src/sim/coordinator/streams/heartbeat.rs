//! StreamsGroupHeartbeat on the coordinator (GroupMetadataManager
//! `streamsGroupHeartbeat`, L2067-2440): the group and the member, the
//! topology on join, the topology configured against the topics (NotReady,
//! internal topics created by the broker), the group epoch bump, the initial
//! rebalance delay and assignment batching, the member's reconciliation
//! (`CurrentAssignmentBuilder`), and the statuses of the response.

use crate::sim::cluster::CoordinatorRecord;
use crate::sim::coordinator::consumer::heartbeat::can_compute_next_target_assignment;
use crate::sim::coordinator::group::Group;
use crate::sim::coordinator::shard::Shard;
use crate::sim::coordinator::streams::records::{replay, CurrentAssignment, MemberMetadata, StreamsGroupRecord};
use crate::sim::coordinator::streams::{
    initial_delay_key, rebalance_key, reconcile, session_key, target, topology, StreamsGroup, StreamsGroupMember,
    StreamsMemberState,
};
use crate::sim::ctx::Ctx;
use crate::sim::message::{Request, Response};
use crate::sim::note::Note;
use crate::sim::out::Out;
use crate::sim::state_machine::StateName;
use crate::sim::streams_message::{
    task_names, Status, StreamsGroupConfig, StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse, StreamsStatus,
    TasksTuple,
};
use crate::sim::streams_note::StreamsNote;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;
use crate::sim::types::Errors;
use std::collections::BTreeMap;

/// A refusal: the error and its `ErrorMessage`.
pub(crate) type Refusal = (Errors, Option<String>);

pub(crate) fn heartbeat_error(error: Errors, message: Option<String>) -> Response {
    Response::StreamsGroupHeartbeat(StreamsGroupHeartbeatResponse {
        error,
        error_message: message,
        member_id: None,
        member_epoch: 0,
        heartbeat_interval_ms: 0,
        status: Vec::new(),
        assignment: None,
    })
}

/// `GroupCoordinatorService.throwIfStreamsGroupHeartbeatRequestIsInvalid`
/// (L576-611): ids present; a join (epoch 0) gives a rebalance timeout and a
/// topology and owns no tasks; −2 needs an instance id; nothing below −2; a
/// topology only with a join.
pub fn validate_request(req: &StreamsGroupHeartbeatRequest) -> Result<(), Errors> {
    let owns_tasks = [&req.active_tasks, &req.standby_tasks, &req.warmup_tasks]
        .iter()
        .any(|t| t.as_ref().is_some_and(|t| !t.is_empty()));
    let bad_join = req.member_epoch == 0 && (req.rebalance_timeout_ms == -1 || req.topology.is_none() || owns_tasks);
    if req.member_id.is_empty()
        || req.group_id.is_empty()
        || bad_join
        || (req.member_epoch == -2 && req.instance_id.is_none())
        || req.member_epoch < -2
        || (req.member_epoch != 0 && req.topology.is_some())
    {
        return Err(Errors::INVALID_REQUEST);
    }
    Ok(())
}

/// `throwIfStreamsGroupMemberEpochIsInvalid` (L1860): 0 always (a rejoin,
/// Kafka 4.2+); ahead is fenced; behind only if it is the previous epoch
/// and the member owns nothing it was not given.
fn validate_member_epoch(m: &StreamsGroupMember, received: i32, owned: Option<&TasksTuple>) -> Result<(), Errors> {
    if received == 0 || received == m.member_epoch {
        return Ok(());
    }
    let owns_only_assigned = owned.is_some_and(|o| o.minus(&m.assigned).is_empty());
    if received > m.member_epoch || received != m.previous_member_epoch || !owns_only_assigned {
        return Err(Errors::FENCED_MEMBER_EPOCH);
    }
    Ok(())
}

/// What the member reported owning: all three lists, or nothing.
pub(crate) fn owned(req: &StreamsGroupHeartbeatRequest) -> Option<TasksTuple> {
    match (&req.active_tasks, &req.standby_tasks, &req.warmup_tasks) {
        (Some(a), Some(s), Some(w)) => Some(TasksTuple { active: a.clone(), standby: s.clone(), warmup: w.clone() }),
        _ => None,
    }
}

impl Shard {
    /// A request of another group type for a streams group's id: GROUP_ID_NOT_FOUND.
    pub(crate) fn request_for_streams_group(&self, request: &Request) -> Option<Errors> {
        let group_id = match request {
            Request::JoinGroup(r) => &r.group_id,
            Request::SyncGroup(r) => &r.group_id,
            Request::Heartbeat { group_id, .. } | Request::LeaveGroup { group_id, .. } => group_id,
            Request::ConsumerGroupHeartbeat(r) => &r.group_id,
            Request::ShareGroupHeartbeat(r) => &r.group_id,
            _ => return None,
        };
        self.streams_group(group_id).map(|_| Errors::GROUP_ID_NOT_FOUND)
    }

    /// Writes streams-group records and replays them into the group.
    pub(crate) fn write_streams(
        &mut self,
        partition: u32,
        group_id: &str,
        records: Vec<StreamsGroupRecord>,
        out: &mut Out,
    ) {
        let Some(g) = self.streams_group_mut(group_id) else { return };
        for r in records {
            replay(g, &r);
            out.append(partition, CoordinatorRecord::StreamsGroup(r));
        }
    }

    /// Announces the group's state if it changed (`maybeUpdateGroupState`).
    pub(crate) fn update_streams_group_state(&mut self, ctx: &Ctx, group_id: &str, trigger: Trigger, out: &mut Out) {
        let Some(g) = self.streams_group_mut(group_id) else { return };
        let to = g.compute_state();
        if to != g.state {
            out.emit(EventKind::StateChanged {
                node: ctx.me,
                machine: Machine::StreamsGroup { group_id: group_id.into() },
                from: StateName::of(g.state),
                to: StateName::of(to),
                trigger,
            });
            g.state = to;
        }
    }

    pub(crate) fn streams_group_heartbeat(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        req: StreamsGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Response {
        let group_id = req.group_id.clone();
        let result = if req.member_epoch < 0 {
            self.streams_group_leave(ctx, partition, &req, out)
        } else {
            self.regular_streams_heartbeat(ctx, partition, &req, out)
        };
        self.update_streams_group_state(ctx, &group_id, Trigger::StreamsGroupHeartbeat, out);
        result.unwrap_or_else(|(e, m)| heartbeat_error(e, m))
    }

    /// `getOrCreateStreamsGroup` (L903): an empty classic group gives way to
    /// a joining member (offline migration); another type is not found.
    fn streams_group_for(&mut self, ctx: &Ctx, group_id: &str, create: bool, out: &mut Out) -> Result<(), Errors> {
        match self.groups.get(group_id) {
            Some(Group::Streams(_)) => Ok(()),
            Some(Group::Classic(g)) if create && g.members.is_empty() => {
                self.groups.insert(group_id.to_string(), Group::Streams(StreamsGroup::new(group_id)));
                let note = Note::Streams(StreamsNote::ClassicGroupMigrated { group_id: group_id.into() });
                out.emit(EventKind::Note { node: ctx.me, note });
                Ok(())
            }
            Some(_) => Err(Errors::GROUP_ID_NOT_FOUND),
            None if create => {
                self.groups.insert(group_id.to_string(), Group::Streams(StreamsGroup::new(group_id)));
                Ok(())
            }
            None => Err(Errors::GROUP_ID_NOT_FOUND),
        }
    }

    fn regular_streams_heartbeat(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        req: &StreamsGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Result<Response, Refusal> {
        let cfg = ctx.cluster.streams_group_config(&req.group_id);
        self.streams_group_for(ctx, &req.group_id, req.member_epoch == 0, out).map_err(|e| (e, None))?;
        let owned = owned(req);
        let gid = req.group_id.clone();
        let group = self.streams_group(&gid).expect("just found or created");
        let was_empty = group.members.is_empty() || group.members.values().all(|m| m.left_temporarily);
        let mut records = Vec::new();
        // The member: known, a static member coming back under a new id, or new.
        let existing = group.members.get(&req.member_id).cloned();
        let replaced = match (&existing, &req.instance_id) {
            (None, Some(instance)) => {
                group.members.values().find(|m| m.instance_id.as_ref() == Some(instance)).cloned()
            }
            _ => None,
        };
        if let Some(old) = &replaced {
            if !old.left_temporarily {
                // The old member still runs: UNRELEASED_INSTANCE_ID.
                return Err((Errors::UNRELEASED_INSTANCE_ID, None));
            }
        }
        let mut member = match (&existing, &replaced) {
            (Some(m), _) => {
                validate_member_epoch(m, req.member_epoch, owned.as_ref()).map_err(|e| (e, None))?;
                m.clone()
            }
            (None, _) if req.member_epoch != 0 => return Err((Errors::UNKNOWN_MEMBER_ID, None)),
            (None, Some(old)) => StreamsGroupMember {
                member_id: req.member_id.clone(),
                member_epoch: old.member_epoch.max(0),
                previous_member_epoch: old.previous_member_epoch,
                assigned: old.assigned.clone(),
                pending_revocation: old.pending_revocation.clone(),
                state: old.state,
                ..old.clone()
            },
            (None, None) => StreamsGroupMember { member_id: req.member_id.clone(), ..StreamsGroupMember::default() },
        };
        let mut recompute = false;
        // The topology: the first one is the group's (`maybeUpdateTopology`).
        let mut stale_topology = false;
        if let Some(t) = &req.topology {
            match &group.topology {
                None => {
                    records.push(StreamsGroupRecord::Topology { group_id: gid.clone(), topology: t.clone() });
                    let note = StreamsNote::TopologyInitialized {
                        group_id: gid.clone(),
                        epoch: t.epoch,
                        subtopologies: t.subtopologies.len(),
                    };
                    out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
                    recompute = true;
                }
                Some(g) if t.epoch < g.epoch => stale_topology = true,
                Some(g) if t != g => {
                    let note =
                        StreamsNote::TopologyUpdateRefused { group_id: gid.clone(), client: req.client_id.clone() };
                    out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
                    return Err((Errors::INVALID_REQUEST, Some("Topology updates are not supported yet.".into())));
                }
                Some(_) => {}
            }
        }
        if let Some(old) = &replaced {
            // The old static member's records go; the new one takes its place and tasks.
            records.push(StreamsGroupRecord::CurrentMemberAssignment {
                group_id: gid.clone(),
                member_id: old.member_id.clone(),
                value: None,
            });
            records.push(StreamsGroupRecord::MemberMetadata {
                group_id: gid.clone(),
                member_id: old.member_id.clone(),
                value: None,
            });
            // replaceStaticMember: the old member's target goes to the new member id.
            let mut targets = group.target_assignment.clone();
            if let Some(t) = targets.remove(&old.member_id) {
                targets.insert(req.member_id.clone(), t);
            }
            records.push(StreamsGroupRecord::TargetAssignment {
                group_id: gid.clone(),
                assignment_epoch: group.assignment_epoch,
                timestamp: group.assignment_timestamp,
                targets,
            });
            out.cancel_timer(session_key(&gid, &old.member_id));
            out.cancel_timer(rebalance_key(&gid, &old.member_id));
            self.streams_group_mut(&gid).expect("exists").rebalance_timeouts.remove(&old.member_id);
            let note = StreamsNote::StaticMemberReplaced { group_id: gid.clone(), client: req.client_id.clone() };
            out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
        }
        // The member's metadata (`hasStreamsMemberMetadataChanged`).
        let metadata = MemberMetadata {
            instance_id: req.instance_id.clone().or_else(|| member.instance_id.clone()),
            rack_id: req.rack_id.clone().or_else(|| member.rack_id.clone()),
            client_id: req.client_id.clone(),
            process_id: req.process_id.clone().unwrap_or_else(|| member.process_id.clone()),
            topology_epoch: req.topology.as_ref().map_or(member.topology_epoch, |t| t.epoch),
            rebalance_timeout_ms: if req.rebalance_timeout_ms == -1 {
                member.rebalance_timeout_ms
            } else {
                req.rebalance_timeout_ms
            },
        };
        let old_metadata = (existing.is_some() || replaced.is_some()).then(|| MemberMetadata {
            instance_id: member.instance_id.clone(),
            rack_id: member.rack_id.clone(),
            client_id: member.client_id.clone(),
            process_id: member.process_id.clone(),
            topology_epoch: member.topology_epoch,
            rebalance_timeout_ms: member.rebalance_timeout_ms,
        });
        let epoch_relevant = |a: &MemberMetadata, b: &MemberMetadata| {
            a.topology_epoch != b.topology_epoch || a.rack_id != b.rack_id || a.process_id != b.process_id
        };
        let changed = match &old_metadata {
            None => true,
            Some(old) if metadata.instance_id.is_some() => epoch_relevant(old, &metadata),
            Some(old) => *old != metadata,
        };
        recompute |= changed;
        if old_metadata.as_ref() != Some(&metadata) || replaced.is_some() {
            records.push(StreamsGroupRecord::MemberMetadata {
                group_id: gid.clone(),
                member_id: req.member_id.clone(),
                value: Some(metadata.clone()),
            });
        }
        if replaced.is_some() || existing.as_ref().is_some_and(|m| m.left_temporarily) {
            member.left_temporarily = false;
            records.push(current_record(&gid, &member));
        }
        self.write_streams(partition, &gid, std::mem::take(&mut records), out);
        if req.shutdown_application {
            let g = self.streams_group_mut(&gid).expect("exists");
            if g.shutdown_requested_by.is_none() {
                g.shutdown_requested_by = Some(req.member_id.clone());
                let note = StreamsNote::ShutdownRequested { group_id: gid.clone(), client: req.client_id.clone() };
                out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
            }
        }
        recompute |= self.configure_streams_topology(ctx, &gid, &cfg, out);
        let group = self.streams_group(&gid).expect("exists");
        if recompute {
            let epoch = group.group_epoch + 1;
            records.push(StreamsGroupRecord::Metadata {
                group_id: gid.clone(),
                epoch,
                metadata: group.metadata.clone(),
                num_standby_replicas: cfg.num_standby_replicas,
            });
            out.emit(EventKind::Note { node: ctx.me, note: Note::GroupEpochBumped { group_id: gid.clone(), epoch } });
            self.write_streams(partition, &gid, std::mem::take(&mut records), out);
        }
        // The initial rebalance delay: a member joining an empty group starts it.
        if was_empty && req.member_epoch == 0 && cfg.initial_rebalance_delay_ms > 0 {
            let until = ctx.now + cfg.initial_rebalance_delay_ms;
            let g = self.streams_group_mut(&gid).expect("exists");
            g.initial_delay_until = Some(until);
            out.set_timer(initial_delay_key(&gid), until);
            let note = StreamsNote::InitialRebalanceDelay { group_id: gid.clone(), until_ms: until };
            out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
        }
        let delayed = self.maybe_update_streams_target(ctx, partition, &gid, &cfg, false, out);
        // maybeReconcile → CurrentAssignmentBuilder.build.
        let group = self.streams_group(&gid).expect("exists");
        let before = group.members.get(&req.member_id).cloned().unwrap_or(member.clone());
        let target = group.target_assignment.get(&req.member_id).cloned().unwrap_or_default();
        let next =
            reconcile::build(group, &before, &target, group.assignment_epoch, owned.as_ref()).map_err(|e| (e, None))?;
        if next != before || existing.is_none() {
            self.reconciled(ctx, partition, &gid, &before, &next, out);
        }
        out.set_timer(session_key(&gid, &req.member_id), ctx.now + cfg.session_timeout_ms);
        let group = self.streams_group(&gid).expect("exists");
        let member = &group.members[&req.member_id];
        let mut status = Vec::new();
        if let Some((code, detail)) = group.configured.as_ref().and_then(|c| c.error.clone()) {
            status.push(Status { code, detail });
        }
        if stale_topology {
            status.push(Status {
                code: StreamsStatus::STALE_TOPOLOGY,
                detail: "The member's topology epoch is older than the group's.".into(),
            });
        }
        if group.shutdown_requested_by.is_some() {
            status.push(Status {
                code: StreamsStatus::SHUTDOWN_APPLICATION,
                detail: "A member requested the shutdown of the application.".into(),
            });
        }
        if delayed {
            status.push(Status {
                code: StreamsStatus::ASSIGNMENT_DELAYED,
                detail: "The assignment is delayed; tasks are assigned soon.".into(),
            });
        }
        let send_assignment = req.member_epoch == 0
            || member.assigned != before.assigned
            || owned.as_ref().is_some_and(|o| *o != member.assigned);
        Ok(Response::StreamsGroupHeartbeat(StreamsGroupHeartbeatResponse {
            error: Errors::NONE,
            error_message: None,
            member_id: Some(req.member_id.clone()),
            member_epoch: member.member_epoch,
            heartbeat_interval_ms: cfg.heartbeat_interval_ms as i32,
            status,
            assignment: send_assignment.then(|| member.assigned.clone()),
        }))
    }

    /// The topology configured against the cluster's topics; true when the
    /// metadata hash or the standby count changed (a new target is due).
    fn configure_streams_topology(&mut self, ctx: &Ctx, gid: &str, cfg: &StreamsGroupConfig, out: &mut Out) -> bool {
        let Some(g) = self.streams_group_mut(gid) else { return false };
        let Some(t) = g.topology.clone() else { return false };
        let named: std::collections::BTreeSet<&str> = t
            .subtopologies
            .iter()
            .flat_map(|s| {
                s.source_topics
                    .iter()
                    .map(String::as_str)
                    .chain(s.state_changelog_topics.iter().map(|x| x.name.as_str()))
                    .chain(s.repartition_source_topics.iter().map(|x| x.name.as_str()))
            })
            .collect();
        let metadata: BTreeMap<String, i32> = named
            .into_iter()
            .filter_map(|n| ctx.cluster.topics.get(n).map(|x| (n.to_string(), x.partitions.len() as i32)))
            .collect();
        let changed = metadata != g.metadata || cfg.num_standby_replicas != g.num_standby_replicas;
        if g.configured.is_none() || metadata != g.metadata {
            let configured = topology::configure(&t, &metadata);
            let was = g.configured.as_ref().map(|c| c.error.clone());
            if was.as_ref() != Some(&configured.error) {
                let note = StreamsNote::TopologyConfigured { group_id: gid.into(), problem: configured.error.clone() };
                out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
            }
            if !configured.to_create.is_empty() {
                let topics: Vec<(String, i32)> = configured.to_create.iter().map(|(t, n)| (t.clone(), *n)).collect();
                out.create_topics.extend(topics.iter().cloned());
                let note = StreamsNote::InternalTopicsCreated { group_id: gid.into(), topics };
                out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
            }
            g.configured = Some(configured);
        }
        // Kept with the epoch bump (the Metadata record), not here.
        let g = self.streams_group_mut(gid).expect("exists");
        if changed {
            g.metadata = metadata;
        }
        changed
    }

    /// `maybeUpdateStreamsTargetAssignment` (L4409): a new target when the
    /// group epoch is ahead of it, unless the initial rebalance delay runs or
    /// the assignment interval has not passed (both: ASSIGNMENT_DELAYED, the
    /// return value). `delayed_done`: the initial delay just expired
    /// (`computeDelayedTargetAssignment`, L4617), which ignores the interval.
    pub(crate) fn maybe_update_streams_target(
        &mut self,
        ctx: &Ctx,
        partition: u32,
        gid: &str,
        cfg: &StreamsGroupConfig,
        delayed_done: bool,
        out: &mut Out,
    ) -> bool {
        let Some(group) = self.streams_group(gid) else { return false };
        if group.assignment_epoch >= group.group_epoch {
            return false;
        }
        if group.initial_delay_until.is_some_and(|until| ctx.now < until) {
            return true;
        }
        if !delayed_done
            && !can_compute_next_target_assignment(group.assignment_timestamp, cfg.assignment_interval_ms, ctx.now)
        {
            let note = StreamsNote::TargetAssignmentDeferred {
                group_id: gid.into(),
                until_ms: group.assignment_timestamp + cfg.assignment_interval_ms,
            };
            out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
            return true;
        }
        let epoch = group.group_epoch;
        match target::compute(group, group.num_standby_replicas) {
            Ok(targets) => {
                let changed: Vec<String> = targets
                    .iter()
                    .filter(|(m, t)| group.target_assignment.get(*m) != Some(*t))
                    .map(|(m, t)| {
                        let who = group.members.get(m).map_or(m.as_str(), |x| x.client_id.as_str());
                        let mut s = format!("{who}=[{}]", task_names(&t.active).join(", "));
                        if !t.standby.is_empty() {
                            s.push_str(&format!("+standby[{}]", task_names(&t.standby).join(", ")));
                        }
                        s
                    })
                    .collect();
                let summary = (!changed.is_empty()).then(|| changed.join(" "));
                out.emit(EventKind::Note {
                    node: ctx.me,
                    note: Note::TargetAssignmentComputed {
                        group_id: gid.into(),
                        assignor: target::STREAMS_ASSIGNOR.into(),
                        epoch,
                        summary,
                    },
                });
                let record = StreamsGroupRecord::TargetAssignment {
                    group_id: gid.into(),
                    assignment_epoch: epoch,
                    timestamp: ctx.now.max(1),
                    targets,
                };
                self.write_streams(partition, gid, vec![record], out);
            }
            Err(error) => out.emit(EventKind::Note {
                node: ctx.me,
                note: Note::ServerAssignorFailed {
                    group_id: gid.into(),
                    assignor: target::STREAMS_ASSIGNOR.into(),
                    error,
                },
            }),
        }
        false
    }

    /// Writes a member's new current assignment and arms or cancels its
    /// rebalance timeout (`scheduleStreamsGroupRebalanceTimeout`, L5439).
    pub(crate) fn reconciled(
        &mut self,
        ctx: &Ctx,
        partition: u32,
        gid: &str,
        before: &StreamsGroupMember,
        next: &StreamsGroupMember,
        out: &mut Out,
    ) {
        self.write_streams(partition, gid, vec![current_record(gid, next)], out);
        let entering_unrevoked = next.state == StreamsMemberState::UNREVOKED_TASKS
            && (before.state != StreamsMemberState::UNREVOKED_TASKS || before.member_epoch != next.member_epoch);
        if entering_unrevoked {
            out.set_timer(rebalance_key(gid, &next.member_id), ctx.now + next.rebalance_timeout_ms.max(0) as u64);
            if let Some(g) = self.streams_group_mut(gid) {
                g.rebalance_timeouts.insert(next.member_id.clone(), next.member_epoch);
            }
        } else if next.state != StreamsMemberState::UNREVOKED_TASKS {
            out.cancel_timer(rebalance_key(gid, &next.member_id));
            if let Some(g) = self.streams_group_mut(gid) {
                g.rebalance_timeouts.remove(&next.member_id);
            }
        }
        if before.state != next.state || before.member_epoch != next.member_epoch || before.assigned != next.assigned {
            let note = StreamsNote::MemberReconciled {
                group_id: gid.into(),
                client: next.client_id.clone(),
                state: next.state,
                epoch: next.member_epoch,
                active: task_names(&next.assigned.active),
                standby: task_names(&next.assigned.standby),
                revoking: task_names(&next.pending_revocation.active),
            };
            out.emit(EventKind::Note { node: ctx.me, note: Note::Streams(note) });
        }
    }
}

/// The member's `StreamsGroupCurrentMemberAssignment` record.
pub(crate) fn current_record(gid: &str, m: &StreamsGroupMember) -> StreamsGroupRecord {
    StreamsGroupRecord::CurrentMemberAssignment {
        group_id: gid.into(),
        member_id: m.member_id.clone(),
        value: Some(CurrentAssignment {
            member_epoch: m.member_epoch,
            previous_member_epoch: m.previous_member_epoch,
            state: m.state,
            assigned: m.assigned.clone(),
            pending_revocation: m.pending_revocation.clone(),
            left_temporarily: m.left_temporarily,
        }),
    }
}
