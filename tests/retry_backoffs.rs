//! The clients' retry backoffs are separate timers (`ClientTimer::Backoff(Retry)`):
//! arming one retry never moves or cancels another one's wake-up.
#![cfg(not(target_arch = "wasm32"))]

use crate::common;

use common::{consumer_protocol_demo, TestWorld};
use groupscope::sim::client::consumer::MemberState;
use groupscope::sim::client::poll_loop::MainThread;
use groupscope::sim::scenario::config::CommitMode;
use groupscope::sim::trace::EventKind;
use groupscope::sim::{Fault, NodeId};

/// Steps the world until `done` holds (at most `limit` ms of simulated time).
fn step_until(t: &mut TestWorld, limit: u64, done: impl Fn(&TestWorld) -> bool) {
    let end = t.world.now + limit;
    while !done(t) {
        assert!(t.world.now < end && t.world.step(), "condition not reached within {limit} ms");
    }
}

/// `CoordinatorRequestManager.poll`, in the KIP-848 consumer's background
/// thread, sends FindCoordinator as soon as its request state allows it
/// (`coordinatorRequestState.canSendRequest`: here, when the reconnect backoff
/// to the only broker ends), whatever the application thread does meanwhile.
/// An application blocked in `commitSync()` and waiting to retry its failed
/// commit (CommitRequestManager `commitSyncWithRetries`) does not delay the
/// lookup to its own retry. When both retries shared one timer, the commit
/// retry armed after the lookup's wake-up replaced it, and the lookup went out
/// only with the commit retry.
#[test]
fn coordinator_request_manager_looks_up_when_its_backoff_ends_while_commit_sync_waits_to_retry() {
    let mut s = consumer_protocol_demo(1);
    s.brokers = 1;
    s.groups[0].config.enable_auto_commit = false;
    s.groups[0].config.commit_mode = CommitMode::Sync;
    let mut t = TestWorld::new(s);
    t.sleep_until(60_000, |t| t.async_consumer(1).state == MemberState::STABLE);
    // The application's commitSync() is in flight: the broker dies under it.
    step_until(&mut t, 30_000, |t| t.async_consumer(1).app_commits.values().any(|m| *m == CommitMode::Sync));
    t.inject(Fault::KillBroker { broker: 0 });
    // The commit fails (connection refused): commitSync() waits to retry it.
    step_until(
        &mut t,
        10_000,
        |t| matches!(t.async_consumer(1).main, MainThread::CommitSync { retry_at, .. } if retry_at > t.world.now),
    );
    let failed_at = t.world.now;
    let MainThread::CommitSync { retry_at, .. } = t.async_consumer(1).main else { unreachable!() };
    let reconnect_at = t.async_consumer(1).link.connections.failed[&0].until.max(failed_at);
    assert!(
        reconnect_at < retry_at,
        "the reconnect backoff ({reconnect_at}) ends before the commit retry ({retry_at})"
    );
    let lookups_after = |t: &TestWorld| -> Vec<u64> {
        t.world
            .trace
            .iter()
            .filter(|e| e.at >= failed_at)
            .filter_map(|e| match &e.kind {
                EventKind::MessageSent { from: NodeId::Client(1), label, .. }
                    if label.starts_with("FindCoordinator") =>
                {
                    Some(e.at)
                }
                _ => None,
            })
            .collect()
    };
    step_until(&mut t, 10_000, |t| !lookups_after(t).is_empty());
    assert_eq!(lookups_after(&t)[0], reconnect_at, "FindCoordinator goes when the reconnect backoff ends");
}
