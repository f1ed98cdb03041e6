//! A share group's target assignment (`TargetAssignmentBuilder` with the
//! `simple` assignor, GroupMetadataManager `maybeUpdateTargetAssignment` for
//! share groups): only share-partitions whose state is initialized are
//! assignable (`withTopicAssignablePartitionsMap(initializedTopicPartitions)`).

use crate::assign::server::share_assignor;
use crate::assign::TopicPartition;
use crate::sim::coordinator::modern::target_assignment;
use crate::sim::coordinator::share::ShareGroup;
use std::collections::{BTreeMap, BTreeSet};

/// The share assignor (`group.share.assignors` = `simple`, the only one).
pub const SHARE_ASSIGNOR: &str = "simple";

/// Every member's new target, each filtered to its subscription
/// (`ShareGroupAssignmentBuilder`), or the assignor's exception.
pub fn compute(group: &ShareGroup) -> Result<BTreeMap<String, BTreeSet<TopicPartition>>, String> {
    let assignor = share_assignor(SHARE_ASSIGNOR).ok_or_else(|| format!("no share assignor named {SHARE_ASSIGNOR}"))?;
    let mut targets = target_assignment::compute_assignable(group, &*assignor, Some(&group.initialized))?;
    for (id, ps) in targets.iter_mut() {
        if let Some(m) = group.members.get(id) {
            ps.retain(|tp| m.subscribed_topic_names.iter().any(|t| *t == *tp.topic));
        }
    }
    Ok(targets)
}
