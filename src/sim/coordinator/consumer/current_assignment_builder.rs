//! `CurrentAssignmentBuilder` (as in Kafka 4.3+): moves one member's
//! current assignment towards its target, revoking before assigning, and keeps
//! each partition's assignment epoch (KIP-1251). A pure
//! function of the member, the target, its subscription, the partition owners
//! and the partitions the member reports.

use crate::assign::TopicPartition;
use crate::sim::coordinator::consumer::{ConsumerGroupMember, MemberState};
use std::collections::{BTreeMap, BTreeSet};

pub struct CurrentAssignmentBuilder<'a> {
    pub member: &'a ConsumerGroupMember,
    pub target_assignment_epoch: i32,
    pub target_assignment: &'a BTreeSet<TopicPartition>,
    /// `currentPartitionEpoch`: the owner's epoch, or −1 when the partition is free.
    pub current_partition_epoch: &'a dyn Fn(&TopicPartition) -> i32,
    /// The partitions the heartbeat reports as owned; `None` when not sent.
    pub owned_topic_partitions: Option<&'a [TopicPartition]>,
    /// `withHasSubscriptionChanged`: the member changed its subscription in this heartbeat.
    pub has_subscription_changed: bool,
}

impl CurrentAssignmentBuilder<'_> {
    /// `build`.
    pub fn build(&self) -> ConsumerGroupMember {
        let m = self.member;
        match m.state {
            // A newer target may exist: reconcile towards it; otherwise drop what
            // the member no longer subscribes to.
            MemberState::STABLE if m.member_epoch != self.target_assignment_epoch => {
                self.compute_next_assignment(m.member_epoch, &m.assigned_partitions)
            }
            MemberState::STABLE if self.has_subscription_changed => {
                self.update_current_assignment(m.member_epoch, &m.assigned_partitions)
            }
            MemberState::STABLE => m.clone(),
            // Wait until the member no longer reports any partition pending revocation.
            MemberState::UNREVOKED_PARTITIONS if self.owns_any_of(&m.partitions_pending_revocation) => {
                if self.has_subscription_changed {
                    self.update_current_assignment(m.member_epoch, &m.assigned_partitions)
                } else {
                    m.clone()
                }
            }
            // Then it reconciles at its current epoch: Kafka 4.2+ no longer bumps it
            // (KAFKA-19974; before, memberEpoch + 1).
            MemberState::UNREVOKED_PARTITIONS => self.compute_next_assignment(m.member_epoch, &m.assigned_partitions),
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

    /// `subscribedTopicIds`: the topics the member subscribes to now.
    fn subscribed(&self, tp: &TopicPartition) -> bool {
        self.member.subscribed_topic_names.iter().any(|t| *t == tp.topic)
    }

    /// `updateCurrentAssignment` (Kafka 4.2+, KAFKA-19431): after a subscription
    /// change, partitions of topics the member no longer subscribes to go to
    /// pending revocation at once, at the same epoch.
    fn update_current_assignment(&self, member_epoch: i32, current: &BTreeSet<TopicPartition>) -> ConsumerGroupMember {
        let (assigned, removed): (BTreeSet<TopicPartition>, BTreeSet<TopicPartition>) =
            current.iter().cloned().partition(|tp| self.subscribed(tp));
        if removed.is_empty() {
            return self.member.clone();
        }
        let mut next = self.member.clone();
        let pending: BTreeSet<TopicPartition> =
            self.member.partitions_pending_revocation.union(&removed).cloned().collect();
        if self.owns_any_of(&pending) {
            next.state = MemberState::UNREVOKED_PARTITIONS;
            next.partitions_pending_revocation = pending;
        }
        next.assigned_partitions = assigned;
        // What stays assigned or pending revocation keeps its assignment epoch.
        next.assignment_epochs = self.kept_epochs(next.owned_on_coordinator());
        next.previous_member_epoch = next.member_epoch;
        next.member_epoch = member_epoch;
        next
    }

    /// The member's assignment epochs of `partitions` (KIP-1251): a partition it
    /// keeps, or must revoke, keeps the epoch at which it was assigned.
    fn kept_epochs<'p>(&self, partitions: impl Iterator<Item = &'p TopicPartition>) -> BTreeMap<TopicPartition, i32> {
        partitions.filter_map(|tp| Some((tp.clone(), self.member.assignment_epoch(tp)?))).collect()
    }

    /// `computeNextAssignment`.
    fn compute_next_assignment(&self, member_epoch: i32, current: &BTreeSet<TopicPartition>) -> ConsumerGroupMember {
        // A target partition of a topic the member no longer subscribes to counts
        // as not targeted (Kafka 4.2+).
        let target: BTreeSet<TopicPartition> =
            self.target_assignment.iter().filter(|tp| self.subscribed(tp)).cloned().collect();
        // New assigned = current ∩ target.
        let assigned: BTreeSet<TopicPartition> = current.intersection(&target).cloned().collect();
        // Pending revocation = current − new assigned.
        let pending_revocation: BTreeSet<TopicPartition> = current.difference(&assigned).cloned().collect();
        // Pending assignment = target − new assigned − partitions another member
        // still owns; one this member itself is revoking is not unreleased (4.2+).
        let own_revoking = &self.member.partitions_pending_revocation;
        let (pending_assignment, unreleased): (BTreeSet<TopicPartition>, BTreeSet<TopicPartition>) = target
            .difference(&assigned)
            .cloned()
            .partition(|tp| (self.current_partition_epoch)(tp) == -1 || own_revoking.contains(tp));
        let has_unreleased = !unreleased.is_empty();

        let mut next = self.member.clone();
        next.partitions_pending_revocation = BTreeSet::new();
        let epoch = if !pending_revocation.is_empty() && self.owns_any_of(&pending_revocation) {
            // Revoke first: keep the epoch, assign nothing new.
            next.state = MemberState::UNREVOKED_PARTITIONS;
            next.assignment_epochs = self.kept_epochs(current.iter());
            next.assigned_partitions = assigned;
            next.partitions_pending_revocation = pending_revocation;
            member_epoch
        } else {
            next.state = if has_unreleased { MemberState::UNRELEASED_PARTITIONS } else { MemberState::STABLE };
            // New partitions are assigned at the target epoch; kept ones keep theirs.
            let mut epochs = self.kept_epochs(assigned.iter());
            epochs.extend(pending_assignment.iter().map(|tp| (tp.clone(), self.target_assignment_epoch)));
            next.assignment_epochs = epochs;
            next.assigned_partitions = assigned.union(&pending_assignment).cloned().collect();
            self.target_assignment_epoch
        };
        // `updateMemberEpoch`: the previous epoch becomes the one held until now.
        next.previous_member_epoch = next.member_epoch;
        next.member_epoch = epoch;
        next
    }
}
