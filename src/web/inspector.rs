//! The inspector: the selected node, link, partition or message, its full
//! state, and every fault that can be injected on it (the click menu).

use crate::i18n::{tr, tr_opt, Lang};
use crate::inspect::{actions, inspect, Selection};
use crate::sim::{Fault, World};
use yew::prelude::*;

pub fn inspector(
    world: &World,
    lang: Lang,
    sel: Option<&Selection>,
    on_fault: &Callback<Fault>,
    on_select: &Callback<Option<Selection>>,
) -> Html {
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
            <h2>{ fact_value(lang, &info.title) }<button class="close" onclick={close} aria-label={tr(lang, "close")}>{"×"}</button></h2>
            <dl>
                { for info.facts.iter().map(|(k, v)| html! { <><dt>{ fact_name(lang, k) }</dt><dd>{ fact_value(lang, v) }</dd></> }) }
            </dl>
            <div class="actions" role="group" aria-label={tr(lang, "inspector.actions")}>
                { for actions(world, sel).into_iter().map(|f| {
                    let label = crate::narrate::fault::action(&f, lang);
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

/// A fact's name: Kafka's own (`group.id`, `member.id`) as it is, the page's
/// words in the page's language.
fn fact_name(lang: Lang, key: &str) -> String {
    tr_opt(lang, &format!("fact.{key}")).map_or_else(|| key.to_string(), str::to_string)
}

/// A fact's value: `true`/`false`, "crashed (was STABLE)", "overdue"... in the
/// page's language; Kafka's names and numbers as they are.
fn fact_value(lang: Lang, v: &str) -> String {
    if lang == Lang::En {
        return v.to_string();
    }
    let whole = match v {
        "true" => Some("是"),
        "false" => Some("否"),
        "— (dynamic)" => Some("—（动态成员）"),
        "— unowned" => Some("— 无人拥有"),
        _ => None,
    };
    if let Some(w) = whole {
        return w.to_string();
    }
    let mut s = v.to_string();
    for (en, zh) in [
        ("crashed (was ", "已崩溃（之前是 "),
        (" · overdue", " · 已超时"),
        (" (in ", "（还剩 "),
        (" (Connect worker)", "（Connect worker）"),
    ] {
        s = s.replace(en, zh);
    }
    if s.contains('（') && s.ends_with(')') {
        s.pop();
        s.push('）');
    }
    seconds_zh(&s)
}

/// "12.5 s" → "12.5 秒" (only after a number, so "sink-0, sink-1" stays).
fn seconds_zh(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let after_number = i > 0 && chars[i - 1].is_ascii_digit();
        let ends = chars.get(i + 2).is_none_or(|c| !c.is_alphanumeric());
        if after_number && chars[i] == ' ' && chars.get(i + 1) == Some(&'s') && ends {
            out.push_str(" 秒");
            i += 2;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}
