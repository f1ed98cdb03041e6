//! ConsumerGroupHeartbeat on the coordinator (GroupMetadataManager
//! `consumerGroupHeartbeat`): the request checks, the three numbered steps of a
//! regular heartbeat, and the records a member's arrival, replacement and
//! removal write. Leaving and fencing are in `leave.rs`, the group's state and
//! loading in `group_state.rs`, offset commits in `offset_commit.rs`.

use crate::assign::TopicPartition;
use crate::sim::cluster::CoordinatorRecord;
use crate::sim::coordinator::consumer::current_assignment_builder::CurrentAssignmentBuilder;
use crate::sim::coordinator::consumer::records::{replay, ConsumerGroupRecord};
use crate::sim::coordinator::consumer::{rebalance_key, session_key, ConsumerGroup, ConsumerGroupMember, MemberState};
use crate::sim::coordinator::group::consumer_entry;
use crate::sim::coordinator::shard::Shard;
use crate::sim::ctx::Ctx;
use crate::sim::message::{
    ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, Response, LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
};
use crate::sim::note::Note;
use crate::sim::out::Out;
use crate::sim::trace::EventKind;
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, Millis, NodeId};
use std::collections::BTreeSet;

pub(crate) fn heartbeat_error(error: Errors) -> Response {
    Response::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatResponse {
        error,
        member_id: None,
        member_epoch: 0,
        heartbeat_interval_ms: 0,
        assignment: None,
    })
}

/// `GroupCoordinatorService.throwIfConsumerGroupHeartbeatRequestIsInvalid` for
/// ConsumerGroupHeartbeat v1, the version Kafka 4.x clients send: the member id
/// is the client's own and never empty (KIP-1082); a (re)join sets the rebalance
/// timeout, owns nothing and sends a subscription, possibly an empty one.
pub fn validate_request(req: &ConsumerGroupHeartbeatRequest, assignors: &[String]) -> Result<(), Errors> {
    let invalid = Err(Errors::INVALID_REQUEST);
    let empty = |s: &Option<String>| s.as_deref() == Some("");
    if req.member_id.is_empty() || req.group_id.is_empty() || empty(&req.instance_id) || empty(&req.rack_id) {
        return invalid;
    }
    match req.member_epoch {
        e if e > 0 || e == LEAVE_GROUP_MEMBER_EPOCH => {}
        0 => {
            let owned_empty = req.topic_partitions.as_ref().is_some_and(|p| p.is_empty());
            if req.rebalance_timeout_ms == -1 || !owned_empty || req.subscribed_topic_names.is_none() {
                return invalid;
            }
        }
        LEAVE_GROUP_STATIC_MEMBER_EPOCH => {
            if req.instance_id.is_none() {
                return invalid;
            }
        }
        _ => return invalid,
    }
    match &req.server_assignor {
        Some(a) if !assignors.contains(a) => Err(Errors::UNSUPPORTED_ASSIGNOR),
        _ => Ok(()),
    }
}

/// `throwIfConsumerGroupMemberEpochIsInvalid`: epoch 0 is a (re)join and always
/// accepted, so a member the coordinator still holds gets back its epoch and
/// assignment (Kafka 4.2+; before, it was fenced again until its session
/// expired); an epoch ahead is fenced; one behind is accepted only if it is the
/// previous epoch and the member owns no more than it is assigned (the response
/// that bumped it may have been lost).
pub fn validate_member_epoch(
    member: &ConsumerGroupMember,
    received: i32,
    owned: Option<&[TopicPartition]>,
) -> Result<(), Errors> {
    if received == 0 {
        return Ok(());
    }
    if received > member.member_epoch {
        return Err(Errors::FENCED_MEMBER_EPOCH);
    }
    if received < member.member_epoch {
        let subset = owned.is_some_and(|o| o.iter().all(|tp| member.assigned_partitions.contains(tp)));
        if received != member.previous_member_epoch || !subset {
            return Err(Errors::FENCED_MEMBER_EPOCH);
        }
    }
    Ok(())
}

/// `GroupMetadataManager.canComputeNextTargetAssignment` (KIP-1263, Kafka 4.3+):
/// at once when no assignment was computed yet (timestamp 0) or the interval is
/// 0, otherwise once `assignment.interval.ms` has passed since the last one.
/// There is no timer: the first heartbeat after that computes it.
pub fn can_compute_next_target_assignment(assignment_timestamp: Millis, interval_ms: Millis, now: Millis) -> bool {
    assignment_timestamp == 0 || interval_ms == 0 || now >= assignment_timestamp + interval_ms
}

impl Shard {
    pub(crate) fn consumer_group_heartbeat(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        from: NodeId,
        req: ConsumerGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Response {
        let group_id = req.group_id.clone();
        let result =
            if req.member_epoch == LEAVE_GROUP_MEMBER_EPOCH || req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH {
                self.consumer_group_leave(ctx, partition, &req, out)
            } else {
                self.regular_heartbeat(ctx, partition, from, &req, out)
            };
        self.update_consumer_group_state(ctx, &group_id, Trigger::ConsumerGroupHeartbeat, out);
        result.unwrap_or_else(heartbeat_error)
    }

    /// Appends a record to the partition and applies it (the coordinator's state
    /// is always what replaying its log gives).
    pub(super) fn write(&mut self, out: &mut Out, partition: u32, record: ConsumerGroupRecord) {
        replay(consumer_entry(&mut self.groups, record.group_id()), &record);
        out.append(partition, CoordinatorRecord::ConsumerGroup(record));
    }

    fn regular_heartbeat(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        from: NodeId,
        req: &ConsumerGroupHeartbeatRequest,
        out: &mut Out,
    ) -> Result<Response, Errors> {
        let cfg = ctx.broker_config;
        let group_id = req.group_id.clone();
        // getOrMaybeCreateConsumerGroup: only a join creates it; a classic group in use keeps the id.
        if self.consumer_group(&group_id).is_none() {
            let classic_in_use = self.classic(&group_id).is_some_and(|g| !g.members.is_empty());
            if classic_in_use || req.member_epoch != 0 {
                return Err(Errors::GROUP_ID_NOT_FOUND);
            }
        }
        let fresh = ConsumerGroup::new(&group_id);
        let group = self.consumer_group(&group_id).unwrap_or(&fresh);
        throw_if_consumer_group_is_full(group, req, cfg.consumer_group_max_size)?;
        let member_id = req.member_id.clone();
        let (member, replaced) = member_for(group, &member_id, req)?;
        let default_assignor = &cfg.consumer_group_assignors[0];
        let assignor_before = group.effective_server_assignor(default_assignor);

        // 1. Create or update the member; bump the group epoch if its subscription,
        //    the effective preferred server assignor (`hasPreferredServerAssignorChanged`)
        //    or the subscribed topics' partition counts changed.
        if let Some(old) = &replaced {
            self.replace_static_member(partition, &group_id, old, &member, out);
        }
        let updated = updated_member(&member, req, from);
        let known = self.consumer_group(&group_id).is_some_and(|g| g.members.contains_key(&member_id));
        if !known || updated.metadata() != member.metadata() {
            let value = Some(updated.metadata());
            self.write(
                out,
                partition,
                ConsumerGroupRecord::MemberMetadata { group_id: group_id.clone(), member_id: member_id.clone(), value },
            );
        }
        let subscription_changed = updated.subscribed_topic_names != member.subscribed_topic_names;
        let assignor_changed = self.held(&group_id).effective_server_assignor(default_assignor) != assignor_before;
        let mut bump = subscription_changed || assignor_changed;
        bump |= self.refresh_subscription_metadata(ctx, partition, &group_id, out);
        let group = self.held(&group_id);
        if bump {
            let epoch = group.group_epoch + 1;
            self.write(out, partition, ConsumerGroupRecord::Metadata { group_id: group_id.clone(), epoch });
            out.emit(EventKind::Note {
                node: ctx.me,
                note: Note::GroupEpochBumped { group_id: group_id.clone(), epoch },
            });
        }

        // 2. A new target assignment, computed now if the group epoch is ahead of it
        //    and the assignment interval has passed since the last one (batching).
        let group = self.held(&group_id);
        if group.group_epoch > group.assignment_epoch {
            if can_compute_next_target_assignment(
                group.assignment_timestamp,
                cfg.consumer_group_assignment_interval_ms,
                ctx.now,
            ) {
                self.update_target_assignment(ctx, partition, &group_id, out)?;
            } else if !self.held(&group_id).assignment_deferred_noted {
                let next = group.assignment_timestamp + cfg.consumer_group_assignment_interval_ms;
                let note = Note::TargetAssignmentDeferred { group_id: group_id.clone(), until_ms: next };
                out.emit(EventKind::Note { node: ctx.me, note });
                self.consumer_group_mut(&group_id).expect("exists").assignment_deferred_noted = true;
            }
        }

        // 3. Reconcile the member towards its target (`maybeReconcile`), and keep it
        //    consistent with a subscription it changed in this heartbeat.
        let group = self.held(&group_id);
        let current = group.members[&member_id].clone();
        let target_epoch = group.assignment_epoch;
        let target = group.target_of(&member_id);
        if subscription_changed || !current.is_reconciled_to(target_epoch) {
            let epoch_of = |tp: &TopicPartition| group.current_partition_epoch(tp);
            let next = CurrentAssignmentBuilder {
                member: &current,
                target_assignment_epoch: target_epoch,
                target_assignment: &target,
                current_partition_epoch: &epoch_of,
                owned_topic_partitions: req.topic_partitions.as_deref(),
                has_subscription_changed: subscription_changed,
            }
            .build();
            if next != current {
                let value = Some(next.current_assignment());
                self.write(
                    out,
                    partition,
                    ConsumerGroupRecord::CurrentMemberAssignment {
                        group_id: group_id.clone(),
                        member_id: member_id.clone(),
                        value,
                    },
                );
                self.arm_or_cancel_rebalance_timeout(ctx, &group_id, &next, out);
            }
        }
        out.set_timer(session_key(&group_id, &member_id), ctx.now + cfg.consumer_group_session_timeout_ms);

        let now_member = &self.held(&group_id).members[&member_id];
        let full = req.member_epoch == 0
            || (req.rebalance_timeout_ms != -1
                && req.subscribed_topic_names.is_some()
                && req.topic_partitions.is_some());
        let changed = now_member.assigned_partitions != member.assigned_partitions;
        Ok(Response::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatResponse {
            error: Errors::NONE,
            member_id: Some(member_id),
            member_epoch: now_member.member_epoch,
            heartbeat_interval_ms: cfg.consumer_group_heartbeat_interval_ms as i32,
            assignment: (full || changed).then(|| now_member.assigned_partitions.iter().cloned().collect()),
        }))
    }

    /// `replaceMember`: the old static member's records are removed and a copy
    /// under the new member id (epoch 0, same assignment and target) is written.
    fn replace_static_member(
        &mut self,
        partition: u32,
        group_id: &str,
        old_id: &str,
        new: &ConsumerGroupMember,
        out: &mut Out,
    ) {
        let target = self.held(group_id).target_assignment.get(old_id).cloned();
        self.remove_member_records(partition, group_id, old_id, out);
        let (g, m) = (group_id.to_string(), new.member_id.clone());
        self.write(
            out,
            partition,
            ConsumerGroupRecord::MemberMetadata {
                group_id: g.clone(),
                member_id: m.clone(),
                value: Some(new.metadata()),
            },
        );
        if let Some(t) = target {
            self.write(
                out,
                partition,
                ConsumerGroupRecord::TargetAssignmentMember {
                    group_id: g.clone(),
                    member_id: m.clone(),
                    partitions: Some(t),
                },
            );
        }
        self.write(
            out,
            partition,
            ConsumerGroupRecord::CurrentMemberAssignment {
                group_id: g,
                member_id: m,
                value: Some(new.current_assignment()),
            },
        );
    }

    /// `removeMember`: tombstones for the current assignment, target and metadata.
    pub(super) fn remove_member_records(&mut self, partition: u32, group_id: &str, member_id: &str, out: &mut Out) {
        let (g, m) = (group_id.to_string(), member_id.to_string());
        self.write(
            out,
            partition,
            ConsumerGroupRecord::CurrentMemberAssignment { group_id: g.clone(), member_id: m.clone(), value: None },
        );
        self.write(
            out,
            partition,
            ConsumerGroupRecord::TargetAssignmentMember { group_id: g.clone(), member_id: m.clone(), partitions: None },
        );
        self.write(out, partition, ConsumerGroupRecord::MemberMetadata { group_id: g, member_id: m, value: None });
        if let Some(group) = self.consumer_group_mut(group_id) {
            group.rebalance_timeouts.remove(member_id);
        }
    }

    /// Recomputes the partition counts of the subscribed topics and writes them if
    /// they changed; true if so (a group-epoch bump). Kafka refreshes them when
    /// the metadata image changes; here every heartbeat looks.
    pub(super) fn refresh_subscription_metadata(
        &mut self,
        ctx: &Ctx,
        partition: u32,
        group_id: &str,
        out: &mut Out,
    ) -> bool {
        let group = self.held(group_id);
        let topics =
            ConsumerGroup::subscription_metadata_of(group.members.values(), |t| ctx.cluster.partition_count(t));
        if topics == group.subscription_metadata {
            return false;
        }
        self.write(out, partition, ConsumerGroupRecord::PartitionMetadata { group_id: group_id.into(), topics });
        true
    }

    /// Step 2 (TargetAssignmentBuilder `build`): the preferred server assignor over the
    /// members' subscriptions and their previous *target* assignments.
    fn update_target_assignment(
        &mut self,
        ctx: &mut Ctx,
        partition: u32,
        group_id: &str,
        out: &mut Out,
    ) -> Result<(), Errors> {
        let group = self.held(group_id);
        let name = group.effective_server_assignor(&ctx.broker_config.consumer_group_assignors[0]);
        let new_target = crate::sim::coordinator::modern::target_assignment::compute(group, &name).map_err(|e| {
            out.emit(EventKind::Note {
                node: ctx.me,
                note: Note::ServerAssignorFailed {
                    group_id: group_id.to_string(),
                    assignor: name.clone(),
                    error: e.to_string(),
                },
            });
            Errors::UNKNOWN_SERVER_ERROR
        })?;
        let epoch = group.group_epoch;
        let changed: Vec<(String, BTreeSet<TopicPartition>)> =
            new_target.into_iter().filter(|(m, t)| group.target_assignment.get(m) != Some(t)).collect();
        let text = crate::sim::coordinator::modern::target_assignment::describe(self.held(group_id), &changed);
        for (member_id, partitions) in changed {
            let record = ConsumerGroupRecord::TargetAssignmentMember {
                group_id: group_id.into(),
                member_id,
                partitions: Some(partitions),
            };
            self.write(out, partition, record);
        }
        let record = ConsumerGroupRecord::TargetAssignmentMetadata {
            group_id: group_id.into(),
            assignment_epoch: epoch,
            assignment_timestamp: ctx.now.max(1),
        };
        self.write(out, partition, record);
        self.consumer_group_mut(group_id).expect("exists").assignment_deferred_noted = false;
        out.emit(EventKind::Note {
            node: ctx.me,
            note: Note::TargetAssignmentComputed {
                group_id: group_id.to_string(),
                assignor: name,
                epoch,
                summary: text,
            },
        });
        Ok(())
    }

    /// A member entering UNREVOKED_PARTITIONS gets a rebalance timeout of its
    /// RebalanceTimeoutMs; any other change cancels it (GMM `maybeReconcile`).
    fn arm_or_cancel_rebalance_timeout(&mut self, ctx: &Ctx, group_id: &str, m: &ConsumerGroupMember, out: &mut Out) {
        let group = self.consumer_group_mut(group_id).expect("group exists");
        if m.state == MemberState::UNREVOKED_PARTITIONS {
            group.rebalance_timeouts.insert(m.member_id.clone(), m.member_epoch);
            out.set_timer(rebalance_key(group_id, &m.member_id), ctx.now + m.rebalance_timeout_ms);
        } else if group.rebalance_timeouts.remove(&m.member_id).is_some() {
            out.cancel_timer(rebalance_key(group_id, &m.member_id));
        }
    }
}

/// The member the heartbeat is about (GMM `getOrMaybeSubscribe{Dynamic,Static}ConsumerGroupMember`),
/// and the id of a static member it replaces, if any.
fn member_for(
    group: &ConsumerGroup,
    member_id: &str,
    req: &ConsumerGroupHeartbeatRequest,
) -> Result<(ConsumerGroupMember, Option<String>), Errors> {
    let join = req.member_epoch == 0;
    let owned = req.topic_partitions.as_deref();
    let Some(instance_id) = &req.instance_id else {
        let m = match group.members.get(member_id) {
            Some(m) => m.clone(),
            None if join => ConsumerGroupMember::new(member_id),
            None => return Err(Errors::UNKNOWN_MEMBER_ID),
        };
        validate_member_epoch(&m, req.member_epoch, owned)?;
        return Ok((m, None));
    };
    let existing = group.static_members.get(instance_id).and_then(|id| group.members.get(id));
    match existing {
        None if join => {
            Ok((group.members.get(member_id).cloned().unwrap_or_else(|| ConsumerGroupMember::new(member_id)), None))
        }
        None => Err(Errors::UNKNOWN_MEMBER_ID),
        // A static member may take over its instance id only after the old one left with epoch −2.
        Some(old) if join && old.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH => Err(Errors::UNRELEASED_INSTANCE_ID),
        Some(old) if join => {
            let mut m = old.clone();
            m.member_id = member_id.to_string();
            m.member_epoch = 0;
            m.previous_member_epoch = 0;
            Ok((m, Some(old.member_id.clone())))
        }
        Some(old) if old.member_id != member_id => Err(Errors::FENCED_INSTANCE_ID),
        Some(old) => {
            validate_member_epoch(old, req.member_epoch, owned)?;
            Ok((old.clone(), None))
        }
    }
}

/// `throwIfConsumerGroupIsFull`: group.consumer.max.size refuses a member the
/// group does not hold yet, but never an instance id it already holds (that one
/// replaces its old member or gets UNRELEASED_INSTANCE_ID; the size stays).
fn throw_if_consumer_group_is_full(
    group: &ConsumerGroup,
    req: &ConsumerGroupHeartbeatRequest,
    max_size: u32,
) -> Result<(), Errors> {
    if req.instance_id.as_ref().is_some_and(|i| group.static_members.contains_key(i)) {
        return Ok(());
    }
    let known = !req.member_id.is_empty() && group.members.contains_key(&req.member_id);
    if group.members.len() >= max_size as usize && !known {
        return Err(Errors::GROUP_MAX_SIZE_REACHED);
    }
    Ok(())
}

/// The member with the fields the request changed (`maybeUpdate*`).
fn updated_member(
    member: &ConsumerGroupMember,
    req: &ConsumerGroupHeartbeatRequest,
    from: NodeId,
) -> ConsumerGroupMember {
    let mut m = member.clone();
    if req.instance_id.is_some() {
        m.instance_id = req.instance_id.clone();
    }
    if req.rack_id.is_some() {
        m.rack_id = req.rack_id.clone();
    }
    if req.rebalance_timeout_ms != -1 {
        m.rebalance_timeout_ms = req.rebalance_timeout_ms.max(0) as u64;
    }
    if req.server_assignor.is_some() {
        m.server_assignor = req.server_assignor.clone();
    }
    if let Some(topics) = &req.subscribed_topic_names {
        let set: BTreeSet<String> = topics.iter().cloned().collect();
        m.subscribed_topic_names = set.into_iter().collect();
    }
    m.client_id = from.to_string();
    m
}
