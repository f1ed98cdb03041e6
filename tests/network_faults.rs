//! Faults on links and on topology: dropped, held, slow and lossy links; topics
//! that grow; subscriptions that change.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::TestWorld;
use groupscope::sim::coordinator::classic::ClassicGroupState::Stable;
use groupscope::sim::note::Note;
use groupscope::sim::scenario::TopicSpec;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Fault, NodeId, Scenario};

fn dropped_reasons(t: &TestWorld) -> Vec<String> {
    t.world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageDropped { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

fn coordinator(t: &TestWorld) -> String {
    format!("broker-{}", t.world.cluster.coordinator_for("demo").unwrap())
}

#[test]
fn losing_one_heartbeat_response_does_not_cost_the_membership() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let from = coordinator(&t);
    t.inject(Fault::DropNextMessage { from, to: "c1".into() });
    t.sleep(20_000);
    assert_eq!(dropped_reasons(&t).iter().filter(|r| r.contains("dropped on purpose")).count(), 1);
    assert_eq!(t.group_state("demo"), (Stable, 1), "the next heartbeat, one interval later, keeps c1 in");
}

#[test]
fn heartbeats_held_past_the_session_timeout_expel_the_member_until_released() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let broker = coordinator(&t);
    t.inject(Fault::HoldLink { from: "c2".into(), to: broker.clone() });
    t.sleep(10_000);
    assert!(!t.world.network.held_messages.is_empty());
    assert!(t.world.in_flight().any(|e| e.from == NodeId::Client(2)), "held messages stay visible");
    assert_eq!(t.group_state("demo"), (Stable, 2), "c2 was removed after session.timeout.ms");
    assert_eq!(t.owned(1).len() + t.owned(3).len(), 6);
    t.inject(Fault::ReleaseLink { from: "c2".into(), to: broker });
    t.sleep(20_000);
    assert!(t.world.network.held_messages.is_empty());
    let (state, generation) = t.group_state("demo");
    assert_eq!(state, Stable);
    assert!(generation >= 3, "c2 learns it was removed and rejoins");
    assert_eq!((t.owned(1).len(), t.owned(2).len(), t.owned(3).len()), (2, 2, 2));
}

#[test]
fn extra_link_latency_delays_messages_on_that_link_only() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let broker = coordinator(&t);
    t.inject(Fault::SetLinkLatency { a: "c1".into(), b: broker, latency_ms: 1500 });
    t.sleep(5000);
    let delays: Vec<(NodeId, u64)> = t
        .world
        .trace
        .iter()
        .filter(|e| e.at > 12_000)
        .filter_map(|e| match &e.kind {
            // Keyed by the consumer end of the link.
            EventKind::MessageSent { from, to, deliver_at, .. } => {
                Some((if matches!(from, NodeId::Client(_)) { *from } else { *to }, deliver_at - e.at))
            }
            _ => None,
        })
        .collect();
    assert!(delays.iter().any(|(n, d)| *n == NodeId::Client(1) && *d == 1600));
    assert!(delays.iter().filter(|(n, _)| *n != NodeId::Client(1)).all(|(_, d)| *d == 100));
    assert_eq!(t.group_state("demo"), (Stable, 1));
}

#[test]
fn a_link_losing_every_message_expels_the_member() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    let broker = coordinator(&t);
    t.inject(Fault::SetLinkLoss { a: "c3".into(), b: broker, percent: 100 });
    t.sleep(12_000);
    assert!(dropped_reasons(&t).iter().any(|r| r.contains("100% loss")));
    assert_eq!(t.group_state("demo"), (Stable, 2));
    assert_eq!(t.owned(1).len() + t.owned(2).len(), 6);
}

#[test]
fn the_leader_rebalances_when_a_subscribed_topic_gains_partitions() {
    let mut t = TestWorld::demo();
    t.sleep(12_000);
    t.inject(Fault::AddPartitions { topic: "orders".into(), count: 9 });
    t.sleep(5000);
    assert_eq!(t.group_state("demo"), (Stable, 2));
    assert!(t.any_note(|n| matches!(n, Note::NewPartitionsRejoin { topics } if topics.iter().any(|t| t == "orders"))));
    let mut all: Vec<String> = (1..=3).flat_map(|i| t.owned(i)).collect();
    all.sort_by_key(|p| p[7..].parse::<u32>().unwrap());
    assert_eq!(all, (0..9).map(|p| format!("orders-{p}")).collect::<Vec<_>>());
    assert_eq!((t.owned(1).len(), t.owned(2).len(), t.owned(3).len()), (3, 3, 3));
}

#[test]
fn changing_a_subscription_rebalances_and_the_only_subscriber_gets_the_new_topic() {
    let mut s = Scenario::demo();
    s.topics.push(TopicSpec { name: "payments".into(), partitions: 3, records_per_sec: 10 });
    let mut t = TestWorld::new(s);
    t.sleep(12_000);
    t.inject(Fault::ChangeSubscription { consumer: 1, topics: vec!["orders".into(), "payments".into()] });
    t.sleep(5000);
    assert_eq!(t.group_state("demo"), (Stable, 2));
    let payments: Vec<String> = t.owned(1).into_iter().filter(|p| p.starts_with("payments")).collect();
    assert_eq!(
        payments,
        ["payments-0", "payments-1", "payments-2"],
        "range: the only subscriber takes every partition"
    );
    assert!(t.owned(2).iter().chain(t.owned(3).iter()).all(|p| p.starts_with("orders")));
}

#[test]
fn a_fault_naming_an_unknown_node_is_ignored_with_a_note() {
    let mut t = TestWorld::demo();
    t.sleep(1000);
    t.inject(Fault::CutLink { a: "c9".into(), b: "broker-0".into() });
    assert!(t.any_note(|n| matches!(n, Note::FaultIgnoredUnknownNode { .. })));
    assert!(t.world.network.is_clear());
}
