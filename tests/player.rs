//! The time machine behind the page: seeking re-runs deterministically, and
//! acting in the past forks the timeline.
#![cfg(not(target_arch = "wasm32"))]

use groupscope::player::{Action, Player};
use groupscope::sim::trace::trace_hash;
use groupscope::sim::{Fault, Scenario};

fn played_to(ms: u64) -> Player {
    let mut p = Player::new(Scenario::demo()).unwrap();
    p.dispatch(Action::TogglePlay);
    p.dispatch(Action::SetSpeed(1000.0));
    while p.now() < ms {
        p.dispatch(Action::Tick(1.0));
    }
    p
}

#[test]
fn seeking_back_and_forward_again_reproduces_the_same_trace() {
    let mut p = played_to(12_000);
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    p.dispatch(Action::Seek(30_000));
    let reference = (trace_hash(p.events()), p.world.clients.classic(1).unwrap().owned.clone());
    p.dispatch(Action::Seek(5_000));
    assert_eq!(p.now(), 5_000);
    assert!(p.world.clients.classic(2).unwrap().alive, "before the crash c2 is alive again");
    p.dispatch(Action::Seek(30_000));
    assert_eq!((trace_hash(p.events()), p.world.clients.classic(1).unwrap().owned.clone()), reference);
    assert!(!p.world.clients.classic(2).unwrap().alive, "the scripted crash is replayed at its time");
}

#[test]
fn acting_in_the_past_discards_the_old_future() {
    let mut p = played_to(12_000);
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    p.dispatch(Action::Seek(30_000));
    p.dispatch(Action::Seek(8_000));
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 3 }));
    p.dispatch(Action::Seek(30_000));
    assert_eq!(p.script.len(), 1, "the crash of c2 belonged to the discarded future");
    assert!(p.world.clients.classic(2).unwrap().alive);
    assert!(!p.world.clients.classic(3).unwrap().alive);
}

#[test]
fn step_processes_one_event_and_step_back_returns_before_it() {
    let mut p = Player::new(Scenario::demo()).unwrap();
    p.dispatch(Action::Step);
    p.dispatch(Action::Step);
    let after_two = p.events().len();
    let t = p.now();
    p.dispatch(Action::Step);
    assert!(p.events().len() > after_two);
    p.dispatch(Action::StepBack);
    assert!(p.now() <= t);
    assert!(!p.playing);
}

#[test]
fn the_horizon_is_the_furthest_point_reached_until_a_fork() {
    let mut p = played_to(20_000);
    p.dispatch(Action::Seek(5_000));
    assert!(p.horizon >= 20_000, "seeking back keeps the scrubber's end");
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 1 }));
    assert_eq!(p.horizon, 5_000, "acting in the past discards the old future");
}

/// A checkpoint taken while replaying an old timeline must not count the
/// faults that are still ahead of it as applied (seek back, play, seek back again).
#[test]
fn faults_ahead_of_a_replay_checkpoint_still_happen() {
    let mut p = Player::new(Scenario::demo()).unwrap();
    p.dispatch(Action::Seek(10_000));
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    p.dispatch(Action::Seek(30_000));
    let reference = p.world.trace.clone();
    // Back before the crash, forward past a few checkpoints but not the crash, back again.
    p.dispatch(Action::Seek(1_000));
    p.dispatch(Action::Seek(7_000));
    p.dispatch(Action::Seek(5_000));
    p.dispatch(Action::Seek(30_000));
    assert!(!p.world.clients.classic(2).unwrap().alive, "the crash at 10 s happened again");
    assert_eq!(p.world.trace, reference, "the replay is the same run");
}

/// A lesson's missed try (LessonSession::retry) takes its fault back at the very
/// instant it was injected: seeking to that instant must rebuild the world
/// without it, not run on with the fault still applied.
#[test]
fn a_fault_taken_back_at_its_own_instant_leaves_the_world_as_before_it() {
    let mut p = played_to(12_000);
    p.dispatch(Action::Pause);
    let at = p.now();
    let before = (trace_hash(p.events()), p.script.len(), p.world.injected.len());
    p.dispatch(Action::Inject(Fault::CrashConsumer { consumer: 2 }));
    assert!(!p.world.clients.classic(2).unwrap().alive);
    p.unscript_from(before.1);
    p.seek(at);
    assert_eq!(p.now(), at);
    assert_eq!((trace_hash(p.events()), p.script.len(), p.world.injected.len()), before);
    assert!(p.world.clients.classic(2).unwrap().alive, "the taken-back crash is not applied");
}

/// "Apply and restart" keeps the user's faults where the new scenario has a place
/// for them (issue 32): with one consumer fewer, the crash of c2 happens again at
/// its time and the crash of c3, who no longer exists, is dropped with the reason.
#[test]
fn a_restart_with_a_new_scenario_keeps_the_faults_that_still_apply_and_names_the_others() {
    let script = vec![(10_000, Fault::CrashConsumer { consumer: 2 }), (20_000, Fault::CrashConsumer { consumer: 3 })];
    let mut smaller = Scenario::demo();
    smaller.groups[0].consumers = 2;
    let (mut p, dropped) = Player::restarted_with(smaller, &script).unwrap();
    assert_eq!(p.script, script[..1].to_vec(), "c2's crash is kept");
    assert_eq!(dropped.len(), 1);
    assert_eq!((dropped[0].at, &dropped[0].fault), (20_000, &script[1].1));
    assert!(dropped[0].why.contains("c3"), "the reason names the missing consumer: {}", dropped[0].why);
    assert_eq!(p.now(), 0, "the run restarts from the beginning");
    p.dispatch(Action::Seek(15_000));
    assert!(!p.world.clients.classic(2).unwrap().alive, "the kept crash happens again at its time");
    assert!(p.world.clients.classic(1).unwrap().alive);

    let (same, none) = Player::restarted_with(Scenario::demo(), &script).unwrap();
    assert_eq!((same.script, none), (script, vec![]), "an unchanged scenario keeps every fault");
}

/// The caption's offer for a slow consumer: the same run from the start with a
/// shorter max.poll.interval.ms for its group, the user's faults kept, so the
/// member leaves (ConsumerCoordinator's poll timer) within the shorter interval.
#[test]
fn replaying_with_a_shorter_poll_interval_keeps_the_faults_and_shows_the_leave_sooner() {
    use groupscope::sim::note::Note;
    use groupscope::sim::trace::EventKind;
    let mut p = Player::new(Scenario::demo()).unwrap();
    p.dispatch(Action::Seek(20_000));
    p.dispatch(Action::Inject(Fault::SlowProcessing { consumer: 2, ms_per_record: 200_000 }));
    let (mut short, dropped) = p.with_max_poll_interval("demo", 30_000).unwrap();
    assert!(dropped.is_empty());
    assert_eq!(short.script, p.script, "the slow-down is kept");
    assert_eq!(short.scenario.groups[0].config.max_poll_interval_ms, 30_000);
    short.dispatch(Action::Seek(80_000));
    let left = short
        .events()
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Note { note: Note::PollTimeoutLeaving { .. }, .. }))
        .map(|e| e.at);
    assert!(left.is_some_and(|at| at > 20_000 && at <= 20_000 + 30_000 + 5_000), "left at {left:?}");
    assert!(p.with_max_poll_interval("nope", 30_000).is_err());
}
