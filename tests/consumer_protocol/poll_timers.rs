//! The client's timers: the poll timer's expiry (leave, stale, rejoin on the
//! next poll), with the coordinator unknown or a heartbeat in flight, and the
//! backoff after COORDINATOR_LOAD_IN_PROGRESS.

use super::*;

#[test]
fn poll_timer_expiry_leaves_goes_stale_loses_partitions_and_rejoins_on_the_next_poll() {
    // AbstractMembershipManager `transitionToStale`: leave heartbeat (epoch -1) without revocation callbacks, STALE,
    // onPartitionsLost, JOINING at the next poll().
    let mut s = consumer_protocol_demo(2);
    s.groups[0].config.max_poll_interval_ms = 10_000;
    let mut t = settled_world(s);
    let t0 = t.world.now;
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 2000 });
    t.sleep_until(40_000, |t| t.member_states(1).contains(&"STALE".to_string()));
    t.sleep(500);
    let states = t.member_states(1);
    let i = states.iter().position(|s| s == "PREPARE_LEAVING").unwrap();
    assert_eq!(states[i..i + 3], ["PREPARE_LEAVING", "LEAVING", "STALE"]);
    assert!(heartbeats_sent_by(&t, 1).iter().any(|(_, l)| l == "ConsumerGroupHeartbeat epoch=-1 (leave)"));
    assert!(
        callbacks(&t, 1, Callback::OnPartitionsRevoked).iter().all(|(at, _)| *at < t0),
        "no revocation callback when the poll timer expires"
    );
    assert_eq!(callbacks(&t, 1, Callback::OnPartitionsLost).len(), 1);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 5 });
    t.sleep_until(60_000, |t| {
        t.member_states(1).last().is_some_and(|s| s == "STABLE") && t.member_states(1).contains(&"JOINING".to_string())
    });
}

#[test]
fn a_poll_timer_that_expires_while_the_coordinator_is_unknown_sends_no_leave_and_the_next_poll_resets_it() {
    // AbstractHeartbeatRequestManager.poll returns before checking the poll timer
    // while the coordinator is unknown; the application's next poll() resets the
    // timer (resetPollTimer -> maybeRejoinStaleMember, a no-op unless STALE).
    let mut s = consumer_protocol_demo(2);
    s.groups[0].config.max_poll_interval_ms = 10_000;
    s.groups[0].config.max_poll_records = 8;
    s.groups[0].config.request_timeout_ms = 2000;
    let mut t = settled_world(s);
    let t0 = t.world.now;
    let brokers: Vec<String> = (0..t.world.brokers.len()).map(|b| format!("broker-{b}")).collect();
    // 2 s a record: once a batch of more than 5 records (prefetched from the
    // partition leaders) is being processed, the poll timer expires during it.
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 2000 });
    t.sleep_until(
        60_000,
        |t| matches!(t.async_consumer(1).main, MainThread::Processing { until, .. } if until > t.world.now + 10_000),
    );
    for b in &brokers {
        t.inject(Fault::CutLink { a: "c1".into(), b: b.clone() });
    }
    t.sleep_until(30_000, |t| t.any_note(|n| matches!(n, Note::PollTimeoutCoordinatorUnknown { .. })));
    assert!(t.async_consumer(1).link.coordinator.is_none());
    t.sleep(3000);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 5 });
    t.sleep(8000);
    for b in &brokers {
        t.inject(Fault::HealLink { a: "c1".into(), b: b.clone() });
    }
    t.sleep_until(20_000, settled);
    let states = t.member_states(1);
    assert!(!states.iter().any(|s| s == "PREPARE_LEAVING" || s == "LEAVING" || s == "STALE"), "no leave: {states:?}");
    assert!(!heartbeats_sent_by(&t, 1).iter().any(|(at, l)| *at > t0 && l.contains("leave")));
    assert!(callbacks(&t, 1, Callback::OnPartitionsLost).is_empty(), "c1 never lost its partitions");
}

#[test]
fn a_poll_timer_expiry_sends_the_leave_at_once_even_with_a_heartbeat_in_flight() {
    // AbstractHeartbeatRequestManager.poll: an expired poll timer builds the leave
    // heartbeat at once (makeHeartbeatRequest), whatever is in flight.
    let mut s = consumer_protocol_demo(2);
    s.groups[0].config.max_poll_interval_ms = 10_000;
    let mut t = settled_world(s);
    let b = coordinator(&t);
    t.inject(Fault::SlowProcessing { consumer: 1, ms_per_record: 2000 });
    // Hold the coordinator's answers to c1 once a heartbeat is on its way.
    let sent = heartbeats_sent_by(&t, 1).len();
    t.sleep_until(10_000, |t| heartbeats_sent_by(t, 1).len() > sent);
    t.inject(Fault::HoldLink { from: format!("broker-{b}"), to: "c1".into() });
    t.sleep_until(40_000, |t| t.any_note(|n| matches!(n, Note::PollTimeoutLeaving { .. })));
    assert!(
        t.async_consumer(1)
            .link
            .in_flight
            .values()
            .any(|p| p.api == ApiKey::ConsumerGroupHeartbeat && p.member_epoch > 0),
        "a heartbeat is still in flight"
    );
    let expired_at = t
        .world
        .trace
        .iter()
        .rev()
        .find(|e| matches!(&e.kind, EventKind::Note { note: Note::PollTimeoutLeaving { .. }, .. }))
        .unwrap()
        .at;
    assert!(
        heartbeats_sent_by(&t, 1)
            .iter()
            .any(|(at, l)| *at == expired_at && l == "ConsumerGroupHeartbeat epoch=-1 (leave)"),
        "leave sent at {expired_at}"
    );
    assert_eq!(t.async_consumer(1).state, MemberState::STALE);
}

#[test]
fn a_heartbeat_answered_coordinator_load_in_progress_is_retried_after_the_backoff_not_a_full_interval() {
    // HeartbeatRequestState.onFailedAttempt resets the heartbeat timer to zero:
    // the retry waits only retry.backoff.ms (doubling), not the 5 s interval.
    let mut s = consumer_protocol_demo(2);
    s.broker.coordinator_load_ms = 4000;
    let mut t = settled_world(s);
    let old = coordinator(&t);
    t.inject(Fault::KillBroker { broker: old });
    t.sleep_until(40_000, |t| {
        t.labels_sent().iter().any(|l| l == "ConsumerGroupHeartbeat → COORDINATOR_LOAD_IN_PROGRESS")
    });
    t.sleep(6000);
    let answered: Vec<u64> = t
        .world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageDelivered { to: NodeId::Client(c), label, .. }
                if *c <= 2 && label == "ConsumerGroupHeartbeat → COORDINATOR_LOAD_IN_PROGRESS" =>
            {
                Some(e.at)
            }
            _ => None,
        })
        .collect();
    assert!(!answered.is_empty());
    let sends: Vec<u64> = [1, 2].iter().flat_map(|c| heartbeats_sent_by(&t, *c)).map(|(at, _)| at).collect();
    for at in answered {
        let next = sends.iter().copied().filter(|s| *s >= at).min().expect("retried");
        assert!(next - at <= 1000, "retried {} ms after COORDINATOR_LOAD_IN_PROGRESS at {at}", next - at);
    }
}
