//! Wrap-ups that say what the run shows (issue 32): after the learner's own
//! fault, lesson 2's last words name the generation and leader the page draws,
//! not the ones the author saw before the task.

use groupscope::lesson::live_text::{check, fill};
use groupscope::lesson::{lessons, LessonSession, Phase};

#[test]
fn lesson_2_s_wrap_up_names_the_generation_and_leader_after_the_learner_crashed_the_leader() {
    let lesson = lessons().expect("the course parses").iter().find(|l| l.number == 2).expect("lesson 2").clone();
    let (mut s, mut player) = LessonSession::start(lesson.clone()).expect("starts");
    while s.phase != Phase::Free {
        let answer = s.question().map(|q| q.answer.clone());
        let reached = s.play_step_through(&mut player, answer).expect("the step's event happens");
        assert_eq!(reached.missed, None, "the task's answer reaches its goal");
        s.next(&mut player);
    }
    let view = groupscope::view::groups(&player.world);
    let demo = view.iter().find(|g| g.group_id == "demo").expect("group demo");
    assert!(demo.generation >= 2, "the learner's crash of c1 made a new generation");
    assert_ne!(demo.leader.as_deref(), Some("c1"), "c1 crashed");
    for words in [&lesson.try_it.text.en, &lesson.try_it.text.zh] {
        let shown = fill(words, &player.world);
        assert!(!shown.contains('{'), "every placeholder filled: {shown}");
        assert!(shown.contains(&demo.generation.to_string()), "{shown}");
        assert!(shown.contains(demo.leader.as_deref().expect("a leader")), "{shown}");
        assert!(
            !shown.contains("generation 1,") && !shown.contains("第 1 代"),
            "not the author's generation 1: {shown}"
        );
    }
}

#[test]
fn a_misspelt_placeholder_or_a_group_the_scenario_lacks_is_explained() {
    let groups = vec!["demo".to_string()];
    assert!(check("generation {generation:demo}, down: {crashed}", &groups).is_empty());
    let unknown = check("the {leeder:demo}", &groups);
    assert!(
        unknown.iter().any(|e| e.contains("unknown placeholder {leeder}") && e.contains("{leader:GROUP}")),
        "{unknown:?}"
    );
    let group = check("{state:payments}", &groups);
    assert!(group.iter().any(|e| e.contains("names no group of the scenario (demo)")), "{group:?}");
}
