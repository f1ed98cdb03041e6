//! A lesson as a learner plays it on the page: open it from the course list,
//! predict, commit, watch, see the verdict, act on a task, go on; and what
//! the page keeps (progress, the order of choices).

use super::*;
use groupscope::lesson::conceal::Kind;
use groupscope::lesson::Choice;
use groupscope::page::Tab;

/// Lesson 1, "Finding the coordinator": step 1 asks which broker
/// coordinates `payments` (click a broker; broker-1), step 2 is a choice
/// question, step 5 a task (kill the broker that leads
/// `__consumer_offsets-13`: option 1).
const LESSON: u32 = 1;
const TASK_STEP: usize = 4;
/// Frames enough for any step of lesson 1 to reach its event.
const FRAMES: usize = 20_000;

fn in_lesson(step: usize) -> Page {
    let mut page = Page::open();
    page.send(Msg::SetTab(Tab::Lessons));
    page.lesson(LessonMsg::Open(LESSON, step));
    page
}

fn reached(page: &Page) -> bool {
    page.phase() == Phase::Reached
}

#[test]
fn opening_a_lesson_shows_its_run_at_its_own_speed_and_keeps_the_learners_place() {
    let mut page = Page::open();
    page.send(Msg::SetTab(Tab::Lessons));
    let effects = page.lesson(LessonMsg::Open(LESSON, 0));
    assert_eq!(page.state.tab, Tab::Simulation, "the lesson plays where the drawing is");
    let lesson = groupscope::lesson::find("1").expect("lesson 1");
    assert_eq!(page.run().player.scenario, lesson.scenario);
    assert_eq!(page.run().player.speed, f64::from(lesson.speed));
    assert_eq!(page.phase(), Phase::Question);
    assert!(!page.playing(), "the run waits for the prediction");
    let saved = saved_progress(&effects).expect("opening a lesson keeps the learner's place");
    assert_eq!((saved.lesson.as_str(), saved.step.as_str()), (lesson.id.as_str(), "ask-any-broker"));
    assert!(!saved.finished);
}

#[test]
fn a_waiting_question_hides_the_coordinator_from_the_drawing_until_answered() {
    let mut page = in_lesson(0);
    assert!(page.run().concealed().hides(Kind::Coordinator, "payments"), "the drawing would give the answer away");
    page.press(NodeId::Broker(1));
    assert!(page.run().concealed().is_empty(), "once committed, the run shows everything");
}

#[test]
fn predict_commit_watch_then_the_verdict_once_the_event_happens() {
    let mut page = in_lesson(0);
    // A click on a broker is the prediction.
    let effects = page.press(NodeId::Broker(1));
    assert_eq!(page.phase(), Phase::Running);
    assert!(page.playing(), "committing plays the run");
    let predicted = page.session().prediction().expect("the committed prediction shows").clone();
    assert_eq!(predicted.chosen, Some(Choice::Target("broker-1".into())));
    assert!(page.session().verdict().is_none(), "no verdict while watching");
    assert_eq!(
        saved_progress(&effects).and_then(|p| p.answers.get("ask-any-broker")),
        Some(&true),
        "the answer is kept at once"
    );
    assert!(page.frames_until(FRAMES, reached), "the step's event happens");
    assert!(!page.playing(), "the run pauses on the event");
    let verdict = page.session().verdict().expect("the verdict shows now").clone();
    assert!(verdict.correct);
    assert_eq!(page.state.selection, None, "the press answered; it selected nothing");
}

#[test]
fn a_press_on_a_node_the_question_does_not_offer_selects_it_instead() {
    let mut page = in_lesson(0);
    page.press(NodeId::Client(1));
    assert_eq!(page.phase(), Phase::Question, "c1 is not one of the brokers asked about");
    assert_eq!(page.state.selection, Some(Selection::Node(NodeId::Client(1))));
}

#[test]
fn next_after_the_event_asks_the_next_question_and_saves_the_new_place() {
    let mut page = in_lesson(0);
    page.press(NodeId::Broker(1));
    assert!(page.frames_until(FRAMES, reached));
    let effects = page.lesson(LessonMsg::Next);
    assert_eq!((page.session().step, page.phase()), (1, Phase::Question));
    assert_eq!(saved_progress(&effects).map(|p| p.step.as_str()), Some("second-group"));
}

#[test]
fn reveal_shows_the_answer_without_a_choice_once_the_event_happens() {
    let mut page = in_lesson(1);
    assert!(page.session().question().is_some_and(|q| !q.choices.is_empty()), "step 2 offers choices");
    page.lesson(LessonMsg::Reveal);
    assert_eq!(page.phase(), Phase::Running);
    assert!(page.frames_until(FRAMES, reached));
    let verdict = page.session().verdict().expect("the answer shows").clone();
    assert_eq!(verdict.chosen, None, "revealed, not chosen");
    assert_eq!(verdict.answer, Choice::Index(2));
}

#[test]
fn a_wrong_answer_is_kept_as_wrong_and_the_run_is_the_same() {
    let mut right = in_lesson(1);
    let mut wrong = in_lesson(1);
    right.lesson(LessonMsg::Answer(Choice::Index(2)));
    let effects = wrong.lesson(LessonMsg::Answer(Choice::Index(0)));
    assert_eq!(saved_progress(&effects).and_then(|p| p.answers.get("second-group")), Some(&false));
    assert!(right.frames_until(FRAMES, reached) && wrong.frames_until(FRAMES, reached));
    assert!(!wrong.session().verdict().expect("a verdict").correct);
    assert_eq!(right.now(), wrong.now(), "an answer never changes what happens");
}

#[test]
fn a_task_tried_the_wrong_way_is_missed_with_a_hint_and_retry_goes_back() {
    let mut page = in_lesson(TASK_STEP);
    assert_eq!(page.phase(), Phase::Act);
    let (before, script) = (page.now(), page.run().player.script.clone());
    page.lesson(LessonMsg::Choose(0));
    assert!(page.frames_until(FRAMES, |p| p.phase() == Phase::Missed), "killing broker-0 moves no coordinator");
    assert!(!page.session().hints().is_empty(), "the learner is told what to look at");
    page.lesson(LessonMsg::Retry);
    assert_eq!(page.phase(), Phase::Act);
    assert_eq!(page.now(), before, "back to before the try");
    assert_eq!(page.run().player.script, script, "the missed try's fault is gone");
}

#[test]
fn a_task_done_right_reaches_its_goal_and_the_last_next_frees_the_run() {
    let mut page = in_lesson(TASK_STEP);
    page.lesson(LessonMsg::Choose(1));
    assert!(page.frames_until(FRAMES, reached), "killing broker-1 moves the coordinator");
    assert!(page.session().tries[TASK_STEP].1, "the task is done");
    let effects = page.lesson(LessonMsg::Next);
    assert_eq!(page.phase(), Phase::Free, "after the last step the run is the learner's");
    assert!(saved_progress(&effects).is_some_and(|p| p.finished), "the course list shows the lesson done");
}

#[test]
fn the_toolbars_step_inside_a_lesson_goes_on_from_a_reached_event() {
    let mut page = in_lesson(0);
    page.press(NodeId::Broker(1));
    assert!(page.frames_until(FRAMES, reached));
    page.send(Msg::Action(Action::Step));
    assert_eq!((page.session().step, page.phase()), (1, Phase::Question));
}

#[test]
fn leaving_a_lesson_keeps_its_run_on_screen() {
    let mut page = in_lesson(0);
    page.press(NodeId::Broker(1));
    page.frames_until(50, |_| false);
    let now = page.now();
    page.lesson(LessonMsg::Exit);
    assert!(page.run().lesson.is_none());
    assert_eq!(page.now(), now);
    assert!(page.run().concealed().is_empty());
}

#[test]
fn the_first_lesson_keeps_this_browsers_seed_and_later_lessons_reuse_it() {
    let mut page = Page::open();
    let first = page.lesson(LessonMsg::Open(LESSON, 0));
    assert!(first.contains(&Effect::SaveLearnerSeed(FRESH_SEED)));
    assert_eq!(page.session().learner, Some(FRESH_SEED));
    let second = page.lesson(LessonMsg::Open(2, 0));
    assert!(!second.iter().any(|e| matches!(e, Effect::SaveLearnerSeed(_))), "drawn once, then kept");
    assert_eq!(page.session().learner, Some(FRESH_SEED));
}

#[test]
fn same_order_for_everyone_shows_the_authored_order_and_is_kept() {
    let mut page = in_lesson(1);
    let effects = page.lesson(LessonMsg::SameOrder(true));
    assert!(effects.contains(&Effect::SaveSameOrder(true)));
    assert_eq!(page.session().learner, None);
    assert_eq!(page.session().order(), vec![0, 1, 2, 3], "the choices in the lesson file's order");
    page.lesson(LessonMsg::SameOrder(false));
    assert_eq!(page.session().learner, Some(FRESH_SEED), "this browser's own order again");
}

#[test]
fn a_lesson_link_to_a_step_that_does_not_exist_opens_nothing() {
    let mut page = Page::open();
    page.lesson(LessonMsg::Open(999, 0));
    assert!(page.run().lesson.is_none());
    assert_eq!(page.run().player.scenario, groupscope::sim::Scenario::demo(), "the run is untouched");
}
