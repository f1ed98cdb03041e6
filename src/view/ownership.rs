//! Partition ownership as the page shows it: per group and partition, the
//! owner, offsets, redeliveries and where it stands in a rebalance.

use crate::assign::TopicPartition;
use crate::sim::world::GroupType;
use crate::sim::World;

#[derive(Clone, Debug, PartialEq)]
pub struct PartitionRow {
    /// The consumer group the row is about ("" for a topic no group reads).
    pub group: String,
    pub partition: TopicPartition,
    pub owner: Option<u32>,
    /// A share group's other live members reading it too (KIP-932: a
    /// share-partition has as many readers as the assignor gives it); empty
    /// in consumer groups, where `owner` is the only one.
    pub also_read_by: Vec<u32>,
    pub leader: Option<u32>,
    pub end_offset: i64,
    pub committed: Option<i64>,
    pub processed: i64,
    pub redelivered: i64,
    pub status: PartitionStatus,
}

/// Where a partition stands in its group's rebalance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionStatus {
    /// A live consumer owns it, and (KIP-848) the target assignment agrees.
    Owned,
    /// KIP-848: its owner still holds it but the target assignment gives it
    /// to another member (or nobody); the owner must revoke it first.
    Revoking,
    /// Nobody owns it yet but it is on its way: a classic group is
    /// rebalancing, or (KIP-848) the target assignment names a member that
    /// has not taken it yet (waiting for the old owner to release it).
    Pending,
    /// Nobody owns it and nobody is about to.
    Unowned,
}

impl PartitionStatus {
    pub fn name(self) -> &'static str {
        match self {
            PartitionStatus::Owned => "owned",
            PartitionStatus::Revoking => "revoking",
            PartitionStatus::Pending => "pending",
            PartitionStatus::Unowned => "unowned",
        }
    }
}

/// The owner of each partition of each topic, as the consumers themselves see it
/// (the member whose assignment holds it and that is alive).
pub fn partitions(world: &World) -> Vec<PartitionRow> {
    use std::collections::{BTreeMap, BTreeSet};
    // Who owns what in which group, once (a large group has 100 members and
    // 1,000 partitions). A consumer stopped by a fatal error (a fenced zombie)
    // processes nothing.
    let mut owners: BTreeMap<(&str, &TopicPartition), Vec<u32>> = BTreeMap::new();
    // A member out of the group (UNJOINED after it was expelled, FENCED...)
    // owns nothing, whatever its list still holds until its callback runs.
    for c in
        world.members().filter(|c| c.is_consumer() && c.alive && c.fatal.is_none() && !super::out_of_group(&c.state))
    {
        for tp in c.owned {
            owners.entry((c.group_id, tp)).or_default().push(c.idx);
        }
    }
    // Each consumer group gets the partitions of the topics it subscribes to;
    // topics no group reads are listed once, without a group.
    let mut topics_of: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for g in &world.scenario.groups {
        topics_of.entry(g.group_id.as_str()).or_default().extend(g.config.topics.iter().map(String::as_str));
    }
    for c in world.members().filter(|c| c.is_consumer()) {
        topics_of.entry(c.group_id).or_default().extend(c.topics.iter().map(String::as_str));
    }
    // A Kafka Streams application reads its topology's source and repartition
    // topics: each partition is read by the thread running its task.
    for a in &world.scenario.streams_apps {
        let read = topics_of.entry(a.application_id.as_str()).or_default();
        for s in &a.topology.subtopologies {
            read.extend(s.source_topics.iter().map(String::as_str));
            read.extend(s.repartition_source_topics.iter().map(|t| t.name.as_str()));
        }
    }
    // KIP-848: the coordinator's target assignment, by client index.
    let mut targets: BTreeMap<(&str, &TopicPartition), Option<u32>> = BTreeMap::new();
    for c in world.members().filter(|c| c.group_type == GroupType::Consumer) {
        let Some((_, g)) = world.consumer_group(c.group_id) else { continue };
        for tp in g.target_assignment.get(c.member_id).into_iter().flatten() {
            targets.insert((c.group_id, tp), Some(c.idx).filter(|_| c.alive && c.fatal.is_none()));
        }
    }
    let read: BTreeSet<&str> = topics_of.values().flatten().copied().collect();
    let unread: BTreeSet<&str> =
        world.cluster.topics.keys().map(String::as_str).filter(|t| !read.contains(t)).collect();
    let mut rows = Vec::new();
    let sections = topics_of.iter().map(|(g, ts)| (*g, ts.clone())).chain(std::iter::once(("", unread)));
    for (group, topics) in sections {
        let committed = world.committed_offsets(group);
        // Where the group's partitions are heading, looked up once per group.
        let kip848 = world.consumer_group(group).is_some();
        let rebalancing = world.group(group).is_some_and(|(_, g)| {
            matches!(
                g.state,
                crate::sim::coordinator::classic::ClassicGroupState::PreparingRebalance
                    | crate::sim::coordinator::classic::ClassicGroupState::CompletingRebalance
            )
        });
        for topic in topics {
            let Some(t) = world.cluster.topics.get(topic) else { continue };
            for (p, state) in t.partitions.iter().enumerate() {
                let tp = TopicPartition::new(topic, p as i32);
                let readers = owners.get(&(group, &tp)).map_or(&[][..], Vec::as_slice);
                let owner = readers.first().copied();
                rows.push(PartitionRow {
                    group: group.to_string(),
                    status: status(owner, kip848.then(|| targets.get(&(group, &tp)).copied().flatten()), rebalancing),
                    owner,
                    also_read_by: readers.iter().skip(1).copied().collect(),
                    leader: state.leader,
                    end_offset: state.end_offset,
                    committed: committed.and_then(|o| o.get(&tp).copied()),
                    processed: world.cluster.stats.processed_until.get(group, &tp),
                    redelivered: world.cluster.stats.redelivered.get(group, &tp),
                    partition: tp,
                });
            }
        }
    }
    rows
}

/// A partition's status from its owner and, in a KIP-848 group, the member the
/// target assignment gives it to (`Some(target)`); in a classic group, from
/// whether the group is rebalancing.
fn status(owner: Option<u32>, target: Option<Option<u32>>, rebalancing: bool) -> PartitionStatus {
    match (owner, target) {
        (Some(o), Some(t)) if t != Some(o) => PartitionStatus::Revoking,
        (Some(_), _) => PartitionStatus::Owned,
        (None, Some(Some(_))) => PartitionStatus::Pending,
        (None, None) if rebalancing => PartitionStatus::Pending,
        (None, _) => PartitionStatus::Unowned,
    }
}
