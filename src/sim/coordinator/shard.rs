//! One `__consumer_offsets` partition's coordinator context (CoordinatorRuntime's
//! `CoordinatorContext` with its GroupMetadataManager and OffsetMetadataManager
//! state): the classic and consumer groups it owns, their committed offsets,
//! replaying its log after failover, and the helpers every group handler uses
//! (answering a parked request, a group state transition, `validateMember`).
//! The handlers are `impl Shard` blocks in `classic/` and `consumer/`.

use crate::assign::TopicPartition;
use crate::sim::cluster::CoordinatorRecord;
use crate::sim::coordinator::classic::{ClassicGroup, ClassicGroupMember, ClassicGroupState};
use crate::sim::ctx::Ctx;
use crate::sim::message::Response;
use crate::sim::out::{GroupTimer, Out};
use crate::sim::state_machine::StateMachine;
use crate::sim::trace::{EventKind, Machine};
use crate::sim::trigger::Trigger;
use crate::sim::types::{Errors, Millis};
use serde::{Deserialize, Serialize};
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

/// `CoordinatorRuntime.CoordinatorState` of one partition's context. A shard
/// exists only while LOADING or ACTIVE; INITIAL (before the load starts) and
/// CLOSED (leadership moved away) name the ends of its life in the trace, and
/// FAILED (a load that failed) is not modelled.
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoordinatorState {
    INITIAL,
    LOADING,
    ACTIVE,
    CLOSED,
    FAILED,
}

impl crate::sim::state_machine::StateMachine for CoordinatorState {
    const MACHINE: &'static str = "CoordinatorState";
    crate::sim::state_machine::states!(CoordinatorState: INITIAL, LOADING, ACTIVE, CLOSED, FAILED);

    /// Each state's `canTransitionFrom`.
    fn valid_previous_states(self) -> &'static [CoordinatorState] {
        use CoordinatorState::*;
        match self {
            INITIAL => &[],
            LOADING => &[INITIAL, FAILED],
            ACTIVE => &[ACTIVE, LOADING],
            CLOSED => Self::ALL,
            FAILED => &[LOADING, ACTIVE],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub state: CoordinatorState,
    pub groups: BTreeMap<String, ClassicGroup>,
    pub offsets: BTreeMap<String, BTreeMap<TopicPartition, i64>>,
    /// Consumer groups (KIP-848), next to the classic groups.
    pub consumer_groups: BTreeMap<String, crate::sim::coordinator::consumer::ConsumerGroup>,
}

/// Records a group state transition, enforcing Kafka's valid-previous-state table.
pub(crate) fn transition(ctx: &Ctx, group: &mut ClassicGroup, to: ClassicGroupState, trigger: Trigger, out: &mut Out) {
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
        from: crate::sim::state_machine::StateName::of(from),
        to: crate::sim::state_machine::StateName::of(to),
        trigger,
    });
}

impl Shard {
    /// A context about to load its partition.
    pub fn loading() -> Shard {
        Shard {
            state: CoordinatorState::LOADING,
            groups: BTreeMap::new(),
            offsets: BTreeMap::new(),
            consumer_groups: BTreeMap::new(),
        }
    }

    /// Recreates state from one record: a classic group comes back Stable if it
    /// has members, Empty otherwise, at its last synced generation.
    pub fn replay(&mut self, record: CoordinatorRecord) {
        match record {
            CoordinatorRecord::GroupMetadata {
                group_id,
                generation_id,
                protocol_type,
                protocol_name,
                leader,
                members,
            } => {
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
            CoordinatorRecord::ConsumerGroup(r) => {
                // GMM `getOrMaybeCreatePersistedConsumerGroup`: a simple classic
                // group (no protocol type, empty), which an offset record created
                // because no group existed yet, is replaced by the consumer group.
                // A compacted log can hold a group's offsets before its oldest
                // kept consumer-group record.
                let group_id = r.group_id();
                if self.groups.get(group_id).is_some_and(|g| {
                    g.protocol_type.is_none() && g.members.is_empty() && g.is(ClassicGroupState::Empty)
                }) {
                    self.groups.remove(group_id);
                }
                crate::sim::coordinator::consumer::records::replay(&mut self.consumer_groups, &r)
            }
        }
    }

    /// OffsetCommit validation for classic groups (OffsetMetadataManager and
    /// ClassicGroup `validateOffsetCommit`). A group the coordinator does not hold
    /// is created (a simple group, no record) only for a commit without a
    /// generation; otherwise the answer is GROUP_ID_NOT_FOUND, as for OffsetCommit
    /// v9+ (the classic consumer of 4.4 sends v9, `OffsetCommitRequest.Builder
    /// .forTopicNames`; before v9 it was ILLEGAL_GENERATION).
    pub(crate) fn commit_offsets(
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
        let group = match self.groups.entry(group_id.to_string()) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(_) if generation_id >= 0 => return Errors::GROUP_ID_NOT_FOUND,
            Entry::Vacant(e) => e.insert(ClassicGroup::new(group_id)),
        };
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
                    GroupTimer::MemberHeartbeat { group_id: group_id.into(), member_id: member_id.into() },
                    ctx.now + m.session_timeout_ms,
                );
            }
        }
        self.store_offsets(partition, group_id, offsets, out);
        Errors::NONE
    }

    /// Writes accepted offsets: one `OffsetCommit` record per partition.
    pub(crate) fn store_offsets(
        &mut self,
        partition: u32,
        group_id: &str,
        offsets: &[(TopicPartition, i64)],
        out: &mut Out,
    ) {
        let stored = self.offsets.entry(group_id.to_string()).or_default();
        for (tp, offset) in offsets {
            stored.insert(tp.clone(), *offset);
            out.append(
                partition,
                CoordinatorRecord::OffsetCommit { group_id: group_id.into(), partition: tp.clone(), offset: *offset },
            );
        }
        out.emit(EventKind::OffsetsCommitted { group_id: group_id.into(), offsets: offsets.to_vec() });
    }

    pub(crate) fn fetch_offsets(&self, group_id: &str, partitions: &[TopicPartition]) -> Response {
        if self.groups.get(group_id).is_some_and(|g| g.is(ClassicGroupState::Dead)) {
            return Response::OffsetFetch { error: Errors::COORDINATOR_NOT_AVAILABLE, offsets: Vec::new() };
        }
        let stored = self.offsets.get(group_id);
        let offsets =
            partitions.iter().map(|tp| (tp.clone(), stored.and_then(|s| s.get(tp)).copied().unwrap_or(-1))).collect();
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
    out.set_timer(
        GroupTimer::MemberHeartbeat { group_id: group_id.into(), member_id: member_id.into() },
        ctx.now + after,
    );
}
