//! The browser front end (compiled for wasm32 only): a projection of the core.

mod api;
mod app;
mod cached;
mod caption;
mod clock;
mod compare_view;
mod config_panel;
mod context;
mod course;
mod event_log;
mod explain_spacetime;
mod explain_tab;
mod explain_view;
mod fault_menu;
mod files;
mod follow;
mod inspector;
mod lab;
mod lesson_panel;
mod links;
mod panels;
mod prefs;
mod saved_run;
mod share_strip;
mod spacetime;
mod statechart;
mod streams;
mod timeline;
mod toolbar;
mod topology;
mod topology_brokers;
mod topology_msgs;
mod welcome;

pub use app::{App, AppProps};

use wasm_bindgen::prelude::*;

/// Shows `message` in the page's error panel (never a blank page).
pub fn show_error(message: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(panel) = doc.get_element_by_id("error-panel") {
        panel.set_text_content(Some(message));
        let _ = panel.remove_attribute("hidden");
    }
}

/// `groupscope.assign(caseJson)` for page authors and the performance script:
/// what the `assign` CLI prints for a case (or array of cases) in the
/// vectors.json format; a bad case throws an Error with the reason.
#[wasm_bindgen(js_name = assign)]
pub fn assign_case(case_json: &str) -> Result<String, JsError> {
    crate::assign::case::assign_text(case_json).map_err(|e| JsError::new(&e))
}

/// Entry point: installs the panic hook first, then mounts the app.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_error(&format!("GroupScope hit an internal error and stopped: {info}"));
    }));
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("app"));
    let Some(root) = root else {
        show_error("GroupScope could not find its #app element.");
        return;
    };
    // A permalink in the address bar is read (a `#z=` one inflated, which the
    // browser does asynchronously) before the page mounts, so it opens at the
    // linked moment rather than flashing the demo first; else the run kept in
    // this browser by the last visit.
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    yew::platform::spawn_local(async move {
        // Without a link, the run this browser kept (a reload never loses a run).
        let link = links::decode(&hash).await.or_else(|| saved_run::load().map(Ok));
        yew::Renderer::<App>::with_root_and_props(root, AppProps { autoplay: false, link }).render();
    });
}
