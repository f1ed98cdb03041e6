//! The fault menu: a fault the run can have is injected at the playhead; one
//! naming what the run does not have is refused in an alert, and nothing runs.

use crate::page::Page;
use wasm_bindgen_test::wasm_bindgen_test;

async fn inject(page: &Page, kind: &str, a: &str, b: &str, value: &str) {
    page.fill("#fault-type", kind).await;
    page.fill("#fault-a", a).await;
    page.fill("#fault-b", b).await;
    page.fill("#fault-value", value).await;
    page.click("#inject").await;
}

#[wasm_bindgen_test]
async fn faults_naming_what_the_run_lacks_are_refused_and_nothing_happens() {
    let page = Page::open_at(8_000).await;
    assert!(page.attr("#fault-form", "aria-label").is_some(), "the form is named");
    let (log, owners) = (page.count("#event-log li"), page.attrs("tr[data-partition]", "data-owner"));
    for (kind, a, b, named) in
        [("crashConsumer", "c99", "", "c99"), ("killBroker", "broker-7", "", "broker-7"), ("cutLink", "c1", "c2", "c2")]
    {
        inject(&page, kind, a, b, "").await;
        assert_eq!(page.attr("#fault-error", "role").as_deref(), Some("alert"), "{kind} {a} {b} is refused aloud");
        assert!(page.text("#fault-error").contains(named), "the refusal names {named}: {}", page.text("#fault-error"));
        assert_eq!(page.time(), 8_000, "nothing ran");
    }
    assert_eq!(page.count("#event-log li"), log, "nothing was narrated");
    assert_eq!(page.attrs("tr[data-partition]", "data-owner"), owners);
    assert_eq!(page.count(".markers .marker.fault"), 0);
    assert_eq!(page.count("g[data-link].cut"), 0);
    assert!(!page.has("#reset-clear"), "no fault reached the run");
}

#[wasm_bindgen_test]
async fn a_fault_the_run_can_have_is_injected_and_the_old_alert_goes() {
    let page = Page::open_at(15_000).await;
    inject(&page, "crashConsumer", "zz", "", "").await;
    assert!(page.has("#fault-error[role=\"alert\"]"));
    inject(&page, "addPartitions", "orders", "", "9").await;
    assert!(!page.has("#fault-error"), "a fault that is injected clears the refusal");
    page.until("nine partition rows", |p| p.count("tr[data-partition]") == 9).await;
    assert_eq!(page.count(".markers .marker.fault"), 1, "marked on the timeline at the playhead");
}

#[wasm_bindgen_test]
async fn a_cut_link_from_the_form_is_drawn_cut() {
    let page = Page::open_at(5_000).await;
    inject(&page, "cutLink", "broker-0", "c1", "").await;
    assert!(!page.has("#fault-error"), "{:?}", page.find("#fault-error").and_then(|e| e.text_content()));
    assert!(page.has_class("g[data-link=\"broker-0 c1\"]", "cut"));
    page.press("g[data-link=\"broker-0 c1\"] line").await;
    assert!(page.has("#inspector button[data-fault=\"healLink\"]"), "a cut link offers to heal it");
    page.click("#inspector button[data-fault=\"healLink\"]").await;
    assert!(!page.has_class("g[data-link=\"broker-0 c1\"]", "cut"));
}
