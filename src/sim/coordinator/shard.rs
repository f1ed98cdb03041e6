//! One `__consumer_offsets` partition's coordinator context (CoordinatorRuntime's
//! `CoordinatorContext` with its GroupMetadataManager and OffsetMetadataManager
//! state): the groups it owns, classic and consumer, in one map (`group.rs`),
//! their committed offsets, and replaying its log after failover. Each group
//! type's handlers are `impl Shard` blocks in its folder (`classic/`,
//! `consumer/`).

use crate::assign::TopicPartition;
use crate::sim::cluster::CoordinatorRecord;
use crate::sim::coordinator::classic::{ClassicGroup, ClassicGroupMember, ClassicGroupState};
use crate::sim::coordinator::consumer::ConsumerGroup;
use crate::sim::coordinator::group::{consumer_entry, Group, Groups};
use crate::sim::message::Response;
use crate::sim::out::Out;
use crate::sim::trace::EventKind;
use crate::sim::types::Errors;
use serde::{Deserialize, Serialize};
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
    /// Every group the partition holds, classic and consumer, one per id
    /// (`GroupMetadataManager.groups`).
    pub groups: Groups,
    pub offsets: BTreeMap<String, BTreeMap<TopicPartition, i64>>,
}

impl Shard {
    /// A context about to load its partition.
    pub fn loading() -> Shard {
        Shard { state: CoordinatorState::LOADING, groups: Groups::new(), offsets: BTreeMap::new() }
    }

    /// The classic group `group_id`, if the id names one.
    pub fn classic(&self, group_id: &str) -> Option<&ClassicGroup> {
        self.groups.get(group_id).and_then(Group::as_classic)
    }

    pub fn classic_mut(&mut self, group_id: &str) -> Option<&mut ClassicGroup> {
        self.groups.get_mut(group_id).and_then(Group::as_classic_mut)
    }

    /// The consumer group (KIP-848) `group_id`, if the id names one.
    pub fn consumer_group(&self, group_id: &str) -> Option<&ConsumerGroup> {
        self.groups.get(group_id).and_then(Group::as_consumer)
    }

    pub fn consumer_group_mut(&mut self, group_id: &str) -> Option<&mut ConsumerGroup> {
        self.groups.get_mut(group_id).and_then(Group::as_consumer_mut)
    }

    /// The consumer group `group_id`, which the caller knows the id names.
    pub(crate) fn held(&self, group_id: &str) -> &ConsumerGroup {
        self.consumer_group(group_id).unwrap_or_else(|| panic!("no consumer group {group_id}"))
    }

    /// The classic groups, by id.
    pub fn classics(&self) -> impl Iterator<Item = &ClassicGroup> {
        self.groups.values().filter_map(Group::as_classic)
    }

    /// The consumer groups, by id.
    pub fn consumer_groups(&self) -> impl Iterator<Item = &ConsumerGroup> {
        self.groups.values().filter_map(Group::as_consumer)
    }

    /// The share group (KIP-932) `group_id`, if the id names one.
    pub fn share_group(&self, group_id: &str) -> Option<&crate::sim::coordinator::share::ShareGroup> {
        self.groups.get(group_id).and_then(Group::as_share)
    }

    pub fn share_group_mut(&mut self, group_id: &str) -> Option<&mut crate::sim::coordinator::share::ShareGroup> {
        self.groups.get_mut(group_id).and_then(Group::as_share_mut)
    }

    /// Every share group of the shard.
    pub fn share_groups_mut(&mut self) -> impl Iterator<Item = &mut crate::sim::coordinator::share::ShareGroup> {
        self.groups.values_mut().filter_map(Group::as_share_mut)
    }

    /// The streams group (KIP-1071) `group_id`, if the id names one.
    pub fn streams_group(&self, group_id: &str) -> Option<&crate::sim::coordinator::streams::StreamsGroup> {
        self.groups.get(group_id).and_then(Group::as_streams)
    }

    pub fn streams_group_mut(&mut self, group_id: &str) -> Option<&mut crate::sim::coordinator::streams::StreamsGroup> {
        self.groups.get_mut(group_id).and_then(Group::as_streams_mut)
    }

    /// Every streams group of the shard.
    pub fn streams_groups_mut(&mut self) -> impl Iterator<Item = &mut crate::sim::coordinator::streams::StreamsGroup> {
        self.groups.values_mut().filter_map(Group::as_streams_mut)
    }

    pub fn consumer_groups_mut(&mut self) -> impl Iterator<Item = &mut ConsumerGroup> {
        self.groups.values_mut().filter_map(Group::as_consumer_mut)
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
                        streams_assignment: pm.streams_assignment,
                        awaiting_join: None,
                        awaiting_sync: None,
                        is_new: false,
                    });
                }
                g.leader_id = leader;
                g.state = if g.members.is_empty() { ClassicGroupState::Empty } else { ClassicGroupState::Stable };
                self.groups.insert(group_id, Group::Classic(g));
            }
            CoordinatorRecord::OffsetCommit { group_id, partition, offset } => {
                self.offsets.entry(group_id.clone()).or_default().insert(partition, offset);
                self.groups.entry(group_id.clone()).or_insert_with(|| Group::Classic(ClassicGroup::new(&group_id)));
            }
            CoordinatorRecord::ConsumerGroup(r) => {
                // GMM `getOrMaybeCreatePersistedConsumerGroup`: the consumer group
                // takes the id from a classic group that held it, a simple one an
                // offset record created because no group existed yet (a compacted
                // log can hold a group's offsets before its oldest kept
                // consumer-group record) or an empty one that gave way to it
                // (`group::consumer_entry`).
                crate::sim::coordinator::consumer::records::replay(consumer_entry(&mut self.groups, r.group_id()), &r)
            }
            CoordinatorRecord::StreamsGroup(r) => {
                // An empty classic group gives way to the streams group (offline migration).
                let id = r.group_id().to_string();
                let fresh = || Group::Streams(crate::sim::coordinator::streams::StreamsGroup::new(&id));
                let g = self.groups.entry(id.clone()).or_insert_with(fresh);
                if g.as_streams().is_none() && g.is_empty() {
                    *g = fresh();
                }
                if let Some(g) = g.as_streams_mut() {
                    crate::sim::coordinator::streams::records::replay(g, &r);
                }
            }
            CoordinatorRecord::ShareGroup(r) => {
                let id = r.group_id().to_string();
                let g = self
                    .groups
                    .entry(id.clone())
                    .or_insert_with(|| Group::Share(crate::sim::coordinator::share::ShareGroup::new(&id)));
                if let Some(g) = g.as_share_mut() {
                    crate::sim::coordinator::share::records::replay(g, &r);
                }
            }
        }
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
        if self.classic(group_id).is_some_and(|g| g.is(ClassicGroupState::Dead)) {
            return Response::OffsetFetch { error: Errors::COORDINATOR_NOT_AVAILABLE, offsets: Vec::new() };
        }
        let stored = self.offsets.get(group_id);
        let offsets =
            partitions.iter().map(|tp| (tp.clone(), stored.and_then(|s| s.get(tp)).copied().unwrap_or(-1))).collect();
        Response::OffsetFetch { error: Errors::NONE, offsets }
    }
}
