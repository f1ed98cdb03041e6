//! Side-by-side mode: up to four variants of one scenario (eager, cooperative,
//! KIP-848, static members, a share group) under the same faults, each drawn small, with the
//! core's metrics table live. The page owns the panes (`ComparePlayer`): the
//! main toolbar's play, step, scrubber and speed drive them while this tab shows.

use super::fault_menu::FaultMenu;
use super::topology::{topology, Look};
use crate::compare::clock::{ComparePlayer, THIS_RUN};
use crate::examples::COMPARISONS;
use crate::i18n::{tr, Lang};
use crate::lesson::Concealed;
use crate::page::compare::FROM_LOGS;
use crate::page::{Msg, Tab};
use crate::player::Action;
use crate::sim::Fault;
use crate::view;
use yew::prelude::*;

/// What the tab needs besides the panes: where its messages go (pick a
/// comparison, compare this run, a fault, back to the lesson), whether a
/// fault can happen in the panes, and the open lesson's step comparison, if
/// its step has one (the id its pane player gets, its name in the page's language).
pub struct CompareHandlers {
    pub dispatch: Callback<Msg>,
    pub check: Callback<Fault, Result<(), String>>,
    pub lesson: Option<(String, String)>,
}

/// Pane `i`'s drawing under an id of its own (`topology-pane-1` …): the
/// topology's SVG is `#topology`, and the page must not hold two elements with one id.
fn pane_drawing(svg: Html, i: usize) -> Html {
    match svg {
        Html::VTag(mut tag) => {
            std::rc::Rc::make_mut(&mut tag).add_attribute("id", format!("topology-pane-{}", i + 1));
            Html::VTag(tag)
        }
        other => other,
    }
}

/// The name the picker shows for the open comparison (the same words as its option).
fn comparison_name(cp: &ComparePlayer, lang: Lang, h: &CompareHandlers) -> String {
    if cp.id == THIS_RUN {
        return tr(lang, "compare.thisrun.option").to_string();
    }
    if cp.id == FROM_LOGS {
        return crate::i18n::trf(lang, "compare.from-logs", &[&cp.sbs.group]);
    }
    if let Some((_, name)) = h.lesson.as_ref().filter(|l| l.0 == cp.id) {
        return name.clone();
    }
    match COMPARISONS.iter().find(|c| c.0 == cp.id) {
        Some((_, en, zh, _)) => if lang == Lang::Zh { zh } else { en }.to_string(),
        // A lesson's comparison once its step is over: the name it was written with.
        None => cp.sbs.comparison.name.clone(),
    }
}

pub fn compare_view(cp: &ComparePlayer, lang: Lang, h: &CompareHandlers) -> Html {
    let s = &cp.sbs;
    let on_pick =
        h.dispatch.reform(|e: Event| Msg::ComparePick(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()));
    let noop_mouse = Callback::from(|_: MouseEvent| ());
    let noop_key = Callback::from(|_: KeyboardEvent| ());
    let this_run = cp.id == THIS_RUN;
    // The panes draw small, with nothing selected, highlighted or hidden.
    let nothing_hidden = Concealed::default();
    let look = Look {
        lang,
        selected: None,
        highlights: &[],
        concealed: &nothing_hidden,
        watched: &[],
        show_fetches: false,
        presenter: false,
    };
    html! {
        <section id="compare" class="compare" aria-label={tr(lang, "tab.compare")} data-comparison={cp.id.clone()}>
            <div class="compare-bar">
                <label>{ tr(lang, "compare.pick") }{" "}
                    <select id="compare-pick" onchange={on_pick} ~value={cp.id.clone()}>
                        if this_run {
                            <option value={THIS_RUN} selected=true>{ tr(lang, "compare.thisrun.option") }</option>
                        }
                        { for COMPARISONS.iter().map(|(k, en, zh, _)| html! {
                            <option value={*k} selected={*k == cp.id.as_str()}>{ if lang == Lang::Zh { *zh } else { *en } }</option>
                        }) }
                        // A lesson step's comparison (named by its button while that step is open).
                        if cp.id.starts_with("lesson-") {
                            <option value={cp.id.clone()} selected=true>{ comparison_name(cp, lang, h) }</option>
                        }
                        if cp.id == FROM_LOGS {
                            <option value={FROM_LOGS} selected=true>{ crate::i18n::trf(lang, "compare.from-logs", &[&s.group]) }</option>
                        }
                    </select>
                </label>
                <button id="compare-this-run" class="primary" onclick={h.dispatch.reform(|_| Msg::CompareThisRun)} title={tr(lang, "compare.thisrun.title")}>{ tr(lang, "compare.thisrun") }</button>
                if h.lesson.as_ref().is_some_and(|l| l.0 == cp.id) {
                    <button id="compare-back" onclick={h.dispatch.reform(|_| Msg::SetTab(Tab::Simulation))}>{ tr(lang, "compare.lesson.back") }</button>
                }
            </div>
            <p id="compare-name" class="compare-name">{ comparison_name(cp, lang, h) }</p>
            <p class="hint">{ tr(lang, if this_run { "compare.thisrun.hint" } else { "compare.hint" }) }</p>
            <div class={classes!("panes", format!("n{}", s.lanes.len()))}>
                { for s.lanes.iter().enumerate().map(|(i, lane)| {
                    let g = view::groups(&lane.world).into_iter().find(|g| g.group_id == s.group);
                    html! {
                        <div class="pane" data-variant={lane.name.clone()} data-now={lane.world.now.to_string()}>
                            <h3>{ crate::view::compare_text::variant_name(&lane.name, lang) }</h3>
                            <p class="state">{ g.map(|g| format!("{} · {} {}", if g.state == "(no group yet)" { tr(lang, "group.none").to_string() } else { g.state }, tr(lang, "compare.generation"), g.generation)).unwrap_or_default() }</p>
                            <div class="pane-drawing table-scroll">
                                { pane_drawing(topology(&lane.world, look, noop_mouse.clone(), noop_key.clone(), None), i) }
                            </div>
                        </div>
                    }
                }) }
            </div>
            <div class="table-scroll">
            <table id="compare-metrics" class="ownership">
                <caption>{ tr(lang, "compare.metrics") }</caption>
                <thead><tr>
                    <th>{ tr(lang, "compare.variant") }</th>
                    { for ["compare.rebalances", "compare.unavailable", "compare.stw", "compare.moved", "compare.redelivered", "compare.resumed", "compare.disorder", "compare.stable"].iter().map(|k| html! { <th>{ tr(lang, k) }</th> }) }
                </tr></thead>
                <tbody>
                    { for s.lanes.iter().map(|lane| {
                        let m = &lane.observer.metrics;
                        html! {
                            <tr data-variant={lane.name.clone()} data-stw={m.longest_stop_the_world_ms.to_string()} data-rebalances={m.rebalances.to_string()}
                                data-redelivered={m.records_redelivered.to_string()} data-resumed={m.work_resumed_ms.map(|t| t.to_string()).unwrap_or_default()} data-disorder={m.records_out_of_order.to_string()}>
                                <td>{ crate::view::compare_text::variant_name(&lane.name, lang) }</td>
                                <td>{ m.rebalances }</td>
                                <td>{ m.unavailable_ms }</td>
                                <td>{ m.longest_stop_the_world_ms }</td>
                                <td>{ m.partitions_moved }</td>
                                <td>{ m.records_redelivered }</td>
                                <td>{ crate::view::compare_text::work_resumed(m, lang) }</td>
                                <td>{ m.records_out_of_order }</td>
                                <td>{ crate::view::compare_text::time_to_stable(m, lang) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            </div>
            <section id="compare-rows" class="compare-why" aria-label={tr(lang, "compare.rows")}>
                <h3>{ tr(lang, "compare.rows") }</h3>
                <ul>
                    { for s.lanes.iter().map(|l| {
                        let kind = crate::view::compare_text::Kind::in_world(&l.world, &s.group);
                        html! { <li data-variant={l.name.clone()}>{ crate::view::compare_text::row_note(&l.name, kind, &l.observer.metrics, lang) }</li> }
                    }) }
                </ul>
            </section>
            <section id="compare-why" class="compare-why" aria-label={tr(lang, "compare.differences")}>
                <h3>{ tr(lang, "compare.differences") }</h3>
                <ul>
                    { for crate::view::compare_text::differences(&s.lanes.iter().map(|l| (l.name.as_str(), &l.observer.metrics)).collect::<Vec<_>>(), lang).into_iter().map(|t| html! { <li>{ t }</li> }) }
                </ul>
            </section>
            <FaultMenu on_fault={h.dispatch.reform(|f| Msg::Action(Action::Inject(f)))} check={h.check.clone()} />
        </section>
    }
}
