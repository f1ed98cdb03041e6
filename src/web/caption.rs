//! Under the drawing: the caption (the newest sentence worth reading, large,
//! where the eyes are; the full log one click away) and the legend of the
//! drawing (rings, markers, outlines, colours, shapes), shown on demand.

use crate::i18n::{tr, Lang};
use crate::page::{Flag, Msg};
use crate::sim::World;
use yew::prelude::*;

/// `legend`: whether the legend shows; `fetches`: whether fetches to
/// partition leaders are drawn; both toggles are messages to the page.
/// `concealed`: what the open lesson's question hides now (a streams group's status codes).
pub fn caption(
    world: &World,
    lang: Lang,
    legend: bool,
    fetches: bool,
    concealed: &crate::lesson::conceal::Concealed,
    dispatch: &Callback<Msg>,
) -> Html {
    let (at, text) = crate::narrate::caption(world, lang).unwrap_or_else(|| (0, tr(lang, "caption.start").to_string()));
    let show_log = Callback::from(|_: MouseEvent| {
        let doc = gloo::utils::document();
        if let Some(log) = doc.get_element_by_id("log") {
            log.scroll_into_view();
        }
        if let Some(f) = doc
            .get_element_by_id("log-filter")
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = f.focus();
        }
    });
    let toggle = dispatch.reform(|_: MouseEvent| Msg::Toggle(Flag::Legend));
    // A slow consumer waiting out a long max.poll.interval.ms: offer a shorter one.
    let slow_group = crate::narrate::poll_wait::longest(world)
        .filter(|w| w.worth_shortening())
        .and_then(|w| world.clients.get(w.consumer).map(|p| p.client.group_id().to_string()));
    let on_fetches = dispatch.reform(move |_: Event| Msg::ShowFetches(!fetches));
    html! {
        <div class="caption-bar">
            <p id="caption" class="caption"><span class="t">{ crate::i18n::trf(lang, "caption.at", &[&format!("{:.1}", at as f64 / 1000.0)]) }</span>{" "}{ text }
                // A streams group's heartbeat statuses (KIP-1071) stay in view while they hold.
                { for crate::view::streams::shown_statuses(world, concealed).into_iter().map(|s| html! {
                    <span class="st-cap" data-status={s.name()}>{ " · " }<code>{ s.name() }</code>{ ": " }{ tr(lang, crate::view::streams::status_key(s)) }</span>
                }) }
                if let Some(group) = slow_group {
                    {" "}<button id="shorten-poll" class="offer" onclick={dispatch.reform(move |_| Msg::ShortenPollInterval(group.clone()))}>
                        { crate::i18n::trf(lang, "caption.slow.shorten", &[&(crate::narrate::poll_wait::SHORT_POLL_INTERVAL_MS / 1000)]) }
                    </button>
                }
            </p>
            <div class="caption-actions">
                <button id="show-log" onclick={show_log}>{ tr(lang, "caption.log") }</button>
                <button id="legend-button" aria-expanded={legend.to_string()} onclick={toggle}>{ tr(lang, "legend.button") }</button>
                <label class="show-fetches" title={tr(lang, "fetches.hint")}>
                    <input type="checkbox" id="show-fetches" checked={fetches} onchange={on_fetches} />
                    { tr(lang, "fetches.show") }
                </label>
            </div>
        </div>
    }
}

/// One entry: a small drawing and what it means.
fn entry(swatch: Html, key: &str, lang: Lang) -> Html {
    html! {
        <li><svg class="swatch" viewBox="0 0 40 28" aria-hidden="true">{ swatch }</svg><span>{ tr(lang, key) }</span></li>
    }
}

fn ring(class: &'static str) -> Html {
    html! { <circle class={classes!("ring", class)} cx="20" cy="14" r="11" stroke-dasharray="46 70" /> }
}

pub fn legend(lang: Lang, id: &'static str) -> Html {
    html! {
        <section id={id} class="legend" aria-label={tr(lang, "legend.title")}>
            <h2>{ tr(lang, "legend.title") }</h2>
            <ul>
                { entry(ring("session"), "legend.session", lang) }
                { entry(ring("heartbeat"), "legend.heartbeat", lang) }
                { entry(ring("poll"), "legend.poll", lang) }
                { entry(html! { <><circle class="body" cx="20" cy="14" r="10" style="fill:#56B4E9;stroke:#222;stroke-width:3" /><text x="20" y="18" style="font-size:11px">{"★"}</text></> }, "legend.leader", lang) }
                { entry(html! { <><circle cx="20" cy="14" r="10" style="fill:#ddd;stroke:#222;stroke-dasharray:4 3" /></> }, "legend.crashed", lang) }
                { entry(html! { <g class="overdue-badge"><circle cx="20" cy="14" r="9" /><text x="20" y="18.5" style="font-size:13px">{"!"}</text></g> }, "legend.overdue", lang) }
                { entry(html! { <g class="chip owned"><rect x="3" y="7" width="34" height="14" rx="4" /></g> }, "legend.chip", lang) }
                { entry(html! { <g class="chip stale"><rect x="3" y="7" width="34" height="14" rx="4" /></g> }, "legend.stale", lang) }
                { entry(html! { <g class="broker coordinator"><rect x="3" y="4" width="34" height="20" rx="4" /></g> }, "legend.coordinator", lang) }
                { entry(html! { <g class="broker loading"><rect x="3" y="4" width="34" height="20" rx="4" /></g> }, "legend.loading", lang) }
                { entry(html! { <g class="broker dead"><rect x="3" y="4" width="34" height="20" rx="4" /></g> }, "legend.dead", lang) }
                { entry(html! { <><circle cx="20" cy="14" r="10" style="fill:#E69F00;stroke:#222" /><rect x="30" y="4" width="9" height="20" rx="2" style="fill:#009E73;stroke:#222" /></> }, "legend.shapes", lang) }
                { entry(html! { <><circle cx="11" cy="14" r="6" style="fill:#fff;stroke:#000" /><circle cx="29" cy="14" r="6" style="fill:#000;stroke:#000" /></> }, "legend.messages", lang) }
                { entry(html! { <g class="link cut"><line class="link-line" x1="2" y1="14" x2="38" y2="14" /></g> }, "legend.cut", lang) }
                { entry(html! { <g class="link held"><line class="link-line" x1="2" y1="14" x2="38" y2="14" /></g> }, "legend.held", lang) }
                { entry(html! { <g class="link degraded"><line class="link-line" x1="2" y1="14" x2="38" y2="14" /></g> }, "legend.degraded", lang) }
                { entry(html! { <circle cx="20" cy="14" r="10" style="fill:#fff;stroke:#D55E00;stroke-width:4" /> }, "legend.highlight", lang) }
            </ul>
        </section>
    }
}
