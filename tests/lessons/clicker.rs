//! A presenter's clicker in the course (issue 32): PageDown alone carries a
//! room through every lesson and on to the next, PageUp goes back, and the
//! clicker's blank-screen keys (`b`, `.`) never answer.

use groupscope::lesson::clicker::{press, Press};
use groupscope::lesson::{lessons, LessonSession, Phase};
use groupscope::player::Player;

/// Applies a press as the page's lesson panel does; `None` while a step plays
/// is the page's PageDown outside the lesson's keys: one step of the run.
fn apply(s: &mut LessonSession, player: &mut Player, p: Press) -> Result<(), String> {
    match p {
        Press::Answer(c) => s.answer(player, c).map(|_| ()),
        Press::Choose(i) => s.choose(player, i),
        Press::Reveal => s.reveal(player).map(|_| ()),
        Press::Retry => s.retry(player),
        Press::Next => {
            s.next(player);
            Ok(())
        }
        Press::Open { .. } => Err("opening a lesson is the caller's".into()),
    }
}

#[test]
fn pagedown_alone_carries_a_presenter_through_every_lesson_of_the_course() {
    let course = lessons().expect("the course parses");
    let mut lesson = course.iter().min_by_key(|l| l.number).expect("a course has lessons").clone();
    let mut opened = vec![lesson.number];
    let (mut s, mut player) = LessonSession::start(lesson.clone()).expect("starts");
    for _ in 0..200_000 {
        match press(&s, "PageDown", true) {
            Some(Press::Answer(c)) => panic!("PageDown answered {c:?} in lesson {} step {}", lesson.number, s.step + 1),
            Some(Press::Open { number, step }) => {
                assert_eq!(step, 0, "the next lesson opens at its start");
                lesson = course.iter().find(|l| l.number == number).expect("a course lesson").clone();
                opened.push(number);
                (s, player) = LessonSession::start(lesson.clone()).expect("starts");
            }
            Some(p) => apply(&mut s, &mut player, p)
                .unwrap_or_else(|e| panic!("lesson {} step {}: {e}", lesson.number, s.step + 1)),
            None if s.phase == Phase::Running => {
                if player.playing {
                    s.tick(&mut player, 100.0);
                } else {
                    s.step_event(&mut player);
                }
            }
            None if s.phase == Phase::Free => break,
            None => panic!("PageDown does nothing in lesson {} step {} ({:?})", lesson.number, s.step + 1, s.phase),
        }
        assert_ne!(
            s.phase,
            Phase::Missed,
            "'show me' reaches the task's goal (lesson {} step {})",
            lesson.number,
            s.step + 1
        );
    }
    let mut all: Vec<u32> = course.iter().map(|l| l.number).collect();
    all.sort();
    assert_eq!(opened, all, "every lesson, in order");
    assert_eq!(s.phase, Phase::Free, "the last lesson was played to its end");
}

#[test]
fn the_blank_screen_keys_never_answer_a_question_or_take_a_task_option_in_presenter_mode() {
    let course = lessons().expect("the course parses");
    let mut questions = 0;
    let mut tasks = 0;
    for lesson in course {
        for index in 0..lesson.steps.len() {
            let step = &lesson.steps[index];
            if step.question.is_none() && step.task.is_none() {
                continue;
            }
            let (s, _) = LessonSession::open_at(lesson.clone(), index).expect("opens");
            if !matches!(s.phase, Phase::Question | Phase::Act) {
                continue;
            }
            questions += usize::from(s.phase == Phase::Question);
            tasks += usize::from(s.phase == Phase::Act);
            for key in ["b", "B", ".", "a", "c"] {
                assert_eq!(press(&s, key, true), None, "'{key}' in lesson {} step {}", lesson.number, index + 1);
            }
            // At a desk, letters still pick the choice at their position.
            if s.phase == Phase::Question {
                assert!(
                    matches!(press(&s, "b", false), Some(Press::Answer(_))),
                    "lesson {} step {}",
                    lesson.number,
                    index + 1
                );
            }
        }
    }
    assert!(questions > 20 && tasks > 3, "the course's questions ({questions}) and tasks ({tasks}) were all tried");
}

#[test]
fn pageup_goes_back_to_the_step_before_a_waiting_question_and_to_the_start_of_a_playing_step() {
    let lesson = lessons().expect("the course parses").iter().find(|l| l.number == 2).expect("lesson 2").clone();
    let index = (1..lesson.steps.len()).find(|i| lesson.steps[*i].question.is_some()).expect("a question after step 1");
    let (mut s, mut player) = LessonSession::open_at(lesson.clone(), index).expect("opens");
    assert_eq!(s.phase, Phase::Question);
    assert_eq!(press(&s, "PageUp", true), Some(Press::Open { number: 2, step: index - 1 }));
    s.reveal(&mut player).expect("reveals");
    assert_eq!(press(&s, "PageUp", true), Some(Press::Open { number: 2, step: index }), "back to this step's question");
    assert_eq!(press(&s, "PageUp", false), None, "at a desk PageUp steps the run back");
}
