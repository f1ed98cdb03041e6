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
