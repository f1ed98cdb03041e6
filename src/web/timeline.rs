//! The timeline scrubber: drag to any moment (re-run from a checkpoint), with
//! markers for faults, rebalances, groups settling and coordinator failovers.
//! While dragging, seeks are coalesced: the first of a frame seeks at once,
//! later ones in the same frame only move the target, sought on the next frame.

use crate::i18n::{tr, trf, Lang};
use crate::player::{Action, Player};
use crate::sim::Millis;
use std::cell::Cell;
use wasm_bindgen::{closure::Closure, JsCast};
use yew::prelude::*;

// How fast a drag sends seeks to the page's reducer, not the page's state:
// the seeks themselves are messages (`Msg::Action(Action::Seek)`).
thread_local! {
    /// A seek ran in this animation frame (a frame callback is due to clear it).
    static SOUGHT_THIS_FRAME: Cell<bool> = const { Cell::new(false) };
    /// The latest target given since, sought on the next frame.
    static PENDING: Cell<Option<Millis>> = const { Cell::new(None) };
}

fn drag_to(t: Millis, dispatch: &Callback<Action>) {
    if SOUGHT_THIS_FRAME.get() {
        PENDING.set(Some(t));
        return;
    }
    SOUGHT_THIS_FRAME.set(true);
    dispatch.emit(Action::Seek(t));
    let dispatch = dispatch.clone();
    let next_frame = Closure::once_into_js(move || {
        SOUGHT_THIS_FRAME.set(false);
        if let Some(t) = PENDING.take() {
            drag_to(t, &dispatch);
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(next_frame.unchecked_ref());
    }
}

/// The scrubber; `markers` is `markers(p)`, which the page redraws only a few
/// times a second while playing (it reads the whole trace).
pub fn timeline(p: &Player, dispatch: &Callback<Action>, lang: Lang, markers: Html) -> Html {
    let end = p.horizon.max(p.now()).max(1);
    let on_input = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            drag_to(v.parse().unwrap_or(0), &dispatch);
        })
    };
    let floor = p.floor();
    html! {
        <div class="timeline">
            <input id="timeline" type="range" min={floor.to_string()} max={end.to_string()} value={p.now().to_string()}
                oninput={on_input} aria-label={tr(lang, "timeline.label")} />
            { markers }
            if floor > 0 {
                <p id="memory-notice" class="notice" role="status">
                    { trf(lang, "timeline.forgotten", &[&format!("{:.0}", floor as f64 / 1000.0)]) }
                </p>
            }
        </div>
    }
}

/// The same scrubber for the side-by-side panes (`floor` 0: they keep every
/// moment), with a mark at each fault of their script.
pub fn panes_timeline(cp: &crate::compare::clock::ComparePlayer, dispatch: &Callback<Action>, lang: Lang) -> Html {
    let end = cp.end();
    let on_input = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            drag_to(v.parse().unwrap_or(0), &dispatch);
        })
    };
    let scripted = cp.sbs.comparison.scenario.faults.iter().map(|f| (f.at, &f.fault));
    let faults: Vec<_> = scripted.chain(cp.sbs.injected.iter().map(|(at, f)| (*at, f))).collect();
    html! {
        <div class="timeline">
            <input id="timeline" type="range" min="0" max={end.to_string()} value={cp.now().to_string()}
                oninput={on_input} aria-label={tr(lang, "timeline.label")} />
            <div class="markers" aria-hidden="true">
                { for faults.into_iter().map(|(at, f)| html! {
                    <span class={classes!("marker", "fault")} style={format!("left:{:.2}%", at as f64 * 100.0 / end as f64)}
                        title={crate::narrate::fault::description(&f.describe(), lang)} />
                }) }
            </div>
        </div>
    }
}

pub fn markers(p: &Player, lang: Lang) -> Html {
    let end = p.horizon.max(p.now()).max(1);
    html! {
        <div class="markers" aria-hidden="true">
            { for p.timeline_events().filter_map(|e| crate::view::timeline_marker(&e.kind).map(|m| (e.at, m))).map(|(at, (class, title))| {
                let title = if class == "fault" { crate::narrate::fault::description(&title, lang) } else { title };
                html! {
                <span class={classes!("marker", class)} style={format!("left:{:.2}%", at as f64 * 100.0 / end as f64)} title={title} />
            } }) }
        </div>
    }
}
