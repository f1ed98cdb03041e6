//! The records a streams group writes to `__consumer_offsets` (group
//! coordinator apiKeys 17-24: `StreamsGroupMetadata`, `StreamsGroupTopology`,
//! `StreamsGroupMemberMetadata`, `StreamsGroupTargetAssignmentMetadata`,
//! `StreamsGroupTargetAssignmentMember`, `StreamsGroupCurrentMemberAssignment`),
//! and replaying them: a handler writes records and replays them into the
//! group, and a new coordinator rebuilds the group from them after a failover.
//! The target-assignment records are one record here.

use crate::sim::coordinator::streams::{StreamsGroup, StreamsGroupMember, StreamsMemberState};
use crate::sim::streams_message::{StreamsTopology, TasksTuple};
use crate::sim::types::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamsGroupRecord {
    /// `StreamsGroupMetadata`: the group epoch, the metadata hash (kept as
    /// the partition counts it hashes) and the standby count it was computed with.
    Metadata { group_id: String, epoch: i32, metadata: BTreeMap<String, i32>, num_standby_replicas: i32 },
    /// `StreamsGroupTopology`.
    Topology { group_id: String, topology: StreamsTopology },
    /// `StreamsGroupMemberMetadata`; `None` is its tombstone.
    MemberMetadata { group_id: String, member_id: String, value: Option<MemberMetadata> },
    /// `StreamsGroupTargetAssignmentMetadata` and every member's target.
    TargetAssignment {
        group_id: String,
        assignment_epoch: i32,
        timestamp: Millis,
        targets: BTreeMap<String, TasksTuple>,
    },
    /// `StreamsGroupCurrentMemberAssignment`; `None` is its tombstone.
    CurrentMemberAssignment { group_id: String, member_id: String, value: Option<CurrentAssignment> },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberMetadata {
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub process_id: String,
    pub topology_epoch: i32,
    pub rebalance_timeout_ms: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrentAssignment {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub state: StreamsMemberState,
    pub assigned: TasksTuple,
    pub pending_revocation: TasksTuple,
    /// Written at epoch −2 by a static member leaving for a while.
    pub left_temporarily: bool,
}

impl StreamsGroupRecord {
    pub fn group_id(&self) -> &str {
        match self {
            StreamsGroupRecord::Metadata { group_id, .. }
            | StreamsGroupRecord::Topology { group_id, .. }
            | StreamsGroupRecord::MemberMetadata { group_id, .. }
            | StreamsGroupRecord::TargetAssignment { group_id, .. }
            | StreamsGroupRecord::CurrentMemberAssignment { group_id, .. } => group_id,
        }
    }

    /// The member a record is about, for its compaction key.
    pub fn member_id(&self) -> Option<&str> {
        match self {
            StreamsGroupRecord::MemberMetadata { member_id, .. }
            | StreamsGroupRecord::CurrentMemberAssignment { member_id, .. } => Some(member_id),
            _ => None,
        }
    }

    /// A short name of the record's kind, for its compaction key.
    pub fn kind(&self) -> &'static str {
        match self {
            StreamsGroupRecord::Metadata { .. } => "StreamsGroupMetadata",
            StreamsGroupRecord::Topology { .. } => "StreamsGroupTopology",
            StreamsGroupRecord::MemberMetadata { .. } => "StreamsGroupMemberMetadata",
            StreamsGroupRecord::TargetAssignment { .. } => "StreamsGroupTargetAssignment",
            StreamsGroupRecord::CurrentMemberAssignment { .. } => "StreamsGroupCurrentMemberAssignment",
        }
    }

    /// Written with a null value (a member's records when it leaves).
    pub fn is_tombstone(&self) -> bool {
        matches!(
            self,
            StreamsGroupRecord::MemberMetadata { value: None, .. }
                | StreamsGroupRecord::CurrentMemberAssignment { value: None, .. }
        )
    }
}

/// `GroupMetadataManager.replay` for the streams-group records.
pub fn replay(group: &mut StreamsGroup, record: &StreamsGroupRecord) {
    match record {
        StreamsGroupRecord::Metadata { epoch, metadata, num_standby_replicas, .. } => {
            group.group_epoch = *epoch;
            group.metadata = metadata.clone();
            group.num_standby_replicas = *num_standby_replicas;
        }
        StreamsGroupRecord::Topology { topology, .. } => group.topology = Some(topology.clone()),
        StreamsGroupRecord::MemberMetadata { member_id, value: Some(v), .. } => {
            let m = group.members.entry(member_id.clone()).or_insert_with(|| StreamsGroupMember {
                member_id: member_id.clone(),
                ..StreamsGroupMember::default()
            });
            m.instance_id = v.instance_id.clone();
            m.rack_id = v.rack_id.clone();
            m.client_id = v.client_id.clone();
            m.process_id = v.process_id.clone();
            m.topology_epoch = v.topology_epoch;
            m.rebalance_timeout_ms = v.rebalance_timeout_ms;
        }
        StreamsGroupRecord::MemberMetadata { member_id, value: None, .. } => {
            group.members.remove(member_id);
            group.target_assignment.remove(member_id);
            if group.members.is_empty() {
                // STG L1212: the shutdown request is cleared when the group becomes empty.
                group.shutdown_requested_by = None;
            }
        }
        StreamsGroupRecord::TargetAssignment { assignment_epoch, timestamp, targets, .. } => {
            group.assignment_epoch = *assignment_epoch;
            group.assignment_timestamp = *timestamp;
            group.target_assignment = targets.clone();
        }
        StreamsGroupRecord::CurrentMemberAssignment { member_id, value: Some(v), .. } => {
            if let Some(m) = group.members.get_mut(member_id) {
                m.member_epoch = v.member_epoch;
                m.previous_member_epoch = v.previous_member_epoch;
                m.state = v.state;
                m.assigned = v.assigned.clone();
                m.pending_revocation = v.pending_revocation.clone();
                m.left_temporarily = v.left_temporarily;
            }
        }
        StreamsGroupRecord::CurrentMemberAssignment { value: None, .. } => {}
    }
}
