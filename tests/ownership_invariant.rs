//! The single-owner invariant's reading of ownership (classic protocol): a
//! member between JoinGroup and SyncGroup holds the partitions of the
//! generation its JoinGroup claimed them in. Claimed in the previous
//! generation, they count (the cooperative protocol must not hand them to
//! anyone else before they are revoked); claimed in an older one, the member
//! is a zombie that missed rebalances, which Kafka tolerates
//! (`ConsumerCoordinator.onJoinPrepare` keeps a cooperative member's
//! partitions unless its generation was reset; `AbstractStickyAssignor` gives
//! a partition claimed twice to the newer generation's claim; the zombie
//! revokes it in `onJoinComplete`).
#![cfg(not(target_arch = "wasm32"))]

use crate::common::TestWorld;
use groupscope::assign::TopicPartition;
use groupscope::sim::client::abstract_coordinator::MemberState;
use groupscope::sim::coordinator::classic::ClassicGroupState;
use groupscope::sim::{invariants, Scenario};

/// A settled cooperative group in which c1, between JoinGroup and SyncGroup
/// of the current generation, still holds one of c2's partitions, claimed in
/// `generations_ago` generations before the current one.
fn c1_rejoining_with_c2_s_partition_claimed(generations_ago: i32) -> TestWorld {
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
    c1.membership.state = MemberState::COMPLETING_REBALANCE;
    let p = t.world.cluster.offsets_partition_for("demo");
    let b = t.world.group("demo").expect("the group is loaded").0;
    let shard = t.world.brokers.get_mut(&b).and_then(|b| b.coordinator.shards.get_mut(&p)).expect("active shard");
    let member = shard.groups.get_mut("demo").and_then(|g| g.members.get_mut(&member_id)).expect("c1 is a member");
    for protocol in &mut member.protocols {
        protocol.metadata.generation_id = generation - generations_ago;
    }
    t
}

#[test]
fn a_partition_claimed_in_the_previous_generation_and_owned_by_another_member_is_a_violation() {
    let t = c1_rejoining_with_c2_s_partition_claimed(1);
    let v = invariants::check(&t.world);
    assert!(v.iter().any(|v| v.invariant == "single-owner"), "{v:?}");
}

#[test]
fn a_zombie_s_claim_from_an_older_generation_is_not_counted_as_ownership() {
    let t = c1_rejoining_with_c2_s_partition_claimed(3);
    let v = invariants::check(&t.world);
    assert!(!v.iter().any(|v| v.invariant == "single-owner"), "{v:?}");
}
