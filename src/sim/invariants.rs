//! Safety properties checked after every step in tests and shown live in the UI.

use super::cluster::CoordinatorRecord;
use super::consumer::MemberState;
use super::coordinator::CoordinatorState;
use super::world::World;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub invariant: &'static str,
    pub detail: String,
}

/// All invariants, at the world's current instant.
pub fn check(world: &World) -> Vec<Violation> {
    let mut v = Vec::new();
    single_owner(world, &mut v);
    single_active_coordinator(world, &mut v);
    persisted_generations_increase(world, &mut v);
    committed_offsets_never_go_back(world, &mut v);
    super::consumer_group_invariants::check(world, &mut v);
    v
}

/// No partition is owned by two members of the same group at once. "Owned"
/// (classic protocol): the partition is in the consumer's assignment, the
/// consumer is alive and in the coordinator's current generation under its
/// current member id. Under eager rebalancing ownership ends at revocation
/// (onJoinPrepare), under cooperative at the revoke after SyncGroup.
fn single_owner(world: &World, v: &mut Vec<Violation>) {
    for g in &world.scenario.groups {
        let Some((_, group)) = world.group(&g.group_id) else { continue };
        let mut owner: BTreeMap<&crate::assign::TopicPartition, u32> = BTreeMap::new();
        for c in world.group_consumers(&g.group_id) {
            let current = c.alive
                && matches!(c.state, MemberState::STABLE | MemberState::COMPLETING_REBALANCE)
                && c.generation == group.generation_id
                && group.members.contains_key(&c.member_id);
            if !current {
                continue;
            }
            for tp in &c.owned {
                if let Some(other) = owner.insert(tp, c.idx) {
                    v.push(Violation {
                        invariant: "single-owner",
                        detail: format!("{tp} owned by c{other} and c{} in group {}", c.idx, g.group_id),
                    });
                }
            }
        }
    }
}

/// At most one broker has an ACTIVE coordinator context for a group's partition.
fn single_active_coordinator(world: &World, v: &mut Vec<Violation>) {
    for g in &world.scenario.groups {
        let p = world.cluster.offsets_partition_for(&g.group_id);
        let active: Vec<u32> = world
            .brokers
            .values()
            .filter(|b| b.alive && b.coordinator.shards.get(&p).is_some_and(|s| s.state == CoordinatorState::ACTIVE))
            .map(|b| b.id)
            .collect();
        if active.len() > 1 {
            v.push(Violation {
                invariant: "single-coordinator",
                detail: format!("group {} has active coordinators on brokers {active:?}", g.group_id),
            });
        }
    }
}

/// Generations written to `__consumer_offsets` never go backwards for a group.
/// (In memory a failed-over group returns to its last persisted generation,
/// which is why the persisted sequence is the one that must increase.)
fn persisted_generations_increase(world: &World, v: &mut Vec<Violation>) {
    for log in &world.cluster.offsets_logs {
        let mut last: BTreeMap<&str, i32> = BTreeMap::new();
        for r in log {
            if let CoordinatorRecord::GroupMetadata { group_id, generation_id, .. } = r {
                if let Some(prev) = last.insert(group_id, *generation_id) {
                    if *generation_id < prev {
                        v.push(Violation {
                            invariant: "generation-monotonic",
                            detail: format!("group {group_id} persisted generation {generation_id} after {prev}"),
                        });
                    }
                }
            }
        }
    }
}

/// Committed offsets never decrease for a (group, partition).
fn committed_offsets_never_go_back(world: &World, v: &mut Vec<Violation>) {
    for log in &world.cluster.offsets_logs {
        let mut last: BTreeMap<(&str, &crate::assign::TopicPartition), i64> = BTreeMap::new();
        for r in log {
            if let CoordinatorRecord::OffsetCommit { group_id, partition, offset } = r {
                if let Some(prev) = last.insert((group_id, partition), *offset) {
                    if *offset < prev {
                        v.push(Violation {
                            invariant: "offsets-monotonic",
                            detail: format!("{group_id} committed {partition} at {offset} after {prev}"),
                        });
                    }
                }
            }
        }
    }
}
