//! A lesson as a learner plays it (`LessonSession`): answering, revealing,
//! feedback, deep links into a step, and seeking back to an earlier step.

use super::*;

#[test]
fn lesson_2_asks_in_chinese_whether_the_protocol_is_peer_to_peer_and_the_coordinator_on_the_client() {
    let l = groupscope::lesson::find("joining").expect("lesson 2");
    let q = l
        .steps
        .iter()
        .find_map(|s| s.question.as_ref().filter(|q| q.prompt.zh.contains("协调者在客户端吗？")))
        .expect("the origin question is a prediction");
    assert!(q.prompt.zh.contains("端对端"), "{}", q.prompt.zh);
    assert!(
        q.explanation.zh.contains("协调者在客户端吗？不在。")
            && q.explanation.zh.contains("组协调者（Group Coordinator）运行在 broker 上")
    );
    assert!(
        !l.steps.iter().any(|s| s.narration.zh.contains("不在。")),
        "the narration shown with the question does not answer it"
    );
}

#[test]
fn wrong_and_revealed_answers_play_the_same_simulation_and_say_so() {
    for lesson in course() {
        let right = run(lesson, Answers::Correct).unwrap();
        let wrong = run(lesson, Answers::Wrong).unwrap();
        let shown = run(lesson, Answers::Reveal).unwrap();
        assert_eq!(
            right.trace_hash, wrong.trace_hash,
            "lesson {}: answers must not change the simulation",
            lesson.number
        );
        assert_eq!(right.trace_hash, shown.trace_hash);
        for ((r, w), s) in right.steps.iter().zip(&wrong.steps).zip(&shown.steps) {
            let asked = lesson.steps.iter().find(|st| st.id == r.id).unwrap().question.is_some();
            assert_eq!(r.correct, asked.then_some(true), "lesson {} step {}", lesson.number, r.id);
            assert_eq!(w.correct, asked.then_some(false));
            assert_eq!(s.correct, None);
        }
    }
}

#[test]
fn answering_gives_feedback_with_the_explanation_and_resumes_the_run() {
    let lesson = groupscope::lesson::find("4").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    assert_eq!(s.phase, Phase::Question, "lesson 4 opens with who heartbeats whom");
    assert!(s.choose(&mut player, 0).is_err(), "no task is waiting");
    s.play_step_through(&mut player, None).unwrap();
    s.next(&mut player);
    assert_eq!((s.step, s.phase), (1, Phase::Question));
    assert!(!player.playing, "the simulation waits for the answer");
    let crashed_at = player.now();
    assert!(s.answer(&mut player, Choice::Index(9)).is_err(), "out of range");
    assert!(s.answer(&mut player, Choice::Target("c1".into())).is_err(), "a click on a choice question");
    let f = s.answer(&mut player, Choice::Index(0)).unwrap();
    assert!(!f.correct);
    assert_eq!(f.answer, Choice::Index(3));
    assert!(f.explanation.en.contains("session.timeout.ms") && f.explanation.zh.contains("session.timeout.ms"));
    assert!(player.playing && s.phase == Phase::Running);
    // The page's animation frames: the lesson pauses on the session timeout, not later.
    let mut reached = None;
    for _ in 0..10_000 {
        if let Some(r) = s.tick(&mut player, 16.0) {
            reached = Some(r);
            break;
        }
    }
    let r = reached.expect("the session timeout happens");
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    // The deadline was armed when the join phase ended, 300 ms before the crash:
    // c2's SyncGroup came after the leader's, so it did not re-arm it
    // (GroupMetadataManager.propagateAssignment re-arms only parked SyncGroups).
    assert_eq!(r.at, crashed_at + 6000 - 300, "paused on the event");
    assert!(!player.playing && s.phase == Phase::Reached);
    assert_eq!(s.progress().answers.get("crash"), Some(&false));
    assert_eq!(s.link(), "#lesson=4&step=2");
}

#[test]
fn a_deep_link_opens_the_lesson_at_its_step_with_earlier_steps_played() {
    let (lesson, index) = parse_link("#lesson=4&step=3").expect("link parses");
    assert_eq!((lesson.id.as_str(), index), ("consumer-crashes", 2));
    assert_eq!(parse_link("#lesson=consumer-crashes&step=who-gets-them").map(|(l, i)| (l.number, i)), Some((4, 3)));
    assert!(parse_link("#lesson=4&step=99").is_none());
    let (s, player) = LessonSession::open_at(lesson.clone(), index).unwrap();
    assert_eq!(s.step, 2);
    assert!(!player.world.clients.classic(2).unwrap().alive, "step 2's crash was applied on the way");
    assert_eq!(
        s.feedback[1].as_ref().map(|f| f.chosen.is_none()),
        Some(true),
        "skipped questions are revealed, not answered"
    );
}

#[test]
fn seeking_back_returns_the_lesson_to_the_step_of_that_time_and_replays_identically() {
    let lesson = groupscope::lesson::find("4").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    let mut times = Vec::new();
    while s.phase != Phase::Free {
        let a = s.question().map(|q| q.answer.clone());
        times.push(s.play_step_through(&mut player, a).unwrap().at);
        s.next(&mut player);
    }
    let end_hash = groupscope::sim::trace::trace_hash(&player.world.trace);
    // Back into step 2 (after the crash, before the session timeout).
    player.dispatch(Action::Seek(times[0] + 1000));
    s.resync(&mut player);
    assert_eq!((s.step, s.phase), (1, Phase::Running));
    assert!(!player.world.clients.classic(2).unwrap().alive, "the crash is replayed from the timeline");
    while s.phase != Phase::Free {
        s.play_step_through(&mut player, None).unwrap();
        s.next(&mut player);
    }
    assert_eq!(
        groupscope::sim::trace::trace_hash(&player.world.trace),
        end_hash,
        "the same run, no duplicated actions"
    );
}

#[test]
fn bad_deep_links_say_what_is_wrong_and_a_bad_index_names_its_entry() {
    use groupscope::lesson::registry::{explain_link, parse_index, BadLink};
    let last = course().iter().map(|l| l.number).max().unwrap();
    let steps = groupscope::lesson::find("4").unwrap().steps.len();
    assert_eq!(explain_link("#lesson=99").err(), Some(BadLink::NoLesson { key: "99".into(), first: 0, last }));
    assert_eq!(explain_link("#lesson=abc").err(), Some(BadLink::NoLesson { key: "abc".into(), first: 0, last }));
    assert_eq!(explain_link("#lesson=4&step=99").err(), Some(BadLink::NoStep { lesson: 4, key: "99".into(), steps }));
    assert_eq!(explain_link("#lesson=consumer-crashes&step=crash").map(|(l, i)| (l.number, i)), Ok((4, 1)));
    assert!(parse_index(r#"["01-finding-the-coordinator.json", "../secret.json"]"#)
        .unwrap_err()
        .contains("lessons/index.json[1]: '../secret.json' is not a lesson file name"));
    assert!(parse_index("{}").unwrap_err().contains("expected a JSON array of lesson file names"));
}
