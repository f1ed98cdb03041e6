//! `SimpleAssignor` ("simple"), Kafka's share-group assignor (KIP-932), and its
//! homogeneous builder (`SimpleHomogeneousAssignmentBuilder`), as of Kafka 4.4.
//!
//! Balance first, then stickiness; not rack-aware. Unlike the consumer-group
//! assignors, one partition may go to several members: with more members than
//! assignable partitions each partition is shared by `desiredSharing =
//! ceil(members / partitions)` members. Only partitions the [`GroupSpec`]
//! calls assignable (`isPartitionAssignable`: share state initialized) are
//! targets.

use super::simple_shared::{assign_remaining, desired_counts, desired_sharing, distinct, helper_capacity, int_set};
use super::simple_shared::{owned, result, Owned};
use super::{simple_heterogeneous, GroupSpec, ServerAssignment, ServerAssignor, SubscriptionType};
use super::{TopicMetadata, TopicPartition};
use crate::java::{JavaHashOrder, Uuid};
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub struct SimpleAssignor;

impl ServerAssignor for SimpleAssignor {
    fn name(&self) -> &'static str {
        "simple"
    }

    /// `SimpleAssignor.assign`: no members, no entries; else the homogeneous or
    /// the heterogeneous builder by the spec's subscription type.
    fn assign(&self, group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String> {
        if group.members.is_empty() {
            return Ok(ServerAssignment::new());
        }
        match group.subscription_type {
            SubscriptionType::Homogeneous => build_homogeneous(group, topics),
            SubscriptionType::Heterogeneous => simple_heterogeneous::build(group, topics),
        }
    }
}

/// `TopicIdPartition` (a Java record): its `hashCode` is the JDK's record hash,
/// `31 * topicId.hashCode() + partitionId`.
type Tip = (Uuid, i32);

fn tip_hash(tp: &Tip) -> i32 {
    tp.0.java_hash().wrapping_mul(31).wrapping_add(tp.1)
}

fn tip_set() -> JavaHashOrder<Tip> {
    JavaHashOrder::new(tip_hash as fn(&Tip) -> i32)
}

/// `SimpleHomogeneousAssignmentBuilder`: the constructor and `build`.
fn build_homogeneous(group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String> {
    // the first member's subscribedTopicIds(), as the set iterates
    let subscribed = distinct(&group.members[0].subscribed_topic_ids);
    let num_members = group.members.len();
    // computeTargetPartitions
    let mut targets: Vec<Tip> = Vec::new();
    for id in &subscribed {
        let n = topics.require(id)?;
        targets.extend((0..n).filter(|p| group.is_partition_assignable(id, *p)).map(|p| (*id, p)));
    }
    if subscribed.is_empty() {
        return Ok(ServerAssignment::new());
    }
    let sharing = desired_sharing(num_members, targets.len());
    let desired = desired_counts(sharing, targets.len(), num_members);
    let subscribed: BTreeSet<Uuid> = subscribed.into_iter().collect();

    // newGroupAssignment over oldGroupAssignment, as content
    let mut current: Vec<Owned> = group.members.iter().map(|m| owned(&m.assignment)).collect();
    // finalAssignmentByPartition: its key order, and each partition's members
    let mut by_partition_keys =
        JavaHashOrder::with_capacity(helper_capacity(targets.len()), tip_hash as fn(&Tip) -> i32);
    let mut by_partition: HashMap<Tip, JavaHashOrder<i32>> = HashMap::new();
    // finalAssignmentByMember
    let mut by_member: Vec<Option<JavaHashOrder<Tip>>> = vec![None; num_members];
    let mut unfilled: BTreeSet<usize> = BTreeSet::new();
    let mut overfilled: BTreeSet<usize> = BTreeSet::new();

    // revokeUnassignablePartitions: keep what is of a subscribed topic (every
    // partition of it, assignable or not), drop the other topics
    for (index, member) in group.members.iter().enumerate() {
        let mut count: i64 = 0;
        for (topic, partitions) in &member.assignment {
            if subscribed.contains(topic) {
                for p in partitions {
                    let tp = (*topic, *p);
                    count += 1;
                    // computeIfAbsent: grows the table first even when the key is there
                    by_partition_keys.compute_if_absent(tp);
                    by_partition.entry(tp).or_insert_with(int_set).put_java(index as i32);
                    by_member[index].get_or_insert_with(tip_set).put_java(tp);
                }
            } else {
                current[index].remove(topic);
            }
        }
        let want = i64::from(desired[index]);
        if count < want {
            unfilled.insert(index);
        } else if count > want {
            overfilled.insert(index);
        }
    }

    // revokeOverfilledMembers: give up partitions in the member's set order
    for index in &overfilled {
        let want = desired[*index].max(0) as usize;
        let Some(set) = by_member[*index].as_mut() else { continue };
        let order: Vec<Tip> = set.keys().copied().collect();
        for tp in order {
            if set.len() <= want {
                break;
            }
            if let Some(ps) = current[*index].get_mut(&tp.0) {
                ps.remove(&tp.1);
            }
            if let Some(members) = by_partition.get_mut(&tp) {
                members.remove(&(*index as i32));
            }
            set.remove(&tp);
        }
    }

    // revokeOversharedPartitions: the first members in the partition's set order give it up
    let keys: Vec<Tip> = by_partition_keys.keys().copied().collect();
    for tp in &keys {
        let Some(members) = by_partition.get_mut(tp) else { continue };
        let mut count = members.len() as i32;
        if count <= sharing {
            continue;
        }
        let order: Vec<i32> = members.keys().copied().collect();
        for m in order {
            let index = m as usize;
            if current[index].get_mut(&tp.0).is_some_and(|ps| ps.remove(&tp.1)) {
                count -= 1;
                members.remove(&m);
                if let Some(set) = by_member[index].as_mut() {
                    set.remove(tp);
                }
                unfilled.insert(index);
            }
            if count <= sharing {
                break;
            }
        }
    }

    // the target partitions nobody holds yet
    for tp in &targets {
        // computeIfAbsent: grows the table first even when the key is there
        by_partition_keys.compute_if_absent(*tp);
        by_partition.entry(*tp).or_insert_with(int_set);
    }

    let keys: Vec<Tip> = by_partition_keys.keys().copied().collect();
    let partitions: Vec<(Tip, &JavaHashOrder<i32>)> = keys.iter().map(|tp| (*tp, &by_partition[tp])).collect();
    assign_remaining(&partitions, sharing, &desired, &mut unfilled, |index, tp| {
        current[index].entry(tp.0).or_default().insert(tp.1);
        let set = by_member[index].get_or_insert_with(tip_set);
        set.put_java(tp);
        set.len()
    })?;
    Ok(result(group, &current))
}

/// The target assignment of a share group, by member id, as topic-partitions:
/// what the coordinator's `TargetAssignmentBuilder` gets from `simple` (a
/// partition may appear under several members). Every member of `group` has
/// an entry (empty when Kafka's result has none for it).
pub fn simple_target_assignment(
    group: &GroupSpec,
    topics: &TopicMetadata,
) -> Result<BTreeMap<String, BTreeSet<TopicPartition>>, String> {
    let mut named = topics.named(group, &SimpleAssignor.assign(group, topics)?);
    Ok(group
        .members
        .iter()
        .map(|m| (m.member_id.clone(), named.remove(&m.member_id).unwrap_or_default().into_iter().collect()))
        .collect())
}
