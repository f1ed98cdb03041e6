//! The narrated event log: one sentence per event, newest first, filterable,
//! with "why?" on each line that walks back its causal chain. The newest
//! sentence also goes to an ARIA live region for screen readers.

use super::context::AppContext;
use crate::i18n::{tr, Lang};
use crate::narrate;
use crate::sim::types::EventId;
use yew::prelude::*;

/// A routine Fetch to a partition leader (see `spacetime::is_routine_fetch`).
fn is_routine_fetch(e: &crate::sim::trace::Event) -> bool {
    matches!(&e.kind, crate::sim::trace::EventKind::MessageSent { label, .. } if crate::spacetime::is_routine_fetch(label))
}

/// Lines kept in the page (older ones stay in the trace and the export).
const SHOWN: usize = 200;

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    /// Changes when the log should redraw (a few times a second while playing:
    /// see `cached`).
    pub version: u64,
    /// Whether routine fetches to partition leaders are listed: only when the
    /// learner turned "Show fetches" on. A settled group of 100 sends about a
    /// thousand a second, which would push every rebalance out of the log.
    pub fetches: bool,
}

#[function_component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let filter = use_state(String::new);
    let why = use_state(|| None::<EventId>);
    // The run, from the page's context (which never changes by itself: this
    // log redraws on its `version`).
    let page = use_context::<AppContext>().expect("the event log is inside the page");
    let p = page.run.player();
    let world = &p.world;
    let needle = filter.to_lowercase();
    let listed = |e: &&crate::sim::trace::Event| props.fetches || !is_routine_fetch(e);
    let lines: Vec<(EventId, u64, String, bool)> = world
        .trace
        .iter()
        .rev()
        .filter(listed)
        .filter_map(|e| narrate::sentence(world, e, lang).map(|s| (e.id, e.at, s, e.cause.is_some())))
        .filter(|(_, _, s, _)| needle.is_empty() || s.to_lowercase().contains(&needle))
        .take(SHOWN)
        .collect();
    // The newest sentence for the live region: the first line, unless a filter hides it.
    let latest = match lines.first() {
        Some((_, _, sentence, _)) if needle.is_empty() => sentence.clone(),
        _ => {
            world.trace.iter().rev().filter(listed).find_map(|e| narrate::sentence(world, e, lang)).unwrap_or_default()
        }
    };
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| filter.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let chain = (*why)
        .and_then(|id| world.trace.get(id))
        .map(|e| (narrate::sentence(world, e, lang).unwrap_or_default(), narrate::why(world, e, lang)));
    html! {
        <div class="log">
            <h2>{ tr(lang, "log.title") }</h2>
            <p id="narration" class="sr-only" aria-live="polite">{ latest }</p>
            <input id="log-filter" type="search" placeholder={tr(lang, "log.filter")} aria-label={tr(lang, "log.filter")}
                value={(*filter).clone()} oninput={on_filter} />
            if let Some((head, links)) = chain {
                <div id="why" class="why" role="region" aria-label={tr(lang, "why.title")}>
                    <h3>{ tr(lang, "why.title") }<button class="close" aria-label={tr(lang, "close")} onclick={{ let w = why.clone(); move |_| w.set(None) }}>{"×"}</button></h3>
                    <ol>
                        <li class="head">{ head }</li>
                        { for links.iter().map(|l| html! {
                            <li data-event={l.id.to_string()}><span class="t">{ format!("{:.1}s", l.at as f64 / 1000.0) }</span>{" ← "}{ l.sentence.clone() }</li>
                        }) }
                    </ol>
                    if links.is_empty() {
                        <p class="hint">{ tr(lang, "why.none") }</p>
                    }
                </div>
            }
            <ol id="event-log" reversed=true>
                { for lines.into_iter().map(|(id, at, s, has_cause)| {
                    let w = why.clone();
                    html! {
                        <li key={id} data-event={id.to_string()}><span class="t">{ format!("{:>6.1}s", at as f64 / 1000.0) }</span>{" "}{ s }
                            if has_cause {
                                {" "}<button class="why-link" onclick={move |_| w.set(Some(id))} title={tr(lang, "why.title")}>{ tr(lang, "why") }</button>
                            }
                        </li>
                    }
                }) }
            </ol>
        </div>
    }
}
