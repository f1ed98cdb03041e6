//! The fault menu: every fault the core supports, injected at the playhead.

use crate::i18n::{tr, Lang};
use crate::sim::fault::FORM_KINDS;
use crate::sim::Fault;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct FaultMenuProps {
    pub on_fault: Callback<Fault>,
    /// Whether the fault can happen in the current run (targets exist, caps hold).
    #[prop_or_default]
    pub check: Option<Callback<Fault, Result<(), String>>>,
}

fn input_value(e: &Event) -> String {
    e.target_unchecked_into::<web_sys::HtmlInputElement>().value()
}

#[function_component]
pub fn FaultMenu(props: &FaultMenuProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let kind = use_state(|| FORM_KINDS[0].0.to_string());
    let a = use_state(String::new);
    let b = use_state(String::new);
    let value = use_state(String::new);
    let error = use_state(|| None::<String>);

    let set = |h: UseStateHandle<String>| Callback::from(move |e: Event| h.set(input_value(&e)));
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |e: Event| kind.set(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
    };
    let on_submit = {
        let (kind, a, b, value, error, on_fault) =
            (kind.clone(), a.clone(), b.clone(), value.clone(), error.clone(), props.on_fault.clone());
        let check = props.check.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let checked = |f: Fault| match &check {
                Some(c) => c.emit(f.clone()).map(|()| f),
                None => Ok(f),
            };
            match Fault::from_form(&kind, &a, &b, &value).and_then(checked) {
                Ok(f) => {
                    error.set(None);
                    on_fault.emit(f);
                }
                // In plain words, and nothing is narrated: the fault never reaches the run.
                Err(msg) => error.set(Some(crate::fault_words::refused(&msg, lang))),
            }
        })
    };
    let hint = tr(lang, &format!("fk.{}", *kind));
    html! {
        <form id="fault-form" class="fault-menu" onsubmit={on_submit} aria-label={tr(lang, "fault.label")}>
            <h2>{ tr(lang, "fault.title") }</h2>
            <select id="fault-type" onchange={on_kind} aria-label={tr(lang, "fault.kind")}>
                { for FORM_KINDS.iter().map(|(k, _)| html! { <option value={*k} selected={*k == kind.as_str()}>{ *k }</option> }) }
            </select>
            <input id="fault-a" placeholder="c2 / broker-1 / orders" onchange={set(a.clone())} aria-label={tr(lang, "fault.a")} />
            <input id="fault-b" placeholder="broker-1" onchange={set(b.clone())} aria-label={tr(lang, "fault.b")} />
            <input id="fault-value" placeholder={tr(lang, "fault.value")} onchange={set(value.clone())} aria-label={tr(lang, "fault.value")} />
            <button id="inject" type="submit">{ tr(lang, "fault.inject") }</button>
            <p class="hint">{ hint }</p>
            if let Some(msg) = (*error).clone() {
                <p id="fault-error" class="fault-error" role="alert">{ msg }</p>
            }
        </form>
    }
}
