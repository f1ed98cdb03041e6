//! A share group (KIP-932) as the group coordinator holds it: Kafka's
//! `ShareGroup` and `ShareGroupMember` (group-coordinator/.../modern/share/).
//! Pure data, changed only by replaying its records (`records.rs`); the
//! handlers are `impl Shard` blocks in `heartbeat.rs`.
//!
//! What sets it apart from a consumer group (facts-share-streams §1.10): a
//! partition may be assigned to several members at once; a member jumps
//! straight to its target (`ShareGroupAssignmentBuilder`: no revocation, no
//! rebalance timeout, members are always STABLE); the states are Empty and
//! Stable only; no static membership and no offset commits: progress is each
//! share-partition's start offset, kept by the share coordinator.

pub mod heartbeat;
pub mod records;
pub mod target;

use crate::assign::TopicPartition;
use crate::sim::coordinator::modern::{ModernGroup, ModernGroupMember};
use crate::sim::out::GroupTimer;
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// `ShareGroup.ShareGroupState`, computed by `maybeUpdateGroupState` (SG
/// L298-305): Empty without members, Stable with any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ShareGroupState {
    Empty,
    Stable,
    Dead,
}

/// `maybeUpdateGroupState` sets Empty or Stable after every member change; Dead
/// is declared for describe and metrics and never entered (SG L48-52).
impl crate::sim::state_machine::StateMachine for ShareGroupState {
    const MACHINE: &'static str = "ShareGroupState";
    crate::sim::state_machine::states!(ShareGroupState: Empty, Stable, Dead);

    fn valid_previous_states(self) -> &'static [ShareGroupState] {
        use ShareGroupState::*;
        match self {
            Empty => &[Stable],
            Stable => &[Empty],
            Dead => &[],
        }
    }
}

/// `ShareGroupMember`: its metadata and its current assignment. Always STABLE.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareGroupMember {
    pub member_id: String,
    pub client_id: String,
    pub rack_id: Option<String>,
    pub subscribed_topic_names: Vec<String>,
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub assigned_partitions: BTreeSet<TopicPartition>,
}

impl ModernGroupMember for ShareGroupMember {
    fn instance_id(&self) -> Option<&str> {
        None
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareGroup {
    pub group_id: String,
    pub state: ShareGroupState,
    /// Starts at 1 (Kafka 4.3+, KAFKA-20268), so a first member's epoch is 2.
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    /// When the target was last computed (KIP-1263 batching; 0 = never).
    pub assignment_timestamp: Millis,
    pub members: BTreeMap<String, ShareGroupMember>,
    /// Partition counts of the subscribed topics (`subscriptionMetadata`;
    /// Kafka 4.1+ keeps a hash of them, KIP-1101).
    pub subscription_metadata: BTreeMap<String, i32>,
    pub target_assignment: BTreeMap<String, BTreeSet<TopicPartition>>,
    /// `ShareGroupStatePartitionMetadata`: share-partitions whose state the
    /// share coordinator is initializing (since when), and those it has.
    pub initializing: BTreeMap<TopicPartition, Millis>,
    pub initialized: BTreeSet<TopicPartition>,
}

impl ShareGroup {
    /// `ShareGroup` constructor: epochs start at 1 since Kafka 4.3.
    pub const INITIAL_EPOCH: i32 = 1;

    pub fn new(group_id: &str) -> ShareGroup {
        ShareGroup {
            group_id: group_id.to_string(),
            state: ShareGroupState::Empty,
            group_epoch: Self::INITIAL_EPOCH,
            assignment_epoch: Self::INITIAL_EPOCH,
            assignment_timestamp: 0,
            members: BTreeMap::new(),
            subscription_metadata: BTreeMap::new(),
            target_assignment: BTreeMap::new(),
            initializing: BTreeMap::new(),
            initialized: BTreeSet::new(),
        }
    }

    pub fn compute_state(&self) -> ShareGroupState {
        if self.members.is_empty() {
            ShareGroupState::Empty
        } else {
            ShareGroupState::Stable
        }
    }

    /// Every topic some member subscribes to.
    pub fn subscribed_topics(&self) -> BTreeSet<&str> {
        self.members.values().flat_map(|m| m.subscribed_topic_names.iter().map(String::as_str)).collect()
    }

    /// Members holding `tp` in their current assignment (several may).
    pub fn holders(&self, tp: &TopicPartition) -> Vec<&str> {
        self.members.values().filter(|m| m.assigned_partitions.contains(tp)).map(|m| m.member_id.as_str()).collect()
    }
}

impl ModernGroup for ShareGroup {
    type Member = ShareGroupMember;
    fn members(&self) -> &BTreeMap<String, ShareGroupMember> {
        &self.members
    }
    fn subscription_metadata(&self) -> &BTreeMap<String, i32> {
        &self.subscription_metadata
    }
    fn target_assignment(&self) -> &BTreeMap<String, BTreeSet<TopicPartition>> {
        &self.target_assignment
    }
}

/// The session-timeout timer of one member (`shareGroupSessionTimeoutKey`).
pub fn session_key(group_id: &str, member_id: &str) -> GroupTimer {
    GroupTimer::ShareGroupSessionTimeout { group_id: group_id.into(), member_id: member_id.into() }
}

/// The persister's InitializeShareGroupState round trip (`persisterInitialize`).
pub fn initialize_key(group_id: &str) -> GroupTimer {
    GroupTimer::ShareGroupStateInitialize { group_id: group_id.into() }
}
