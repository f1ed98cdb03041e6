//! OffsetCommit from a classic group's member (OffsetMetadataManager
//! `commitOffset` with ClassicGroup `validateOffsetCommit`); the offsets are
//! stored by the shard (`Shard::store_offsets`), whatever the group's type.

use crate::sim::coordinator::classic::members::validate_member;
use crate::sim::coordinator::classic::{ClassicGroup, ClassicGroupState};
use crate::sim::coordinator::group::Group;
use crate::sim::coordinator::shard::Shard;
use crate::sim::ctx::Ctx;
use crate::sim::message::OffsetCommitRequest;
use crate::sim::out::{GroupTimer, Out};
use crate::sim::types::Errors;
use std::collections::btree_map::Entry;

impl Shard {
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
        request: &OffsetCommitRequest,
        out: &mut Out,
    ) -> Errors {
        let OffsetCommitRequest { group_id, generation_id, member_id, group_instance_id, offsets } = request;
        let (generation_id, instance_id) = (*generation_id, group_instance_id.as_deref());
        // A consumer group's commits go to `commit_consumer_group_offsets`.
        let group = match self.groups.entry(group_id.to_string()) {
            Entry::Occupied(e) => match e.into_mut().as_classic_mut() {
                Some(g) => g,
                None => return Errors::GROUP_ID_NOT_FOUND,
            },
            Entry::Vacant(_) if generation_id >= 0 => return Errors::GROUP_ID_NOT_FOUND,
            Entry::Vacant(e) => {
                e.insert(Group::Classic(ClassicGroup::new(group_id))).as_classic_mut().expect("classic")
            }
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
}
