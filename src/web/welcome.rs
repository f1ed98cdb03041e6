//! The first-visit welcome lives in index.html (so it shows before the wasm
//! is ready; static/boot.js runs it). Its three doors reach the app as a
//! `groupscope-door` window event, or, chosen before the app started, in
//! `window.groupscopeDoor`. The static first frame (`#prelude`) goes once the
//! app draws.

use crate::page::Door;
use gloo::events::EventListener;
use wasm_bindgen::JsValue;
use yew::Callback;

fn parse(s: &str) -> Option<Door> {
    match s {
        "course" => Some(Door::Course),
        "demo" => Some(Door::Demo),
        "sandbox" => Some(Door::Sandbox),
        _ => None,
    }
}

/// Calls `on` with each door chosen, including one chosen before the app
/// started; the listener lives as long as the returned value.
pub fn listen(on: Callback<Door>) -> EventListener {
    let window = gloo::utils::window();
    let pending = js_sys::Reflect::get(&window, &JsValue::from_str("groupscopeDoor")).ok().and_then(|v| v.as_string());
    let _ = js_sys::Reflect::delete_property(&window, &JsValue::from_str("groupscopeDoor"));
    if let Some(d) = pending.as_deref().and_then(parse) {
        on.emit(d);
    }
    EventListener::new(&window, "groupscope-door", move |e| {
        let _ = js_sys::Reflect::delete_property(&gloo::utils::window(), &JsValue::from_str("groupscopeDoor"));
        let detail = js_sys::Reflect::get(e.as_ref(), &JsValue::from_str("detail")).ok().and_then(|d| d.as_string());
        if let Some(d) = detail.as_deref().and_then(parse) {
            on.emit(d);
        }
    })
}

/// Shows the welcome again (from Help).
pub fn show_again() {
    let window = gloo::utils::window();
    if let Ok(f) = js_sys::Reflect::get(&window, &JsValue::from_str("groupscopeWelcome")) {
        if let Some(f) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&f) {
            let _ = f.call0(&JsValue::NULL);
        }
    }
}

/// Removes the static first frame of index.html.
pub fn remove_prelude() {
    if let Some(p) = gloo::utils::document().get_element_by_id("prelude") {
        p.remove();
    }
}
