//! KIP-881 rack helpers shared by the rack-aware client assignors
//! (`AbstractPartitionAssignor.useRackAwareAssignment` and the replica-rack sets).

use super::{ClusterMetadata, Subscription};
use std::collections::BTreeSet;

/// The member's `client.rack`, ignoring the empty string as Kafka does.
pub fn consumer_rack(member: &Subscription) -> Option<&str> {
    member.rack.as_deref().filter(|r| !r.is_empty())
}

/// The set of racks of all replicas of `topic`-`partition` (brokers without a
/// rack are skipped). Empty when the metadata has no replica information.
pub fn partition_racks<'a>(cluster: &'a ClusterMetadata, topic: &str, partition: i32) -> BTreeSet<&'a str> {
    cluster
        .replica_racks
        .get(topic)
        .and_then(|parts| parts.get(usize::try_from(partition).ok()?))
        .map(|replicas| replicas.iter().flatten().map(String::as_str).collect())
        .unwrap_or_default()
}

/// `useRackAwareAssignment`: some consumer rack appears among the partition
/// racks, and (unless `prefer` is set) not every partition has the same set.
pub fn use_rack_aware_assignment<'a>(
    consumer_racks: &BTreeSet<&str>,
    all_partition_racks: &BTreeSet<&str>,
    mut racks_per_partition: impl Iterator<Item = &'a BTreeSet<&'a str>>,
    prefer: bool,
) -> bool {
    if consumer_racks.is_disjoint(all_partition_racks) {
        false
    } else if prefer {
        true
    } else {
        !racks_per_partition.all(|r| r == all_partition_racks)
    }
}
