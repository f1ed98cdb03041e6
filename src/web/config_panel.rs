//! The configuration panel: quick fields for the settings that matter most,
//! the whole scenario as JSON, and the linter's verdict as you type. Applying
//! starts a new run that keeps the user's injected faults where the new
//! scenario has a place for them (and says which it dropped, and why); a
//! scenario that cannot run is explained and the current run and the text stay
//! as they are.

use super::context::AppContext;
use crate::config_form::{self, FIELDS, PROTOCOLS};
use crate::i18n::{tr, trf, Lang};
use crate::lint::{self, Level};
use crate::page::{Draft, Msg};
use crate::player::Player;
use crate::sim::scenario::config::CommitMode;
use crate::sim::{Fault, Millis, Scenario};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ConfigProps {
    pub scenario: Scenario,
    /// The edits kept from the last time the panel was open.
    #[prop_or_default]
    pub draft: Option<Draft>,
    /// The faults the user injected into the current run: Apply keeps them.
    #[prop_or_default]
    pub script: Rc<Vec<(Millis, Fault)>>,
}

/// What the last Apply did with the user's faults: how many it kept, and the
/// dropped ones in words.
#[derive(Clone, PartialEq, Default)]
struct Applied {
    kept: usize,
    dropped: Vec<String>,
}

fn applied_notice(lang: Lang, a: &Applied) -> Html {
    let kept = (a.kept > 0).then(|| trf(lang, "config.applied.kept", &[&a.kept]));
    html! {
        <div id="cfg-applied" class="hint" role="status">
            <p>{ tr(lang, "config.applied") }{ kept.map(|k| format!(" {k}")).unwrap_or_default() }</p>
            if !a.dropped.is_empty() {
                <p class="fault-error">{ trf(lang, "config.applied.dropped", &[&a.dropped.len()]) }</p>
                <ul class="dropped">{ for a.dropped.iter().map(|d| html! { <li>{ d.clone() }</li> }) }</ul>
            }
        </div>
    }
}

/// The commit-mode menu's entries (`simulated.commit.mode`).
const COMMIT_MODES: [(&str, CommitMode); 4] = [
    ("none", CommitMode::None),
    ("sync", CommitMode::Sync),
    ("async", CommitMode::Async),
    ("before", CommitMode::Before),
];

fn pretty(s: &Scenario) -> String {
    serde_json::to_string_pretty(s).unwrap_or_default()
}

/// Keeps `text` (or, `None`, no edits) as the draft of `base`: a message to the page.
fn keep_draft(page: &Callback<Msg>, base: &Scenario, text: Option<String>) {
    page.emit(Msg::ConfigDraft(text.map(|t| Rc::new((base.clone(), t)))));
}

#[function_component]
pub fn ConfigPanel(props: &ConfigProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    // Applying replaces the run, and the draft is kept by the page: messages to it.
    let load = use_context::<AppContext>().expect("the panel is inside the page").dispatch;
    let text = use_state(|| {
        let draft = props.draft.as_ref().filter(|d| d.0 == props.scenario).map(|d| d.1.clone());
        draft.unwrap_or_else(|| pretty(&props.scenario))
    });
    let error = use_state(|| None::<String>);
    let applied = use_state(|| None::<Applied>);
    // Quick fields the user typed something wrong into: what they typed and
    // why it is wrong. The field keeps the text; Apply waits until it is fixed.
    let bad = use_state(std::collections::BTreeMap::<&'static str, (String, String)>::new);
    // The text as a scenario (not yet validated), or why it does not parse.
    let parsed: Result<Scenario, String> =
        crate::json::from_str_object(&text).map_err(|e| format!("scenario JSON: {e}"));

    // A quick field changed: rewrite the JSON with the new value.
    let on_field = {
        let load = load.clone();
        let (text, applied, error, base, bad) =
            (text.clone(), applied.clone(), error.clone(), props.scenario.clone(), bad.clone());
        Callback::from(move |(key, value): (&'static str, String)| {
            let Ok(mut s) = crate::json::from_str_object::<Scenario>(&text) else { return };
            let done = match key {
                "protocol" => config_form::set_protocol(&mut s, &value),
                "simulated.commit.mode" => config_form::set_commit_mode(&mut s, &value),
                _ => config_form::set(&mut s, key, &value),
            };
            let mut b = (*bad).clone();
            match done {
                Ok(()) => {
                    b.remove(key);
                    error.set(None);
                    applied.set(None);
                    keep_draft(&load, &base, Some(pretty(&s)));
                    text.set(pretty(&s));
                }
                Err(m) => {
                    b.insert(key, (value, m));
                    applied.set(None);
                }
            }
            bad.set(b);
        })
    };
    let field_input = |key: &'static str| {
        on_field.reform(move |e: Event| (key, e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let on_text = {
        let load = load.clone();
        let (text, applied, base) = (text.clone(), applied.clone(), props.scenario.clone());
        Callback::from(move |e: InputEvent| {
            applied.set(None);
            let value = e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value();
            keep_draft(&load, &base, Some(value.clone()));
            text.set(value);
        })
    };
    let on_apply = {
        let (text, error, applied, load, bad) =
            (text.clone(), error.clone(), applied.clone(), load.clone(), bad.clone());
        let script = props.script.clone();
        Callback::from(move |_: MouseEvent| match bad.iter().next() {
            // A quick field still holds a bad value: nothing is applied.
            Some((_, (_, m))) => {
                applied.set(None);
                error.set(Some(m.clone()));
            }
            None => match Scenario::from_json(&text).and_then(|s| Player::restarted_with(s, &script)) {
                Ok((p, dropped)) => {
                    error.set(None);
                    let dropped = dropped
                        .iter()
                        .map(|d| {
                            let what = crate::narrate::fault::description(&d.fault.describe(), lang);
                            format!("{:.1} s: {what} ({})", d.at as f64 / 1000.0, d.why)
                        })
                        .collect();
                    applied.set(Some(Applied { kept: p.script.len(), dropped }));
                    keep_draft(&load, &p.scenario, None);
                    load.emit(Msg::Load(Box::new(p)));
                }
                Err(e) => error.set(Some(e)),
            },
        })
    };
    let on_revert = {
        let load = load.clone();
        let (text, error, scenario, bad) = (text.clone(), error.clone(), props.scenario.clone(), bad.clone());
        Callback::from(move |_: MouseEvent| {
            bad.set(Default::default());
            error.set(None);
            keep_draft(&load, &scenario, None);
            text.set(pretty(&scenario));
        })
    };
    let on_example = {
        let load = load.clone();
        let (text, error, applied, base) = (text.clone(), error.clone(), applied.clone(), props.scenario.clone());
        Callback::from(move |e: Event| {
            let id = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            match crate::examples::load(&id) {
                Ok(s) => {
                    error.set(None);
                    applied.set(None);
                    keep_draft(&load, &base, Some(pretty(&s)));
                    text.set(pretty(&s));
                }
                Err(m) => error.set(Some(m)),
            }
        })
    };
    let lints = parsed.as_ref().map(lint::check).unwrap_or_default();
    let current_protocol = parsed.as_ref().ok().and_then(config_form::protocol_of).unwrap_or("");
    let commit_mode = parsed.as_ref().ok().and_then(config_form::commit_mode_of);
    html! {
        <section id="config" class="config" aria-label={tr(lang, "tab.config")}>
            <div class="config-form">
                <h2>{ tr(lang, "config.title") }</h2>
                <label class="field">{ tr(lang, "config.example") }
                    <select id="cfg-example" onchange={on_example}>
                        <option value="" selected=true disabled=true>{"—"}</option>
                        { for crate::examples::EXAMPLES.iter().map(|(id, en, zh, _)| html! {
                            <option value={*id}>{ if lang == Lang::Zh { *zh } else { *en } }</option>
                        }) }
                    </select>
                </label>
                <label class="field">{ tr(lang, "config.protocol") }
                    // `~value` (the property): the JSON changes the choice too (see toolbar.rs).
                    <select id="cfg-protocol" disabled={parsed.is_err()} onchange={field_input("protocol")} ~value={current_protocol}>
                        <option value="" selected={current_protocol.is_empty()} disabled=true>{ tr(lang, "config.custom") }</option>
                        { for PROTOCOLS.iter().map(|p| html! {
                            <option value={p.key} selected={p.key == current_protocol}>{ if lang == Lang::Zh { p.zh } else { p.en } }</option>
                        }) }
                    </select>
                </label>
                <label class="field" title={tr(lang, "config.commit-mode")}>{"simulated.commit.mode"}
                    // `~value` as for the protocol: the JSON changes the choice too.
                    <select id="cfg-commit-mode" disabled={parsed.is_err()} onchange={field_input("simulated.commit.mode")}
                        ~value={COMMIT_MODES.iter().find(|(_, m)| commit_mode == Some(*m)).map_or("none", |(k, _)| *k)}>
                        { for COMMIT_MODES.into_iter().map(|(k, m)| html! {
                            <option value={k} selected={commit_mode == Some(m)}>{ k }</option>
                        }) }
                    </select>
                </label>
                { for FIELDS.iter().map(|f| {
                    let key = f.key;
                    let wrong = bad.get(key).cloned();
                    let value = match &wrong {
                        Some((typed, _)) => typed.clone(),
                        None => parsed.as_ref().ok().and_then(|s| config_form::get(s, f.key)).map(|v| v.to_string()).unwrap_or_default(),
                    };
                    let id = format!("cfg-{}", key.replace('.', "-"));
                    html! {
                        <>
                        <label class="field" title={if lang == Lang::Zh { f.zh } else { f.en }}>{ key }
                            <input id={id.clone()} type="number" min="0" value={value} aria-invalid={wrong.is_some().then_some("true")}
                                aria-describedby={wrong.is_some().then(|| format!("{id}-error"))}
                                disabled={parsed.is_err()} onchange={field_input(key)} data-key={key} />
                        </label>
                        if let Some((_, m)) = wrong {
                            <p id={format!("{id}-error")} class="fault-error field-error" role="alert">{ m }</p>
                        }
                        </>
                    }
                }) }
                <div class="config-buttons">
                    <button id="cfg-apply" onclick={on_apply}>{ tr(lang, "config.apply") }</button>
                    <button id="cfg-revert" onclick={on_revert}>{ tr(lang, "config.revert") }</button>
                </div>
                if let Some(e) = (*error).clone() {
                    <p id="cfg-error" class="fault-error" role="alert">{ e }</p>
                }
                if let Some(a) = (*applied).clone() {
                    { applied_notice(lang, &a) }
                }
                <ul id="lint" class="lint" aria-live="polite">
                    if let Err(e) = &parsed {
                        <li class="error">{ e.clone() }</li>
                    }
                    { for lints.iter().map(|l| {
                        let class = match l.level { Level::Error => "error", Level::Warning => "warning", Level::Info => "info" };
                        html! { <li class={class} data-field={l.field.clone()}><b>{ l.field.clone() }</b>{": "}{ if lang == Lang::Zh { l.zh.clone() } else { l.en.clone() } }</li> }
                    }) }
                </ul>
            </div>
            <div class="config-json">
                <label for="cfg-json">{ tr(lang, "config.json") }</label>
                <textarea id="cfg-json" rows="30" spellcheck="false" value={(*text).clone()} oninput={on_text} />
            </div>
        </section>
    }
}
