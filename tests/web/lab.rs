//! The assignor lab: Kafka's assignors on an editable group, what each
//! member keeps, gains and gives up; a malformed case is explained, and the
//! simulation is left where it was.

use crate::page::Page;
use serde_json::Value;
use wasm_bindgen_test::wasm_bindgen_test;

fn assigned(page: &Page, member: &str) -> Option<String> {
    page.attr(&format!("#lab-result tr[data-member=\"{member}\"]"), "data-assigned")
}

#[wasm_bindgen_test]
async fn range_deals_the_example_and_cooperative_sticky_revokes_before_it_gives() {
    let page = Page::open().await;
    page.click("#tab-lab").await;
    assert!(page.attr("#lab", "aria-label").is_some());
    assert_eq!(page.value("#lab-assignor"), "range");
    // c1 and c2 own everything, c3 is new: range re-deals orders by member id.
    assert_eq!(assigned(&page, "c3").as_deref(), Some("orders-4 orders-5"));
    page.fill("#lab-assignor", "cooperative-sticky").await;
    let case: Value = serde_json::from_str(&page.value("#lab-input")).unwrap();
    assert_eq!(case["assignor"], "cooperative-sticky", "the case names the assignor chosen");
    assert_eq!(assigned(&page, "c3").as_deref(), Some(""), "first round: what c3 will get is revoked first");
    assert_eq!(page.attr("#lab-summary", "data-moved").as_deref(), Some("0"));
    assert_eq!(page.value("#lab-assignor"), "cooperative-sticky");
}

#[wasm_bindgen_test]
async fn an_edited_group_runs_a_malformed_one_is_explained_and_the_simulation_waits() {
    let page = Page::open().await;
    for _ in 0..5 {
        page.click("#step").await;
    }
    let (clock, log) = (page.time(), page.count("#event-log li"));
    page.click("#tab-lab").await;
    page.fill(
        "#lab-input",
        r#"{"assignor": "sticky", "topics": {"t": 4}, "members": [{"id": "a", "subscriptions": ["t"]}, {"id": "b", "subscriptions": ["t"]}]}"#,
    )
    .await;
    page.click("#lab-run").await;
    assert_eq!(page.attr("#lab-summary", "data-spread").as_deref(), Some("0"), "four over two: two each");
    assert_eq!(page.attrs("#lab-result tr[data-member]", "data-member"), ["a", "b"]);
    let dealt: Vec<String> = page.attrs("#lab-result tr[data-member]", "data-assigned");
    assert!(dealt.iter().all(|d| d.split(' ').count() == 2), "{dealt:?}");
    page.fill("#lab-input", r#"{"assignor": "sticky", "members": ["#).await;
    page.click("#lab-run").await;
    assert_eq!(page.attr("#lab-error", "role").as_deref(), Some("alert"));
    assert!(!page.has("#lab-result"), "no table for a case that does not read");
    page.click("#tab-sim").await;
    assert_eq!(page.time(), clock, "the simulation kept its place");
    assert_eq!(page.count("#event-log li"), log);
}
