//! `AbstractStickyAssignor.ConstrainedAssignmentBuilder`: used when every
//! member subscribes to the same topics.

use super::rack_info::RackInfo;
use super::{current_assignment_order, Ctx, OwnedPartitions, Tp};
use crate::assign::dense::{FxMap as HashMap, FxSet as HashSet};
use std::collections::VecDeque;

struct Builder<'c, 'a> {
    ctx: &'c Ctx<'a>,
    rack_info: &'c RackInfo<'a>,
    multiple_owners: HashSet<Tp>,
    maybe_revoked: HashMap<Tp, usize>,
    unfilled_under_min: Vec<usize>,
    unfilled_exactly_min: VecDeque<usize>,
    min_quota: usize,
    max_quota: usize,
    expected_over_min: usize,
    current_over_min: usize,
    assignment: Vec<Vec<Tp>>,
    transferring: HashMap<Tp, usize>,
}

/// Runs the constrained builder: the assignment per member and
/// `partitionsTransferringOwnership` (partition -> new owner).
pub(crate) fn build(
    ctx: &Ctx,
    rack_info: &RackInfo,
    owned: OwnedPartitions,
) -> Result<(Vec<Vec<Tp>>, HashMap<Tp, usize>), String> {
    let n = ctx.members.len();
    if n == 0 {
        return Ok((Vec::new(), HashMap::default()));
    }
    let total = ctx.total_partitions;
    let mut b = Builder {
        ctx,
        rack_info,
        multiple_owners: owned.partitions_with_multiple_previous_owners,
        maybe_revoked: HashMap::default(),
        unfilled_under_min: Vec::new(),
        unfilled_exactly_min: VecDeque::new(),
        min_quota: total / n,
        max_quota: total.div_ceil(n),
        expected_over_min: total % n,
        current_over_min: 0,
        assignment: vec![Vec::new(); n],
        transferring: HashMap::default(),
    };
    let mut assigned = vec![false; total];
    for tp in b.assign_owned_partitions(owned.owned) {
        assigned[ctx.flat(tp)] = true;
    }
    let mut unassigned: Vec<Tp> =
        (0..ctx.topics.len() as u32).flat_map(|t| ctx.partitions_of(t)).filter(|tp| !assigned[ctx.flat(*tp)]).collect();
    let rank = &ctx.id_rank;
    // ranks are distinct: unstable sorts are stable here
    b.unfilled_under_min.sort_unstable_by_key(|m| rank[*m]);
    b.unfilled_exactly_min.make_contiguous().sort_unstable_by_key(|m| rank[*m]);
    rack_info.sort_partitions_by_rack_consumers(&mut unassigned);
    let unassigned = b.assign_rack_aware_round_robin(unassigned);
    b.assign_round_robin(&unassigned)?;
    b.verify_unfilled_members()?;
    Ok((b.assignment, b.transferring))
}

impl Builder<'_, '_> {
    /// `assignOwnedPartitions`: members keep up to their quota of owned
    /// partitions, in (partition, topic) order; returns the kept partitions.
    fn assign_owned_partitions(&mut self, mut owned: Vec<Vec<Tp>>) -> Vec<Tp> {
        let mut assigned = Vec::new();
        for consumer in current_assignment_order(self.ctx) {
            let mut partitions: Vec<Tp> = std::mem::take(&mut owned[consumer])
                .into_iter()
                .filter(|tp| {
                    let mismatch = self.rack_info.racks_mismatch(consumer, *tp);
                    if mismatch {
                        self.maybe_revoked.insert(*tp, consumer);
                    }
                    !mismatch
                })
                .collect();
            // owned partitions are distinct, so this unstable sort is stable
            partitions.sort_unstable_by_key(|tp| (tp.partition, tp.topic));
            partitions.retain(|tp| !self.multiple_owners.contains(tp));
            let keep = if partitions.len() < self.min_quota {
                self.unfilled_under_min.push(consumer);
                partitions.len()
            } else if partitions.len() >= self.max_quota && self.current_over_min < self.expected_over_min {
                self.current_over_min += 1;
                if self.current_over_min == self.expected_over_min {
                    self.unfilled_exactly_min.clear();
                }
                self.max_quota
            } else {
                if self.current_over_min < self.expected_over_min {
                    self.unfilled_exactly_min.push_back(consumer);
                }
                self.min_quota
            };
            for tp in &partitions[keep..] {
                self.maybe_revoked.insert(*tp, consumer);
            }
            self.assignment[consumer].extend_from_slice(&partitions[..keep]);
            assigned.extend_from_slice(&partitions[..keep]);
        }
        assigned
    }

    /// `assignRackAwareRoundRobin`; returns the partitions still unassigned.
    fn assign_rack_aware_round_robin(&mut self, unassigned: Vec<Tp>) -> Vec<Tp> {
        if self.rack_info.consumer_racks.is_empty() {
            return unassigned;
        }
        let mut remaining = Vec::new();
        let mut next_unfilled = 0;
        for tp in unassigned {
            let mut consumer = None;
            if let Some(mut index) = self.rack_info.next_rack_consumer(tp, &self.unfilled_under_min, next_unfilled) {
                let c = self.unfilled_under_min[index];
                let count = self.assignment[c].len() + 1;
                if count >= self.min_quota {
                    self.unfilled_under_min.remove(index);
                    if count < self.max_quota && self.current_over_min < self.expected_over_min {
                        self.unfilled_exactly_min.push_back(c);
                    }
                } else {
                    index += 1;
                }
                let len = self.unfilled_under_min.len();
                next_unfilled = if len == 0 { 0 } else { index % len };
                consumer = Some(c);
            } else if !self.unfilled_exactly_min.is_empty() {
                let exactly: Vec<usize> = self.unfilled_exactly_min.iter().copied().collect();
                if let Some(first) = self.rack_info.next_rack_consumer(tp, &exactly, 0) {
                    let c = exactly[first];
                    if self.assignment[c].len() + 1 == self.max_quota {
                        self.unfilled_exactly_min.remove(first);
                        self.current_over_min += 1;
                        if self.current_over_min == self.expected_over_min {
                            self.unfilled_exactly_min.clear();
                        }
                    }
                    consumer = Some(c);
                }
            }
            match consumer {
                Some(c) => {
                    self.assign_new_partition(tp, c);
                }
                None => remaining.push(tp),
            }
        }
        remaining
    }

    /// `assignRoundRobin`: under-min members in turn, then exactly-min ones.
    fn assign_round_robin(&mut self, unassigned: &[Tp]) -> Result<(), String> {
        // The Java iterator over unfilled_under_min, removing as it goes: the
        // members before `read` that stay are compacted to `0..kept`; a lap
        // ends when `read` reaches the end, and the next starts over the kept ones.
        let (mut read, mut kept) = (0, 0);
        for tp in unassigned {
            if read == self.unfilled_under_min.len() && kept > 0 {
                self.unfilled_under_min.truncate(kept);
                (read, kept) = (0, 0);
            }
            let from_under_min = read < self.unfilled_under_min.len();
            let consumer = if from_under_min {
                let c = self.unfilled_under_min[read];
                self.unfilled_under_min[kept] = c;
                (read, kept) = (read + 1, kept + 1);
                c
            } else {
                match self.unfilled_exactly_min.pop_front() {
                    Some(c) => c,
                    None => return Err("No more unfilled consumers to be assigned.".to_string()),
                }
            };
            let count = self.assign_new_partition(*tp, consumer);
            if count == self.min_quota {
                // unfilledConsumerIter.remove(): drops the member just returned
                if !from_under_min {
                    return Err("IllegalStateException: no member to remove from the unfilled list".to_string());
                }
                kept -= 1;
                self.unfilled_exactly_min.push_back(consumer);
            } else if count == self.max_quota {
                self.current_over_min += 1;
            }
        }
        // what is left of the list, as verifyUnfilledMembers sees it
        self.unfilled_under_min.drain(kept..read);
        Ok(())
    }

    /// `assignNewPartition`: records a transfer when the partition leaves a
    /// previous owner (or had several).
    fn assign_new_partition(&mut self, tp: Tp, consumer: usize) -> usize {
        self.assignment[consumer].push(tp);
        let revoked_elsewhere = self.maybe_revoked.get(&tp).is_some_and(|owner| *owner != consumer);
        if revoked_elsewhere || self.multiple_owners.contains(&tp) {
            self.transferring.insert(tp, consumer);
        }
        self.assignment[consumer].len()
    }

    /// `verifyUnfilledMembers`.
    fn verify_unfilled_members(&self) -> Result<(), String> {
        if self.unfilled_under_min.is_empty() {
            return Ok(());
        }
        if self.current_over_min != self.expected_over_min {
            return Err("We haven't reached the expected number of members with more than the minQuota partitions, but no more partitions to be assigned".to_string());
        }
        match self.unfilled_under_min.iter().find(|m| self.assignment[**m].len() != self.min_quota) {
            Some(m) => Err(format!(
                "Consumer: [{}] doesn't reach minQuota partitions, and no more partitions to be assigned",
                self.ctx.members[*m].member_id
            )),
            None => Ok(()),
        }
    }
}
