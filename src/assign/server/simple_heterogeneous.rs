//! `SimpleHeterogeneousAssignmentBuilder` (Kafka 4.4): the share-group
//! assignment when members subscribe to different topics. Balance is computed
//! for each topic over the members subscribed to it (its
//! `TopicAssignmentPartialBuilder`), then the topics' results are combined.
//!
//! As in Kafka, a topic nobody subscribes to any more is not looked at, so a
//! member keeps what it had of it; a topic some members still subscribe to is
//! taken from the others (their desired count for it is 0).

use super::simple_shared::{assign_remaining, desired_counts, desired_sharing, distinct, int_map_keys, int_set};
use super::simple_shared::{owned, result, Owned};
use super::{GroupSpec, ServerAssignment, TopicMetadata};
use crate::java::{uuid_hash_order, JavaHashOrder, Uuid};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The constructor and `build`.
pub(super) fn build(group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String> {
    let subscriptions: Vec<Vec<Uuid>> = group.members.iter().map(|m| distinct(&m.subscribed_topic_ids)).collect();
    // subscribedTopicIds: a default HashSet filled member after member
    let all: Vec<Uuid> = subscriptions.iter().flatten().copied().collect();
    let subscribed = uuid_hash_order(&all, None);
    // computeTargetPartitions, in that order (the first unknown topic fails)
    let mut targets: BTreeMap<Uuid, Vec<i32>> = BTreeMap::new();
    for id in &subscribed {
        let n = topics.require(id)?;
        targets.insert(*id, (0..n).filter(|p| group.is_partition_assignable(id, *p)).collect());
    }
    // computeSubscribedMembers: member indices ascending per topic
    let mut members_of: BTreeMap<Uuid, Vec<usize>> = BTreeMap::new();
    for (index, ids) in subscriptions.iter().enumerate() {
        for id in ids {
            members_of.entry(*id).or_default().push(index);
        }
    }
    if subscribed.is_empty() {
        return Ok(ServerAssignment::new());
    }
    let mut current: Vec<Owned> = group.members.iter().map(|m| owned(&m.assignment)).collect();
    for topic in &subscribed {
        let topic_targets = &targets[topic];
        let subscribers = &members_of[topic];
        build_topic(group, *topic, topic_targets, subscribers, &mut current)?;
    }
    Ok(result(group, &current))
}

/// `TopicAssignmentPartialBuilder`: its constructor and `build`, for one topic.
fn build_topic(
    group: &GroupSpec,
    topic: Uuid,
    targets: &[i32],
    subscribers: &[usize],
    current: &mut [Owned],
) -> Result<(), String> {
    let sharing = desired_sharing(subscribers.len(), targets.len());
    // desiredAssignmentCounts: 0 for a member not subscribed to the topic
    let mut desired = vec![0i32; group.members.len()];
    for (k, count) in desired_counts(sharing, targets.len(), subscribers.len()).into_iter().enumerate() {
        desired[subscribers[k]] = count;
    }
    // finalAssignmentByPartition (key order, members of each) and finalAssignmentByMember
    let mut by_partition_keys = int_map_keys(targets.len());
    let mut by_partition: HashMap<i32, JavaHashOrder<i32>> = HashMap::new();
    let mut by_member: BTreeMap<usize, JavaHashOrder<i32>> = BTreeMap::new();

    // revokeUnassignablePartitions: what each member had of the topic
    for (index, member) in group.members.iter().enumerate() {
        if member.assignment.is_empty() {
            continue;
        }
        let Some((_, partitions)) = member.assignment.iter().find(|(id, _)| *id == topic) else { continue };
        for p in partitions {
            // computeIfAbsent: grows the table first even when the key is there
            by_partition_keys.compute_if_absent(*p);
            by_partition.entry(*p).or_insert_with(int_set);
            if let Some(members) = by_partition.get_mut(p) {
                members.put_java(index as i32);
            }
            by_member.entry(index).or_insert_with(int_set).put_java(*p);
        }
    }

    // revokeOverfilledMembers: give up partitions in the member's set order
    for (index, set) in by_member.iter_mut() {
        let want = desired[*index].max(0) as usize;
        if set.len() <= want {
            continue;
        }
        let order: Vec<i32> = set.keys().copied().collect();
        for p in order {
            if set.len() <= want {
                break;
            }
            if let Some(members) = by_partition.get_mut(&p) {
                members.remove(&(*index as i32));
            }
            set.remove(&p);
            if let Some(ps) = current[*index].get_mut(&topic) {
                ps.remove(&p);
            }
        }
    }

    // revokeOversharedPartitions: the first members in the partition's set order give it up
    let keys: Vec<i32> = by_partition_keys.keys().copied().collect();
    for p in &keys {
        let Some(members) = by_partition.get_mut(p) else { continue };
        let mut count = members.len() as i32;
        if count <= sharing {
            continue;
        }
        let order: Vec<i32> = members.keys().copied().collect();
        for m in order {
            let index = m as usize;
            if current[index].get_mut(&topic).is_some_and(|ps| ps.remove(p)) {
                count -= 1;
                members.remove(&m);
                if let Some(set) = by_member.get_mut(&index) {
                    set.remove(p);
                }
            }
            if count <= sharing {
                break;
            }
        }
    }

    // the target partitions nobody holds yet
    for p in targets {
        // computeIfAbsent: grows the table first even when the key is there
        by_partition_keys.compute_if_absent(*p);
        by_partition.entry(*p).or_insert_with(int_set);
    }

    // assignRemainingPartitions, over the subscribed members short of their count
    let mut unfilled: BTreeSet<usize> = subscribers
        .iter()
        .copied()
        .filter(|index| (by_member.get(index).map_or(0, JavaHashOrder::len) as i64) < i64::from(desired[*index]))
        .collect();
    let keys: Vec<i32> = by_partition_keys.keys().copied().collect();
    let partitions: Vec<(i32, &JavaHashOrder<i32>)> = keys.iter().map(|p| (*p, &by_partition[p])).collect();
    assign_remaining(&partitions, sharing, &desired, &mut unfilled, |index, p| {
        current[index].entry(topic).or_default().insert(p);
        let set = by_member.entry(index).or_insert_with(int_set);
        set.put_java(p);
        set.len()
    })
}
