//! ShareGroupHeartbeat on the coordinator (GroupMetadataManager
//! `shareGroupHeartbeat`, L2940-3070), a member's fencing on leave or session
//! expiry (`shareGroupLeave`, `shareGroupFenceMember`), share-state
//! initialization (`maybeCreateInitializeShareGroupStateRequest`,
//! `initializeShareGroupState`) and what loading restarts.

use crate::assign::TopicPartition;
use crate::sim::cluster::share_state::ShareStateWrite;
use crate::sim::cluster::CoordinatorRecord;
use crate::sim::coordinator::consumer::heartbeat::can_compute_next_target_assignment;
use crate::sim::coordinator::group::Group;
use crate::sim::coordinator::shard::Shard;
use crate::sim::coordinator::share::records::{replay, CurrentAssignment, MemberMetadata, ShareGroupRecord};
use crate::sim::coordinator::share::{initialize_key, session_key, target, ShareGroup};
use crate::sim::ctx::Ctx;
use crate::sim::message::{Request, Response};
use crate::sim::note::Note;
use crate::sim::out::Out;
use crate::sim::reason::FenceReason;
use crate::sim::scenario::share_config::SHARE_GROUP_MAX_SIZE;
use crate::sim::share_message::{ShareGroupHeartbeatRequest, ShareGroupHeartbeatResponse};
use crate::sim::share_note::ShareNote;
use crate::sim::state_machine::StateName;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, Millis};
use std::collections::{BTreeMap, BTreeSet};

/// The share coordinator's InitializeShareGroupState round trip, in
/// simulated ms (its RPCs are not drawn; fidelity notes).
pub const PERSISTER_ROUND_TRIP_MS: Millis = 20;

/// `group.share.initialize.retry.interval.ms` (internal): an initialization
/// still pending after this long is asked for again.
pub const INITIALIZE_RETRY_INTERVAL_MS: Millis = 30_000;

pub(crate) fn heartbeat_error(error: Errors) -> Response {
    Response::ShareGroupHeartbeat(ShareGroupHeartbeatResponse {
        error,
        member_id: None,
        member_epoch: 0,
        heartbeat_interval_ms: 0,
        assignment: None,
    })
}

/// `GroupCoordinatorService.throwIfShareGroupHeartbeatRequestIsInvalid`
/// (L1019-1033): a member id and a group id; no empty rack; a join names
/// its topics; no epoch below −1.
pub fn validate_request(req: &ShareGroupHeartbeatRequest) -> Result<(), Errors> {
    let joins_without_topics =
        req.member_epoch == 0 && req.subscribed_topic_names.as_ref().is_none_or(|t| t.is_empty());
    if req.member_id.is_empty()
        || req.group_id.is_empty()
        || req.rack_id.as_deref() == Some("")
        || joins_without_topics
        || req.member_epoch < -1
    {
        return Err(Errors::INVALID_REQUEST);
    }
    Ok(())
}

/// `throwIfShareGroupMemberEpochIsInvalid` (L1690): 0 always (a rejoin keeps
/// the member's epoch and assignment, Kafka 4.2+); ahead is fenced; behind
/// only if it is the previous epoch (there is no owned-partition check).
fn validate_member_epoch(member_epoch: i32, previous: i32, received: i32) -> Result<(), Errors> {
    if received == 0 || received == member_epoch {
        return Ok(());
    }
    if received > member_epoch || received != previous {
        return Err(Errors::FENCED_MEMBER_EPOCH);
    }
    Ok(())
}

impl Shard {
    /// A request for a share group's id that is not a ShareGroupHeartbeat:
    /// a classic JoinGroup, a ConsumerGroupHeartbeat, an offset commit or
    /// fetch all get GROUP_ID_NOT_FOUND ("Group %s is not a ... group";
    /// `ShareGroup.validateOffsetCommit`, `getOrMaybeCreateConsumerGroup`).
    pub(crate) fn request_for_share_group(&self, request: &Request) -> Option<Errors> {
        let group_id = match request {
            Request::JoinGroup(r) => &r.group_id,
            Request::SyncGroup(r) => &r.group_id,
            Request::Heartbeat { group_id, .. }
            | Request::LeaveGroup { group_id, .. }
            | Request::OffsetFetch { group_id, .. } => group_id,
            Request::OffsetCommit(r) => &r.group_id,
            Request::ConsumerGroupHeartbeat(r) => &r.group_id,
            _ => return None,
        };
        self.share_group(group_id).map(|_| Errors::GROUP_ID_NOT_FOUND)
    }

    /// Writes share-group records and replays them into the group.
    fn write_share(&mut self, partition: u32, group_id: &str, records: Vec<ShareGroupRecord>, out: &mut Out) {
        let Some(g) = self.share_group_mut(group_id) else { return };
        for r in records {
            replay(g, &r);
            out.append(partition, CoordinatorRecord::ShareGroup(r));
        }
    }

    /// Announces the group's state if it changed (`maybeUpdateGroupState`).
    fn update_share_group_state(&mut self, ctx: &Ctx, group_id: &str, trigger: Trigger, out: &mut Out) {
        let Some(g) = self.share_group_mut(group_id) else { return };
        let to = g.compute_state();
        if to != g.state {
            out.emit(EventKind::StateChanged {
                node: ctx.me,
                machine: Machine::ShareGroup { group_id: group_id.into() },
                from: StateName::of(g.state),
                to: StateName::of(to),
                trigger,
            });
            g.state = to;
        }
    }

    pub(crate) fn share_group_heartbeat(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        req: ShareGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Response {
        let group_id = req.group_id.clone();
        let result = if req.member_epoch == -1 {
            self.share_group_leave(ctx, partition, &req, out)
        } else {
            self.regular_share_heartbeat(ctx, partition, &req, out)
        };
        self.update_share_group_state(ctx, &group_id, Trigger::ShareGroupHeartbeat, out);
        result.unwrap_or_else(heartbeat_error)
    }

    /// `getOrMaybeCreateShareGroup` (L1173): a group of another type is not
    /// found; a join creates a missing one.
    fn share_group_for(&mut self, group_id: &str, create: bool) -> Result<(), Errors> {
        match self.groups.get(group_id) {
            Some(Group::Share(_)) => Ok(()),
            Some(_) => Err(Errors::GROUP_ID_NOT_FOUND),
            None if create => {
                self.groups.insert(group_id.to_string(), Group::Share(ShareGroup::new(group_id)));
                Ok(())
            }
            None => Err(Errors::GROUP_ID_NOT_FOUND),
        }
    }

    fn regular_share_heartbeat(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        req: &ShareGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Result<Response, Errors> {
        let cfg = ctx.cluster.share_group_config(&req.group_id);
        self.share_group_for(&req.group_id, req.member_epoch == 0)?;
        let group = self.share_group(&req.group_id).expect("just found or created");
        let existing = group.members.get(&req.member_id);
        // throwIfShareGroupIsFull (L1620)
        if existing.is_none() && group.members.len() >= SHARE_GROUP_MAX_SIZE {
            return Err(Errors::GROUP_MAX_SIZE_REACHED);
        }
        // ShareGroup.getOrMaybeCreateMember and the epoch check
        let (old_epoch, old_assigned) = match existing {
            None if req.member_epoch != 0 => return Err(Errors::UNKNOWN_MEMBER_ID),
            None => (0, BTreeSet::new()),
            Some(m) => {
                validate_member_epoch(m.member_epoch, m.previous_member_epoch, req.member_epoch)?;
                (m.member_epoch, m.assigned_partitions.clone())
            }
        };
        let mut records = Vec::new();
        let mut bump = false;
        // The member's metadata: a new member or a changed subscription bumps the epoch.
        let subscribed = req
            .subscribed_topic_names
            .clone()
            .or_else(|| existing.map(|m| m.subscribed_topic_names.clone()))
            .unwrap_or_default();
        let rack = req.rack_id.clone().or_else(|| existing.and_then(|m| m.rack_id.clone()));
        if existing.is_none_or(|m| m.subscribed_topic_names != subscribed || m.rack_id != rack) {
            bump = true;
            records.push(ShareGroupRecord::MemberMetadata {
                group_id: req.group_id.clone(),
                member_id: req.member_id.clone(),
                value: Some(MemberMetadata {
                    client_id: format!("share-{}", crate::sim::message::short_member(&req.member_id)),
                    rack_id: rack,
                    subscribed_topic_names: subscribed,
                }),
            });
        }
        self.write_share(partition, &req.group_id, std::mem::take(&mut records), out);
        let group = self.share_group(&req.group_id).expect("exists");
        // The subscribed topics' partition counts (the metadata hash, KIP-1101).
        let metadata: BTreeMap<String, i32> = group
            .subscribed_topics()
            .into_iter()
            .filter_map(|t| ctx.cluster.topics.get(t).map(|x| (t.to_string(), x.partitions.len() as i32)))
            .collect();
        bump |= metadata != group.subscription_metadata;
        // initializedAssignmentPending (L3080): initialized share-partitions no target holds yet.
        let targeted: BTreeSet<&TopicPartition> = group.target_assignment.values().flatten().collect();
        let subscribed_now: BTreeSet<&str> = group.subscribed_topics();
        // Checked only when no assignment is pending (assignmentEpoch >= groupEpoch).
        bump |= group.assignment_epoch >= group.group_epoch
            && group
                .initialized
                .iter()
                .any(|tp| subscribed_now.contains(&*tp.topic) && !targeted.contains(tp) && !group.members.is_empty());
        if bump {
            let epoch = group.group_epoch + 1;
            records.push(ShareGroupRecord::Metadata {
                group_id: req.group_id.clone(),
                epoch,
                subscription_metadata: metadata.clone(),
            });
            out.emit(EventKind::Note {
                node: ctx.me,
                note: Note::GroupEpochBumped { group_id: req.group_id.clone(), epoch },
            });
        }
        self.write_share(partition, &req.group_id, std::mem::take(&mut records), out);
        self.maybe_initialize_share_state(ctx, partition, &req.group_id, &metadata, out);
        self.maybe_update_share_target(ctx, partition, &req.group_id, cfg.assignment_interval_ms, out);
        // maybeReconcile → ShareGroupAssignmentBuilder.build (SGAB L120-140):
        // the member jumps straight to the target epoch and its partitions.
        let group = self.share_group(&req.group_id).expect("exists");
        let member = &group.members[&req.member_id];
        if member.member_epoch != group.assignment_epoch {
            let assigned = group.target_assignment.get(&req.member_id).cloned().unwrap_or_default();
            records.push(ShareGroupRecord::CurrentMemberAssignment {
                group_id: req.group_id.clone(),
                member_id: req.member_id.clone(),
                value: Some(CurrentAssignment {
                    member_epoch: group.assignment_epoch,
                    previous_member_epoch: old_epoch,
                    assigned_partitions: assigned,
                }),
            });
        }
        self.write_share(partition, &req.group_id, records, out);
        out.set_timer(session_key(&req.group_id, &req.member_id), ctx.now + cfg.session_timeout_ms);
        let member = &self.share_group(&req.group_id).expect("exists").members[&req.member_id];
        let send_assignment =
            req.member_epoch == 0 || req.subscribed_topic_names.is_some() || member.assigned_partitions != old_assigned;
        Ok(Response::ShareGroupHeartbeat(ShareGroupHeartbeatResponse {
            error: Errors::NONE,
            member_id: Some(req.member_id.clone()),
            member_epoch: member.member_epoch,
            heartbeat_interval_ms: cfg.heartbeat_interval_ms as i32,
            assignment: send_assignment.then(|| member.assigned_partitions.iter().cloned().collect()),
        }))
    }

    /// `maybeCreateInitializeShareGroupStateRequest` (L3182): subscribed
    /// share-partitions neither initialized nor being initialized (or being
    /// initialized for too long) are written as initializing, and the
    /// persister's InitializeShareGroupState goes out (a 0 ms timer task,
    /// `persisterInitialize`).
    fn maybe_initialize_share_state(
        &mut self,
        ctx: &Ctx,
        partition: u32,
        group_id: &str,
        metadata: &BTreeMap<String, i32>,
        out: &mut Out,
    ) {
        let group = self.share_group(group_id).expect("exists");
        let fresh: Vec<TopicPartition> = metadata
            .iter()
            .flat_map(|(t, n)| (0..*n).map(move |p| TopicPartition::new(t.as_str(), p)))
            .filter(|tp| {
                !group.initialized.contains(tp)
                    && group.initializing.get(tp).is_none_or(|since| ctx.now >= since + INITIALIZE_RETRY_INTERVAL_MS)
            })
            .collect();
        if fresh.is_empty() {
            return;
        }
        let mut initializing = group.initializing.clone();
        for tp in &fresh {
            initializing.insert(tp.clone(), ctx.now);
        }
        let record = ShareGroupRecord::StatePartitionMetadata {
            group_id: group_id.to_string(),
            initializing,
            initialized: group.initialized.clone(),
        };
        self.write_share(partition, group_id, vec![record], out);
        let note = ShareNote::StateInitializing { group_id: group_id.to_string(), partitions: fresh };
        out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
        out.set_timer(initialize_key(group_id), ctx.now + PERSISTER_ROUND_TRIP_MS);
    }

    /// `maybeUpdateTargetAssignment` for share groups (L4306): only when the
    /// group epoch is ahead of the target's and the assignment interval has
    /// passed (KIP-1263 batching, 4.3+).
    fn maybe_update_share_target(
        &mut self,
        ctx: &Ctx,
        partition: u32,
        group_id: &str,
        interval_ms: Millis,
        out: &mut Out,
    ) {
        let group = self.share_group(group_id).expect("exists");
        if group.assignment_epoch >= group.group_epoch {
            return;
        }
        if !can_compute_next_target_assignment(group.assignment_timestamp, interval_ms, ctx.now) {
            let note = Note::Share(ShareNote::TargetAssignmentDeferred {
                group_id: group_id.to_string(),
                until_ms: group.assignment_timestamp + interval_ms,
            });
            out.emit(EventKind::Note { node: ctx.me, note });
            return;
        }
        let epoch = group.group_epoch;
        match target::compute(group) {
            Ok(targets) => {
                let changed: Vec<(String, BTreeSet<TopicPartition>)> = targets
                    .iter()
                    .filter(|(m, ps)| group.target_assignment.get(*m) != Some(*ps))
                    .map(|(m, ps)| (m.clone(), ps.clone()))
                    .collect();
                let summary = crate::sim::coordinator::modern::target_assignment::describe(group, &changed);
                out.emit(EventKind::Note {
                    node: ctx.me,
                    note: Note::TargetAssignmentComputed {
                        group_id: group_id.to_string(),
                        assignor: target::SHARE_ASSIGNOR.into(),
                        epoch,
                        summary,
                    },
                });
                let record = ShareGroupRecord::TargetAssignment {
                    group_id: group_id.to_string(),
                    assignment_epoch: epoch,
                    timestamp: ctx.now.max(1),
                    targets,
                };
                self.write_share(partition, group_id, vec![record], out);
            }
            Err(error) => out.emit(EventKind::Note {
                node: ctx.me,
                note: Note::ServerAssignorFailed {
                    group_id: group_id.to_string(),
                    assignor: target::SHARE_ASSIGNOR.into(),
                    error,
                },
            }),
        }
    }

    /// `shareGroupLeave` (L4837): an unknown member is refused; a known one is fenced.
    fn share_group_leave(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        req: &ShareGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Result<Response, Errors> {
        let group = self.share_group(&req.group_id).ok_or(Errors::GROUP_ID_NOT_FOUND)?;
        if !group.members.contains_key(&req.member_id) {
            return Err(Errors::UNKNOWN_MEMBER_ID);
        }
        self.fence_share_member(ctx, partition, &req.group_id, &req.member_id, FenceReason::LeftGroup, out);
        Ok(Response::ShareGroupHeartbeat(ShareGroupHeartbeatResponse {
            error: Errors::NONE,
            member_id: Some(req.member_id.clone()),
            member_epoch: -1,
            heartbeat_interval_ms: 0,
            assignment: None,
        }))
    }

    /// `shareGroupFenceMember` (L4960): the member's tombstones, the group
    /// epoch +1, and when it was the last member, a target at the new epoch
    /// with timestamp 0 (Kafka 4.4). Its partitions are re-targeted on the
    /// next heartbeat of another member, with no revocation to wait for.
    fn fence_share_member(
        &mut self,
        ctx: &Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        reason: FenceReason,
        out: &mut Out,
    ) {
        let Some(group) = self.share_group(group_id) else { return };
        let epoch = group.group_epoch + 1;
        let last = group.members.len() == 1;
        let mut records = vec![
            ShareGroupRecord::CurrentMemberAssignment {
                group_id: group_id.into(),
                member_id: member_id.into(),
                value: None,
            },
            ShareGroupRecord::MemberMetadata { group_id: group_id.into(), member_id: member_id.into(), value: None },
            ShareGroupRecord::Metadata {
                group_id: group_id.into(),
                epoch,
                subscription_metadata: group.subscription_metadata.clone(),
            },
        ];
        if last {
            records.push(ShareGroupRecord::TargetAssignment {
                group_id: group_id.into(),
                assignment_epoch: epoch,
                timestamp: 0,
                targets: BTreeMap::new(),
            });
        }
        out.emit(EventKind::Note {
            node: ctx.me,
            note: Note::MemberFenced { member_id: member_id.into(), group_id: group_id.into(), reason, epoch },
        });
        out.cancel_timer(session_key(group_id, member_id));
        self.write_share(partition, group_id, records, out);
    }

    /// The session timeout of a member fired (`shareGroupFenceMemberOperation`).
    pub(crate) fn share_session_expired(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        member_id: &str,
        out: &mut Out,
    ) {
        if self.share_group(group_id).is_some_and(|g| g.members.contains_key(member_id)) {
            self.fence_share_member(ctx, partition, group_id, member_id, FenceReason::SessionExpired, out);
            self.update_share_group_state(ctx, group_id, Trigger::Fenced(FenceReason::SessionExpired), out);
        }
    }

    /// The share coordinator answered InitializeShareGroupState: the
    /// share-partitions are initialized (`initializeShareGroupState`, L5725),
    /// their state written with start offset −1 (`share.auto.offset.reset`
    /// applies when a leader first loads them).
    pub(crate) fn share_state_initialized(&mut self, ctx: &mut Ctx, partition: u32, group_id: &str, out: &mut Out) {
        let Some(group) = self.share_group(group_id) else { return };
        if group.initializing.is_empty() {
            return;
        }
        let done: Vec<TopicPartition> = group.initializing.keys().cloned().collect();
        let mut initialized = group.initialized.clone();
        for tp in &done {
            initialized.insert(tp.clone());
            if !ctx.cluster.share_state.get(group_id).is_some_and(|g| g.contains_key(tp)) {
                out.share_state.push(ShareStateWrite {
                    group_id: group_id.to_string(),
                    partition: tp.clone(),
                    state: crate::sim::cluster::share_fetch::initial_state(),
                });
            }
        }
        let record = ShareGroupRecord::StatePartitionMetadata {
            group_id: group_id.to_string(),
            initializing: BTreeMap::new(),
            initialized,
        };
        self.write_share(partition, group_id, vec![record], out);
        let note = ShareNote::StateInitialized { group_id: group_id.to_string(), partitions: done };
        out.emit(EventKind::Note { node: ctx.me, note: Note::Share(note) });
    }

    /// `onLoaded` for share groups: every member gets a fresh session timeout,
    /// and an initialization still pending is asked for again.
    pub(crate) fn share_groups_loaded(&mut self, ctx: &Ctx, out: &mut Out) {
        for group in self.share_groups_mut() {
            group.state = group.compute_state();
            let cfg = ctx.cluster.share_group_config(&group.group_id);
            for m in group.members.values() {
                out.set_timer(session_key(&group.group_id, &m.member_id), ctx.now + cfg.session_timeout_ms);
            }
            if !group.initializing.is_empty() {
                out.set_timer(initialize_key(&group.group_id), ctx.now + PERSISTER_ROUND_TRIP_MS);
            }
        }
    }
}
