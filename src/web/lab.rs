//! The assignor lab: edit a group (members, subscriptions, owned partitions,
//! racks) as a vectors.json case, run any of Kafka's six assignors, and see
//! what each member keeps, gains and gives up.

use crate::assign::lab::{self, LabResult};
use crate::assign::TopicPartition;
use crate::i18n::{tr, trf, Lang};
use yew::prelude::*;

const ASSIGNORS: [&str; 6] = ["range", "roundrobin", "sticky", "cooperative-sticky", "uniform", "server-range"];

fn list(ps: &[TopicPartition]) -> String {
    ps.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ")
}

/// The case text with its `assignor` field replaced, if the text is valid JSON.
fn with_assignor(text: &str, assignor: &str) -> Option<String> {
    let mut v: serde_json::Value = serde_json::from_str(text).ok()?;
    v.as_object_mut()?.insert("assignor".into(), assignor.into());
    serde_json::to_string_pretty(&v).ok()
}

#[function_component]
pub fn AssignorLab() -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let text = use_state(|| lab::example("range"));
    let outcome = use_state(|| lab::run(&lab::example("range")));

    let current = match &*outcome {
        // The menu's names for the vectors.json spellings.
        Ok(r) => match r.assignor.as_str() {
            "server.range" => "server-range",
            "server.uniform" => "uniform",
            a => a.strip_prefix("client.").unwrap_or(a),
        }
        .to_string(),
        Err(_) => String::new(),
    };
    let on_assignor = {
        let (text, outcome) = (text.clone(), outcome.clone());
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let next = with_assignor(&text, &name).unwrap_or_else(|| lab::example(&name));
            outcome.set(lab::run(&next));
            text.set(next);
        })
    };
    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| text.set(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()))
    };
    let on_run = {
        let (text, outcome) = (text.clone(), outcome.clone());
        Callback::from(move |_: MouseEvent| outcome.set(lab::run(&text)))
    };

    html! {
        <section id="lab" class="lab" aria-label={tr(lang, "lab.label")}>
            <div class="lab-input">
                <h2>{ tr(lang, "tab.lab") }</h2>
                <p class="hint">{ tr(lang, "lab.hint") }</p>
                <label>{ tr(lang, "lab.assignor") }{" "}
                    <select id="lab-assignor" onchange={on_assignor} ~value={current.clone()}>
                        { for ASSIGNORS.iter().map(|a| html! { <option value={*a} selected={*a == current}>{ *a }</option> }) }
                    </select>
                </label>
                <textarea id="lab-input" rows="18" spellcheck="false" value={(*text).clone()} oninput={on_input} aria-label={tr(lang, "lab.case")} />
                <button id="lab-run" onclick={on_run}>{ tr(lang, "lab.run") }</button>
            </div>
            <div class="lab-output">
                { match &*outcome {
                    Ok(r) => result_table(r, lang),
                    Err(e) => html! { <p id="lab-error" class="fault-error" role="alert">{ e.clone() }</p> },
                } }
            </div>
        </section>
    }
}

fn result_table(r: &LabResult, lang: Lang) -> Html {
    html! {
        <>
            <p id="lab-summary" data-moved={r.moved.to_string()} data-spread={r.spread.to_string()}>
                { trf(lang, "lab.summary", &[&r.assignor, &r.moved, &r.spread]) }
                { if r.unassigned.is_empty() { String::new() } else { trf(lang, "lab.unassigned", &[&list(&r.unassigned)]) } }
            </p>
            <table id="lab-result" class="ownership lab-table">
                <thead><tr>{ for ["lab.member", "lab.assigned", "lab.kept", "lab.added", "lab.revoked"].iter().map(|k| html! { <th>{ tr(lang, k) }</th> }) }</tr></thead>
                <tbody>
                { for r.members.iter().map(|m| html! {
                    <tr data-member={m.member.clone()} data-assigned={list(&m.assigned)}>
                        <td>{ m.member.clone() }</td>
                        <td>{ list(&m.assigned) }</td>
                        <td>{ list(&m.kept) }</td>
                        <td>{ list(&m.added) }</td>
                        <td class={classes!((!m.revoked.is_empty()).then_some("dup"))}>{ list(&m.revoked) }</td>
                    </tr>
                }) }
                </tbody>
            </table>
        </>
    }
}
