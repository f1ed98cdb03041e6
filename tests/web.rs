//! The app mounted in real headless Chromium (wasm-bindgen-test).
#![cfg(target_arch = "wasm32")]

use groupscope::web::App;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn mount() -> web_sys::Element {
    let doc = gloo::utils::document();
    let root = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    root
}

#[wasm_bindgen_test]
async fn app_renders_brokers_members_and_the_ownership_table() {
    let root = mount();
    yew::scheduler::flush().await;
    assert_eq!(root.query_selector_all("[data-broker]").unwrap().length(), 3);
    assert_eq!(root.query_selector_all("[data-member]").unwrap().length(), 3);
    let rows = root.query_selector_all("tr[data-partition]").unwrap();
    assert_eq!(rows.length(), 6);
    let first = root.query_selector("tr[data-partition=\"orders-0\"]").unwrap().expect("orders-0 row");
    assert_eq!(first.get_attribute("data-owner").as_deref(), Some(""), "nobody owns anything before Play");
    let group = root.query_selector("[data-group=\"demo\"]").unwrap().expect("group panel");
    assert!(group.text_content().unwrap().contains("% 50 = 1"), "the coordinator arithmetic is shown");
    assert!(root.query_selector("#play").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn stepping_advances_the_simulation_one_event_at_a_time() {
    let root = mount();
    yew::scheduler::flush().await;
    let step: web_sys::HtmlElement =
        wasm_bindgen::JsCast::dyn_into(root.query_selector("#step").unwrap().unwrap()).unwrap();
    for _ in 0..3 {
        step.click();
        yew::scheduler::flush().await;
    }
    let log = root.query_selector("#event-log").unwrap().unwrap().text_content().unwrap();
    assert!(log.contains("FindCoordinator"), "the first events are coordinator lookups: {log}");
}

#[wasm_bindgen_test]
fn the_crash_scenario_gives_the_same_trace_hash_in_wasm_as_natively() {
    use groupscope::sim::{trace::trace_hash, Scenario, World};
    let s = Scenario::from_json(include_str!("../scenarios/crash.json")).unwrap();
    let mut w = World::new(s).unwrap();
    w.run_until(40_000);
    let golden = include_str!("golden/crash.trace-hash").trim();
    assert_eq!(format!("{:016x}", trace_hash(&w.trace)), golden, "tests/determinism.rs checks the same hash natively");
}

/// Waits `ms` of wall time (the page's 16 ms timer runs meanwhile).
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let w = web_sys::window().unwrap();
        w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn click(root: &web_sys::Element, selector: &str) {
    let el: web_sys::HtmlElement =
        wasm_bindgen::JsCast::dyn_into(root.query_selector(selector).unwrap().expect(selector)).unwrap();
    el.click();
}

fn text(root: &web_sys::Element, selector: &str) -> String {
    root.query_selector(selector).unwrap().expect(selector).text_content().unwrap()
}

#[wasm_bindgen_test]
async fn the_timer_moves_a_playing_run_and_a_paused_one_stays_put() {
    let root = mount();
    yew::scheduler::flush().await;
    let start = text(&root, "#clock");
    click(&root, "#play");
    yew::scheduler::flush().await;
    sleep(400).await;
    yew::scheduler::flush().await;
    let played = text(&root, "#clock");
    assert_ne!(played, start, "the timer's ticks reach the run while it plays");
    click(&root, "#play");
    yew::scheduler::flush().await;
    let paused = text(&root, "#clock");
    let log = text(&root, "#event-log");
    sleep(200).await;
    yew::scheduler::flush().await;
    assert_eq!(text(&root, "#clock"), paused, "ticks change nothing while paused");
    assert_eq!(text(&root, "#event-log"), log);
    // Paused, the log (a slower panel) follows each step at once: the first
    // step whose event is narrated shows, without waiting for a refresh.
    let mut steps = 0;
    while text(&root, "#event-log") == log && steps < 50 {
        click(&root, "#step");
        yew::scheduler::flush().await;
        steps += 1;
    }
    assert_ne!(text(&root, "#event-log"), log, "paused, the log follows a step at once");
}
