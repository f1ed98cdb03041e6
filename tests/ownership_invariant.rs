//! The single-owner invariant's reading of ownership. Classic protocol: a
//! member between JoinGroup and SyncGroup holds the partitions of the
//! generation whose SyncGroup gave them. Given in the previous
//! generation, they count (the cooperative protocol must not hand them to
//! anyone else before they are revoked); claimed in an older one, the member
//! is a zombie that missed rebalances, which Kafka tolerates
//! (`ConsumerCoordinator.onJoinPrepare` keeps a cooperative member's
//! partitions unless its generation was reset; `AbstractStickyAssignor` gives
//! a partition claimed twice to the newer generation's claim; the zombie
//! revokes it in `onJoinComplete`). KIP-848: a client's partitions count
//! while it has heard of the epoch its coordinator holds it at; one behind
//! may hold what its coordinator gave away, trusting a heartbeat that
//! reported the local assignment of an earlier epoch.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::{consumer_protocol_demo, TestWorld};
use groupscope::assign::TopicPartition;
use groupscope::sim::client::abstract_coordinator::MemberState;
use groupscope::sim::coordinator::classic::ClassicGroupState;
use groupscope::sim::coordinator::shard::Shard;
use groupscope::sim::{invariants, Scenario};

/// The shard of group demo on its active coordinator.
fn active_shard(t: &mut TestWorld) -> &mut Shard {
    let p = t.world.cluster.offsets_partition_for("demo");
    let b = t.world.group("demo").map(|g| g.0).or(t.world.consumer_group("demo").map(|g| g.0)).expect("loaded");
    t.world.brokers.get_mut(&b).and_then(|b| b.coordinator.shards.get_mut(&p)).expect("an active shard")
}

/// A settled cooperative group in which c1, between JoinGroup and SyncGroup
/// of the current generation, still holds one of c2's partitions, given by
/// the SyncGroup of `synced_ago` generations before the current one and
/// claimed in its JoinGroup as of `claimed_ago` generations before.
fn c1_rejoining_with_c2_s_partition(synced_ago: i32, claimed_ago: i32) -> TestWorld {
    let mut s = Scenario::demo();
    s.groups[0].config.assignors = vec!["cooperative-sticky".into()];
    let mut t = TestWorld::new(s);
    t.sleep(15_000);
    let (state, generation) = t.group_state("demo");
    assert_eq!(state, ClassicGroupState::Stable);
    let taken: TopicPartition = t.consumer(2).owned[0].clone();
    let member_id = t.consumer(1).membership.member_id.clone();
    let c1 = t.world.clients.classic_mut(1).expect("c1 is a classic consumer");
    c1.owned.push(taken);
    c1.assignment_generation = generation - synced_ago;
    c1.membership.state = MemberState::COMPLETING_REBALANCE;
    let member =
        active_shard(&mut t).classic_mut("demo").and_then(|g| g.members.get_mut(&member_id)).expect("c1 is a member");
    for protocol in &mut member.protocols {
        protocol.metadata.generation_id = generation - claimed_ago;
    }
    t
}

#[test]
fn a_partition_claimed_in_the_previous_generation_and_owned_by_another_member_is_a_violation() {
    let t = c1_rejoining_with_c2_s_partition(1, 1);
    let v = invariants::check(&t.world);
    assert!(v.iter().any(|v| v.invariant == "single-owner"), "{v:?}");
}

#[test]
fn a_zombie_s_claim_from_an_older_generation_is_not_counted_as_ownership() {
    let t = c1_rejoining_with_c2_s_partition(3, 3);
    let v = invariants::check(&t.world);
    assert!(!v.iter().any(|v| v.invariant == "single-owner"), "{v:?}");
}

/// The generation a JoinGroup answer gave c1 was lost with its coordinator
/// before any SyncGroup was stored (`GroupMetadataManager.completeClassicGroupJoin`
/// writes nothing for a non-empty group), and the next coordinator numbered its
/// own next generation the same: c1's JoinGroup claims "the previous
/// generation", but what it holds came from the SyncGroup of the one before.
/// Kafka's leader sees two claims of one generation and drops the partition
/// from both (`AbstractStickyAssignor`, "Found multiple consumers ... claiming
/// the same TopicPartition in the same generation"); the zombie's claim is not
/// ownership.
#[test]
fn a_claim_dated_by_a_lost_and_renumbered_generation_is_not_counted_as_ownership() {
    let t = c1_rejoining_with_c2_s_partition(2, 1);
    let v = invariants::check(&t.world);
    assert!(!v.iter().any(|v| v.invariant == "single-owner"), "{v:?}");
}

/// A settled KIP-848 group in which c1 holds one of c2's partitions as well,
/// while the coordinator holds c1 at `epochs_ahead` epochs past the one c1
/// has heard of; `in_target`: c1's latest target names that partition (c1
/// was given it, not merely late to revoke it).
fn c1_holding_c2_s_partition(epochs_ahead: i32, in_target: bool) -> TestWorld {
    let mut t = TestWorld::new(consumer_protocol_demo(3));
    t.sleep(20_000);
    let taken: TopicPartition = t.async_consumer(2).owned[0].clone();
    let (member_id, heard) = (t.async_consumer(1).member_id.clone(), t.async_consumer(1).member_epoch);
    let c1 = t.world.clients.async_consumer_mut(1).expect("c1 is a KIP-848 consumer");
    c1.owned.push(taken.clone());
    if in_target {
        c1.target.as_mut().expect("c1 has a target").partitions.push(taken);
    }
    let member = active_shard(&mut t)
        .consumer_group_mut("demo")
        .and_then(|g| g.members.get_mut(&member_id))
        .expect("c1 is a member");
    member.member_epoch = heard + epochs_ahead;
    t
}

#[test]
fn a_kip848_partition_given_to_two_up_to_date_members_is_a_violation() {
    let t = c1_holding_c2_s_partition(0, true);
    let v = invariants::check(&t.world);
    assert!(v.iter().any(|v| v.invariant == "single-owner"), "{v:?}");
}

#[test]
fn a_kip848_member_that_has_not_heard_of_its_newer_epoch_is_not_counted_as_an_owner() {
    // The coordinator moved c1 on (CurrentAssignmentBuilder.computeNextAssignment
    // freed what c1's last heartbeat did not report); c1 revokes when the answer arrives.
    let t = c1_holding_c2_s_partition(1, true);
    let v = invariants::check(&t.world);
    assert!(!v.iter().any(|v| v.invariant == "single-owner"), "{v:?}");
}

#[test]
fn a_kip848_member_still_holding_a_partition_neither_its_target_nor_its_coordinator_gives_it_is_not_counted() {
    // c1 added it from an older target after its heartbeat reported the
    // assignment before (ConsumerHeartbeatRequestManager sends currentAssignment());
    // its next reconciliation revokes it.
    let t = c1_holding_c2_s_partition(0, false);
    let v = invariants::check(&t.world);
    assert!(!v.iter().any(|v| v.invariant == "single-owner"), "{v:?}");
}
