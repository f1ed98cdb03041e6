//! Questions and tasks: predictions committed before the event, a why-not
//! for each wrong option, shuffled choices, concealed items, and tasks' hints and goals.

use super::*;

#[test]
fn a_prediction_is_committed_and_the_verdict_and_its_why_not_wait_for_the_event() {
    let lesson = groupscope::lesson::find("consumer-crashes").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    while s.question().is_none() {
        let a = s.task().map(|t| Choice::Index(t.answer));
        s.play_step_through(&mut player, a).unwrap();
        s.next(&mut player);
    }
    let q = s.question().unwrap().clone();
    let wrong = (0..q.choices.len()).map(Choice::Index).find(|c| *c != q.answer).unwrap();
    s.answer(&mut player, wrong.clone()).unwrap();
    let committed = s.prediction().expect("while the run plays, the learner sees what they predicted");
    assert_eq!(committed.chosen.as_ref(), Some(&wrong));
    assert!(s.verdict().is_none(), "no right/wrong and no explanation before the step's event");
    let r = loop {
        if let Some(r) = s.tick(&mut player, 16.0) {
            break r;
        }
    };
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    let v = s.verdict().expect("the verdict once the event happened");
    assert!(!v.correct);
    let key = match &wrong {
        Choice::Index(i) => i.to_string(),
        Choice::Target(t) => t.clone(),
    };
    assert_eq!(v.why_not.as_ref(), q.why_not.get(&key), "the chosen wrong option's own why-not");
    assert!(v.why_not.is_some());
    assert!(s.prediction().is_none());
}

#[test]
fn every_wrong_option_needs_its_own_why_not_and_the_answer_none() {
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    let q = |v: &mut serde_json::Value| -> usize {
        v["steps"].as_array().unwrap().iter().position(|s| s["question"]["choices"].is_array()).unwrap()
    };
    let i = q(&mut v);
    let answer = v["steps"][i]["question"]["answer"].as_u64().unwrap();
    let wrong = (0..4).find(|k| *k != answer).unwrap();
    v["steps"][i]["question"]["whyNot"].as_object_mut().unwrap().remove(&wrong.to_string());
    v["steps"][i]["question"]["whyNot"][answer.to_string()] =
        serde_json::json!({ "en": "it is right", "zh": "它是对的" });
    let e = load_error(&v.to_string());
    let id = v["steps"][i]["id"].as_str().unwrap().to_string();
    assert!(e.contains(&format!("step {} ({id}).question.whyNot: choices[{wrong}] has no \"why not\"", i + 1)), "{e}");
    assert!(e.contains(&format!("step {} ({id}).question.whyNot.{answer}: not a wrong option", i + 1)), "{e}");
}

#[test]
fn choices_are_shuffled_per_learner_stably_and_presenters_see_the_authored_order() {
    use groupscope::lesson::fair::order;
    assert_eq!(order(4, None, "consumer-crashes", "crash"), vec![0, 1, 2, 3], "same order for everyone");
    let a = order(4, Some(7), "consumer-crashes", "crash");
    assert_eq!(a, order(4, Some(7), "consumer-crashes", "crash"), "stable for one learner");
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(sorted, vec![0, 1, 2, 3], "a permutation");
    // Over many learners every choice lands in every position.
    let mut seen = [[0u32; 4]; 4];
    for seed in 0..400 {
        for (pos, c) in order(4, Some(seed), "consumer-crashes", "crash").into_iter().enumerate() {
            seen[c][pos] += 1;
        }
    }
    assert!(seen.iter().flatten().all(|n| *n > 50), "{seen:?}");
    // The session labels answers by the learner's letters.
    let lesson = groupscope::lesson::find("consumer-crashes").unwrap().clone();
    let (mut s, _player) = LessonSession::start(lesson).unwrap();
    s.learner = Some(7);
    let step =
        s.lesson.steps.iter().position(|st| st.question.as_ref().is_some_and(|q| !q.choices.is_empty())).unwrap();
    let pos = order(
        s.lesson.steps[step].question.as_ref().unwrap().choices.len(),
        Some(7),
        "consumer-crashes",
        &s.lesson.steps[step].id,
    )
    .iter()
    .position(|c| *c == 1)
    .unwrap();
    assert_eq!(s.letter_of(step, &Choice::Index(1)), Some((b'A' + pos as u8) as char));
}

#[test]
fn a_question_conceals_its_declared_items_only_while_it_waits_and_they_must_exist() {
    use groupscope::lesson::conceal::Kind;
    let lesson = groupscope::lesson::find("finding-the-coordinator").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    assert_eq!(s.phase, Phase::Question);
    assert!(s.concealed().hides(Kind::Coordinator, "payments"), "the question is which broker coordinates payments");
    assert!(!s.concealed().hides(Kind::Coordinator, "shipping"));
    let a = s.question().unwrap().answer.clone();
    s.answer(&mut player, a).unwrap();
    assert!(s.concealed().is_empty(), "once answered, the run may show it");
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    let i = v["steps"].as_array().unwrap().iter().position(|s| s["question"].is_object()).unwrap();
    v["steps"][i]["question"]["conceals"] = serde_json::json!([{ "leader": { "group": "nowhere" } }, { "owners": { "group": "demo" } }, { "ring": { "group": "demo" } }]);
    let e = load_error(&v.to_string());
    assert!(e.contains("unknown variant `ring`"), "{e}");
    v["steps"][i]["question"]["conceals"] =
        serde_json::json!([{ "leader": { "group": "nowhere" } }, { "owners": { "group": "demo" } }]);
    let e = load_error(&v.to_string());
    assert!(e.contains(&"question.conceals[0]: 'nowhere' is not a group of this lesson".to_string()), "{e}");
    assert!(!e.contains("conceals[1]"), "{e}");
}

#[test]
fn a_missed_try_shows_the_hint_goes_back_and_a_right_try_reaches_the_goal() {
    let lesson = groupscope::lesson::find("consumer-crashes").unwrap().clone();
    let (mut s, mut player) = LessonSession::start(lesson).unwrap();
    while s.task().is_none() {
        let a = s.question().map(|q| q.answer.clone());
        s.play_step_through(&mut player, a).unwrap();
        s.next(&mut player);
    }
    let t = s.task().unwrap().clone();
    let before = (player.now(), player.script.len(), groupscope::sim::trace::trace_hash(&player.world.trace));
    assert!(!player.playing, "the run waits for the learner");
    let wrong = (0..t.options.len()).find(|i| *i != t.answer).unwrap();
    let r = s.play_step_through(&mut player, Some(Choice::Index(wrong))).unwrap();
    assert!(r.missed.is_some(), "a wrong try misses the goal");
    assert_eq!(s.phase, Phase::Missed);
    assert_eq!(s.task().map(|t| &t.hint), Some(&t.hint), "the hint is shown");
    s.retry(&mut player).unwrap();
    assert_eq!(
        (player.now(), player.script.len(), groupscope::sim::trace::trace_hash(&player.world.trace)),
        before,
        "back to just before the try"
    );
    assert_eq!(s.phase, Phase::Act);
    let r = s.play_step_through(&mut player, Some(Choice::Index(t.answer))).unwrap();
    assert_eq!(r.missed, None);
    assert_eq!(s.phase, Phase::Reached);
    assert_eq!(s.tries[s.step], (1, true));
}

#[test]
fn every_task_misses_with_each_wrong_option_and_reaches_its_goal_with_its_answer() {
    for lesson in course() {
        for (i, st) in lesson.steps.iter().enumerate() {
            let Some(t) = &st.task else { continue };
            for o in 0..t.options.len() {
                let (mut s, mut player) = LessonSession::open_at(lesson.clone(), i).unwrap();
                let r = s.play_step_through(&mut player, Some(Choice::Index(o))).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    r.missed.is_none(),
                    o == t.answer,
                    "lesson {} step {} option {o}: {:?}",
                    lesson.number,
                    st.id,
                    r.missed
                );
            }
        }
    }
}

#[test]
fn every_lesson_has_a_task_and_no_step_waits_more_than_ten_seconds_of_wall_time() {
    for lesson in course() {
        assert!(lesson.steps.iter().any(|s| s.task.is_some()), "lesson {}: the learner acts", lesson.number);
        let report = run(lesson, Answers::Correct).unwrap();
        for st in &report.steps {
            let wall = (st.reached_at - st.started_at) / u64::from(lesson.speed);
            assert!(
                wall <= groupscope::lesson::model::MAX_WAIT_WALL_MS,
                "lesson {} step {}: {wall} ms of wall time at speed {}",
                lesson.number,
                st.id,
                lesson.speed
            );
        }
    }
    let mut v: serde_json::Value = serde_json::from_str(&demo_lesson()).unwrap();
    for st in v["steps"].as_array_mut().unwrap() {
        st.as_object_mut().unwrap().remove("task");
        if st["until"] == "acted" {
            st["until"] = serde_json::json!({ "elapsed": { "ms": 1 } });
        }
    }
    let e = load_error(&v.to_string());
    assert!(
        e.contains("steps: a lesson needs at least one step where the learner acts (a task); this one has none"),
        "{e}"
    );
}
