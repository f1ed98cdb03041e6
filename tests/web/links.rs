//! Permalinks: a link the loader read opens its moment with its faults; a
//! damaged one is explained in plain words and the demo still works; a link
//! pasted into the open page opens as a fresh load would (a damaged one
//! keeps the run); the permalink button writes the moment (or, in a lesson,
//! the step) into the address.

use crate::page::{demo_link, hash, paste_link, set_hash, Page};
use groupscope::permalink::Permalink;
use groupscope::sim::Fault;
use groupscope::web::AppProps;
use wasm_bindgen_test::wasm_bindgen_test;

/// The demo with c1 crashed at 9 s, the playhead at `at`.
fn crashed_c1(at: u64) -> Permalink {
    demo_link(&[(9_000, Fault::CrashConsumer { consumer: 1 })], at)
}

#[wasm_bindgen_test]
async fn a_damaged_permalink_is_explained_in_plain_words_and_the_demo_still_works() {
    let mut impossible = crashed_c1(6_000);
    impossible.script[0].1 = Fault::CrashConsumer { consumer: 99 };
    // What the loader makes of a link cut short and of one naming a consumer the run lacks.
    for link in ["#run=not-a-run".to_string(), format!("#{}", impossible.encode())] {
        let why = Permalink::decode(&link).expect_err("a damaged link");
        let page = Page::open_with(AppProps { link: Some(Err(why.clone())), ..AppProps::default() }, &link).await;
        assert_eq!(page.attr("#notice", "role").as_deref(), Some("status"), "{link}");
        assert!(page.text("#notice").contains(&why), "the notice says what is wrong: {}", page.text("#notice"));
        assert_eq!(hash(), link, "the address keeps the link");
        assert_eq!(page.count("[data-broker]"), 3, "the demo instead");
        assert_eq!(page.count("[data-member]"), 3);
        assert_eq!(page.time(), 0);
        page.step_on("the demo runs").await;
        assert!(page.attr("#notice .close", "aria-label").is_some());
        page.click("#notice .close").await;
        assert!(!page.has("#notice"), "the notice can be dismissed");
    }
}

#[wasm_bindgen_test]
async fn a_permalink_opens_its_moment_with_its_fault_paused() {
    let page = Page::open_link(crashed_c1(18_000)).await;
    assert!(!page.has("#notice"));
    assert_eq!(page.time(), 18_000);
    assert_eq!(page.attr("g[data-member=\"c1\"]", "data-state").as_deref(), Some("crashed"));
    assert_eq!(page.count(".markers .marker.fault"), 1);
    assert!(page.has("#reset-clear"), "the linked fault is the run's, as the user's own");
    assert_eq!(page.attr("#play", "aria-pressed").as_deref(), Some("false"));
}

#[wasm_bindgen_test]
async fn a_link_pasted_into_the_open_page_opens_its_moment() {
    let page = Page::open_at(3_000).await;
    paste_link(&format!("#{}", crashed_c1(12_000).encode()));
    page.until("the linked moment", |p| p.time() == 12_000).await;
    assert_eq!(page.attr("g[data-member=\"c1\"]", "data-state").as_deref(), Some("crashed"));
    assert!(!page.has("#notice"));
}

#[wasm_bindgen_test]
async fn a_damaged_link_pasted_in_is_explained_and_the_run_is_unchanged() {
    let page = Page::open_at(3_000).await;
    paste_link("#z=AAAA");
    page.until("the notice", |p| p.has("#notice")).await;
    assert_eq!(page.attr("#notice", "role").as_deref(), Some("status"));
    assert!(page.text("#notice").contains("damaged"), "{}", page.text("#notice"));
    assert_eq!(page.time(), 3_000, "the run is as it was");
    assert_eq!(page.count("[data-member]"), 3);
}

#[wasm_bindgen_test]
async fn the_permalink_button_writes_the_moment_and_the_link_brings_it_back() {
    let page = Page::open_at(7_000).await;
    page.click("#permalink").await;
    page.until("the link", |p| p.has("#permalink-url")).await;
    let url = page.value("#permalink-url");
    assert_eq!(url, gloo::utils::window().location().href().unwrap(), "the address bar holds the link too");
    let link = hash();
    assert!(link.starts_with("#z="), "a compressed link: {link}");
    assert!(page.attr("#permalink-url", "aria-label").is_some());
    page.scrub(0).await;
    set_hash("");
    paste_link(&link);
    page.until("the linked moment", |p| p.time() == 7_000).await;
}

#[wasm_bindgen_test]
async fn in_a_lesson_the_permalink_names_the_lesson_step() {
    let page = Page::at("#lesson=4&step=2").await;
    page.until("lesson 4 at step 2", |p| p.has("#lesson[data-lesson=\"4\"][data-step=\"2\"]")).await;
    page.click("#permalink").await;
    page.until("the link", |p| p.has("#permalink-url")).await;
    assert!(page.value("#permalink-url").ends_with("#lesson=4&step=2"), "{}", page.value("#permalink-url"));
}
