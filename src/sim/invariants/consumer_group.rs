//! Safety properties of consumer groups (KIP-848), checked with the others in
//! `mod.rs` after every step (the epochs persisted in
//! `__consumer_offsets` are checked there, reading each record once).

use crate::sim::invariants::monitor::Violation;
use crate::sim::invariants::owners::Owners;
use crate::sim::world::World;

pub(crate) fn check(world: &World, v: &mut Vec<Violation>) {
    single_owner_on_clients(world, v);
    single_owner_on_coordinator(world, v);
}

/// No partition is owned by two members of one consumer group at once. "Owned"
/// (consumer protocol): the partition is in the client's assignment — from the
/// reconciliation that assigned it until the one that revoked it, or until it
/// is lost (fenced, stale, fatal) — the client is alive, its member id is a
/// member of the group on the active coordinator, and it has heard of the
/// epoch the coordinator holds it at. (A zombie whose member was fenced is not
/// a member; it learns so at its next heartbeat.)
///
/// A client whose reconciliation lags its coordinator may hold partitions the
/// coordinator has already given away, and Kafka lets it until it reconciles
/// again: a heartbeat reports the local assignment (ConsumerHeartbeatRequestManager
/// sends `currentAssignment()`, which lags the member epoch while a target is
/// being reconciled), `CurrentAssignmentBuilder.computeNextAssignment` frees at
/// once what a heartbeat no longer reports as owned, and the client may then
/// still add those partitions from the older target it was reconciling. So a
/// client's partition counts while the client has heard of the epoch its
/// coordinator holds it at and either its latest target names the partition
/// or its coordinator still holds it for the member (assigned or pending
/// revocation). Its commits are fenced by epoch; the coordinator's own
/// bookkeeping (below) never holds a partition twice.
fn single_owner_on_clients(world: &World, v: &mut Vec<Violation>) {
    for g in &world.scenario.groups {
        let Some((_, group)) = world.consumer_group(&g.group_id) else { continue };
        let mut owner = Owners::new(&world.cluster);
        for c in world.group_async_consumers(&g.group_id) {
            let Some(member) = group.members.get(&c.member_id) else { continue };
            if !c.alive || c.member_id.is_empty() || c.member_epoch < member.member_epoch {
                continue;
            }
            let held_for_it = |tp: &crate::assign::TopicPartition| {
                c.target.as_ref().is_some_and(|t| t.partitions.contains(tp))
                    || member.owned_on_coordinator().any(|p| p == tp)
            };
            for tp in c.client().owned.iter().filter(|tp| held_for_it(tp)) {
                if let Some(other) = owner.insert(tp, c.idx) {
                    v.push(Violation {
                        invariant: "single-owner",
                        detail: format!("{tp} owned by c{other} and c{} in consumer group {}", c.idx, g.group_id),
                    });
                }
            }
        }
    }
}

/// On the coordinator, a partition is assigned or pending revocation for at most
/// one member (what makes `currentPartitionEpoch` well defined in GroupMetadataManager).
fn single_owner_on_coordinator(world: &World, v: &mut Vec<Violation>) {
    for g in &world.scenario.groups {
        let Some((_, group)) = world.consumer_group(&g.group_id) else { continue };
        let mut owner: Owners<'_, &str> = Owners::new(&world.cluster);
        for m in group.members.values() {
            for tp in m.owned_on_coordinator() {
                if let Some(other) = owner.insert(tp, &m.member_id) {
                    v.push(Violation {
                        invariant: "single-owner-coordinator",
                        detail: format!("{tp} held by members {other} and {} of {}", m.member_id, g.group_id),
                    });
                }
            }
        }
    }
}
