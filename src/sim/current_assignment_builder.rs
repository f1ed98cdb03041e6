//! `CurrentAssignmentBuilder` (facts E4): moves one member's current assignment
//! towards its target, revoking before assigning. A pure function of the member,
//! the target, the partition owners and the partitions the member reports.

use super::consumer_group::{ConsumerGroupMember, MemberState};
use crate::assign::TopicPartition;
use std::collections::BTreeSet;

pub struct CurrentAssignmentBuilder<'a> {
    pub member: &'a ConsumerGroupMember,
    pub target_assignment_epoch: i32,
    pub target_assignment: &'a BTreeSet<TopicPartition>,
    /// `currentPartitionEpoch`: the owner's epoch, or −1 when the partition is free.
    pub current_partition_epoch: &'a dyn Fn(&TopicPartition) -> i32,
    /// The partitions the heartbeat reports as owned; `None` when not sent.
    pub owned_topic_partitions: Option<&'a [TopicPartition]>,
}

impl CurrentAssignmentBuilder<'_> {
    /// `build`.
    pub fn build(&self) -> ConsumerGroupMember {
        let m = self.member;
        match m.state {
            // A newer target may exist: reconcile towards it, otherwise no change.
            MemberState::STABLE if m.member_epoch != self.target_assignment_epoch => {
                self.compute_next_assignment(m.member_epoch, &m.assigned_partitions)
            }
            MemberState::STABLE => m.clone(),
            // Wait until the member no longer reports any partition pending revocation;
            // then it moves on to the next epoch.
            MemberState::UNREVOKED_PARTITIONS if self.owns_any_of(&m.partitions_pending_revocation) => m.clone(),
            MemberState::UNREVOKED_PARTITIONS => self.compute_next_assignment(m.member_epoch + 1, &m.assigned_partitions),
            // Picks up partitions released meanwhile.
            MemberState::UNRELEASED_PARTITIONS => self.compute_next_assignment(m.member_epoch, &m.assigned_partitions),
        }
    }

    /// `ownsRevokedPartitions`: true when no owned list was sent.
    fn owns_any_of(&self, partitions: &BTreeSet<TopicPartition>) -> bool {
        match self.owned_topic_partitions {
            None => true,
            Some(owned) => owned.iter().any(|tp| partitions.contains(tp)),
        }
    }

    /// `computeNextAssignment`.
    fn compute_next_assignment(&self, member_epoch: i32, current: &BTreeSet<TopicPartition>) -> ConsumerGroupMember {
        let target = self.target_assignment;
        // New assigned = current ∩ target.
        let assigned: BTreeSet<TopicPartition> = current.intersection(target).cloned().collect();
        // Pending revocation = current − new assigned.
        let pending_revocation: BTreeSet<TopicPartition> = current.difference(&assigned).cloned().collect();
        // Pending assignment = target − new assigned − partitions another member still owns.
        let (pending_assignment, unreleased): (BTreeSet<TopicPartition>, BTreeSet<TopicPartition>) =
            target.difference(&assigned).cloned().partition(|tp| (self.current_partition_epoch)(tp) == -1);
        let has_unreleased = !unreleased.is_empty();

        let mut next = self.member.clone();
        next.partitions_pending_revocation = BTreeSet::new();
        let epoch = if !pending_revocation.is_empty() && self.owns_any_of(&pending_revocation) {
            // Revoke first: keep the epoch, assign nothing new.
            next.state = MemberState::UNREVOKED_PARTITIONS;
            next.assigned_partitions = assigned;
            next.partitions_pending_revocation = pending_revocation;
            member_epoch
        } else {
            next.state = if has_unreleased { MemberState::UNRELEASED_PARTITIONS } else { MemberState::STABLE };
            next.assigned_partitions = assigned.union(&pending_assignment).cloned().collect();
            self.target_assignment_epoch
        };
        // `updateMemberEpoch`: the previous epoch becomes the one held until now.
        next.previous_member_epoch = next.member_epoch;
        next.member_epoch = epoch;
        next
    }
}
