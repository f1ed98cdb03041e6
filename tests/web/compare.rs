//! The Side by side tab: variants of one scenario in panes that the toolbar's
//! one clock drives (the main run waits), "Compare this run", another
//! comparison picked, and the panes' own fault menu.

use crate::page::Page;
use wasm_bindgen_test::wasm_bindgen_test;

/// Each pane's simulated time.
fn pane_times(page: &Page) -> Vec<u64> {
    page.attrs("#compare .pane", "data-now").iter().map(|t| t.parse().unwrap()).collect()
}

#[wasm_bindgen_test]
async fn the_toolbars_clock_steps_every_pane_together_and_the_main_run_waits() {
    let page = Page::open().await;
    page.click("#tab-compare").await;
    assert_eq!(page.attr("#compare", "data-comparison").as_deref(), Some("compare-protocols"));
    assert_eq!(page.value("#compare-pick"), "compare-protocols");
    assert_eq!(page.count("#compare .pane[data-variant]"), 3);
    assert_eq!(page.count("#compare-metrics tr[data-variant]"), 3, "one metrics row per pane");
    assert_eq!(page.count("#compare-rows li[data-variant]"), 3);
    for _ in 0..3 {
        page.click("#step").await;
    }
    let now = pane_times(&page);
    assert!(now[0] > 0 && now.iter().all(|t| *t == now[0]), "one moment in every pane: {now:?}");
    assert_eq!(page.time(), now[0], "the timeline is the panes'");
    page.key(" ").await;
    assert_eq!(page.attr("#play", "aria-pressed").as_deref(), Some("true"), "Space plays the panes");
    page.until("the panes to play on", |p| pane_times(p)[0] > now[0]).await;
    page.key(" ").await;
    assert_eq!(page.attr("#play", "aria-pressed").as_deref(), Some("false"));
    page.click("#tab-sim").await;
    assert_eq!(page.time(), 0, "the main run did not move");
    assert_eq!(page.attr("#play", "aria-pressed").as_deref(), Some("false"));
}

#[wasm_bindgen_test]
async fn compare_this_run_puts_the_runs_fault_under_four_variants() {
    let page = Page::open_at(9_000).await;
    page.select("g[data-member=\"c2\"]").await;
    page.click("#inspector button[data-fault=\"crashConsumer\"]").await;
    page.click("#tab-compare").await;
    page.click("#compare-this-run").await;
    assert_eq!(page.attr("#compare", "data-comparison").as_deref(), Some("this-run"));
    assert_eq!(page.value("#compare-pick"), "this-run");
    assert_eq!(
        page.attrs("#compare .pane", "data-variant"),
        [
            "classic eager (range)",
            "classic cooperative-sticky",
            "consumer protocol (KIP-848, uniform)",
            "classic eager (range), static members"
        ]
    );
    assert_eq!(page.count(".timeline .marker.fault"), 1, "the crash is on the panes' timeline");
    assert_eq!(
        page.attrs("#compare .pane svg", "id"),
        ["topology-pane-1", "topology-pane-2", "topology-pane-3", "topology-pane-4"]
    );
}

#[wasm_bindgen_test]
async fn another_comparison_picked_replaces_the_panes_and_no_id_is_used_twice() {
    let page = Page::open().await;
    page.click("#tab-compare").await;
    page.fill("#compare-pick", "compare-crash").await;
    assert_eq!(page.attr("#compare", "data-comparison").as_deref(), Some("compare-crash"));
    assert_eq!(page.count("#compare .pane"), 3);
    assert!(!page.has("#compare #topology"), "the panes' drawings have ids of their own");
    let ids = page.attrs("[id]", "id");
    let mut seen = std::collections::BTreeSet::new();
    let twice: Vec<&String> = ids.iter().filter(|id| !seen.insert(*id)).collect();
    assert!(twice.is_empty(), "ids used twice: {twice:?}");
}

#[wasm_bindgen_test]
async fn the_panes_fault_menu_refuses_what_they_lack_and_nothing_runs() {
    let page = Page::open().await;
    page.click("#tab-compare").await;
    page.click("#step").await;
    let (now, marks) = (pane_times(&page), page.count(".timeline .marker.fault"));
    page.fill("#compare #fault-type", "crashConsumer").await;
    page.fill("#compare #fault-a", "c99").await;
    page.click("#compare #inject").await;
    assert_eq!(page.attr("#compare #fault-error", "role").as_deref(), Some("alert"));
    assert_eq!(pane_times(&page), now);
    assert_eq!(page.count(".timeline .marker.fault"), marks, "no fault was added to the panes");
}
