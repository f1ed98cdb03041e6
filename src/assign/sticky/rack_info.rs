//! `AbstractStickyAssignor.RackInfo` (KIP-881).

use super::{Ctx, Tp};
use crate::assign::dense::FxMap as HashMap;
use crate::assign::rack::{consumer_rack, partition_racks, use_rack_aware_assignment};
use crate::assign::ClusterMetadata;
use crate::small_sort::StableSort;
use std::collections::{BTreeMap, BTreeSet};

pub(crate) struct RackInfo<'a> {
    /// member -> rack; empty unless rack-aware assignment is used.
    pub consumer_racks: HashMap<usize, &'a str>,
    /// partition -> replica racks; empty unless rack-aware assignment is used.
    pub partition_racks: HashMap<Tp, BTreeSet<&'a str>>,
    /// partition -> number of consumers on its racks (computed whenever some
    /// consumer has a rack, even if rack-aware assignment is off).
    num_consumers_by_partition: HashMap<Tp, usize>,
}

impl<'a> RackInfo<'a> {
    pub fn new(ctx: &Ctx<'a>, cluster: &'a ClusterMetadata, prefer: bool) -> Self {
        let mut consumers_by_rack: BTreeMap<&'a str, Vec<usize>> = BTreeMap::new();
        for (i, m) in ctx.members.iter().enumerate() {
            if let Some(rack) = consumer_rack(m) {
                consumers_by_rack.entry(rack).or_default().push(i);
            }
        }
        let mut racks_of: HashMap<Tp, BTreeSet<&'a str>> = HashMap::default();
        if !consumers_by_rack.is_empty() {
            for t in 0..ctx.topics.len() as u32 {
                for tp in ctx.partitions_of(t) {
                    racks_of.insert(tp, partition_racks(cluster, ctx.topics[t as usize], tp.partition));
                }
            }
        }
        let all_partition_racks: BTreeSet<&str> = racks_of.values().flatten().copied().collect();
        let consumer_rack_set: BTreeSet<&str> = consumers_by_rack.keys().copied().collect();
        let num_consumers_by_partition = racks_of
            .iter()
            .map(|(tp, racks)| (*tp, racks.iter().map(|r| consumers_by_rack.get(r).map_or(0, Vec::len)).sum()))
            .collect();
        if use_rack_aware_assignment(&consumer_rack_set, &all_partition_racks, racks_of.values(), prefer) {
            let consumer_racks =
                consumers_by_rack.iter().flat_map(|(rack, members)| members.iter().map(move |m| (*m, *rack))).collect();
            RackInfo { consumer_racks, partition_racks: racks_of, num_consumers_by_partition }
        } else {
            RackInfo {
                consumer_racks: HashMap::default(),
                partition_racks: HashMap::default(),
                num_consumers_by_partition,
            }
        }
    }

    /// `racksMismatch`: the consumer has a rack and no replica of `tp` is on it.
    pub fn racks_mismatch(&self, consumer: usize, tp: Tp) -> bool {
        match self.consumer_racks.get(&consumer) {
            None => false,
            Some(rack) => !self.partition_racks.get(&tp).is_some_and(|r| r.contains(rack)),
        }
    }

    /// Whether the consumer has a rack holding a replica of `tp`.
    pub fn racks_match(&self, consumer: usize, tp: Tp) -> bool {
        self.consumer_racks
            .get(&consumer)
            .is_some_and(|rack| self.partition_racks.get(&tp).is_some_and(|r| r.contains(rack)))
    }

    /// `sortPartitionsByRackConsumers`: a stable sort by the number of consumers
    /// on each partition's racks.
    pub fn sort_partitions_by_rack_consumers(&self, partitions: &mut [Tp]) {
        if !self.num_consumers_by_partition.is_empty() {
            partitions.stable_sort_by_key(|tp| self.num_consumers_by_partition.get(tp).copied().unwrap_or(0));
        }
    }

    /// `nextRackConsumer`: the first position from `first_index` (wrapping)
    /// whose consumer's rack holds a replica of `tp`.
    pub fn next_rack_consumer(&self, tp: Tp, consumers: &[usize], first_index: usize) -> Option<usize> {
        let racks = self.partition_racks.get(&tp).filter(|r| !r.is_empty())?;
        (0..consumers.len())
            .map(|i| (first_index + i) % consumers.len())
            .find(|index| self.consumer_racks.get(&consumers[*index]).is_some_and(|rack| racks.contains(rack)))
    }
}
