//! The records a share group writes to `__consumer_offsets` (group
//! coordinator apiKeys 10-15: `ShareGroupMemberMetadata`, `ShareGroupMetadata`,
//! `ShareGroupTargetAssignmentMetadata`, `ShareGroupTargetAssignmentMember`,
//! `ShareGroupCurrentMemberAssignment`, `ShareGroupStatePartitionMetadata`),
//! and replaying them: a handler writes records and replays them into the
//! group, and a new coordinator rebuilds the group from them after a failover.
//! The two target-assignment records are one record here (its metadata and
//! every member's target), written whenever the target is computed.

use crate::assign::TopicPartition;
use crate::sim::coordinator::share::{ShareGroup, ShareGroupMember};
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShareGroupRecord {
    /// `ShareGroupMetadata`: the group epoch and the subscribed topics' partition counts.
    Metadata { group_id: String, epoch: i32, subscription_metadata: BTreeMap<String, i32> },
    /// `ShareGroupMemberMetadata`; `None` is its tombstone.
    MemberMetadata { group_id: String, member_id: String, value: Option<MemberMetadata> },
    /// `ShareGroupTargetAssignmentMetadata` and every `ShareGroupTargetAssignmentMember`.
    TargetAssignment {
        group_id: String,
        assignment_epoch: i32,
        timestamp: Millis,
        targets: BTreeMap<String, BTreeSet<TopicPartition>>,
    },
    /// `ShareGroupCurrentMemberAssignment`; `None` is its tombstone.
    CurrentMemberAssignment { group_id: String, member_id: String, value: Option<CurrentAssignment> },
    /// `ShareGroupStatePartitionMetadata`.
    StatePartitionMetadata {
        group_id: String,
        initializing: BTreeMap<TopicPartition, Millis>,
        initialized: BTreeSet<TopicPartition>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberMetadata {
    pub client_id: String,
    pub rack_id: Option<String>,
    pub subscribed_topic_names: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrentAssignment {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub assigned_partitions: BTreeSet<TopicPartition>,
}

impl ShareGroupRecord {
    pub fn group_id(&self) -> &str {
        match self {
            ShareGroupRecord::Metadata { group_id, .. }
            | ShareGroupRecord::MemberMetadata { group_id, .. }
            | ShareGroupRecord::TargetAssignment { group_id, .. }
            | ShareGroupRecord::CurrentMemberAssignment { group_id, .. }
            | ShareGroupRecord::StatePartitionMetadata { group_id, .. } => group_id,
        }
    }

    /// The member a record is about, for its compaction key.
    pub fn member_id(&self) -> Option<&str> {
        match self {
            ShareGroupRecord::MemberMetadata { member_id, .. }
            | ShareGroupRecord::CurrentMemberAssignment { member_id, .. } => Some(member_id),
            _ => None,
        }
    }

    /// Written with a null value (a member's records when it leaves).
    pub fn is_tombstone(&self) -> bool {
        matches!(
            self,
            ShareGroupRecord::MemberMetadata { value: None, .. }
                | ShareGroupRecord::CurrentMemberAssignment { value: None, .. }
        )
    }
}

/// `GroupMetadataManager.replay` for the share-group records.
pub fn replay(group: &mut ShareGroup, record: &ShareGroupRecord) {
    match record {
        ShareGroupRecord::Metadata { epoch, subscription_metadata, .. } => {
            group.group_epoch = *epoch;
            group.subscription_metadata = subscription_metadata.clone();
        }
        ShareGroupRecord::MemberMetadata { member_id, value: Some(v), .. } => {
            let m = group.members.entry(member_id.clone()).or_insert_with(|| ShareGroupMember {
                member_id: member_id.clone(),
                client_id: String::new(),
                rack_id: None,
                subscribed_topic_names: Vec::new(),
                member_epoch: 0,
                previous_member_epoch: 0,
                assigned_partitions: BTreeSet::new(),
            });
            m.client_id = v.client_id.clone();
            m.rack_id = v.rack_id.clone();
            m.subscribed_topic_names = v.subscribed_topic_names.clone();
        }
        ShareGroupRecord::MemberMetadata { member_id, value: None, .. } => {
            group.members.remove(member_id);
            group.target_assignment.remove(member_id);
        }
        ShareGroupRecord::TargetAssignment { assignment_epoch, timestamp, targets, .. } => {
            group.assignment_epoch = *assignment_epoch;
            group.assignment_timestamp = *timestamp;
            group.target_assignment = targets.clone();
        }
        ShareGroupRecord::CurrentMemberAssignment { member_id, value: Some(v), .. } => {
            if let Some(m) = group.members.get_mut(member_id) {
                m.member_epoch = v.member_epoch;
                m.previous_member_epoch = v.previous_member_epoch;
                m.assigned_partitions = v.assigned_partitions.clone();
            }
        }
        ShareGroupRecord::CurrentMemberAssignment { value: None, .. } => {}
        ShareGroupRecord::StatePartitionMetadata { initializing, initialized, .. } => {
            group.initializing = initializing.clone();
            group.initialized = initialized.clone();
        }
    }
}
