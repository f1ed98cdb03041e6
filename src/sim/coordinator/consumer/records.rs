//! The records a consumer group (KIP-848) writes to its `__consumer_offsets`
//! partition (`group-coordinator/src/main/resources/common/message/ConsumerGroup*.json`),
//! and how replaying one changes the group (GMM `replay`). A value of `None` is a
//! tombstone. Live handling writes records and applies them through the same
//! `replay`, so a coordinator that loads the log after failover rebuilds exactly
//! the state the previous one had.

use crate::assign::TopicPartition;
use crate::sim::coordinator::consumer::{ConsumerGroup, ConsumerGroupMember, MemberState};
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// `ConsumerGroupMemberMetadataValue`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberMetadata {
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub rebalance_timeout_ms: Millis,
    pub subscribed_topic_names: Vec<String>,
    pub server_assignor: Option<String>,
}

/// `ConsumerGroupCurrentMemberAssignmentValue`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrentAssignment {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub state: MemberState,
    pub assigned_partitions: BTreeSet<TopicPartition>,
    pub partitions_pending_revocation: BTreeSet<TopicPartition>,
    /// `TopicPartitions.AssignmentEpochs` (Kafka 4.3+, KIP-1251) of both lists;
    /// a partition without one replays at `max(MemberEpoch, 0)`.
    #[serde(default)]
    pub assignment_epochs: BTreeMap<TopicPartition, i32>,
}

/// A member's two records as written from its state (GMM `newConsumerGroupMemberSubscriptionRecord`,
/// `newConsumerGroupCurrentAssignmentRecord`).
impl ConsumerGroupMember {
    pub fn metadata(&self) -> MemberMetadata {
        MemberMetadata {
            instance_id: self.instance_id.clone(),
            rack_id: self.rack_id.clone(),
            client_id: self.client_id.clone(),
            rebalance_timeout_ms: self.rebalance_timeout_ms,
            subscribed_topic_names: self.subscribed_topic_names.clone(),
            server_assignor: self.server_assignor.clone(),
        }
    }

    pub fn current_assignment(&self) -> CurrentAssignment {
        CurrentAssignment {
            member_epoch: self.member_epoch,
            previous_member_epoch: self.previous_member_epoch,
            state: self.state,
            assigned_partitions: self.assigned_partitions.clone(),
            partitions_pending_revocation: self.partitions_pending_revocation.clone(),
            assignment_epochs: self
                .owned_on_coordinator()
                .filter_map(|tp| Some((tp.clone(), self.assignment_epoch(tp)?)))
                .collect(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsumerGroupRecord {
    /// `ConsumerGroupMetadataValue`: the group epoch.
    Metadata {
        group_id: String,
        epoch: i32,
    },
    /// `ConsumerGroupPartitionMetadataValue`: partition counts of subscribed topics.
    PartitionMetadata {
        group_id: String,
        topics: BTreeMap<String, i32>,
    },
    MemberMetadata {
        group_id: String,
        member_id: String,
        value: Option<MemberMetadata>,
    },
    /// `ConsumerGroupTargetAssignmentMemberValue`.
    TargetAssignmentMember {
        group_id: String,
        member_id: String,
        partitions: Option<BTreeSet<TopicPartition>>,
    },
    /// `ConsumerGroupTargetAssignmentMetadataValue`: the assignment epoch and when
    /// it was computed (`AssignmentTimestamp`, Kafka 4.3+; 0 = unknown).
    TargetAssignmentMetadata {
        group_id: String,
        assignment_epoch: i32,
        #[serde(default)]
        assignment_timestamp: Millis,
    },
    CurrentMemberAssignment {
        group_id: String,
        member_id: String,
        value: Option<CurrentAssignment>,
    },
}

impl ConsumerGroupRecord {
    pub fn group_id(&self) -> &str {
        match self {
            ConsumerGroupRecord::Metadata { group_id, .. }
            | ConsumerGroupRecord::PartitionMetadata { group_id, .. }
            | ConsumerGroupRecord::MemberMetadata { group_id, .. }
            | ConsumerGroupRecord::TargetAssignmentMember { group_id, .. }
            | ConsumerGroupRecord::TargetAssignmentMetadata { group_id, .. }
            | ConsumerGroupRecord::CurrentMemberAssignment { group_id, .. } => group_id,
        }
    }
}

/// Applies one record to its group (`group::consumer_entry` finds or makes it).
pub fn replay(group: &mut ConsumerGroup, record: &ConsumerGroupRecord) {
    match record {
        ConsumerGroupRecord::Metadata { epoch, .. } => group.group_epoch = *epoch,
        ConsumerGroupRecord::PartitionMetadata { topics, .. } => group.subscription_metadata = topics.clone(),
        ConsumerGroupRecord::MemberMetadata { member_id, value: Some(v), .. } => {
            let m = group.members.entry(member_id.clone()).or_insert_with(|| ConsumerGroupMember::new(member_id));
            m.instance_id = v.instance_id.clone();
            m.rack_id = v.rack_id.clone();
            m.client_id = v.client_id.clone();
            m.rebalance_timeout_ms = v.rebalance_timeout_ms;
            m.subscribed_topic_names = v.subscribed_topic_names.clone();
            m.server_assignor = v.server_assignor.clone();
            if let Some(inst) = &v.instance_id {
                group.static_members.insert(inst.clone(), member_id.clone());
            }
        }
        ConsumerGroupRecord::MemberMetadata { member_id, value: None, .. } => {
            if let Some(m) = group.members.remove(member_id) {
                if let Some(inst) = &m.instance_id {
                    if group.static_members.get(inst) == Some(member_id) {
                        group.static_members.remove(inst);
                    }
                }
            }
        }
        ConsumerGroupRecord::TargetAssignmentMember { member_id, partitions, .. } => match partitions {
            Some(p) => {
                group.target_assignment.insert(member_id.clone(), p.clone());
            }
            None => {
                group.target_assignment.remove(member_id);
            }
        },
        ConsumerGroupRecord::TargetAssignmentMetadata { assignment_epoch, assignment_timestamp, .. } => {
            group.assignment_epoch = *assignment_epoch;
            group.assignment_timestamp = *assignment_timestamp;
        }
        // GMM `replay(ConsumerGroupCurrentMemberAssignmentKey, ...)`: a value
        // creates the member if its metadata record has not been replayed yet
        // (`getOrMaybeCreateMember(memberId, true)`; after compaction the
        // metadata record may come later); a tombstone for an unknown member is
        // ignored.
        ConsumerGroupRecord::CurrentMemberAssignment { member_id, value, .. } => {
            let member = match value {
                Some(_) => {
                    Some(group.members.entry(member_id.clone()).or_insert_with(|| ConsumerGroupMember::new(member_id)))
                }
                None => group.members.get_mut(member_id),
            };
            if let Some(m) = member {
                let v = value.clone().unwrap_or(CurrentAssignment {
                    member_epoch: 0,
                    previous_member_epoch: 0,
                    state: MemberState::STABLE,
                    assigned_partitions: BTreeSet::new(),
                    partitions_pending_revocation: BTreeSet::new(),
                    assignment_epochs: BTreeMap::new(),
                });
                m.assignment_epochs = replayed_assignment_epochs(&v);
                m.member_epoch = v.member_epoch;
                m.previous_member_epoch = v.previous_member_epoch;
                m.state = v.state;
                m.assigned_partitions = v.assigned_partitions;
                m.partitions_pending_revocation = v.partitions_pending_revocation;
            }
        }
    }
}

/// `Utils.assignmentFromTopicPartitions`: each partition's assignment epoch
/// from the record, or `max(MemberEpoch, 0)` when the record has none (written
/// before Kafka 4.3; a static member that left has epoch −2).
fn replayed_assignment_epochs(v: &CurrentAssignment) -> BTreeMap<TopicPartition, i32> {
    let default = v.member_epoch.max(0);
    v.assigned_partitions
        .iter()
        .chain(v.partitions_pending_revocation.iter())
        .map(|tp| (tp.clone(), v.assignment_epochs.get(tp).copied().unwrap_or(default)))
        .collect()
}
