//! The configuration tab: quick fields rewrite the scenario's JSON, the
//! linter warns as you type, Apply starts the new run; a wrong field, a
//! scenario that cannot run or JSON that does not parse is explained and
//! changes nothing; unapplied edits outlive a visit to another tab.

use crate::page::Page;
use serde_json::Value;
use wasm_bindgen_test::wasm_bindgen_test;

async fn config_tab() -> Page {
    let page = Page::open().await;
    page.click("#tab-config").await;
    assert!(page.attr("#config", "aria-label").is_some());
    page
}

fn scenario(page: &Page) -> Value {
    serde_json::from_str(&page.value("#cfg-json")).expect("the text area holds the scenario's JSON")
}

#[wasm_bindgen_test]
async fn a_quick_field_rewrites_the_json_and_apply_starts_that_run() {
    let page = config_tab().await;
    assert_eq!(scenario(&page)["groups"][0]["consumers"], 3);
    page.fill("#cfg-consumers", "4").await;
    assert_eq!(page.attr("#cfg-consumers", "data-key").as_deref(), Some("consumers"));
    assert_eq!(scenario(&page)["groups"][0]["consumers"], 4, "the JSON follows the field");
    assert!(!page.has("#cfg-applied"), "nothing applied yet");
    page.click("#cfg-apply").await;
    assert_eq!(page.attr("#cfg-applied", "role").as_deref(), Some("status"));
    assert!(!page.has("#cfg-error"));
    page.click("#tab-sim").await;
    assert_eq!(page.attrs("g[data-member]", "data-member"), ["c1", "c2", "c3", "c4"]);
    assert_eq!(page.time(), 0, "a new run starts at its beginning");
}

#[wasm_bindgen_test]
async fn a_wrong_quick_field_is_marked_and_apply_refuses_it() {
    let page = config_tab().await;
    page.fill("#cfg-heartbeat-interval-ms", "1.5").await;
    let field = "#cfg-heartbeat-interval-ms";
    assert_eq!(page.attr(field, "aria-invalid").as_deref(), Some("true"));
    assert_eq!(page.attr(field, "aria-describedby").as_deref(), Some("cfg-heartbeat-interval-ms-error"));
    assert_eq!(
        page.attr("#cfg-heartbeat-interval-ms-error", "role").as_deref(),
        Some("alert"),
        "the reason is read out"
    );
    assert_eq!(page.value(field), "1.5", "the field keeps what was typed");
    assert_eq!(scenario(&page)["groups"][0]["config"]["heartbeat.interval.ms"], 2000, "the JSON is not changed");
    page.click("#cfg-apply").await;
    assert_eq!(page.attr("#cfg-error", "role").as_deref(), Some("alert"));
    assert!(!page.has("#cfg-applied"));
    page.fill(field, "1500").await;
    assert_eq!(page.attr(field, "aria-invalid"), None, "fixed, the mark goes");
    assert!(!page.has("#cfg-heartbeat-interval-ms-error"));
}

#[wasm_bindgen_test]
async fn the_linter_warns_and_a_scenario_that_cannot_run_is_explained_and_the_run_stays() {
    let page = Page::open_at(3_000).await;
    page.click("#tab-config").await;
    page.fill("#cfg-session-timeout-ms", "5000").await;
    assert!(
        page.has("#lint li.warning[data-field=\"demo: session.timeout.ms\"]"),
        "5 s is outside the broker's bounds"
    );
    page.fill("#cfg-heartbeat-interval-ms", "9000").await;
    page.click("#cfg-apply").await;
    assert_eq!(page.attr("#cfg-error", "role").as_deref(), Some("alert"));
    assert!(page.text("#cfg-error").contains("heartbeat.interval.ms"), "the error names the setting");
    assert!(!page.has("#cfg-applied"));
    page.click("#tab-sim").await;
    assert_eq!(page.time(), 3_000, "the run is as it was");
    assert_eq!(page.count("g[data-member]"), 3);
}

#[wasm_bindgen_test]
async fn json_that_does_not_parse_disables_the_fields_is_kept_and_revert_brings_the_run_back() {
    let page = config_tab().await;
    page.fill("#cfg-json", "{\"topics\": [").await;
    assert!(page.el("#cfg-protocol").has_attribute("disabled"), "quick fields need a scenario");
    assert!(page.el("#cfg-consumers").has_attribute("disabled"));
    assert!(page.has("#lint li.error"));
    page.click("#cfg-apply").await;
    assert_eq!(page.attr("#cfg-error", "role").as_deref(), Some("alert"));
    assert_eq!(page.value("#cfg-json"), "{\"topics\": [", "the text stays as typed");
    page.click("#cfg-revert").await;
    assert_eq!(scenario(&page)["groups"][0]["groupId"], "demo", "the run's scenario again");
    assert!(!page.el("#cfg-protocol").has_attribute("disabled"));
    assert!(!page.has("#cfg-error"));
}

#[wasm_bindgen_test]
async fn unapplied_edits_outlive_a_visit_to_another_tab_and_apply_there_after() {
    let page = config_tab().await;
    page.fill("#cfg-protocol", "cooperative").await;
    assert_eq!(
        scenario(&page)["groups"][0]["config"]["partition.assignment.strategy"],
        serde_json::json!(["cooperative-sticky"])
    );
    page.click("#tab-sim").await;
    page.click("#tab-config").await;
    assert_eq!(page.value("#cfg-protocol"), "cooperative", "the draft is kept");
    assert_eq!(
        scenario(&page)["groups"][0]["config"]["partition.assignment.strategy"],
        serde_json::json!(["cooperative-sticky"])
    );
    page.click("#cfg-apply").await;
    assert!(page.has("#cfg-applied"));
    page.click("#tab-sim").await;
    page.click("#tab-config").await;
    assert_eq!(page.value("#cfg-protocol"), "cooperative", "the applied run's protocol");
}

#[wasm_bindgen_test]
async fn the_protocol_field_follows_the_json_after_it_was_picked_by_hand() {
    let page = config_tab().await;
    page.fill("#cfg-protocol", "cooperative").await;
    page.click("#cfg-revert").await;
    assert_eq!(page.value("#cfg-protocol"), "default", "reverted to the run's scenario");
    let mut typed = scenario(&page);
    typed["groups"][0]["config"]["partition.assignment.strategy"] = serde_json::json!(["cooperative-sticky"]);
    page.fill("#cfg-json", &serde_json::to_string_pretty(&typed).unwrap()).await;
    assert_eq!(page.value("#cfg-protocol"), "cooperative", "the field says what the JSON holds");
}
