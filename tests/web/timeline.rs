//! The timeline scrubber: any moment on a drag, its marks, and the fork a
//! fault in the past makes (with its undo).

use crate::page::{clock, Page};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn a_drag_shows_that_moment_forward_and_back() {
    let page = Page::open_at(20_000).await;
    assert_eq!(page.attr("#timeline", "type").as_deref(), Some("range"));
    assert!(page.attr("#timeline", "aria-label").is_some_and(|l| !l.is_empty()), "the scrubber is named");
    assert_eq!(page.time(), 20_000);
    assert_eq!(page.text("#clock"), clock(20_000));
    assert_eq!(page.attr("#timeline", "max").as_deref(), Some("20000"), "the scrubber reaches as far as the run went");
    assert_eq!(page.attr("[data-group=\"demo\"]", "data-group-state").as_deref(), Some("Stable"));
    let owners = page.attrs("tr[data-partition]", "data-owner");
    assert!(owners.iter().all(|o| !o.is_empty()), "every partition is owned at 20 s: {owners:?}");
    page.scrub(0).await;
    assert_eq!(page.text("#clock"), clock(0));
    assert_eq!(page.attrs("tr[data-partition]", "data-owner"), [""; 6], "back at the start nobody owns anything");
    assert_eq!(page.attr("#timeline", "max").as_deref(), Some("20000"), "going back keeps the way forward");
    page.scrub(20_000).await;
    assert_eq!(page.attrs("tr[data-partition]", "data-owner"), owners, "the same run again: it is deterministic");
}

#[wasm_bindgen_test]
async fn the_marks_show_rebalances_settling_and_faults() {
    let page = Page::open_at(20_000).await;
    assert_eq!(page.attr(".timeline .markers", "aria-hidden").as_deref(), Some("true"), "the marks are decoration");
    assert!(page.count(".markers .marker.rebalance") >= 1);
    assert!(page.count(".markers .marker.stable") >= 1, "the group settling is marked");
    assert_eq!(page.count(".markers .marker.fault"), 0, "no faults yet");
    page.select("g[data-member=\"c1\"]").await;
    page.click("#inspector button[data-fault=\"crashConsumer\"]").await;
    assert_eq!(page.count(".markers .marker.fault"), 1, "the crash is marked");
    assert!(
        page.attr(".markers .marker.fault", "style").is_some_and(|s| s.starts_with("left:100.00%")),
        "at the playhead, the run's end"
    );
}

#[wasm_bindgen_test]
async fn a_fault_in_the_past_forks_the_run_and_undo_brings_the_old_future_back() {
    let page = Page::open_at(20_000).await;
    page.scrub(5_000).await;
    assert!(!page.has("#undo-notice"));
    page.select("g[data-member=\"c1\"]").await;
    page.click("#inspector button[data-fault=\"crashConsumer\"]").await;
    assert_eq!(page.attr("#undo-notice", "role").as_deref(), Some("status"), "the fork is said");
    assert_eq!(page.attr("#timeline", "max").as_deref(), Some("5000"), "the future after 5 s was discarded");
    assert_eq!(page.attr("g[data-member=\"c1\"]", "data-state").as_deref(), Some("crashed"));
    page.click("#undo").await;
    assert!(!page.has("#undo-notice"));
    assert_eq!(page.time(), 5_000, "back at the moment of the fork");
    assert_eq!(page.attr("#timeline", "max").as_deref(), Some("20000"), "the old future is back");
    assert_ne!(page.attr("g[data-member=\"c1\"]", "data-state").as_deref(), Some("crashed"));
    assert_eq!(page.count(".markers .marker.fault"), 0);
    assert!(!page.has("#reset-clear"), "no fault of the user's is left");
}
