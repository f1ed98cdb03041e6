//! The clients' `MemberState` machines follow Kafka's valid-previous-states
//! tables (`MemberState.previousValidStates`, enforced by
//! `AbstractMembershipManager.transitionTo`; AbstractCoordinator's assignments
//! for the classic clients). The random fault schedules of `tests/soak.rs` check
//! every transition of all three clients; this file holds the cases where Kafka
//! itself rejects a transition.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::member_states::invalid_member_transitions;
use common::{consumer_protocol_demo, TestWorld};
use groupscope::sim::client::consumer::MemberState;
use groupscope::sim::client::poll_loop::MainThread;
use groupscope::sim::message::ApiKey;
use groupscope::sim::trace::{EventKind, Machine};
use groupscope::sim::{Fault, NodeId};

/// A heartbeat in flight when the poll timer expires: the leave goes out anyway
/// (`AbstractHeartbeatRequestManager.poll` sends it without waiting) and the
/// member is STALE (`onHeartbeatRequestGenerated`). The earlier heartbeat's
/// answer, UNKNOWN_MEMBER_ID once the coordinator expired the session, reaches a
/// STALE member: `transitionToFenced` calls `transitionTo(FENCED)`, which throws
/// IllegalStateException because STALE is not among FENCED's previous valid
/// states, and the response future swallows it. The member stays STALE, loses
/// nothing more and does not rejoin before the application polls again
/// (`maybeRejoinStaleMember`). The simulation used to go STALE → FENCED →
/// JOINING and rejoin while the application was still stuck in its batch.
#[test]
fn abstract_membership_manager_transition_to_keeps_a_stale_member_stale_when_an_older_heartbeat_is_fenced() {
    let mut s = consumer_protocol_demo(1);
    s.broker.consumer_group_min_session_timeout_ms = 6000;
    s.broker.consumer_group_session_timeout_ms = 6000;
    s.broker.consumer_group_min_heartbeat_interval_ms = 1000;
    s.broker.consumer_group_heartbeat_interval_ms = 2000;
    s.groups[0].config.max_poll_interval_ms = 10_000;
    let mut t = TestWorld::new(s);
    t.sleep_until(60_000, |t| t.async_consumer(1).state == MemberState::STABLE);
    let coordinator = t.async_consumer(1).link.coordinator.expect("a STABLE member knows its coordinator");
    // The application gets stuck in its next batch; the heartbeats are held.
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 600_000 });
    t.sleep_until(30_000, |t| matches!(t.async_consumer(1).main, MainThread::Processing { .. }));
    t.inject(Fault::HoldLink { from: "c1".into(), to: format!("broker-{coordinator}") });
    let heartbeat_in_flight = |t: &TestWorld| {
        let c = t.async_consumer(1);
        c.link.in_flight.values().any(|p| p.api == ApiKey::ConsumerGroupHeartbeat && p.member_epoch > 0)
    };
    t.sleep_until(30_000, |t| t.async_consumer(1).state == MemberState::STALE);
    assert!(heartbeat_in_flight(&t), "the heartbeat sent before the leave is still unanswered");
    t.sleep_until(10_000, |t| t.consumer_group("demo").members.is_empty());
    let released = t.world.trace.len();
    t.inject(Fault::ReleaseLink { from: "c1".into(), to: format!("broker-{coordinator}") });
    t.sleep_until(5_000, |t| !heartbeat_in_flight(t));
    let answered = t.world.trace.iter().skip(released).any(|e| {
        matches!(&e.kind, EventKind::MessageSent { to: NodeId::Client(1), label, .. } if label.contains("UNKNOWN_MEMBER_ID"))
    });
    assert!(answered, "the coordinator answered the held heartbeat with UNKNOWN_MEMBER_ID");
    t.sleep(5_000);
    assert_eq!(t.async_consumer(1).state, MemberState::STALE);
    let c1_changes: Vec<_> = t
        .world
        .trace
        .iter()
        .skip(released)
        .filter(|e| {
            matches!(&e.kind, EventKind::StateChanged { node: NodeId::Client(1), machine: Machine::ConsumerMember, .. })
        })
        .collect();
    assert!(c1_changes.is_empty(), "no FENCED, no rejoin while the application is stuck: {c1_changes:?}");
    assert_eq!(invalid_member_transitions(&t.world, 0), Vec::<String>::new());
}
