//! The inspector: the selected node, link, partition or message, its full
//! state, and every fault that can be injected on it (the click menu).

use crate::i18n::{tr, Lang};
use crate::inspect::{actions, inspect, Selection};
use crate::sim::{Fault, World};
use yew::prelude::*;

pub fn inspector(world: &World, lang: Lang, sel: Option<&Selection>, on_fault: &Callback<Fault>, on_select: &Callback<Option<Selection>>) -> Html {
    let Some(sel) = sel else {
        return html! { <div id="inspector" class="inspector empty"><p class="hint">{ tr(lang, "inspector.empty") }</p></div> };
    };
    let close = on_select.reform(|_: MouseEvent| None);
    let Some(info) = inspect(world, sel) else {
        return html! {
            <div id="inspector" class="inspector">
                <p class="hint">{ tr(lang, "inspector.gone") }</p>
                <button class="close" onclick={close} aria-label={tr(lang, "close")}>{"×"}</button>
            </div>
        };
    };
    html! {
        <div id="inspector" class="inspector" role="region" aria-label={tr(lang, "inspector.title")}>
            <h2>{ info.title.clone() }<button class="close" onclick={close} aria-label={tr(lang, "close")}>{"×"}</button></h2>
            <dl>
                { for info.facts.iter().map(|(k, v)| html! { <><dt>{ *k }</dt><dd>{ v.clone() }</dd></> }) }
            </dl>
            <div class="actions" role="group" aria-label={tr(lang, "inspector.actions")}>
                { for actions(world, sel).into_iter().map(|f| {
                    let label = f.describe();
                    let kind = serde_json::to_value(&f).ok().and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_string)).unwrap_or_default();
                    html! { <button class="action" data-fault={kind} onclick={on_fault.reform(move |_| f.clone())}>{ label }</button> }
                }) }
            </div>
            if !info.json.is_empty() {
                <details class="raw">
                    <summary>{ tr(lang, "inspector.raw") }</summary>
                    <pre>{ info.json.clone() }</pre>
                </details>
            }
        </div>
    }
}
