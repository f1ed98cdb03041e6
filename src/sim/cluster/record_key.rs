//! The keys of `__consumer_offsets` records, which compaction keeps the latest
//! record of: each record type has its own key message (`OffsetCommitKey`,
//! `GroupMetadataKey`, `ConsumerGroup*Key` in group-coordinator's
//! `common/message/`), so records of different types never replace each other.

use crate::assign::TopicPartition;
use crate::sim::cluster::record_log::Keyed;
use crate::sim::cluster::CoordinatorRecord;
use crate::sim::coordinator::consumer::records::ConsumerGroupRecord;

/// A record's key: its type, the group, and the member or partition it is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RecordKey {
    /// `OffsetCommitKey`: group, topic, partition.
    OffsetCommit(String, TopicPartition),
    /// `GroupMetadataKey`: a classic group.
    GroupMetadata(String),
    /// `ConsumerGroupMetadataKey`.
    ConsumerGroupMetadata(String),
    /// `ConsumerGroupPartitionMetadataKey`.
    ConsumerGroupPartitionMetadata(String),
    /// `ConsumerGroupMemberMetadataKey`: group, member.
    ConsumerGroupMemberMetadata(String, String),
    /// `ConsumerGroupTargetAssignmentMetadataKey`.
    ConsumerGroupTargetAssignmentMetadata(String),
    /// `ConsumerGroupTargetAssignmentMemberKey`: group, member.
    ConsumerGroupTargetAssignmentMember(String, String),
    /// `ConsumerGroupCurrentMemberAssignmentKey`: group, member.
    ConsumerGroupCurrentMemberAssignment(String, String),
    /// `ShareGroup*Key` and `StreamsGroup*Key`: the record's type, the group, and its member if it has one.
    Typed(&'static str, String, Option<String>),
}

impl Keyed for CoordinatorRecord {
    type Key = RecordKey;

    fn key(&self) -> RecordKey {
        match self {
            CoordinatorRecord::OffsetCommit { group_id, partition, .. } => {
                RecordKey::OffsetCommit(group_id.clone(), partition.clone())
            }
            CoordinatorRecord::GroupMetadata { group_id, .. } => RecordKey::GroupMetadata(group_id.clone()),
            CoordinatorRecord::ConsumerGroup(r) => match r {
                ConsumerGroupRecord::Metadata { group_id, .. } => RecordKey::ConsumerGroupMetadata(group_id.clone()),
                ConsumerGroupRecord::PartitionMetadata { group_id, .. } => {
                    RecordKey::ConsumerGroupPartitionMetadata(group_id.clone())
                }
                ConsumerGroupRecord::MemberMetadata { group_id, member_id, .. } => {
                    RecordKey::ConsumerGroupMemberMetadata(group_id.clone(), member_id.clone())
                }
                ConsumerGroupRecord::TargetAssignmentMetadata { group_id, .. } => {
                    RecordKey::ConsumerGroupTargetAssignmentMetadata(group_id.clone())
                }
                ConsumerGroupRecord::TargetAssignmentMember { group_id, member_id, .. } => {
                    RecordKey::ConsumerGroupTargetAssignmentMember(group_id.clone(), member_id.clone())
                }
                ConsumerGroupRecord::CurrentMemberAssignment { group_id, member_id, .. } => {
                    RecordKey::ConsumerGroupCurrentMemberAssignment(group_id.clone(), member_id.clone())
                }
            },
            CoordinatorRecord::ShareGroup(r) => {
                use crate::sim::coordinator::share::records::ShareGroupRecord as S;
                let kind = match r {
                    S::Metadata { .. } => "ShareGroupMetadata",
                    S::MemberMetadata { .. } => "ShareGroupMemberMetadata",
                    S::TargetAssignment { .. } => "ShareGroupTargetAssignment",
                    S::CurrentMemberAssignment { .. } => "ShareGroupCurrentMemberAssignment",
                    S::StatePartitionMetadata { .. } => "ShareGroupStatePartitionMetadata",
                };
                RecordKey::Typed(kind, r.group_id().to_string(), r.member_id().map(str::to_string))
            }
            CoordinatorRecord::StreamsGroup(r) => {
                RecordKey::Typed(r.kind(), r.group_id().to_string(), r.member_id().map(str::to_string))
            }
        }
    }

    /// The record types written with a null value here: a member's three
    /// records when it leaves (GMM `removeMember`'s tombstones).
    fn is_tombstone(&self) -> bool {
        matches!(
            self,
            CoordinatorRecord::ConsumerGroup(
                ConsumerGroupRecord::MemberMetadata { value: None, .. }
                    | ConsumerGroupRecord::TargetAssignmentMember { partitions: None, .. }
                    | ConsumerGroupRecord::CurrentMemberAssignment { value: None, .. }
            )
        ) || matches!(self, CoordinatorRecord::ShareGroup(r) if r.is_tombstone())
            || matches!(self, CoordinatorRecord::StreamsGroup(r) if r.is_tombstone())
    }
}
