//! Fetches the course the first time a lesson is wanted: the site's
//! `lessons/index.json` (relative to the page, so the site works from any
//! sub-path), then every file it lists, validated by the same validator as
//! the native tests; and hands it to `lesson::registry`. A teacher adds a
//! lesson to a built site with a file and a line in the index. Nothing
//! leaves the site.

use crate::lesson::registry::{self, INDEX};
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::Callback;

thread_local! {
    /// While the course is being fetched: who waits for it.
    static WAITING: RefCell<Option<Vec<Callback<()>>>> = const { RefCell::new(None) };
}

/// Calls `ready` once the course is loaded (or known to be unavailable, with
/// the reason in `lesson::lessons()`); at once if it already is.
pub fn when_loaded(ready: Callback<()>) {
    if registry::loaded() {
        ready.emit(());
        return;
    }
    let first = WAITING.with(|w| {
        let mut w = w.borrow_mut();
        let first = w.is_none();
        w.get_or_insert_with(Vec::new).push(ready);
        first
    });
    if !first {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let mut sources = Vec::new();
        let mut failure = None;
        let files = match fetch_text(&format!("lessons/{INDEX}")).await {
            Ok(text) => registry::parse_index(&text),
            Err(e) => Err(format!("lessons/{INDEX} could not be loaded ({e}); the page needs its lessons/ folder and must be served over HTTP (scripts/serve.sh)")),
        };
        let files = files.unwrap_or_else(|e| {
            failure = Some(e);
            Vec::new()
        });
        for file in &files {
            match fetch_text(&format!("lessons/{file}")).await {
                Ok(text) => sources.push((file.clone(), text)),
                Err(e) => {
                    failure = Some(format!("lessons/{file} could not be loaded ({e}); the page needs its lessons/ folder and must be served over HTTP (scripts/serve.sh)"));
                    break;
                }
            }
        }
        let course = match failure {
            Some(e) => Err(e),
            None => registry::parse_course(sources.iter().map(|(f, t)| (f.as_str(), t.as_str()))),
        };
        registry::install(course);
        for ready in WAITING.with(|w| w.borrow_mut().take()).unwrap_or_default() {
            ready.emit(());
        }
    });
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let describe = |e: wasm_bindgen::JsValue| {
        e.as_string()
            .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
            .unwrap_or_else(|| "fetch failed".into())
    };
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_str(url)).await.map_err(describe)?.unchecked_into();
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(describe)?).await.map_err(describe)?;
    text.as_string().ok_or_else(|| "not text".to_string())
}
