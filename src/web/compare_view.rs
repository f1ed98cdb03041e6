//! Side-by-side mode: two or three variants of one scenario (eager, cooperative,
//! KIP-848, static members...) under the same faults, synchronised in
//! simulated time, each drawn small, with the core's metrics table live.

use super::fault_menu::FaultMenu;
use super::topology::topology;
use crate::compare::SideBySide;
use crate::examples::{comparison, COMPARISONS};
use crate::i18n::{tr, Lang};
use crate::sim::{Fault, Millis};
use crate::view;
use gloo::timers::callback::Interval;
use yew::prelude::*;


#[function_component]
pub fn CompareView() -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let id = use_state(|| COMPARISONS[0].0.to_string());
    let sbs = use_mut_ref(|| SideBySide::new(&comparison(COMPARISONS[0].0).expect("shipped comparisons are valid")).expect("valid"));
    let playing = use_state(|| false);
    let update = use_force_update();

    {
        let (sbs, playing, update) = (sbs.clone(), *playing, update.clone());
        use_effect_with(playing, move |playing| {
            let interval = playing.then(|| {
                Interval::new(50, move || {
                    let now = sbs.borrow().now();
                    // 10× real time: 50 ms of wall time is 500 ms simulated.
                    sbs.borrow_mut().advance_to(now + 500);
                    update.force_update();
                })
            });
            move || drop(interval)
        });
    }
    let on_pick = {
        let (id, sbs, update, playing) = (id.clone(), sbs.clone(), update.clone(), playing.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Ok(s) = comparison(&v).and_then(|c| SideBySide::new(&c)) {
                *sbs.borrow_mut() = s;
                playing.set(false);
                id.set(v);
                update.force_update();
            }
        })
    };
    let on_seek = {
        let (sbs, update) = (sbs.clone(), update.clone());
        Callback::from(move |e: InputEvent| {
            let v: Millis = e.target_unchecked_into::<web_sys::HtmlInputElement>().value().parse().unwrap_or(0);
            sbs.borrow_mut().seek(v);
            update.force_update();
        })
    };
    let on_fault = {
        let (sbs, update) = (sbs.clone(), update.clone());
        Callback::from(move |f: Fault| {
            sbs.borrow_mut().inject(f);
            update.force_update();
        })
    };
    let toggle = {
        let playing = playing.clone();
        Callback::from(move |_: MouseEvent| playing.set(!*playing))
    };
    let s = sbs.borrow();
    let until = s.comparison.until.unwrap_or(60_000).max(s.now());
    let noop_mouse = Callback::from(|_: MouseEvent| ());
    let noop_key = Callback::from(|_: KeyboardEvent| ());
    html! {
        <section id="compare" class="compare" aria-label={tr(lang, "tab.compare")}>
            <div class="compare-bar">
                <label>{ tr(lang, "compare.pick") }{" "}
                    <select id="compare-pick" onchange={on_pick}>
                        { for COMPARISONS.iter().map(|(k, en, zh, _)| html! {
                            <option value={*k} selected={*k == id.as_str()}>{ if lang == Lang::Zh { *zh } else { *en } }</option>
                        }) }
                    </select>
                </label>
                <button id="compare-play" onclick={toggle} aria-pressed={playing.to_string()}>{ tr(lang, if *playing { "pause" } else { "play" }) }</button>
                <input id="compare-time" type="range" min="0" max={until.to_string()} value={s.now().to_string()} oninput={on_seek}
                    aria-label={tr(lang, "timeline.label")} />
                <span id="compare-clock" class="clock">{ crate::i18n::trf(lang, "clock", &[&format!("{:.1}", s.now() as f64 / 1000.0)]) }</span>
            </div>
            <p class="hint">{ tr(lang, "compare.hint") }</p>
            <div class="panes">
                { for s.lanes.iter().map(|lane| {
                    let g = view::groups(&lane.world).into_iter().find(|g| g.group_id == s.group);
                    html! {
                        <div class="pane" data-variant={lane.name.clone()}>
                            <h3>{ crate::view::compare_text::variant_name(&lane.name, lang) }</h3>
                            <p class="state">{ g.map(|g| format!("{} · {} {}", if g.state == "(no group yet)" { tr(lang, "group.none").to_string() } else { g.state }, tr(lang, "compare.generation"), g.generation)).unwrap_or_default() }</p>
                            { topology(&lane.world, lang, None, &[], noop_mouse.clone(), noop_key.clone(), None, false) }
                        </div>
                    }
                }) }
            </div>
            <table id="compare-metrics" class="ownership">
                <caption>{ tr(lang, "compare.metrics") }</caption>
                <thead><tr>
                    <th>{ tr(lang, "compare.variant") }</th>
                    { for ["compare.rebalances", "compare.unavailable", "compare.stw", "compare.moved", "compare.redelivered", "compare.stable"].iter().map(|k| html! { <th>{ tr(lang, k) }</th> }) }
                </tr></thead>
                <tbody>
                    { for s.lanes.iter().map(|lane| {
                        let m = &lane.observer.metrics;
                        html! {
                            <tr data-variant={lane.name.clone()} data-stw={m.longest_stop_the_world_ms.to_string()} data-rebalances={m.rebalances.to_string()}>
                                <td>{ crate::view::compare_text::variant_name(&lane.name, lang) }</td>
                                <td>{ m.rebalances }</td>
                                <td>{ m.unavailable_ms }</td>
                                <td>{ m.longest_stop_the_world_ms }</td>
                                <td>{ m.partitions_moved }</td>
                                <td>{ m.records_redelivered }</td>
                                <td>{ crate::view::compare_text::time_to_stable(m, lang) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            <section id="compare-why" class="compare-why" aria-label={tr(lang, "compare.differences")}>
                <h3>{ tr(lang, "compare.differences") }</h3>
                <ul>
                    { for crate::view::compare_text::differences(&s.lanes.iter().map(|l| (l.name.as_str(), &l.observer.metrics)).collect::<Vec<_>>(), lang).into_iter().map(|t| html! { <li>{ t }</li> }) }
                </ul>
            </section>
            <FaultMenu on_fault={on_fault} check={{ let sbs = sbs.clone(); Callback::from(move |f: Fault| sbs.borrow().check_fault(&f)) }} />
        </section>
    }
}
