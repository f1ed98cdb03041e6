//! The page's keys on the document (what each key does is native:
//! `page::keys`). Keys typed into a field, Space on a focused button and keys
//! with Ctrl, Meta or Alt are left to the browser.

use super::super::context::AppContext;
use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;

/// Listens for the keys on the document until the listener is dropped.
/// `presenter` is the value when the listener was made: the page makes a new
/// listener when it changes, since which keys are taken (and so not left to
/// the browser) depends on it.
pub(super) fn listen(page: AppContext, presenter: bool) -> EventListener {
    let doc = gloo::utils::document();
    // Not passive (gloo's default): the keys it takes must not also scroll the page.
    EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
        let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
        let tag = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|el| el.tag_name());
        let in_field = matches!(tag.as_deref(), Some("INPUT" | "SELECT" | "TEXTAREA"));
        // Space on a focused button presses that button (and nothing else).
        let on_button = tag.as_deref() == Some("BUTTON") && e.key() == " ";
        if in_field || on_button || e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        // Read, then let go of the run before the message changes it.
        let key = crate::page::keys::key(&e.key(), presenter, page.run.get().lesson.as_ref());
        if let Some(k) = key {
            if k.take {
                e.prevent_default();
            }
            page.dispatch.emit(k.msg);
        }
    })
}
