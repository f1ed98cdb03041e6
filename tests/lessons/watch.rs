//! Slow motion around the watched event (issue 32): played as the page plays
//! it, one 60 Hz animation frame at a time at the lesson's speed, the
//! messages that lead to the event a question or task is about stay in the
//! drawing for at least 1.5 s of wall time, and the simulation's trace is the
//! one the headless runner gets (only wall-clock pacing changes).

use super::*;
use groupscope::sim::trace::{trace_hash, Event, EventKind};
use groupscope::sim::NodeId;
use std::collections::BTreeSet;

/// One display frame at 60 Hz.
const FRAME_MS: f64 = 1000.0 / 60.0;

/// The messages of the event `e`: the one whose delivery it was handled in
/// (its `cause`, at the same instant), and the one whose delivery sent that
/// one, if any. None for an event a timer made (a session timeout).
fn event_messages(trace: &[Event], e: &Event) -> BTreeSet<u64> {
    let by_id = |id: usize| trace.iter().find(|x| x.id == id);
    let mut out = BTreeSet::new();
    let (mut cause, mut at) = (e.cause, e.at);
    // A delivery at the same instant: a timer's cause is what set it, earlier.
    while let Some(ev) = cause.and_then(by_id).filter(|ev| ev.at == at && out.len() < 2) {
        let EventKind::MessageDelivered { msg, .. } = ev.kind else { break };
        out.insert(msg);
        let sent = trace.iter().find(|x| matches!(x.kind, EventKind::MessageSent { msg: m, .. } if m == msg));
        (cause, at) = (sent.and_then(|s| s.cause), sent.map_or(0, |s| s.at));
    }
    out
}

/// Plays the current step from its commit to its event, one frame at a
/// time; per frame, the ids of the messages the drawing shows.
fn play_frames(s: &mut LessonSession, player: &mut groupscope::player::Player) -> Vec<BTreeSet<u64>> {
    let mut frames = Vec::new();
    for _ in 0..(120_000.0 / FRAME_MS) as usize {
        if s.phase != Phase::Running {
            break;
        }
        s.tick(player, FRAME_MS);
        frames.push(groupscope::view::messages(&player.world).iter().map(|m| m.id).collect());
    }
    assert_ne!(s.phase, Phase::Running, "the step's event happens within two minutes of wall time");
    frames
}

/// Answers the question (or takes the task's intended option) of the current step.
fn commit(s: &mut LessonSession, player: &mut groupscope::player::Player) -> bool {
    match (s.phase, s.question().map(|q| q.answer.clone()), s.task().map(|t| t.answer)) {
        (Phase::Question, Some(a), _) => s.answer(player, a).is_ok(),
        (Phase::Act, _, Some(o)) => s.choose(player, o).is_ok(),
        _ => false,
    }
}

#[test]
fn lesson_1s_find_coordinator_round_trip_stays_in_the_drawing_two_seconds_at_the_lessons_speed() {
    let lesson = groupscope::lesson::find("1").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson.clone()).unwrap();
    player.dispatch(Action::SetSpeed(f64::from(lesson.speed)));
    assert_eq!(s.phase, Phase::Question, "step 1 asks which broker coordinates payments");
    assert!(commit(&mut s, &mut player));
    let mut shown = 0.0;
    let mut frames = 0;
    let (mut find_coordinator, mut named) = (BTreeSet::new(), BTreeSet::new());
    while s.phase == Phase::Running && frames < 10_000 {
        s.tick(&mut player, FRAME_MS);
        frames += 1;
        let c1 = NodeId::Client(1);
        let flying = player
            .world
            .in_flight()
            .filter(|m| m.label.starts_with("FindCoordinator") && (m.from == c1 || m.to == c1))
            .map(|m| m.id)
            .collect::<Vec<_>>();
        let drawn: Vec<u64> = groupscope::view::messages(&player.world).iter().map(|m| m.id).collect();
        if flying.iter().any(|id| drawn.contains(id)) {
            shown += FRAME_MS;
        }
        find_coordinator.extend(flying);
        if let Some(w) = s.slow_motion(&player).filter(|w| w.slow_at(player.now())) {
            named.extend(w.messages.iter().copied());
        }
    }
    assert_eq!(s.phase, Phase::Reached);
    assert!(
        shown >= 1500.0,
        "c1's FindCoordinator request and response are drawn for {shown:.0} ms of wall time at {}×: \
         over before the learner looks up from the question",
        lesson.speed
    );
    // Not the whole step slowed down: about the hold, not many times it.
    assert!(frames as f64 * FRAME_MS < 4.0 * groupscope::lesson::session::watch::HOLD_WALL_MS, "{frames} frames");
    // What the page names as slowed down is that round trip, request and response.
    assert_eq!(find_coordinator.len(), 2, "{find_coordinator:?}");
    assert_eq!(named, find_coordinator);
}

#[test]
fn every_watched_event_of_the_course_is_drawn_for_a_second_and_a_half_and_the_trace_is_the_runners() {
    let mut short = Vec::new();
    let mut checked = 0;
    for lesson in course() {
        let headless = run(lesson, Answers::Correct).unwrap();
        let (mut s, mut player) = LessonSession::start(lesson.clone()).unwrap();
        player.dispatch(Action::SetSpeed(f64::from(lesson.speed)));
        while s.phase != Phase::Free {
            let at = format!("lesson {} step {} ({})", lesson.number, s.step + 1, s.current().id);
            let scan = player.world.trace.len();
            let watched = commit(&mut s, &mut player);
            player.playing = true;
            let frames = play_frames(&mut s, &mut player);
            assert_eq!(s.phase, Phase::Reached, "{at}: the intended answer reaches the step's event");
            if watched {
                let trace = player.world.trace.as_slice();
                let until = &s.current().until;
                let event = player.world.trace[scan..].iter().find(|e| until.matches(&player.world, e));
                if let Some(e) = event {
                    let msgs = event_messages(trace, e);
                    if !msgs.is_empty() {
                        checked += 1;
                        let wall = frames.iter().filter(|f| !f.is_disjoint(&msgs)).count() as f64 * FRAME_MS;
                        if wall < 1500.0 {
                            short.push(format!("{at}: {wall:.0} ms"));
                        }
                    }
                }
            }
            s.next(&mut player);
        }
        assert_eq!(
            trace_hash(&player.world.trace),
            headless.trace_hash,
            "lesson {}: slow motion changes only the pacing, never the simulation",
            lesson.number
        );
    }
    assert!(checked >= 20, "only {checked} watched events are made by messages");
    assert!(short.is_empty(), "watched events drawn for less than 1.5 s of wall time:\n{}", short.join("\n"));
}
