//! Offset commits to a consumer group (`ConsumerGroup.validateOffsetCommit`,
//! checked with member epochs and, for an older epoch, with each partition's
//! assignment epoch) and the classic-protocol requests refused for a
//! consumer group's id.

use crate::assign::TopicPartition;
use crate::sim::coordinator::shard::Shard;
use crate::sim::out::Out;
use crate::sim::types::Errors;

impl Shard {
    /// OffsetCommit to a consumer group (`OffsetMetadataManager.commitOffset`):
    /// validated with member epochs, then stored. Each partition is validated in
    /// turn and the first that fails fails the whole request.
    pub(crate) fn commit_consumer_group_offsets(
        &mut self,
        partition: u32,
        group_id: &str,
        member_epoch: i32,
        member_id: &str,
        offsets: &[(TopicPartition, i64)],
        out: &mut Out,
    ) -> Errors {
        let error = self
            .validate_consumer_group_offset_commit(group_id, member_id, member_epoch, offsets)
            .unwrap_or(Errors::NONE);
        if error == Errors::NONE {
            self.store_offsets(partition, group_id, offsets, out);
        }
        error
    }

    /// Classic-protocol group requests for an id that is a consumer group: the
    /// online migration of KIP-848 is not simulated, so they are refused.
    pub(crate) fn classic_request_for_consumer_group(&self, request: &crate::sim::message::Request) -> Option<Errors> {
        use crate::sim::message::Request::*;
        let group_id = match request {
            JoinGroup(r) => &r.group_id,
            SyncGroup(r) => &r.group_id,
            Heartbeat { group_id, .. } | LeaveGroup { group_id, .. } => group_id,
            _ => return None,
        };
        self.consumer_group(group_id).filter(|g| !g.members.is_empty()).map(|_| Errors::INCONSISTENT_GROUP_PROTOCOL)
    }

    /// OffsetCommit from a consumer group (ConsumerGroup `validateOffsetCommit`,
    /// Kafka 4.3+): a negative epoch only while the group is empty; otherwise the
    /// member must exist; its current member epoch may commit anything, a newer
    /// one nothing; an older one only partitions the member still holds (assigned
    /// or pending revocation) that were assigned at or before that epoch
    /// (`createAssignmentEpochValidator`, KIP-1251). Until 4.2 any epoch but the
    /// member's was STALE_MEMBER_EPOCH.
    pub fn validate_consumer_group_offset_commit(
        &self,
        group_id: &str,
        member_id: &str,
        member_epoch: i32,
        offsets: &[(TopicPartition, i64)],
    ) -> Option<Errors> {
        let group = self.consumer_group(group_id)?;
        if member_epoch < 0 && group.members.is_empty() {
            return Some(Errors::NONE);
        }
        let Some(member) = group.members.get(member_id) else { return Some(Errors::UNKNOWN_MEMBER_ID) };
        if member_epoch == member.member_epoch {
            return Some(Errors::NONE);
        }
        if member_epoch > member.member_epoch {
            return Some(Errors::STALE_MEMBER_EPOCH);
        }
        let assigned_by = |tp: &TopicPartition| member.assignment_epoch(tp).is_some_and(|e| e <= member_epoch);
        Some(if offsets.iter().all(|(tp, _)| assigned_by(tp)) { Errors::NONE } else { Errors::STALE_MEMBER_EPOCH })
    }
}
