//! A consumer group (KIP-848) as the coordinator holds it (`ConsumerGroup`,
//! `ConsumerGroupMember`, server-side `MemberState`, `ConsumerGroupState`).
//! Pure data plus the rules Kafka keeps on the group; it changes only by
//! replaying records (`records.rs`). The handlers are `impl Shard` blocks:
//! `heartbeat.rs`, `leave.rs`, `group_state.rs`, `offset_commit.rs`.

pub mod current_assignment_builder;
pub mod group_state;
pub mod heartbeat;
pub mod leave;
pub mod offset_commit;
pub mod records;

use crate::assign::TopicPartition;
use crate::java;
use crate::sim::out::GroupTimer;
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The server-side reconciliation state of a member (`modern/MemberState.java`).
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MemberState {
    /// Fully reconciled to (member epoch, assigned partitions).
    STABLE,
    /// Must first stop owning `partitions_pending_revocation`; stays at its epoch.
    UNREVOKED_PARTITIONS,
    /// At the target epoch, waiting for partitions still owned by others.
    UNRELEASED_PARTITIONS,
}

/// `modern/MemberState` has no transition table: `CurrentAssignmentBuilder`
/// computes the next state from the member's and the target's assignments, and
/// any state can follow any other.
impl crate::sim::state_machine::StateMachine for MemberState {
    const MACHINE: &'static str = "MemberState";
    crate::sim::state_machine::states!(MemberState: STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS);

    fn valid_previous_states(self) -> &'static [MemberState] {
        Self::ALL
    }
}

/// `ConsumerGroupState`, computed by `maybeUpdateGroupState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ConsumerGroupState {
    Empty,
    Assigning,
    Reconciling,
    Stable,
    Dead,
}

/// `ConsumerGroupState` is not guarded by a transition table: the coordinator
/// recomputes it after every change (`ConsumerGroup.updateState`: Empty without
/// members; Assigning while the group epoch is ahead of the target assignment
/// epoch; Reconciling while a member is not yet STABLE at the target epoch;
/// Stable otherwise). These are the changes those rules can produce; the
/// tests check every change seen in runs is among them. Dead is a group being
/// deleted, which the simulation does not do.
impl crate::sim::state_machine::StateMachine for ConsumerGroupState {
    const MACHINE: &'static str = "ConsumerGroupState";
    crate::sim::state_machine::states!(ConsumerGroupState: Empty, Assigning, Reconciling, Stable, Dead);

    fn valid_previous_states(self) -> &'static [ConsumerGroupState] {
        use ConsumerGroupState::*;
        match self {
            Empty => &[Assigning, Reconciling, Stable],
            Assigning => &[Empty, Reconciling, Stable],
            Reconciling => &[Empty, Assigning, Stable],
            Stable => &[Empty, Assigning, Reconciling],
            Dead => &[],
        }
    }
}

/// `ConsumerGroupMember`: metadata (from the member-metadata record) and the
/// current assignment (from the current-member-assignment record).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupMember {
    pub member_id: String,
    pub member_epoch: i32,
    pub instance_id: Option<String>,
    pub previous_member_epoch: i32,
    /// Sorted, so that re-sending the same topics in another order is no change.
    pub subscribed_topic_names: Vec<String>,
    pub state: MemberState,
    pub server_assignor: Option<String>,
    pub assigned_partitions: BTreeSet<TopicPartition>,
    pub rebalance_timeout_ms: Millis,
    pub partitions_pending_revocation: BTreeSet<TopicPartition>,
    /// The epoch at which each partition of `assigned_partitions` and
    /// `partitions_pending_revocation` was assigned to this member (Kafka 4.3+,
    /// KIP-1251: the partition maps' values, `AssignmentEpochs` in the record);
    /// an older member epoch may still commit offsets of a partition assigned
    /// at or before it.
    #[serde(default)]
    pub assignment_epochs: BTreeMap<TopicPartition, i32>,
    pub rack_id: Option<String>,
    pub client_id: String,
}

impl ConsumerGroupMember {
    pub fn new(member_id: &str) -> ConsumerGroupMember {
        ConsumerGroupMember {
            member_id: member_id.to_string(),
            member_epoch: 0,
            instance_id: None,
            previous_member_epoch: 0,
            subscribed_topic_names: Vec::new(),
            state: MemberState::STABLE,
            server_assignor: None,
            assigned_partitions: BTreeSet::new(),
            rebalance_timeout_ms: 0,
            partitions_pending_revocation: BTreeSet::new(),
            assignment_epochs: BTreeMap::new(),
            rack_id: None,
            client_id: String::new(),
        }
    }

    /// `isReconciledTo`: STABLE at the target assignment epoch.
    pub fn is_reconciled_to(&self, target_epoch: i32) -> bool {
        self.state == MemberState::STABLE && self.member_epoch == target_epoch
    }

    /// The partitions this member counts as owning on the coordinator: assigned
    /// and pending revocation (CSG `maybeUpdatePartitionEpoch`).
    pub fn owned_on_coordinator(&self) -> impl Iterator<Item = &TopicPartition> {
        self.assigned_partitions.iter().chain(self.partitions_pending_revocation.iter())
    }

    /// `assignmentEpoch`, falling back to `pendingRevocationEpoch`: the epoch at
    /// which `tp` was assigned to this member, `None` if it holds no such
    /// partition. A partition held without a recorded epoch counts as assigned
    /// at the member epoch (as a record without epochs replays, `max(memberEpoch, 0)`).
    pub fn assignment_epoch(&self, tp: &TopicPartition) -> Option<i32> {
        let held = self.assigned_partitions.contains(tp) || self.partitions_pending_revocation.contains(tp);
        held.then(|| self.assignment_epochs.get(tp).copied().unwrap_or(self.member_epoch.max(0)))
    }
}

/// `ConsumerGroup`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroup {
    pub group_id: String,
    pub group_epoch: i32,
    /// The group epoch at which the target assignment was last computed.
    pub assignment_epoch: i32,
    /// When the target assignment was last computed (`TargetAssignmentMetadata`
    /// `AssignmentTimestamp`); 0 = never, or unknown (KIP-1263 batching).
    #[serde(default)]
    pub assignment_timestamp: Millis,
    pub members: BTreeMap<String, ConsumerGroupMember>,
    /// group.instance.id -> current member id.
    pub static_members: BTreeMap<String, String>,
    /// Target assignment per member id.
    pub target_assignment: BTreeMap<String, BTreeSet<TopicPartition>>,
    /// Partition counts of the subscribed topics when last computed.
    pub subscription_metadata: BTreeMap<String, i32>,
    /// The state last announced (recomputed after each operation).
    pub state: ConsumerGroupState,
    /// Member epoch each armed rebalance timeout was set for (in memory only).
    pub rebalance_timeouts: BTreeMap<String, i32>,
    /// A deferred assignment was announced in the trace (in memory only; once per deferral).
    #[serde(default)]
    pub assignment_deferred_noted: bool,
}

impl ConsumerGroup {
    /// The epoch a new group starts at, for the group and for its (empty) target
    /// assignment: `ModernGroup`'s constructor sets `groupEpoch` to 1 and
    /// `TargetAssignmentMetadata.INITIAL` is (1, 0) since Kafka 4.3 (KAFKA-20268),
    /// so the first member's join bumps the group to epoch 2. Until 4.2 both were 0.
    pub const INITIAL_EPOCH: i32 = 1;

    pub fn new(group_id: &str) -> ConsumerGroup {
        ConsumerGroup {
            group_id: group_id.to_string(),
            group_epoch: Self::INITIAL_EPOCH,
            assignment_epoch: Self::INITIAL_EPOCH,
            assignment_timestamp: 0,
            members: BTreeMap::new(),
            static_members: BTreeMap::new(),
            target_assignment: BTreeMap::new(),
            subscription_metadata: BTreeMap::new(),
            state: ConsumerGroupState::Empty,
            rebalance_timeouts: BTreeMap::new(),
            assignment_deferred_noted: false,
        }
    }

    /// `maybeUpdateGroupState` (ConsumerGroup `updateState`).
    pub fn compute_state(&self) -> ConsumerGroupState {
        if self.members.is_empty() {
            ConsumerGroupState::Empty
        } else if self.group_epoch > self.assignment_epoch {
            ConsumerGroupState::Assigning
        } else if self.members.values().all(|m| m.is_reconciled_to(self.assignment_epoch)) {
            ConsumerGroupState::Stable
        } else {
            ConsumerGroupState::Reconciling
        }
    }

    /// `currentPartitionEpoch`: the epoch of the member owning `tp`, or −1 if free.
    pub fn current_partition_epoch(&self, tp: &TopicPartition) -> i32 {
        self.members
            .values()
            .find(|m| m.assigned_partitions.contains(tp) || m.partitions_pending_revocation.contains(tp))
            .map_or(-1, |m| m.member_epoch)
    }

    /// The target assignment of a member (empty if it has none yet).
    pub fn target_of(&self, member_id: &str) -> BTreeSet<TopicPartition> {
        self.target_assignment.get(member_id).cloned().unwrap_or_default()
    }

    /// `computePreferredServerAssignor`: the most popular `ServerAssignor` among
    /// `members`; ties go to the first name in `HashMap` iteration order.
    pub fn preferred_server_assignor<'a>(members: impl Iterator<Item = &'a ConsumerGroupMember>) -> Option<String> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for m in members {
            if let Some(a) = &m.server_assignor {
                *counts.entry(a.clone()).or_default() += 1;
            }
        }
        let mut best: Option<(String, usize)> = None;
        for name in java::member_map_order(counts.keys().map(String::as_str)) {
            let n = counts[&name];
            if best.as_ref().is_none_or(|(_, b)| n > *b) {
                best = Some((name, n));
            }
        }
        best.map(|(n, _)| n)
    }

    /// The assignor the group's target assignment is computed with: the
    /// preferred server assignor of its members, else `default`, the first of
    /// group.consumer.assignors (`preferredServerAssignor().orElse(defaultConsumerGroupAssignor.name())`).
    pub fn effective_server_assignor(&self, default: &str) -> String {
        Self::preferred_server_assignor(self.members.values()).unwrap_or_else(|| default.to_string())
    }

    /// Partition counts of every topic `members` subscribe to that exists.
    pub fn subscription_metadata_of<'a>(
        members: impl Iterator<Item = &'a ConsumerGroupMember>,
        partition_count: impl Fn(&str) -> i32,
    ) -> BTreeMap<String, i32> {
        members
            .flat_map(|m| m.subscribed_topic_names.iter())
            .filter_map(|t| {
                let n = partition_count(t);
                (n > 0).then(|| (t.clone(), n))
            })
            .collect()
    }
}

/// The timer of a member's session timeout on the coordinator.
pub(crate) fn session_key(group_id: &str, member_id: &str) -> GroupTimer {
    GroupTimer::ConsumerGroupSessionTimeout { group_id: group_id.into(), member_id: member_id.into() }
}

/// The timer of a member's rebalance timeout (armed while it revokes).
pub(crate) fn rebalance_key(group_id: &str, member_id: &str) -> GroupTimer {
    GroupTimer::ConsumerGroupRebalanceTimeout { group_id: group_id.into(), member_id: member_id.into() }
}

impl crate::sim::coordinator::modern::ModernGroupMember for ConsumerGroupMember {
    fn instance_id(&self) -> Option<&str> {
        self.instance_id.as_deref()
    }
    fn rack_id(&self) -> Option<&str> {
        self.rack_id.as_deref()
    }
    fn client_id(&self) -> &str {
        &self.client_id
    }
    fn subscribed_topic_names(&self) -> &[String] {
        &self.subscribed_topic_names
    }
}

/// `ConsumerGroup extends ModernGroup<ConsumerGroupMember>`.
impl crate::sim::coordinator::modern::ModernGroup for ConsumerGroup {
    type Member = ConsumerGroupMember;
    fn members(&self) -> &BTreeMap<String, ConsumerGroupMember> {
        &self.members
    }
    fn subscription_metadata(&self) -> &BTreeMap<String, i32> {
        &self.subscription_metadata
    }
    fn target_assignment(&self) -> &BTreeMap<String, BTreeSet<TopicPartition>> {
        &self.target_assignment
    }
}
