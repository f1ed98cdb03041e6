//! The inspector: what a press or Enter on the drawing (or a partition's row)
//! selects, the faults it offers for that thing, and what they do.

use crate::page::Page;
use groupscope::i18n::{tr, Lang};
use wasm_bindgen_test::wasm_bindgen_test;

/// The kinds of fault the inspector's buttons offer, in order.
fn offered(page: &Page) -> Vec<String> {
    page.attrs("#inspector [role=\"group\"] button[data-fault]", "data-fault")
}

#[wasm_bindgen_test]
async fn enter_on_a_consumer_offers_its_faults_and_crash_then_restart_act_on_it() {
    let page = Page::open_at(15_000).await;
    page.select("g[data-member=\"c2\"]").await;
    assert!(page.attr("#inspector", "aria-label").is_some_and(|l| !l.is_empty()));
    assert!(page.has_class("g[data-member=\"c2\"]", "selected"), "the drawing shows what is inspected");
    let faults = offered(&page);
    assert!(
        ["crashConsumer", "closeConsumer", "pauseConsumer", "addConsumer"]
            .iter()
            .all(|f| faults.iter().any(|x| x == f)),
        "{faults:?}"
    );
    assert!(!faults.iter().any(|f| f == "restartConsumer"), "a live consumer cannot be restarted: {faults:?}");
    page.click("#inspector button[data-fault=\"crashConsumer\"]").await;
    assert_eq!(page.attr("g[data-member=\"c2\"]", "data-state").as_deref(), Some("crashed"));
    assert_eq!(offered(&page), ["restartConsumer", "addConsumer"], "a crashed consumer can only come back");
    page.click("#inspector button[data-fault=\"restartConsumer\"]").await;
    assert_ne!(page.attr("g[data-member=\"c2\"]", "data-state").as_deref(), Some("crashed"));
    assert!(page.has("#reset-clear"), "the user's faults can be cleared from the menu");
}

#[wasm_bindgen_test]
async fn a_press_on_a_broker_selects_it_and_kill_leaves_it_dead() {
    let page = Page::open().await;
    page.press("g[data-broker=\"0\"] rect").await;
    assert_eq!(page.attr("g[data-broker=\"0\"]", "role").as_deref(), Some("button"));
    assert_eq!(offered(&page), ["killBroker", "shutdownBroker", "addPartitions"]);
    page.click("#inspector button[data-fault=\"killBroker\"]").await;
    assert!(page.has_class("g[data-broker=\"0\"]", "dead"));
    assert_eq!(offered(&page), ["restartBroker", "addPartitions"]);
}

#[wasm_bindgen_test]
async fn nothing_selected_nothing_offered_and_close_or_escape_clear_a_selection() {
    let page = Page::open().await;
    assert!(page.has_class("#inspector", "empty"));
    assert!(offered(&page).is_empty());
    assert_eq!(page.count("g.selected"), 0);
    page.select("g[data-member=\"c1\"]").await;
    assert!(page.attr("#inspector .close", "aria-label").is_some(), "the close button is named");
    page.click("#inspector .close").await;
    assert!(page.has_class("#inspector", "empty"));
    assert!(!page.has_class("g[data-member=\"c1\"]", "selected"));
    page.select("g[data-member=\"c1\"]").await;
    page.key("Escape").await;
    assert!(page.has_class("#inspector", "empty"), "Escape closes the inspector");
}

#[wasm_bindgen_test]
async fn a_partitions_row_selects_it_and_adding_a_partition_grows_the_table() {
    let page = Page::open().await;
    page.click("tr[data-partition=\"orders-0\"] button").await;
    assert_eq!(offered(&page), ["addPartitions"]);
    page.click("#inspector button[data-fault=\"addPartitions\"]").await;
    page.until("a seventh partition row", |p| p.count("tr[data-partition]") == 7).await;
    assert!(page.has("tr[data-partition=\"orders-6\"]"));
}

#[wasm_bindgen_test]
async fn reset_keeps_the_users_faults_and_reset_and_clear_forgets_them() {
    let page = Page::open_at(3_000).await;
    let c1 = |p: &Page| p.attr("g[data-member=\"c1\"]", "data-state");
    page.select("g[data-member=\"c1\"]").await;
    page.click("#inspector button[data-fault=\"crashConsumer\"]").await;
    assert_eq!(
        page.attr("#reset", "title").as_deref(),
        Some(tr(Lang::En, "reset.keeps")),
        "Reset says it keeps the fault"
    );
    page.click("#reset").await;
    assert_eq!(page.time(), 0);
    assert_ne!(c1(&page).as_deref(), Some("crashed"));
    assert!(page.has("#reset-clear"), "the fault is kept");
    page.play_until("the kept crash to happen again", |p| c1(p).as_deref() == Some("crashed")).await;
    assert!(page.time() >= 3_000, "at its time, not before: {}", page.time());
    page.click("#reset-clear").await;
    assert_eq!(page.time(), 0);
    assert_ne!(c1(&page).as_deref(), Some("crashed"));
    assert!(!page.has("#reset-clear"), "no fault of the user's is left");
    assert_eq!(page.attr("#reset", "title").as_deref(), Some(tr(Lang::En, "reset.title")));
}
