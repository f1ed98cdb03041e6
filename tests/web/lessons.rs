//! The lessons: the course list (fetched from the site's lessons/), a lesson
//! step's phases (the question waits, the prediction shows while the run
//! plays, the verdict comes with the event; a task missed, retried, done),
//! the desk keys, progress kept, deep links and leaving. The answers come
//! from the lesson's own file.

use crate::page::{storage, Page};
use serde_json::Value;
use wasm_bindgen_test::wasm_bindgen_test;

const INDEX: &str = include_str!("../../lessons/index.json");
const LESSON_0: &str = include_str!("../../lessons/00-kafka-in-the-simulator.json");

fn lesson_0() -> Value {
    serde_json::from_str(LESSON_0).unwrap()
}

/// The right answer to step `i`'s question of lesson 0.
fn answer(i: usize) -> usize {
    lesson_0()["steps"][i]["question"]["answer"].as_u64().unwrap() as usize
}

fn lesson(page: &Page, data: &str) -> Option<String> {
    page.find("#lesson")?.get_attribute(data)
}

fn phase(page: &Page) -> String {
    lesson(page, "data-phase").unwrap_or_default()
}

/// Opens lesson 0 from its card on the Lessons tab.
async fn open_lesson_0() -> Page {
    let page = Page::open().await;
    page.click("#tab-lessons").await;
    page.until("the course", |p| p.has(".lesson-card[data-lesson=\"0\"]")).await;
    page.click(".lesson-card[data-lesson=\"0\"] .open-lesson").await;
    assert_eq!(phase(&page), "Question");
    page
}

/// Plays on at the fastest speed until the step's event.
async fn fast_until_reached(page: &Page) {
    page.fill("#speed", "1000").await;
    page.until("the step's event", |p| phase(p) == "Reached").await;
}

#[wasm_bindgen_test]
async fn the_lessons_tab_lists_every_lesson_of_the_course() {
    let page = Page::open().await;
    page.click("#tab-lessons").await;
    let files: Vec<String> = serde_json::from_str(INDEX).unwrap();
    page.until("the course to arrive", |p| p.has("#lessons")).await;
    assert!(!page.has("#lessons-loading"));
    assert!(page.attr("#lessons", "aria-label").is_some());
    let numbers: Vec<u32> = page.attrs(".lesson-card", "data-lesson").iter().map(|n| n.parse().unwrap()).collect();
    assert_eq!(numbers.len(), files.len(), "one card per file of lessons/index.json");
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "in course order: {numbers:?}");
    assert_eq!(page.count(".lesson-card .open-lesson"), files.len());
    assert_eq!(page.count(".lesson-card .resume-lesson"), 0, "nothing to resume on a first visit");
}

#[wasm_bindgen_test]
async fn a_lesson_opens_on_its_question_waits_for_an_answer_and_can_be_left() {
    let page = open_lesson_0().await;
    assert_eq!(
        page.attrs("nav.tabs button[aria-pressed=\"true\"]", "id"),
        ["tab-sim"],
        "the lesson drives the simulation"
    );
    assert_eq!(lesson(&page, "data-lesson").as_deref(), Some("0"));
    assert_eq!(lesson(&page, "data-step").as_deref(), Some("1"));
    assert!(page.has("#lesson .question[role=\"group\"]"));
    let mut letters = page.attrs("#lesson .choice[data-choice]", "data-letter");
    letters.sort();
    assert_eq!(letters, ["A", "B", "C", "D"], "four choices, one letter each");
    let mut choices = page.attrs("#lesson .choice", "data-choice");
    choices.sort();
    assert_eq!(choices, ["0", "1", "2", "3"]);
    assert!(!page.has("#lesson .feedback") && !page.has("#lesson-next"));
    assert_eq!(page.value("#speed"), "1", "the lesson's own speed");
    let asked_at = page.time();
    page.click("#play").await;
    crate::page::sleep(100).await;
    page.flush().await;
    assert_eq!(phase(&page), "Question", "the question waits for an answer");
    assert_eq!(page.time(), asked_at, "and so does the run, even with Play pressed");
    assert!(page.attr("#lesson .close", "aria-label").is_some(), "the leave button is named");
    page.click("#lesson .close").await;
    assert!(!page.has("#lesson"));
    page.step_on("left, the simulation runs again").await;
}

#[wasm_bindgen_test]
async fn a_right_answer_shows_the_prediction_then_the_verdict_with_the_event() {
    let page = open_lesson_0().await;
    page.click(&format!("#lesson .choice[data-choice=\"{}\"]", answer(0))).await;
    assert_eq!(phase(&page), "Running", "the run goes on to the step's event");
    assert_eq!(page.attr("#lesson .prediction", "role").as_deref(), Some("status"), "you predicted ..., watch");
    assert!(!page.has("#lesson .feedback"), "no verdict before the event");
    assert_eq!(page.attr("#play", "aria-pressed").as_deref(), Some("true"));
    fast_until_reached(&page).await;
    assert!(page.has("#lesson .feedback.right[role=\"status\"]"));
    assert!(!page.has("#lesson .feedback .why-not"));
    assert!(!page.has("#lesson .prediction"));
    assert_eq!(page.attr("#play", "aria-pressed").as_deref(), Some("false"), "the run pauses on the event");
    page.click("#lesson-next").await;
    assert_eq!(lesson(&page, "data-step").as_deref(), Some("2"));
    assert_eq!(phase(&page), "Question");
}

#[wasm_bindgen_test]
async fn a_wrong_answer_gets_the_verdict_and_its_own_why_not() {
    let page = open_lesson_0().await;
    let wrong = (answer(0) + 1) % 4;
    page.click(&format!("#lesson .choice[data-choice=\"{wrong}\"]")).await;
    fast_until_reached(&page).await;
    assert!(page.has("#lesson .feedback.wrong[role=\"status\"]"));
    let why_not = lesson_0()["steps"][0]["question"]["whyNot"][wrong.to_string()]["en"].as_str().unwrap().to_string();
    assert!(page.text("#lesson .feedback .why-not").contains(&why_not), "the wrong choice's own why-not");
}

#[wasm_bindgen_test]
async fn reveal_gives_the_answer_without_a_choice() {
    let page = open_lesson_0().await;
    page.click("#lesson .reveal").await;
    assert_eq!(phase(&page), "Running");
    fast_until_reached(&page).await;
    assert!(page.has("#lesson .feedback.revealed[role=\"status\"]"));
    assert!(!page.has("#lesson .feedback.right") && !page.has("#lesson .feedback.wrong"));
}

#[wasm_bindgen_test]
async fn at_a_desk_the_letter_shown_answers_and_the_arrow_goes_on() {
    let page = open_lesson_0().await;
    let right = format!("#lesson .choice[data-choice=\"{}\"]", answer(0));
    let letter = page.attr(&right, "data-letter").unwrap().to_lowercase();
    page.key(&letter).await;
    assert_eq!(phase(&page), "Running", "the letter {letter} answered");
    fast_until_reached(&page).await;
    assert!(page.has("#lesson .feedback.right"), "the letter picked the choice shown with it");
    page.key("ArrowRight").await;
    assert_eq!(lesson(&page, "data-step").as_deref(), Some("2"), "→ goes on after the event");
}

#[wasm_bindgen_test]
async fn a_missed_task_shows_its_hint_retry_goes_back_and_the_right_option_is_done() {
    let page = Page::at("#lesson=0&step=4").await;
    page.until("the lesson's task", |p| p.has("#lesson[data-phase=\"Act\"]")).await;
    assert_eq!(lesson(&page, "data-step").as_deref(), Some("4"));
    let task = &lesson_0()["steps"][3]["task"];
    let (right, options) = (task["answer"].as_u64().unwrap() as usize, task["options"].as_array().unwrap().len());
    assert_eq!(page.count("#lesson .task-option[data-option]"), options);
    assert_eq!(page.attr("#lesson .task", "data-tries").as_deref(), Some("0"));
    let start = page.time();
    page.fill("#speed", "1000").await;
    page.click(&format!("#lesson .task-option[data-option=\"{}\"]", (right + 1) % options)).await;
    page.until("the try to miss", |p| phase(p) == "Missed").await;
    assert!(page.has("#lesson .task-missed[role=\"status\"]"));
    assert!(page.text("#lesson .task-missed").contains(task["hint"]["en"].as_str().unwrap()), "the task's hint");
    page.click("#lesson .retry").await;
    assert_eq!(phase(&page), "Act");
    assert_eq!(page.time(), start, "back to before the try");
    assert_eq!(page.attr("#lesson .task", "data-tries").as_deref(), Some("1"));
    page.click(&format!("#lesson .task-option[data-option=\"{right}\"]")).await;
    page.until("the task's goal", |p| phase(p) == "Reached").await;
    assert!(page.has("#lesson .task-done[role=\"status\"]"));
    page.click("#lesson-next").await;
    assert_eq!(phase(&page), "Free", "after the last step: try it yourself");
    let faults = lesson_0()["tryIt"]["faults"].as_array().unwrap().len();
    assert_eq!(page.count("#lesson .try-fault"), faults);
    assert!(page.has("#lesson .next-lesson"), "lesson 1 is one click away");
}

#[wasm_bindgen_test]
async fn progress_is_kept_and_the_lessons_card_offers_to_resume() {
    let page = open_lesson_0().await;
    page.click("#lesson .reveal").await;
    fast_until_reached(&page).await;
    page.click("#lesson-next").await;
    assert_eq!(lesson(&page, "data-step").as_deref(), Some("2"));
    let kept: Value =
        serde_json::from_str(&storage().get_item("groupscope.lessons").unwrap().expect("progress kept")).unwrap();
    let id = lesson_0()["id"].as_str().unwrap().to_string();
    let step = lesson_0()["steps"][1]["id"].as_str().unwrap().to_string();
    assert_eq!(kept[&id]["step"].as_str(), Some(step.as_str()), "{kept}");
    page.click("#tab-lessons").await;
    page.click(".lesson-card[data-lesson=\"0\"] .resume-lesson").await;
    assert_eq!(lesson(&page, "data-lesson").as_deref(), Some("0"));
    assert_eq!(lesson(&page, "data-step").as_deref(), Some("2"), "resumed where the learner was");
}

#[wasm_bindgen_test]
async fn a_deep_link_opens_its_step_and_a_bad_one_is_explained() {
    {
        let page = Page::at("#lesson=4&step=2").await;
        page.until("lesson 4 at step 2", |p| p.has("#lesson[data-lesson=\"4\"][data-step=\"2\"]")).await;
        assert!(!page.has("#notice"));
    }
    for bad in ["#lesson=99", "#lesson=4&step=99"] {
        let page = Page::at(bad).await;
        page.until("the notice", |p| p.has("#notice")).await;
        assert_eq!(page.attr("#notice", "role").as_deref(), Some("status"), "{bad}");
        assert!(!page.has("#lesson"), "{bad} opens no lesson");
        assert!(page.has("g[data-member=\"c1\"]"), "the demo shows instead");
    }
}

#[wasm_bindgen_test]
async fn the_toolbar_shows_the_speed_the_lessons_buttons_set_after_a_speed_was_picked_there() {
    let page = Page::open().await;
    page.fill("#speed", "5").await;
    page.click("#tab-lessons").await;
    page.until("the course", |p| p.has(".lesson-card[data-lesson=\"0\"]")).await;
    page.click(".lesson-card[data-lesson=\"0\"] .open-lesson").await;
    assert_eq!(page.value("#speed"), "1", "the lesson's own speed");
    page.click("#lesson .lesson-faster").await;
    assert_eq!(page.value("#speed"), "2");
    page.click("#lesson .lesson-faster").await;
    assert_eq!(page.value("#speed"), "5", "the toolbar says the speed the run plays at");
    page.click("#lesson .lesson-slower").await;
    assert_eq!(page.value("#speed"), "2");
}
