//! `UniformAssignor` ("uniform") and its homogeneous builder
//! (`UniformHomogeneousAssignmentBuilder`).

use super::{uniform_heterogeneous, GroupSpec, ServerAssignment, ServerAssignor, SubscriptionType, TopicMetadata};
use crate::java::{uuid_set_copy_order, Uuid};
use std::collections::HashSet;

pub struct UniformAssignor;

impl ServerAssignor for UniformAssignor {
    fn name(&self) -> &'static str {
        "uniform"
    }

    fn assign(&self, group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String> {
        if group.members.is_empty() {
            return Ok(ServerAssignment::new());
        }
        match group.subscription_type {
            SubscriptionType::Homogeneous => build_homogeneous(group, topics),
            SubscriptionType::Heterogeneous => uniform_heterogeneous::build(group, topics),
        }
    }
}

/// `UniformHomogeneousAssignmentBuilder.build`.
fn build_homogeneous(group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String> {
    let mut out = ServerAssignment::new();
    let Some(first) = group.members.first() else { return Ok(out) };
    // new HashSet<>(first member's subscribedTopicIds): iterated in HashSet order
    let subscribed = uuid_set_copy_order(&first.subscribed_topic_ids);
    if subscribed.is_empty() {
        return Ok(out);
    }
    let subscribed_set: HashSet<Uuid> = subscribed.iter().copied().collect();
    let assigned = group.assigned_partitions();
    let mut unassigned: Vec<(Uuid, i32)> = Vec::new();
    let mut total: i64 = 0;
    for id in &subscribed {
        let n = topics.require(id)?;
        unassigned.extend((0..n).filter(|p| !assigned.contains(&(*id, *p))).map(|p| (*id, p)));
        total += i64::from(n);
    }
    let num_members = group.members.len() as i64;
    let min_quota = (total / num_members) as usize;
    let mut extra = total % num_members;

    // maybeRevokePartitions
    let mut unfilled: Vec<(&str, usize)> = Vec::new();
    for m in &group.members {
        let mut quota = min_quota;
        if extra > 0 {
            quota += 1;
            extra -= 1;
        }
        let entry = out.entry(m.member_id.clone()).or_default();
        for (id, partitions) in &m.assignment {
            if !subscribed_set.contains(id) {
                continue;
            }
            if partitions.len() <= quota {
                quota -= partitions.len();
                entry.entry(*id).or_default().extend(partitions.iter().copied());
            } else {
                for p in partitions {
                    if quota > 0 {
                        quota -= 1;
                        entry.entry(*id).or_default().insert(*p);
                    } else {
                        unassigned.push((*id, *p));
                    }
                }
            }
        }
        if quota > 0 {
            unfilled.push((&m.member_id, quota));
        }
    }

    // assignRemainingPartitions
    let mut next = 0;
    for (member, quota) in unfilled {
        let entry = out.entry(member.to_string()).or_default();
        for &(id, p) in unassigned.iter().skip(next).take(quota) {
            entry.entry(id).or_default().insert(p);
            next += 1;
        }
    }
    if next < unassigned.len() {
        return Err("Partitions were left unassigned".to_string());
    }
    Ok(out)
}
