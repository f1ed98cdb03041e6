//! `AbstractStickyAssignor.GeneralAssignmentBuilder`: used when members
//! subscribe to different topics.

use super::movements::PartitionMovements;
use super::rack_info::RackInfo;
use super::{Ctx, OwnedPartitions, StickyAssignor, Tp, DEFAULT_GENERATION};
use crate::assign::dense::{FxMap as HashMap, FxSet as HashSet};
use crate::small_sort::StableSort;
use std::collections::BTreeSet;

const NO_OWNER: usize = usize::MAX;

struct Builder<'c, 'a> {
    ctx: &'c Ctx<'a>,
    rack_info: &'c RackInfo<'a>,
    /// `topic2AllPotentialConsumers`, by topic index, members in subscription order.
    topic_consumers: Vec<Vec<usize>>,
    /// `consumer2AllPotentialTopics`, by member.
    consumer_topics: Vec<Vec<u32>>,
    /// Whether the member subscribes to the topic (by member, by topic).
    subscribes: Vec<Vec<bool>>,
    /// `currentAssignment`; `None` while a member is set aside as fixed.
    current: Vec<Option<Vec<Tp>>>,
    /// `currentPartitionConsumer`, by topic then partition.
    owner: Vec<Vec<usize>>,
    sorted_all_partitions: Vec<Tp>,
    /// `sortedCurrentSubscriptions`: (size when inserted, id rank, member).
    sorted_subscriptions: BTreeSet<(usize, usize, usize)>,
    key_size: Vec<usize>,
    revocation_required: bool,
    movements: PartitionMovements,
}

/// Runs the general builder; returns each member's assignment.
pub(crate) fn build(
    ctx: &Ctx,
    rack_info: &RackInfo,
    owned: OwnedPartitions,
    assignor: &StickyAssignor,
) -> Result<Vec<Vec<Tp>>, String> {
    let n = ctx.members.len();
    let num_topics = ctx.topics.len();
    let mut topic_consumers = vec![Vec::new(); num_topics];
    let mut subscribes = vec![vec![false; num_topics]; n];
    let consumer_topics: Vec<Vec<u32>> = (0..n).map(|m| ctx.subscribed_topics(m)).collect();
    for (m, topics) in consumer_topics.iter().enumerate() {
        for t in topics {
            topic_consumers[*t as usize].push(m);
            subscribes[m][*t as usize] = true;
        }
    }
    let mut owner: Vec<Vec<usize>> = ctx.counts.iter().map(|c| vec![NO_OWNER; *c as usize]).collect();
    for (m, list) in owned.owned.iter().enumerate() {
        for tp in list {
            owner[tp.topic as usize][tp.partition as usize] = m;
        }
    }
    let mut sorted_topics: Vec<u32> = (0..num_topics as u32).collect();
    sorted_topics.stable_sort_by_key(|t| (topic_consumers[*t as usize].len(), *t));
    let sorted_all_partitions = sorted_topics.iter().flat_map(|t| ctx.partitions_of(*t)).collect();
    let mut b = Builder {
        ctx,
        rack_info,
        topic_consumers,
        consumer_topics,
        subscribes,
        current: owned.owned.into_iter().map(Some).collect(),
        owner,
        sorted_all_partitions,
        sorted_subscriptions: BTreeSet::new(),
        key_size: vec![0; n],
        revocation_required: false,
        movements: PartitionMovements::default(),
    };
    let prev_assignment = b.prepopulate_current_assignments(assignor);
    let assigned: HashSet<Tp> = b.assign_owned_partitions().into_iter().collect();
    let unassigned: Vec<Tp> = b.sorted_all_partitions.iter().copied().filter(|tp| !assigned.contains(tp)).collect();
    for m in 0..n {
        b.insert_sorted(m);
    }
    b.balance(&prev_assignment, unassigned)?;
    Ok(b.current.into_iter().map(Option::unwrap_or_default).collect())
}

impl Builder<'_, '_> {
    fn size(&self, m: usize) -> Result<usize, String> {
        self.current[m].as_ref().map(Vec::len).ok_or_else(|| {
            format!("NullPointerException: member {} is not in the current assignment", self.ctx.members[m].member_id)
        })
    }

    fn insert_sorted(&mut self, m: usize) {
        let size = self.current[m].as_ref().map_or(0, Vec::len);
        self.key_size[m] = size;
        self.sorted_subscriptions.insert((size, self.ctx.id_rank[m], m));
    }

    fn remove_sorted(&mut self, m: usize) {
        self.sorted_subscriptions.remove(&(self.key_size[m], self.ctx.id_rank[m], m));
    }

    fn owner_of(&self, tp: Tp) -> usize {
        self.owner[tp.topic as usize][tp.partition as usize]
    }

    /// `prepopulateCurrentAssignments`: each partition's owner from an earlier
    /// generation (highest generation below `maxGeneration`).
    fn prepopulate_current_assignments(&self, assignor: &StickyAssignor) -> HashMap<Tp, (usize, i32)> {
        let mut prev: HashMap<Tp, (usize, i32)> = HashMap::default();
        let max_generation = assignor.max_generation;
        for (m, sub) in self.ctx.members.iter().enumerate() {
            let (partitions, generation) = assignor.member_data(sub);
            let generation = match generation {
                Some(g) if g < max_generation => g,
                None if max_generation > DEFAULT_GENERATION => DEFAULT_GENERATION,
                _ => continue,
            };
            for tp in self.ctx.tps(partitions) {
                match prev.get(&tp) {
                    Some((_, g)) if generation <= *g => {}
                    _ => {
                        prev.insert(tp, (m, generation));
                    }
                }
            }
        }
        prev
    }

    /// `assignOwnedPartitions`: keeps owned partitions of still-subscribed
    /// topics (and matching racks); returns them.
    fn assign_owned_partitions(&mut self) -> Vec<Tp> {
        let mut assigned = Vec::new();
        for m in 0..self.current.len() {
            let Some(list) = self.current[m].take() else { continue };
            let mut kept = Vec::with_capacity(list.len());
            for tp in list {
                let subscribed = self.ctx.members[m].topics.iter().any(|t| t == self.ctx.topics[tp.topic as usize]);
                if !subscribed || self.rack_info.racks_mismatch(m, tp) {
                    self.revocation_required = true;
                } else {
                    assigned.push(tp);
                    kept.push(tp);
                }
            }
            self.current[m] = Some(kept);
        }
        assigned
    }

    /// `isBalanced`: sizes differ by at most one, or no member could take a
    /// partition from a member holding at least two more.
    fn is_balanced(&self) -> bool {
        let (Some(first), Some(last)) = (self.sorted_subscriptions.first(), self.sorted_subscriptions.last()) else {
            return true;
        };
        let size = |m: usize| self.current[m].as_ref().map_or(0, Vec::len);
        if size(first.2) + 1 >= size(last.2) {
            return true;
        }
        // the largest owner of each topic's partitions
        let mut max_owner_size = vec![0usize; self.ctx.topics.len()];
        for (m, list) in self.current.iter().enumerate() {
            if let Some(list) = list {
                for tp in list {
                    let slot = &mut max_owner_size[tp.topic as usize];
                    *slot = (*slot).max(list.len());
                }
            }
            let _ = m;
        }
        for &(_, _, m) in &self.sorted_subscriptions {
            let count = size(m);
            if count == self.max_assignment_size(m) {
                continue;
            }
            if self.consumer_topics[m].iter().any(|t| max_owner_size[*t as usize] > count + 1) {
                return false;
            }
        }
        true
    }

    /// `getMaxAssignmentSize`.
    fn max_assignment_size(&self, m: usize) -> usize {
        let topics = &self.consumer_topics[m];
        if topics.len() == self.ctx.topics.len() {
            self.ctx.total_partitions
        } else {
            topics.iter().map(|t| self.ctx.counts[*t as usize] as usize).sum()
        }
    }

    /// `getBalanceScore`: the sum of size differences over all member pairs.
    fn balance_score(sizes: &mut [usize]) -> usize {
        sizes.sort_unstable();
        sizes.iter().enumerate().map(|(i, s)| s * i).sum::<usize>()
            - sizes.iter().enumerate().map(|(i, s)| s * (sizes.len() - 1 - i)).sum::<usize>()
    }

    fn current_sizes(&self) -> Vec<usize> {
        self.current.iter().flatten().map(Vec::len).collect()
    }

    /// `maybeAssignPartition`: to the least-loaded subscriber (rack-matched if asked).
    fn maybe_assign_partition(&mut self, tp: Tp, rack_aware: bool) -> bool {
        let found = self.sorted_subscriptions.iter().map(|k| k.2).find(|m| {
            self.subscribes[*m][tp.topic as usize] && (!rack_aware || !self.rack_info.racks_mismatch(*m, tp))
        });
        let Some(m) = found else { return false };
        self.remove_sorted(m);
        if let Some(list) = self.current[m].as_mut() {
            list.push(tp);
        }
        self.owner[tp.topic as usize][tp.partition as usize] = m;
        self.insert_sorted(m);
        true
    }

    fn can_consumer_participate_in_reassignment(&self, m: usize) -> bool {
        let Some(list) = &self.current[m] else { return false };
        list.len() < self.max_assignment_size(m)
            || list.iter().any(|tp| self.topic_consumers[tp.topic as usize].len() >= 2)
    }

    /// `balance`.
    fn balance(&mut self, prev: &HashMap<Tp, (usize, i32)>, mut unassigned: Vec<Tp>) -> Result<(), String> {
        let initializing =
            self.sorted_subscriptions.last().is_none_or(|k| self.current[k.2].as_ref().is_none_or(Vec::is_empty));
        let mut to_assign = unassigned.clone();
        if !self.rack_info.consumer_racks.is_empty() {
            to_assign.retain(|tp| {
                self.topic_consumers[tp.topic as usize].is_empty() || !self.maybe_assign_partition(*tp, true)
            });
        }
        for tp in to_assign {
            if !self.topic_consumers[tp.topic as usize].is_empty() {
                self.maybe_assign_partition(tp, false);
            }
        }
        let fixed_topic = |b: &Self, tp: &Tp| b.topic_consumers[tp.topic as usize].len() < 2;
        let mut sorted_all = std::mem::take(&mut self.sorted_all_partitions);
        sorted_all.retain(|tp| !fixed_topic(self, tp));
        unassigned.retain(|tp| !fixed_topic(self, tp));
        let mut fixed: Vec<(usize, Vec<Tp>)> = Vec::new();
        for m in 0..self.current.len() {
            if !self.can_consumer_participate_in_reassignment(m) {
                self.remove_sorted(m);
                if let Some(list) = self.current[m].take() {
                    fixed.push((m, list));
                }
            }
        }
        let pre_balance = self.current.clone();
        let pre_balance_owner = self.owner.clone();
        if !self.revocation_required {
            self.perform_reassignments(&unassigned, prev)?;
        }
        let reassigned = self.perform_reassignments(&sorted_all, prev)?;
        if !initializing && reassigned {
            let mut now = self.current_sizes();
            let mut before: Vec<usize> = pre_balance.iter().flatten().map(Vec::len).collect();
            if Self::balance_score(&mut now) >= Self::balance_score(&mut before) {
                self.current = pre_balance;
                self.owner = pre_balance_owner;
            }
        }
        for (m, list) in fixed {
            self.current[m] = Some(list);
            self.insert_sorted(m);
        }
        Ok(())
    }

    /// `performReassignments`: moves partitions until balanced; returns
    /// whether anything moved.
    fn perform_reassignments(&mut self, partitions: &[Tp], prev: &HashMap<Tp, (usize, i32)>) -> Result<bool, String> {
        let mut performed = false;
        loop {
            let mut modified = false;
            for &tp in partitions {
                if self.is_balanced() {
                    break;
                }
                let consumer = self.owner_of(tp);
                if consumer == NO_OWNER {
                    return Err(format!("Expected partition '{}' to be assigned to a consumer", self.ctx.external(tp)));
                }
                if let Some(&(prev_consumer, _)) = prev.get(&tp) {
                    if self.size(consumer)? > self.size(prev_consumer)? + 1 {
                        self.reassign_partition_to(tp, prev_consumer);
                        performed = true;
                        modified = true;
                        continue;
                    }
                }
                let mut found_rack_consumer = false;
                if self.rack_info.racks_match(consumer, tp) {
                    for &other in &self.topic_consumers[tp.topic as usize] {
                        if !self.rack_info.racks_match(other, tp) {
                            continue;
                        }
                        if self.size(consumer)? > self.size(other)? + 1 {
                            found_rack_consumer = true;
                            break;
                        }
                    }
                    if found_rack_consumer {
                        self.reassign_partition(tp)?;
                        performed = true;
                        modified = true;
                    }
                }
                if !found_rack_consumer {
                    let mut move_it = false;
                    for &other in &self.topic_consumers[tp.topic as usize] {
                        if self.size(consumer)? > self.size(other)? + 1 {
                            move_it = true;
                            break;
                        }
                    }
                    if move_it {
                        self.reassign_partition(tp)?;
                        performed = true;
                        modified = true;
                    }
                }
            }
            if !modified {
                return Ok(performed);
            }
        }
    }

    /// `reassignPartition(partition)`: to the least-loaded subscriber.
    fn reassign_partition(&mut self, tp: Tp) -> Result<(), String> {
        let target = self.sorted_subscriptions.iter().map(|k| k.2).find(|m| self.subscribes[*m][tp.topic as usize]);
        let target = target.ok_or_else(|| format!("no consumer can take {}", self.ctx.external(tp)))?;
        self.reassign_partition_to(tp, target);
        Ok(())
    }

    fn reassign_partition_to(&mut self, tp: Tp, new: usize) {
        let consumer = self.owner_of(tp);
        let actual = self.movements.actual_partition_to_be_moved(tp, consumer, new);
        self.process_partition_movement(actual, new);
    }

    /// `processPartitionMovement`.
    fn process_partition_movement(&mut self, tp: Tp, new: usize) {
        let old = self.owner_of(tp);
        if old == NO_OWNER {
            return;
        }
        self.remove_sorted(old);
        self.remove_sorted(new);
        self.movements.move_partition(self.ctx, tp, old, new);
        if let Some(list) = self.current[old].as_mut() {
            if let Some(pos) = list.iter().position(|p| *p == tp) {
                list.remove(pos);
            }
        }
        if let Some(list) = self.current[new].as_mut() {
            list.push(tp);
        }
        self.owner[tp.topic as usize][tp.partition as usize] = new;
        self.insert_sorted(new);
        self.insert_sorted(old);
    }
}
