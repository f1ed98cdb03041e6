//! The app mounted in real headless Chromium (wasm-bindgen-test): its
//! components driven as a user drives them, one mounted page per test
//! (`web/page.rs`), read by ids, roles, aria and data- attributes.
#![cfg(target_arch = "wasm32")]

// The crate's root is tests/web.rs: its modules live in tests/web/.
#[path = "web/page.rs"]
mod page;

#[path = "web/compare.rs"]
mod compare;
#[path = "web/config.rs"]
mod config;
#[path = "web/explain.rs"]
mod explain;
#[path = "web/fault_menu.rs"]
mod fault_menu;
#[path = "web/inspector.rs"]
mod inspector;
#[path = "web/lab.rs"]
mod lab;
#[path = "web/lessons.rs"]
mod lessons;
#[path = "web/links.rs"]
mod links;
#[path = "web/timeline.rs"]
mod timeline;
#[path = "web/toolbar.rs"]
mod toolbar;

use page::{sleep, Page};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn app_renders_brokers_members_and_the_ownership_table() {
    let page = Page::open().await;
    assert_eq!(page.count("[data-broker]"), 3);
    assert_eq!(page.count("[data-member]"), 3);
    assert_eq!(page.count("tr[data-partition]"), 6);
    assert_eq!(
        page.attr("tr[data-partition=\"orders-0\"]", "data-owner").as_deref(),
        Some(""),
        "nobody owns anything before Play"
    );
    assert!(page.text("[data-group=\"demo\"]").contains("% 50 = 1"), "the coordinator arithmetic is shown");
    assert!(page.has("#play"));
}

#[wasm_bindgen_test]
async fn stepping_advances_the_simulation_one_event_at_a_time() {
    let page = Page::open().await;
    for _ in 0..3 {
        page.click("#step").await;
    }
    let log = page.text("#event-log");
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

#[wasm_bindgen_test]
async fn the_timer_moves_a_playing_run_and_a_paused_one_stays_put() {
    let page = Page::open().await;
    let start = page.text("#clock");
    page.click("#play").await;
    sleep(400).await;
    page.flush().await;
    let played = page.text("#clock");
    assert_ne!(played, start, "the timer's ticks reach the run while it plays");
    page.click("#play").await;
    let paused = page.text("#clock");
    let log = page.text("#event-log");
    sleep(200).await;
    page.flush().await;
    assert_eq!(page.text("#clock"), paused, "ticks change nothing while paused");
    assert_eq!(page.text("#event-log"), log);
    // Paused, the log (a slower panel) follows each step at once: the first
    // step whose event is narrated shows, without waiting for a refresh.
    let mut steps = 0;
    while page.text("#event-log") == log && steps < 50 {
        page.click("#step").await;
        steps += 1;
    }
    assert_ne!(page.text("#event-log"), log, "paused, the log follows a step at once");
}
