//! The KIP-848 consumer group protocol, checked against Kafka's behaviour
//! (GroupMetadataManager `consumerGroupHeartbeat`, CurrentAssignmentBuilder, ConsumerMembershipManager).
//! Broker defaults: 45 s session, 5 s heartbeat interval.
//! This file holds the shared helpers; each submodule one part of the protocol.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::{consumer_protocol_demo, TestWorld};
use groupscope::assign::TopicPartition;
use groupscope::sim::client::consumer::MemberState;
use groupscope::sim::client::poll_loop::MainThread;
use groupscope::sim::coordinator::consumer::current_assignment_builder::CurrentAssignmentBuilder;
use groupscope::sim::coordinator::consumer::heartbeat::{validate_member_epoch, validate_request};
use groupscope::sim::coordinator::consumer::{
    ConsumerGroup, ConsumerGroupMember, ConsumerGroupState, MemberState as ServerState,
};
use groupscope::sim::coordinator::group::Group;
use groupscope::sim::coordinator::shard::{CoordinatorState, Shard};
use groupscope::sim::message::{ApiKey, ConsumerGroupHeartbeatRequest};
use groupscope::sim::note::Note;
use groupscope::sim::trace::{Callback, EventKind};
use groupscope::sim::{Errors, Fault, NodeId, Scenario};
use std::collections::{BTreeMap, BTreeSet};

mod assignors;
mod failover;
mod heartbeats;
mod membership;
mod poll_timers;
mod reconciliation;

fn tp(p: i32) -> TopicPartition {
    TopicPartition::new("orders", p)
}

fn set(ps: &[i32]) -> BTreeSet<TopicPartition> {
    ps.iter().map(|p| tp(*p)).collect()
}

/// Every member STABLE at the target epoch on the coordinator, and every live
/// client STABLE owning exactly what the coordinator assigned it.
fn settled(t: &TestWorld) -> bool {
    let Some((_, g)) = t.world.consumer_group("demo") else { return false };
    g.state == ConsumerGroupState::Stable
        && t.world.clients.async_consumers().filter(|c| c.alive && c.fatal.is_none()).all(|c| {
            c.state == MemberState::STABLE
                && g.members
                    .get(&c.member_id)
                    .is_some_and(|m| c.owned.iter().cloned().collect::<BTreeSet<_>>() == m.assigned_partitions)
        })
}

fn callbacks(t: &TestWorld, idx: u32, cb: Callback) -> Vec<(u64, Vec<TopicPartition>)> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::CallbackInvoked { node, callback, partitions }
                if *node == NodeId::Client(idx) && *callback == cb =>
            {
                Some((e.at, partitions.clone()))
            }
            _ => None,
        })
        .collect()
}

fn heartbeats_sent_by(t: &TestWorld, idx: u32) -> Vec<(u64, String)> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent { from, label, .. }
                if *from == NodeId::Client(idx) && label.starts_with("ConsumerGroupHeartbeat") =>
            {
                Some((e.at, label.to_string()))
            }
            _ => None,
        })
        .collect()
}

fn coordinator(t: &TestWorld) -> u32 {
    t.world.cluster.coordinator_for("demo").unwrap()
}

fn settled_world(s: Scenario) -> TestWorld {
    let mut t = TestWorld::new(s);
    t.sleep_until(60_000, settled);
    t
}

/// c1 alone owns every partition, in small batches (10 records, 20 ms each),
/// with 1 s of latency each way to its coordinator, so its commit before a
/// revocation takes about two seconds; then c2 joins and the group settles.
/// Returns the world `after_ms` after that, and when c2 was added.
fn c2_joins_while_c1_is_slow_to_reach_the_coordinator(after_ms: u64) -> (TestWorld, u64) {
    let mut s = consumer_protocol_demo(1);
    s.groups[0].config.max_poll_records = 10;
    s.groups[0].config.processing_ms_per_record = 20;
    let mut t = settled_world(s);
    let b = coordinator(&t);
    t.inject(Fault::SetLinkLatency { a: "c1".into(), b: format!("broker-{b}"), latency_ms: 1000 });
    t.sleep(3000);
    let added_at = t.world.now;
    t.inject(Fault::AddConsumer { group: "demo".into() });
    t.sleep_until(60_000, |t| settled(t) && !t.async_owned(2).is_empty());
    t.sleep(after_ms);
    (t, added_at)
}

// --- ConsumerGroupHeartbeat: the request and its checks ------------------------------------------

fn join_request() -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: "demo".into(),
        member_id: "k5x0mFbCQ5yYh3vW9Xb3Jw".into(),
        member_epoch: 0,
        rebalance_timeout_ms: 300_000,
        subscribed_topic_names: Some(vec!["orders".into()]),
        topic_partitions: Some(vec![]),
        ..Default::default()
    }
}
