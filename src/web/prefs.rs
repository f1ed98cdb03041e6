//! Preferences that outlive a page load: the language (URL `?lang=zh` first,
//! then what the visitor chose last time, then the browser's language).

use crate::i18n::Lang;

const LANG_KEY: &str = "groupscope.lang";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// `lang=` from the query string or the fragment (`#lang=zh&run=...`).
fn url_lang() -> Option<Lang> {
    let loc = web_sys::window()?.location();
    let search = loc.search().ok().unwrap_or_default();
    let hash = loc.hash().ok().unwrap_or_default();
    [search.trim_start_matches('?'), hash.trim_start_matches('#')]
        .iter()
        .flat_map(|s| s.split('&'))
        .find_map(|kv| kv.strip_prefix("lang=").and_then(Lang::parse))
}

pub fn initial_lang() -> Lang {
    url_lang()
        .or_else(|| storage()?.get_item(LANG_KEY).ok()?.as_deref().and_then(Lang::parse))
        .or_else(|| web_sys::window()?.navigator().language().as_deref().and_then(Lang::parse))
        .unwrap_or_default()
}

/// Remembers the choice and tells the document (screen readers, fonts).
pub fn apply_lang(lang: Lang) {
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, lang.tag());
    }
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.set_attribute("lang", lang.tag());
    }
}

/// Presenter mode also asks for full screen (both are user gestures: the
/// button or the `p` key); leaving it leaves full screen. Browsers that refuse
/// (an iframe without `allowfullscreen`) just keep the large type.
pub fn set_fullscreen(on: bool) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if on {
        if let Some(root) = doc.document_element() {
            let _ = root.request_fullscreen();
        }
    } else if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    }
}

/// The visitor asked the system for less motion (`prefers-reduced-motion`).
pub fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// The narrow drawing on a phone-sized window (the width at which the page's
/// style stacks its panels, `@media (max-width: 760px)`), the presenter's in
/// presenter mode elsewhere, the wide one otherwise.
pub fn frame(presenter: bool) -> crate::view::Frame {
    let narrow =
        web_sys::window().and_then(|w| w.match_media("(max-width: 760px)").ok().flatten()).is_some_and(|m| m.matches());
    match (narrow, presenter) {
        (true, _) => crate::view::Frame::Narrow,
        (false, true) => crate::view::Frame::Presenter,
        (false, false) => crate::view::Frame::Wide,
    }
}
