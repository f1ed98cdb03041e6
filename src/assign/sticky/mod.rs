//! `AbstractStickyAssignor` and its two subclasses, `StickyAssignor` ("sticky",
//! EAGER) and `CooperativeStickyAssignor` ("cooperative-sticky").
//!
//! Internally partitions are `Tp { topic index, partition }`, with topics
//! indexed in Java `String.compareTo` order so that the derived order of `Tp`
//! is Kafka's (topic, partition) order; members are indices into the
//! subscriptions in the caller's (Java map) iteration order.

mod constrained;
mod general;
mod movements;
mod rack_info;

use super::dense::{all_byte_ordered, byte_sorted, MemberTopics, TopicIds};
use super::{
    Assignment, ClientAssignor, ClusterMetadata, RebalanceProtocol, Subscription, SubscriptionFormat, TopicName,
    TopicPartition,
};
use crate::assign::dense::{FxMap as HashMap, FxSet as HashSet};
use crate::java::{compare_strings, java_hash_order, string_hash};
use crate::small_sort::StableSort;
use rack_info::RackInfo;
use std::collections::BTreeMap;

/// `AbstractStickyAssignor.DEFAULT_GENERATION`.
pub const DEFAULT_GENERATION: i32 = -1;

/// A topic partition of the assignment: topic index (Java name order) and partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Tp {
    pub topic: u32,
    pub partition: i32,
}

/// The topics `partitionsPerTopic` holds (subscribed, existing, non-empty) and
/// the group's members.
pub(crate) struct Ctx<'a> {
    pub topics: Vec<&'a str>,
    /// `topics`, each shared by the partitions [`Ctx::external`] makes
    pub names: Vec<TopicName>,
    pub topic_index: HashMap<&'a str, u32>,
    pub counts: Vec<i32>,
    pub topic_hashes: Vec<i32>,
    pub members: &'a [Subscription],
    /// The flat index of each topic's partition 0 (see [`Ctx::flat`]).
    pub offsets: Vec<usize>,
    /// Position of each member id in Java `String.compareTo` order.
    pub id_rank: Vec<usize>,
    /// The members in that order (`id_rank` inverted).
    pub by_id: Vec<usize>,
    pub total_partitions: usize,
    /// Whether member i subscribes to exactly the list of member i - 1.
    pub same_topics_as_previous: Vec<bool>,
    /// Whether two members share an id (adjacent in `id_rank` order).
    pub has_duplicate_ids: bool,
}

impl<'a> Ctx<'a> {
    fn new(cluster: &ClusterMetadata, members: &'a [Subscription]) -> Self {
        let mut names = TopicIds::default();
        let lists = MemberTopics::new(members, &mut names);
        let same_topics_as_previous =
            (0..members.len()).map(|i| i > 0 && lists.of_member[i] == lists.of_member[i - 1]).collect();
        let mut topics: Vec<&'a str> =
            names.names.iter().copied().filter(|t| cluster.partitions.get(*t).is_some_and(|n| *n > 0)).collect();
        topics.sort_unstable_by(|a, b| compare_strings(a, b));
        let counts: Vec<i32> = topics.iter().map(|t| cluster.partitions[*t]).collect();
        let by_id = if all_byte_ordered(members.iter().map(|m| m.member_id.as_str())) {
            byte_sorted(members.len(), |i| members[i].member_id.as_bytes())
        } else {
            let mut by_id: Vec<usize> = (0..members.len()).collect();
            by_id.stable_sort_by(|a, b| compare_strings(&members[*a].member_id, &members[*b].member_id));
            by_id
        };
        let has_duplicate_ids = by_id.windows(2).any(|w| members[w[0]].member_id == members[w[1]].member_id);
        let mut id_rank = vec![0; members.len()];
        by_id.iter().enumerate().for_each(|(rank, m)| id_rank[*m] = rank);
        Ctx {
            topic_index: topics.iter().enumerate().map(|(i, t)| (*t, i as u32)).collect(),
            topic_hashes: topics.iter().map(|t| string_hash(t)).collect(),
            names: topics.iter().map(|t| TopicName::from(*t)).collect(),
            total_partitions: counts.iter().map(|c| *c as usize).sum(),
            offsets: counts.iter().scan(0, |sum, c| Some(std::mem::replace(sum, *sum + *c as usize))).collect(),
            counts,
            topics,
            members,
            id_rank,
            by_id,
            same_topics_as_previous,
            has_duplicate_ids,
        }
    }

    /// The index of a partition among all partitions (topics in order).
    pub fn flat(&self, tp: Tp) -> usize {
        self.offsets[tp.topic as usize] + tp.partition as usize
    }

    /// The internal forms of the existing partitions of `list`; one topic
    /// lookup per run of partitions of the same topic.
    pub fn tps<'l>(&'l self, list: &'l [TopicPartition]) -> impl Iterator<Item = Tp> + 'l {
        let mut last: Option<(&'l str, Option<u32>)> = None;
        list.iter().filter_map(move |tp| {
            let topic = match last {
                Some((name, topic)) if name == tp.topic => topic,
                _ => {
                    let topic = self.topic_index.get(tp.topic.as_str()).copied();
                    last = Some((tp.topic.as_str(), topic));
                    topic
                }
            }?;
            (tp.partition >= 0 && tp.partition < self.counts[topic as usize])
                .then_some(Tp { topic, partition: tp.partition })
        })
    }

    pub fn external(&self, tp: Tp) -> TopicPartition {
        TopicPartition::new(&self.names[tp.topic as usize], tp.partition)
    }

    /// `TopicPartition.hashCode`.
    pub fn java_hash(&self, tp: Tp) -> i32 {
        31i32.wrapping_mul(31i32.wrapping_add(tp.partition)).wrapping_add(self.topic_hashes[tp.topic as usize])
    }

    /// Every partition of `topic`.
    pub fn partitions_of(&self, topic: u32) -> impl Iterator<Item = Tp> {
        (0..self.counts[topic as usize]).map(move |partition| Tp { topic, partition })
    }

    /// The member's subscribed topics that exist (in subscription order).
    pub fn subscribed_topics(&self, member: usize) -> Vec<u32> {
        self.members[member].topics.iter().filter_map(|t| self.topic_index.get(t.as_str()).copied()).collect()
    }
}

/// `StickyAssignor` or `CooperativeStickyAssignor`: one instance per leader,
/// keeping `maxGeneration` across calls as Kafka does.
#[derive(Clone, Debug)]
pub struct StickyAssignor {
    cooperative: bool,
    max_generation: i32,
    prefer_rack_aware_logic: bool,
    partitions_transferring_ownership: Option<BTreeMap<TopicPartition, String>>,
}

impl StickyAssignor {
    pub fn sticky() -> Self {
        Self::new(false)
    }

    pub fn cooperative() -> Self {
        Self::new(true)
    }

    fn new(cooperative: bool) -> Self {
        StickyAssignor {
            cooperative,
            max_generation: DEFAULT_GENERATION,
            prefer_rack_aware_logic: false,
            partitions_transferring_ownership: Some(BTreeMap::new()),
        }
    }

    /// `maxGeneration()`: the highest generation seen so far (never reset).
    pub fn max_generation(&self) -> i32 {
        self.max_generation
    }

    /// The same instance as one that has already seen `max_generation`.
    pub fn resuming(mut self, max_generation: i32) -> Self {
        self.max_generation = max_generation;
        self
    }

    /// `memberData(subscription)`: the owned partitions and generation the
    /// assignor decodes from a subscription.
    fn member_data<'s>(&self, m: &'s Subscription) -> (&'s [TopicPartition], Option<i32>) {
        use SubscriptionFormat::*;
        match (self.cooperative, m.format) {
            (false, V2 | V1 | V0) => (&m.owned, m.generation),
            (false, Plain | Raw) => (&[], None),
            (true, V2 | V1) => (&m.owned, m.generation),
            (true, V0) => (&[], m.generation),
            (true, Raw) => (&m.owned, None),
            (true, Plain) => (&[], None),
        }
    }
}

/// The `ownedPartitions` protocol field (v1+).
fn owned_field(m: &Subscription) -> &[TopicPartition] {
    match m.format {
        SubscriptionFormat::V2 | SubscriptionFormat::V1 | SubscriptionFormat::Raw => &m.owned,
        SubscriptionFormat::V0 | SubscriptionFormat::Plain => &[],
    }
}

/// The `generationId` protocol field (v2+).
fn generation_field(m: &Subscription) -> Option<i32> {
    match m.format {
        SubscriptionFormat::V2 => m.generation,
        _ => None,
    }
}

/// The outcome of `allSubscriptionsEqual`.
pub(crate) struct OwnedPartitions {
    pub all_subscriptions_equal: bool,
    /// `consumerToOwnedPartitions`, indexed by member.
    pub owned: Vec<Vec<Tp>>,
    pub partitions_with_multiple_previous_owners: HashSet<Tp>,
}

impl StickyAssignor {
    /// `allSubscriptionsEqual`: resolves owned-partition conflicts by generation
    /// and tells whether every member subscribes to the same topics.
    fn all_subscriptions_equal(&mut self, ctx: &Ctx) -> OwnedPartitions {
        let mut equal = true;
        let mut subscribed: HashSet<&str> = HashSet::default();
        let mut owned: Vec<Vec<Tp>> = vec![Vec::new(); ctx.members.len()];
        let mut multiple = HashSet::default();
        // partition (flat index) -> member holding it so far
        let mut previous_owner: Vec<usize> = vec![usize::MAX; ctx.total_partitions];
        for (i, m) in ctx.members.iter().enumerate() {
            if subscribed.is_empty() {
                subscribed.extend(m.topics.iter().map(String::as_str));
            } else if equal
                && !ctx.same_topics_as_previous[i]
                && !(m.topics.len() == subscribed.len() && m.topics.iter().all(|t| subscribed.contains(t.as_str())))
            {
                equal = false;
            }
            let (partitions, generation) = self.member_data(m);
            let generation = generation.unwrap_or(DEFAULT_GENERATION);
            self.max_generation = self.max_generation.max(generation);
            for tp in ctx.tps(partitions) {
                let slot = ctx.flat(tp);
                match previous_owner[slot] {
                    usize::MAX => {
                        owned[i].push(tp);
                        previous_owner[slot] = i;
                    }
                    other => {
                        let other_generation = generation_field(&ctx.members[other]).unwrap_or(DEFAULT_GENERATION);
                        if generation >= other_generation {
                            if generation == other_generation {
                                multiple.insert(tp);
                            } else {
                                owned[i].push(tp);
                            }
                            if let Some(pos) = owned[other].iter().position(|p| *p == tp) {
                                owned[other].remove(pos);
                            }
                            previous_owner[slot] = i;
                        }
                    }
                }
            }
        }
        OwnedPartitions { all_subscriptions_equal: equal, owned, partitions_with_multiple_previous_owners: multiple }
    }

    /// `AbstractStickyAssignor.assignPartitions`.
    fn assign_partitions(&mut self, ctx: &Ctx, cluster: &ClusterMetadata) -> Result<Vec<Vec<Tp>>, String> {
        let (ctx, members) = (ctx, ctx.members);
        let rack_info = RackInfo::new(ctx, cluster, self.prefer_rack_aware_logic);
        let owned = self.all_subscriptions_equal(ctx);
        if owned.all_subscriptions_equal {
            let (assignment, transferring) = constrained::build(ctx, &rack_info, owned)?;
            self.partitions_transferring_ownership =
                Some(transferring.iter().map(|(tp, m)| (ctx.external(*tp), members[*m].member_id.clone())).collect());
            let assignment = if self.cooperative {
                let mut a = assignment;
                for (tp, m) in transferring {
                    if let Some(pos) = a[m].iter().position(|p| *p == tp) {
                        a[m].remove(pos);
                    }
                }
                a
            } else {
                assignment
            };
            Ok(assignment)
        } else {
            self.partitions_transferring_ownership = None;
            let mut assignment = general::build(ctx, &rack_info, owned, self)?;
            if self.cooperative {
                adjust_for_transferring_ownership(ctx, &mut assignment);
            }
            Ok(assignment)
        }
    }
}

/// `CooperativeStickyAssignor.computePartitionsTransferringOwnership` and
/// `adjustAssignment`: a partition added to one member and revoked from
/// another (per the `ownedPartitions` fields) is withheld this round.
fn adjust_for_transferring_ownership(ctx: &Ctx, assignment: &mut [Vec<Tp>]) {
    let mut added: HashMap<Tp, usize> = HashMap::default();
    let mut revoked: HashSet<Tp> = HashSet::default();
    for (m, assigned) in assignment.iter().enumerate() {
        let owned: HashSet<Tp> = ctx.tps(owned_field(&ctx.members[m])).collect();
        let assigned_set: HashSet<Tp> = assigned.iter().copied().collect();
        added.extend(assigned.iter().filter(|tp| !owned.contains(tp)).map(|tp| (*tp, m)));
        revoked.extend(owned.iter().filter(|tp| !assigned_set.contains(tp)));
    }
    for (tp, m) in added.into_iter().filter(|(tp, _)| revoked.contains(tp)) {
        if let Some(pos) = assignment[m].iter().position(|p| *p == tp) {
            assignment[m].remove(pos);
        }
    }
}

impl ClientAssignor for StickyAssignor {
    fn max_generation(&self) -> Option<i32> {
        Some(self.max_generation)
    }

    fn name(&self) -> &'static str {
        if self.cooperative {
            "cooperative-sticky"
        } else {
            "sticky"
        }
    }

    fn supported_protocols(&self) -> &'static [RebalanceProtocol] {
        if self.cooperative {
            &[RebalanceProtocol::COOPERATIVE, RebalanceProtocol::EAGER]
        } else {
            &[RebalanceProtocol::EAGER]
        }
    }

    fn set_prefer_rack_aware_logic(&mut self, prefer: bool) {
        self.prefer_rack_aware_logic = prefer;
    }

    fn partitions_transferring_ownership(&self) -> Option<BTreeMap<TopicPartition, String>> {
        self.partitions_transferring_ownership.clone()
    }

    fn assign(&mut self, cluster: &ClusterMetadata, members: &[Subscription]) -> Result<Assignment, String> {
        let ctx = Ctx::new(cluster, members);
        if ctx.has_duplicate_ids {
            // name the first member whose id came before it
            let mut seen = HashSet::default();
            if let Some(dup) = members.iter().find(|m| !seen.insert(m.member_id.as_str())) {
                return Err(format!("member {} appears twice", dup.member_id));
            }
        }
        let assignment = self.assign_partitions(&ctx, cluster)?;
        let mut lists: Vec<Option<Vec<TopicPartition>>> = assignment
            .iter()
            .map(|list| {
                let mut out = Vec::with_capacity(list.len());
                out.extend(list.iter().map(|tp| ctx.external(*tp)));
                Some(out)
            })
            .collect();
        // in member id order already (ids are distinct): the map is built without searching
        Ok(ctx.by_id.iter().filter_map(|m| Some((members[*m].member_id.clone(), lists.get_mut(*m)?.take()?))).collect())
    }
}

/// The iteration order of `consumerToOwnedPartitions` (a default `HashMap`
/// filled in subscription order), as member indices.
pub(crate) fn current_assignment_order(ctx: &Ctx) -> Vec<usize> {
    // member ids are distinct (assign rejects duplicates)
    let hashes: Vec<i32> = ctx.members.iter().map(|m| string_hash(&m.member_id)).collect();
    java_hash_order(&hashes, 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two subscriptions under one member id are refused, naming the id (the
    /// check now runs on the id order `Ctx` sorts anyway).
    #[test]
    fn a_member_id_listed_twice_is_refused_by_name() {
        let sub = |id: &str| Subscription { member_id: id.into(), topics: vec!["t".into()], ..Subscription::default() };
        let cluster = ClusterMetadata::from_counts([("t", 3)]);
        let members = vec![sub("c"), sub("b"), sub("a"), sub("b"), sub("c")];
        let err = StickyAssignor::sticky().assign(&cluster, &members).expect_err("duplicate id");
        assert_eq!(err, "member b appears twice");
        assert!(StickyAssignor::cooperative().assign(&cluster, &members[..3]).is_ok());
    }
}
