//! `UniformAssignor` ("uniform") and its homogeneous builder
//! (`UniformHomogeneousAssignmentBuilder`).

use super::{
    uniform_heterogeneous, GroupSpec, MemberAssignment, ServerAssignment, ServerAssignor, SubscriptionType,
    TopicMetadata,
};
use crate::assign::dense::UuidIndex;
use crate::java::{uuid_set_copy_order, Uuid};
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

/// A (topic, partition) pair as one integer that sorts as the pair does:
/// the topic's rank among the subscribed ids ascending, then the partition
/// (sign bit flipped, so a negative number sorts first as in `Integer` order).
fn key(rank: u32, partition: i32) -> u64 {
    (u64::from(rank) << 32) | u64::from(partition as u32 ^ 0x8000_0000)
}

fn unkey(by_rank: &[Uuid], key: u64) -> (Uuid, i32) {
    (by_rank[(key >> 32) as usize], (key as u32 ^ 0x8000_0000) as i32)
}

/// `UniformHomogeneousAssignmentBuilder.build` as of Kafka 4.1 (KAFKA-18688).
fn build_homogeneous(group: &GroupSpec, topics: &TopicMetadata) -> Result<ServerAssignment, String> {
    let Some(first) = group.members.first() else { return Ok(ServerAssignment::new()) };
    // new HashSet<>(first member's subscribedTopicIds): iterated in HashSet order
    let subscribed = uuid_set_copy_order(&first.subscribed_topic_ids);
    if subscribed.is_empty() {
        return Ok(ServerAssignment::new());
    }
    let subscribed_index = UuidIndex::new(&subscribed);
    // each subscribed topic's rank by id, so pairs sort as integers
    let mut by_rank = subscribed.clone();
    by_rank.sort_unstable();
    let rank: Vec<u32> = subscribed.iter().map(|id| by_rank.partition_point(|x| x < id) as u32).collect();
    // isPartitionAssigned, per subscribed topic and partition
    let mut assigned: Vec<Vec<bool>> = Vec::with_capacity(subscribed.len());
    for id in &subscribed {
        assigned.push(vec![false; topics.require(id)?.max(0) as usize]);
    }
    if !group.without_inverted_assignment {
        for m in &group.members {
            for (id, partitions) in &m.assignment {
                let Some(t) = subscribed_index.get(id) else { continue };
                for p in partitions {
                    if let Some(slot) = usize::try_from(*p).ok().and_then(|p| assigned[t].get_mut(p)) {
                        *slot = true;
                    }
                }
            }
        }
    }
    // the unassigned partitions, in the order Kafka hands them out
    let mut unassigned: Vec<u64> = Vec::new();
    let mut total: i64 = 0;
    for (t, flags) in assigned.iter().enumerate() {
        unassigned.extend((0..flags.len()).filter(|p| !flags[*p]).map(|p| key(rank[t], p as i32)));
        total += flags.len() as i64;
    }
    let num_members = group.members.len() as i64;
    let min_quota = (total / num_members) as usize;
    let mut extra = total % num_members;

    // maybeRevokePartitions: what each member keeps, member after member in
    // one buffer (`kept[ends[i-1]..ends[i]]` is member i's)
    let mut kept: Vec<u64> = Vec::with_capacity(total.max(0) as usize);
    let mut ends: Vec<usize> = Vec::with_capacity(group.members.len());
    let mut unfilled: Vec<(usize, usize)> = Vec::new();
    for (index, m) in group.members.iter().enumerate() {
        let mut quota = min_quota;
        let mut quota_has_extra_partition = false;
        if extra > 0 {
            quota += 1;
            quota_has_extra_partition = true;
        }
        for (id, partitions) in &m.assignment {
            let Some(t) = subscribed_index.get(id) else { continue };
            if partitions.len() <= quota {
                quota -= partitions.len();
                kept.extend(partitions.iter().map(|p| key(rank[t], *p)));
            } else {
                for p in partitions {
                    if quota > 0 {
                        quota -= 1;
                        kept.push(key(rank[t], *p));
                    } else {
                        unassigned.push(key(rank[t], *p));
                    }
                }
            }
        }
        // KAFKA-18688 (Kafka 4.1+): a member that cannot fill its extra
        // partition from what it owns gives the extra up for a later member,
        // unless it is one of the last `remainingMembersToGetAnExtraPartition`
        // members and must take it; so a balanced assignment does not move.
        if quota > 0 && quota_has_extra_partition && num_members - index as i64 > extra {
            quota -= 1;
            quota_has_extra_partition = false;
        }
        if quota > 0 {
            unfilled.push((index, quota));
        }
        if quota_has_extra_partition {
            extra -= 1;
        }
        ends.push(kept.len());
    }

    // assignRemainingPartitions: each unfilled member takes the next run
    let mut added: Vec<(usize, usize)> = vec![(0, 0); group.members.len()];
    let mut next = 0;
    for (member, quota) in unfilled {
        let end = (next + quota).min(unassigned.len());
        added[member] = (next, end);
        next = end;
    }
    if next < unassigned.len() {
        return Err("Partitions were left unassigned".to_string());
    }
    let mut scratch: Vec<u64> = Vec::new();
    let mut targets: Vec<MemberAssignment> = Vec::with_capacity(group.members.len());
    for (index, end) in ends.iter().enumerate() {
        let start = if index == 0 { 0 } else { ends[index - 1] };
        let (from, to) = added[index];
        scratch.clear();
        scratch.extend_from_slice(&kept[start..*end]);
        scratch.extend_from_slice(&unassigned[from..to]);
        // a Set<Integer> per topic: ascending, duplicates collapse
        scratch.sort_unstable();
        scratch.dedup();
        targets.push(MemberAssignment::from_sorted(scratch.iter().map(|k| unkey(&by_rank, *k)).collect()));
    }
    Ok(ServerAssignment::of_members(group, targets))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assign::server::{MemberSpec, TopicInfo};

    fn spec(owned: &[&[i32]]) -> (GroupSpec, TopicMetadata, Uuid) {
        let t = Uuid::from_name("orders");
        let topics =
            TopicMetadata { topics: [(t, TopicInfo { name: "orders".into(), partitions: 7 })].into_iter().collect() };
        let members = owned
            .iter()
            .enumerate()
            .map(|(i, ps)| MemberSpec {
                member_id: format!("m{i}"),
                subscribed_topic_ids: vec![t],
                assignment: if ps.is_empty() { vec![] } else { vec![(t, ps.to_vec())] },
                ..MemberSpec::default()
            })
            .collect();
        (GroupSpec { members, ..GroupSpec::default() }, topics, t)
    }

    fn held(out: &ServerAssignment, group: &GroupSpec, t: Uuid) -> Vec<Vec<i32>> {
        out.members(group).map(|(_, m)| m.partitions(t).collect()).collect()
    }

    /// KAFKA-18688, `UniformHomogeneousAssignmentBuilder.maybeRevokePartitions`
    /// (Kafka 4.1+): 7 partitions over 3 members, already balanced 2/2/3 with the
    /// extra partition on the last member. Before 4.1 the first member claimed
    /// the extra partition, so the last one had to hand one over; now nothing moves.
    #[test]
    fn maybe_revoke_partitions_keeps_a_balanced_assignment_where_it_is() {
        let (group, topics, t) = spec(&[&[0, 1], &[2, 3], &[4, 5, 6]]);
        let out = UniformAssignor.assign(&group, &topics).expect("assignment");
        assert_eq!(held(&out, &group, t), vec![vec![0, 1], vec![2, 3], vec![4, 5, 6]]);
    }

    /// The members that must take the extra partitions are the last ones in
    /// `memberIds()` order when nobody owns anything (fresh group).
    #[test]
    fn maybe_revoke_partitions_leaves_the_extra_partitions_to_the_last_members_of_a_fresh_group() {
        let (group, topics, t) = spec(&[&[], &[], &[]]);
        let out = UniformAssignor.assign(&group, &topics).expect("assignment");
        let sizes: Vec<usize> = held(&out, &group, t).iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![2, 2, 3]);
    }
}
