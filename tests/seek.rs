//! Seeking shows exactly what playing straight through shows: the same world
//! and the same trace at every moment, in any order of seeks, after forks,
//! and with memory bounding thinning checkpoints and forgetting old events.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::player::{Action, Limits, Player};
use groupscope::sim::trace::Event;
use groupscope::sim::{Fault, Millis, Scenario, World};

/// Everything the world holds, as text (its `Debug`), without the trace; and
/// the trace from id `from` on.
fn state(w: &World, from: usize) -> (String, Vec<Event>) {
    let mut copy = w.clone();
    let trace = std::mem::take(&mut copy.trace);
    (format!("{copy:?}"), trace[from..].to_vec())
}

/// A fresh player with `script`, played straight (no seek) through `times`
/// (ascending): the state at each.
fn straight(scenario: &Scenario, script: &[(Millis, Fault)], times: &[Millis]) -> Vec<(String, Vec<Event>)> {
    let mut p = scripted(scenario, script);
    times
        .iter()
        .map(|&t| {
            p.advance_until(t, |_| false);
            state(&p.world, 0)
        })
        .collect()
}

/// Seeded pseudo-random times in [from, to], in random order.
fn shuffled_times(from: Millis, to: Millis, n: usize, mut seed: u64) -> Vec<Millis> {
    (0..n)
        .map(|_| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            from + (seed >> 33) % (to - from + 1)
        })
        .collect()
}

/// Seeks `p` to each time of `order` and checks the state against `reference`
/// (the straight run's, by time), from the first event `p` still keeps.
fn check_seeks(p: &mut Player, order: &[Millis], reference: &[(Millis, (String, Vec<Event>))]) {
    for &t in order {
        p.dispatch(Action::Seek(t));
        assert_eq!(p.now(), t);
        let (_, (world, trace)) = reference.iter().find(|(at, _)| *at == t).expect("a reference state");
        let first = p.world.trace.first_id();
        let (w, tr) = state(&p.world, first);
        assert!(w == *world, "the world after seeking to {t} differs from the straight run's");
        assert!(
            tr[..] == trace[first.min(trace.len())..],
            "the trace after seeking to {t} differs from the straight run's"
        );
    }
}

fn scripted(scenario: &Scenario, script: &[(Millis, Fault)]) -> Player {
    let mut p = Player::new(scenario.clone()).unwrap();
    p.script = script.to_vec();
    p
}

fn reference(scenario: &Scenario, script: &[(Millis, Fault)], order: &[Millis]) -> Vec<(Millis, (String, Vec<Event>))> {
    let mut times = order.to_vec();
    times.sort_unstable();
    times.dedup();
    times.iter().copied().zip(straight(scenario, script, &times)).collect()
}

fn group(members: u32, partitions: u32, protocol: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"seed": 3, "brokers": 3, "topics": [{{"name": "orders", "partitions": {partitions}}}],
          "groups": [{{"groupId": "g", "consumers": {members}, "startStaggerMs": 20,
            "config": {{"session.timeout.ms": 10000, "heartbeat.interval.ms": 3000, "topics": ["orders"], "group.protocol": "{protocol}"}}}}]}}"#
    ))
    .unwrap()
}

#[test]
fn seeking_anywhere_in_any_order_shows_the_straight_runs_world_and_trace() {
    let scenario = Scenario::demo();
    let script = vec![
        (12_000, Fault::CrashConsumer { consumer: 2 }),
        (12_000, Fault::CutLink { a: "c1".into(), b: "broker-0".into() }),
        (20_000, Fault::RestartConsumer { consumer: 2 }),
        (26_000, Fault::HealLink { a: "c1".into(), b: "broker-0".into() }),
    ];
    let mut order = shuffled_times(0, 60_000, 40, 7);
    // The faults' own instants, and the start.
    order.extend([12_000, 0, 20_000, 12_000, 60_000, 26_000]);
    let reference = reference(&scenario, &script, &order);
    let mut p = scripted(&scenario, &script);
    check_seeks(&mut p, &order, &reference);
}

#[test]
fn seeking_a_busy_kip848_group_re_runs_from_checkpoints_taken_by_events() {
    // 40 members of a KIP-848 group make more than CHECKPOINT_EVERY_EVENTS
    // events between two-second marks, so seeks restore event-count checkpoints.
    let scenario = group(40, 160, "consumer");
    let script = vec![(9_000, Fault::CrashConsumer { consumer: 5 }), (15_500, Fault::KillBroker { broker: 1 })];
    let order = shuffled_times(0, 30_000, 30, 11);
    let reference = reference(&scenario, &script, &order);
    let mut p = scripted(&scenario, &script);
    p.dispatch(Action::Seek(30_000));
    assert!(p.checkpoint_count() > 15, "checkpoints by events as well as by time: {}", p.checkpoint_count());
    check_seeks(&mut p, &order, &reference);
}

#[test]
fn after_a_fork_seeking_shows_the_new_timeline_as_played_straight() {
    let scenario = Scenario::demo();
    let mut p = Player::new(scenario.clone()).unwrap();
    p.dispatch(Action::Seek(12_000));
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    p.dispatch(Action::Seek(40_000));
    // Back into the past, and act there: the crash at 12 s is discarded.
    p.dispatch(Action::Seek(8_000));
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 3 }));
    p.dispatch(Action::Seek(9_500));
    p.dispatch(Action::Inject(Fault::PauseConsumer { consumer: 1, duration_ms: 4000 }));
    p.dispatch(Action::Seek(35_000));
    assert_eq!(
        p.script,
        vec![
            (8_000, Fault::CrashConsumer { consumer: 3 }),
            (9_500, Fault::PauseConsumer { consumer: 1, duration_ms: 4000 })
        ]
    );
    let order = shuffled_times(0, 35_000, 30, 5);
    let reference = reference(&scenario, &p.script.clone(), &order);
    check_seeks(&mut p, &order, &reference);
}

/// Faults injected one after another while paused at one instant (no event
/// processed between them) are replayed the same way: the state a seek shows
/// there is the one the user saw right after injecting them.
#[test]
fn faults_injected_together_while_paused_replay_together() {
    let scenario = Scenario::demo();
    let mut p = Player::new(scenario.clone()).unwrap();
    p.dispatch(Action::Seek(5_000));
    let brokers = ["broker-0", "broker-1", "broker-2"];
    for b in brokers {
        p.dispatch(Action::Inject(Fault::HoldLink { from: "c1".into(), to: b.into() }));
    }
    p.dispatch(Action::Seek(10_000));
    // Releasing queues the held requests for delivery at this very instant;
    // the crash right after comes before they are delivered.
    for b in brokers {
        p.dispatch(Action::Inject(Fault::ReleaseLink { from: "c1".into(), to: b.into() }));
    }
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 1 }));
    assert!(p.world.next_time() == Some(10_000), "released requests wait at this instant");
    let injected = state(&p.world, 0);
    p.dispatch(Action::Seek(30_000));
    p.dispatch(Action::Seek(5_000));
    p.dispatch(Action::Seek(10_000));
    assert!(state(&p.world, 0) == injected, "seeking back to the instant shows what the user saw");
    // A permalink's run (a fresh player with the script) shows it too.
    let mut q = scripted(&scenario, &p.script);
    q.dispatch(Action::Seek(10_000));
    assert!(state(&q.world, 0) == injected);
}

#[test]
fn memory_bounding_never_changes_what_a_seek_shows_in_the_kept_range() {
    let scenario = group(4, 12, "classic");
    let script = vec![(30_000, Fault::CrashConsumer { consumer: 2 }), (90_000, Fault::RestartConsumer { consumer: 2 })];
    let mut p = scripted(&scenario, &script);
    p.set_limits(Limits { trace_events: 4_000, checkpoints: 10 });
    p.dispatch(Action::Seek(180_000));
    let floor = p.floor();
    assert!(floor > 0, "the oldest events were forgotten");
    assert!(p.bounds.forgotten > 0 && p.world.trace.first_id() == p.bounds.forgotten);
    assert!(p.world.trace.stored() <= 4_000, "kept {}", p.world.trace.stored());
    assert!(p.checkpoint_count() <= 10);
    // The crash at 30 s was forgotten with its events; its timeline mark is kept.
    assert!(floor > 30_000, "floor {floor}");
    assert!(p
        .timeline_events()
        .any(|e| e.at == 30_000 && matches!(e.kind, groupscope::sim::trace::EventKind::FaultInjected { .. })));
    let order = shuffled_times(floor, 180_000, 30, 3);
    let reference = reference(&scenario, &script, &order);
    check_seeks(&mut p, &order, &reference);
    assert!(p.checkpoint_count() <= 10);
    // Before the kept range the playhead stops at its start.
    p.dispatch(Action::Seek(0));
    assert_eq!(p.now(), floor);
}

#[test]
fn stepping_back_and_forward_after_a_seek_matches_the_straight_run() {
    let scenario = Scenario::demo();
    let mut p = Player::new(scenario.clone()).unwrap();
    p.dispatch(Action::Seek(15_000));
    for _ in 0..5 {
        p.dispatch(Action::StepBack);
    }
    let t = p.now();
    assert!(t < 15_000);
    let reference = reference(&scenario, &[], &[t]);
    check_seeks(&mut p, &[t], &reference);
}

/// Scrubbing back keeps the timeline's later marks (issue 32): the crash and the
/// rebalance it causes still mark the scrubber after a seek to before them, since
/// replaying finds them again; a fault injected back there forks that future away.
#[test]
fn scrubbing_back_keeps_later_timeline_marks_until_a_fault_forks_the_future() {
    use groupscope::sim::trace::EventKind;
    let scenario = Scenario::demo();
    let script = vec![(30_000, Fault::CrashConsumer { consumer: 2 })];
    let mut p = scripted(&scenario, &script);
    p.dispatch(Action::Seek(60_000));
    let marks = |p: &Player| -> Vec<(Millis, String)> {
        p.timeline_events()
            .filter_map(|e| groupscope::view::timeline_marker(&e.kind).map(|(class, _)| (e.at, class.to_string())))
            .collect()
    };
    let before = marks(&p);
    assert!(before.iter().any(|(at, c)| *at == 30_000 && c == "fault"), "{before:?}");
    assert!(before.iter().any(|(at, c)| *at > 30_000 && c == "rebalance"), "the crash's rebalance: {before:?}");

    p.dispatch(Action::Seek(10_000));
    assert_eq!(p.now(), 10_000);
    assert_eq!(marks(&p), before, "after scrubbing back the same marks stay on the timeline");
    assert!(p.timeline_events().any(|e| e.at == 30_000 && matches!(e.kind, EventKind::FaultInjected { .. })));

    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 1 }));
    let forked = marks(&p);
    assert!(forked.iter().all(|(at, _)| *at <= 10_000), "a fault at 10 s discards the old future's marks: {forked:?}");
    assert!(forked.iter().any(|(at, c)| *at == 10_000 && c == "fault"));
}
