//! What Kafka's modern group types share (`coordinator/group/modern/`):
//! consumer groups now, share and streams groups next. A modern group
//! (`ModernGroup`) has members with subscriptions (`ModernGroupMember`), a
//! group epoch, and a target assignment that the coordinator computes with a
//! server-side assignor (`target_assignment.rs`, `TargetAssignmentBuilder`).
//! Each type's own rules (how a member reaches its target, what it answers)
//! stay in its folder.

pub mod target_assignment;

use crate::assign::TopicPartition;
use std::collections::{BTreeMap, BTreeSet};

/// `ModernGroupMember`: what the target assignment reads of a member.
pub trait ModernGroupMember {
    fn instance_id(&self) -> Option<&str>;
    fn rack_id(&self) -> Option<&str>;
    fn client_id(&self) -> &str;
    /// `subscribedTopicNames`.
    fn subscribed_topic_names(&self) -> &[String];
}

/// `ModernGroup<T>`: members by id, the partition counts of the topics they
/// subscribe to (`subscriptionMetadata`), and every member's target.
pub trait ModernGroup {
    type Member: ModernGroupMember;
    fn members(&self) -> &BTreeMap<String, Self::Member>;
    fn subscription_metadata(&self) -> &BTreeMap<String, i32>;
    fn target_assignment(&self) -> &BTreeMap<String, BTreeSet<TopicPartition>>;
}
