//! The Explain logs tab: what a paste gives (the rebalances and their causes,
//! the diagnosis), the reading's progress and its Stop, plain messages for an
//! empty or unrelated paste, the replay in the simulator and back, and the
//! tab's work kept while other tabs are open.

use crate::page::{sleep, Page};
use wasm_bindgen_test::wasm_bindgen_test;

/// Three consumers and a broker of one group, one of them timing out
/// (tests/fixtures/logs/session-timeout, as tests/e2e/explain.test.mjs pastes it).
fn session_timeout() -> String {
    [
        include_str!("../fixtures/logs/session-timeout/broker-1.log"),
        include_str!("../fixtures/logs/session-timeout/consumer-1.log"),
        include_str!("../fixtures/logs/session-timeout/consumer-2.log"),
        include_str!("../fixtures/logs/session-timeout/consumer-3.log"),
    ]
    .join("\n")
}

async fn explain_tab() -> Page {
    let page = Page::open().await;
    page.click("#tab-explain").await;
    assert!(page.attr("#explain", "aria-label").is_some());
    page
}

async fn paste_and_run(page: &Page, text: &str) {
    page.fill("#explain-text", text).await;
    page.click("#explain-run").await;
}

fn reading(page: &Page) -> bool {
    page.has("#explain-progress")
}

#[wasm_bindgen_test]
async fn an_empty_paste_and_unrelated_text_get_plain_messages() {
    let page = explain_tab().await;
    page.click("#explain-run").await;
    assert_eq!(page.attr("#explain-message", "data-problem").as_deref(), Some("empty"));
    assert_eq!(page.attr("#explain-message", "role").as_deref(), Some("status"));
    paste_and_run(&page, "GET /index.html 200\nthe quick brown fox\n").await;
    page.until("the reading to end", |p| !reading(p)).await;
    assert_eq!(page.attr("#explain-message", "data-problem").as_deref(), Some("nothing"));
    assert_eq!(page.attr("#explain-summary", "data-groups").as_deref(), Some("0"));
}

#[wasm_bindgen_test]
async fn a_paste_gives_the_rebalances_and_the_diagnosis_kept_while_other_tabs_are_open() {
    let page = explain_tab().await;
    let text = session_timeout();
    paste_and_run(&page, &text).await;
    page.until("the explanation", |p| p.has("#explain-summary")).await;
    assert!(!reading(&page), "the progress goes with the reading");
    assert!(!page.el("#explain-run").has_attribute("disabled"));
    assert_eq!(page.attr("#explain-summary", "data-lines-unparsed").as_deref(), Some("0"));
    assert_eq!(page.attr("#explain-summary", "data-groups").as_deref(), Some("1"));
    assert!(page
        .attr("#explain-summary", "data-lines-read")
        .and_then(|n| n.parse::<u32>().ok())
        .is_some_and(|n| n > 60));
    assert_eq!(page.attrs(".explain-rebalances > li", "data-causes"), ["member-joined", "session-timeout"]);
    assert!(page.has(".diagnosis[data-kind=\"session-timeout\"]"));
    assert_eq!(page.count(".explain-members .explain-member"), 3);
    assert!(!page.has("#explain-message"), "nothing went wrong");
    page.click("#tab-lab").await;
    assert!(!page.has("#explain"));
    page.click("#tab-explain").await;
    assert_eq!(page.value("#explain-text"), text, "the paste comes back");
    assert_eq!(page.attrs(".explain-rebalances > li", "data-causes"), ["member-joined", "session-timeout"]);
    page.click("#explain-clear").await;
    assert_eq!(page.value("#explain-text"), "");
    assert!(!page.has("#explain-summary") && !page.has("#explain-message"));
}

#[wasm_bindgen_test]
async fn a_long_reading_shows_its_progress_and_stop_cancels_it_for_good() {
    let page = explain_tab().await;
    let filler =
        "2024-05-01 09:00:00,000 INFO [http-nio-8080-exec-1] o.a.c.c.C.[Tomcat].[localhost] GET /orders/42 200 12ms\n";
    let big = format!("{}{}", filler.repeat(5_000), session_timeout());
    paste_and_run(&page, &big).await;
    assert_eq!(page.attr("#explain-progress", "role").as_deref(), Some("status"), "the reading shows its progress");
    assert!(page.el("#explain-run").has_attribute("disabled"), "one reading at a time");
    assert!(page.el("#explain-files").has_attribute("disabled"));
    page.click("#explain-progress #explain-stop").await;
    assert!(!reading(&page));
    assert_eq!(page.attr("#explain-message", "data-problem").as_deref(), Some("cancelled"));
    assert!(!page.el("#explain-run").has_attribute("disabled"), "a new reading can start");
    sleep(100).await;
    page.flush().await;
    assert!(!page.has("#explain-summary"), "the stopped reading's result never shows");
    assert_eq!(page.attr("#explain-message", "data-problem").as_deref(), Some("cancelled"));
}

#[wasm_bindgen_test]
async fn replay_opens_the_group_in_the_simulator_and_back_restores_the_run() {
    let page = Page::open_at(5_000).await;
    page.click("#tab-explain").await;
    paste_and_run(&page, &session_timeout()).await;
    page.until("the explanation", |p| p.has(".explain-replay[data-group=\"demo\"]")).await;
    page.click(".explain-replay").await;
    assert_eq!(page.attr("#replay-notice", "role").as_deref(), Some("status"));
    assert_eq!(page.attrs("nav.tabs button[aria-pressed=\"true\"]", "id"), ["tab-sim"]);
    assert_eq!(page.time(), 0, "the replay starts at its beginning");
    assert_eq!(page.attrs("g[data-member]", "data-member"), ["c1", "c2", "c3"]);
    page.click("#replay-back").await;
    assert!(!page.has("#replay-notice"));
    assert_eq!(page.time(), 5_000, "the previous run is back at its moment");
    assert_eq!(page.attr("#timeline", "max").as_deref(), Some("5000"));
}
