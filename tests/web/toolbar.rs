//! The header: play and pause (button and keys), step and step back, reset,
//! the tabs, help and the legend, the folded menu, the language and presenter
//! mode.

use crate::page::{storage, Page};
use groupscope::i18n::{tr, Lang};
use wasm_bindgen_test::wasm_bindgen_test;

fn pressed(page: &Page, selector: &str) -> Option<String> {
    page.attr(selector, "aria-pressed")
}

#[wasm_bindgen_test]
async fn play_space_and_k_toggle_the_run_and_the_button_says_so() {
    let page = Page::open().await;
    assert_eq!(pressed(&page, "#play").as_deref(), Some("false"), "the page opens paused");
    page.click("#play").await;
    assert_eq!(pressed(&page, "#play").as_deref(), Some("true"));
    page.until("the playing run to move", |p| p.time() > 0).await;
    page.key(" ").await;
    assert_eq!(pressed(&page, "#play").as_deref(), Some("false"), "Space pauses");
    let paused = page.time();
    page.key("k").await;
    assert_eq!(pressed(&page, "#play").as_deref(), Some("true"), "k plays");
    page.until("the run to go on from where it paused", |p| p.time() > paused).await;
    page.key("k").await;
    assert_eq!(pressed(&page, "#play").as_deref(), Some("false"));
}

#[wasm_bindgen_test]
async fn step_back_returns_to_each_moment_a_step_reached() {
    let page = Page::open().await;
    let mut moments = vec![page.time()];
    for _ in 0..40 {
        page.click("#step").await;
        if page.time() != *moments.last().unwrap() {
            moments.push(page.time());
        }
        if moments.len() == 4 {
            break;
        }
    }
    assert_eq!(moments.len(), 4, "steps move the playhead forward: {moments:?}");
    assert!(moments.windows(2).all(|w| w[0] < w[1]), "{moments:?}");
    page.click("#step-back").await;
    assert_eq!(page.time(), moments[2], "back to the moment before the last step");
    page.key("ArrowLeft").await;
    assert_eq!(page.time(), moments[1], "← steps back too");
    page.key("ArrowRight").await;
    assert_eq!(page.time(), moments[2], "→ steps forward");
    assert_eq!(pressed(&page, "#play").as_deref(), Some("false"), "stepping never starts the clock");
}

#[wasm_bindgen_test]
async fn reset_goes_back_to_the_start_of_the_run() {
    let page = Page::open_at(12_000).await;
    assert_eq!(page.attr("[data-group=\"demo\"]", "data-group-state").as_deref(), Some("Stable"));
    let (log, title) = (page.count("#event-log li"), page.attr("#reset", "title"));
    page.click("#reset").await;
    assert_eq!(page.time(), 0);
    assert_eq!(page.attr("#play", "aria-pressed").as_deref(), Some("false"));
    assert!(page.count("#event-log li") < log, "the log starts again");
    assert_eq!(page.attrs("tr[data-partition]", "data-owner"), [""; 6], "nobody owns anything again");
    assert_eq!(page.attr("#reset", "title"), title, "no faults of the user's to keep");
    assert!(!page.has("#reset-clear"));
    page.step_on("the run starts over").await;
}

#[wasm_bindgen_test]
async fn each_tab_presses_its_own_button_and_shows_its_panel() {
    let page = Page::open().await;
    assert_eq!(page.attrs("nav.tabs button[aria-pressed=\"true\"]", "id"), ["tab-sim"]);
    for (tab, panel) in [
        ("tab-lessons", "#lessons, #lessons-loading"),
        ("tab-compare", "#compare"),
        ("tab-config", "#config"),
        ("tab-lab", "#lab"),
        ("tab-explain", "#explain"),
        ("tab-sim", "#topology"),
    ] {
        page.click(&format!("#{tab}")).await;
        assert_eq!(page.attrs("nav.tabs button[aria-pressed=\"true\"]", "id"), [tab], "one tab pressed at a time");
        assert!(page.has(panel), "{tab} shows {panel}");
        assert_eq!(page.has("#topology"), tab == "tab-sim", "the drawing shows on the Simulation tab only");
    }
}

#[wasm_bindgen_test]
async fn help_is_a_dialog_opened_by_its_button_or_question_mark_and_l_shows_the_legend() {
    let page = Page::open().await;
    assert!(!page.has("#help"));
    page.click("#help-button").await;
    assert_eq!(page.attr("#help", "role").as_deref(), Some("dialog"));
    assert!(page.attr("#help", "aria-label").is_some_and(|l| !l.is_empty()), "the dialog is named");
    assert_eq!(pressed(&page, "#help-button").as_deref(), Some("true"));
    page.click("#help-ok").await;
    assert!(!page.has("#help"));
    assert_eq!(pressed(&page, "#help-button").as_deref(), Some("false"));
    page.key("?").await;
    assert!(page.has("#help[role=\"dialog\"]"), "? opens help");
    page.key("Escape").await;
    assert!(!page.has("#help"), "Escape closes it");
    assert!(!page.has("#legend"));
    page.key("l").await;
    assert!(page.attr("#legend", "aria-label").is_some(), "l shows the legend, a named section");
    page.key("l").await;
    assert!(!page.has("#legend"));
}

#[wasm_bindgen_test]
async fn the_folded_menu_says_whether_it_is_open() {
    let page = Page::open().await;
    assert_eq!(page.attr("#more-button", "aria-controls").as_deref(), Some("more-menu"));
    assert!(page.has("#more-menu #permalink") && page.has("#more-menu #export-run"));
    assert_eq!(page.attr("#more-button", "aria-expanded").as_deref(), Some("false"));
    assert!(!page.has_class("#more", "open"));
    page.click("#more-button").await;
    assert_eq!(page.attr("#more-button", "aria-expanded").as_deref(), Some("true"));
    assert!(page.has_class("#more", "open"));
    page.click("#more-button").await;
    assert_eq!(page.attr("#more-button", "aria-expanded").as_deref(), Some("false"));
}

#[wasm_bindgen_test]
async fn the_language_switch_relabels_the_page_and_is_remembered() {
    let page = Page::open().await;
    let html = gloo::utils::document().document_element().unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("en"));
    assert_eq!(page.text("#play"), tr(Lang::En, "play"));
    page.fill("#lang", "zh-CN").await;
    assert_eq!(html.get_attribute("lang").as_deref(), Some("zh-CN"), "screen readers are told");
    assert_eq!(page.text("#play"), tr(Lang::Zh, "play"));
    assert_eq!(page.text("#tab-config"), tr(Lang::Zh, "tab.config"));
    assert_eq!(storage().get_item("groupscope.lang").unwrap().as_deref(), Some("zh-CN"), "kept for the next visit");
    page.fill("#lang", "en").await;
    assert_eq!(html.get_attribute("lang").as_deref(), Some("en"));
    assert_eq!(page.text("#play"), tr(Lang::En, "play"));
}

#[wasm_bindgen_test]
async fn presenter_mode_and_its_blank_screen_pause_the_room() {
    let page = Page::open().await;
    page.click("#presenter").await;
    assert_eq!(pressed(&page, "#presenter").as_deref(), Some("true"));
    assert!(page.has(".groupscope.presenter"));
    assert_eq!(pressed(&page, "#panels-button").as_deref(), Some("false"), "the side panels are folded");
    page.click("#panels-button").await;
    assert_eq!(pressed(&page, "#panels-button").as_deref(), Some("true"));
    page.click("#play").await;
    page.key("b").await;
    assert_eq!(page.attr("#blank", "role").as_deref(), Some("status"));
    assert_eq!(pressed(&page, "#play").as_deref(), Some("false"), "a blank screen pauses the run");
    let blanked = page.time();
    crate::page::sleep(100).await;
    page.flush().await;
    assert_eq!(page.time(), blanked);
    page.key("b").await;
    assert!(!page.has("#blank"), "b again brings the drawing back");
    page.key("p").await;
    assert_eq!(pressed(&page, "#presenter").as_deref(), Some("false"), "p leaves presenter mode");
    assert!(!page.has(".groupscope.presenter"));
    assert!(!page.has("#panels-button"));
}
