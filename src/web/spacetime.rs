//! The space-time diagram: a lane per node, messages as arrows, the last
//! seconds before the playhead. Clicking an arrow jumps to its send and
//! selects the message; the selected message is highlighted in both views.

use crate::i18n::{tr, Lang};
use crate::inspect::Selection;
use crate::player::Action;
use crate::sim::{Millis, World};
use crate::spacetime::{build_hiding, Fate, Hidden};
use yew::prelude::*;

const W: f64 = 960.0;
const H: f64 = 240.0;
const LEFT: f64 = 80.0;
/// Simulated time shown, ending at the playhead.
const WINDOW_MS: Millis = 12_000;

/// Routine fetches are hidden like keep-alive heartbeats unless the learner
/// turned "Show fetches" on (`show_fetches`).
pub fn spacetime(
    world: &World,
    lang: Lang,
    dispatch: &Callback<Action>,
    on_select: &Callback<Option<Selection>>,
    selected: Option<&Selection>,
    show_fetches: bool,
) -> Html {
    let st = build_hiding(world, WINDOW_MS, Hidden { keepalives: true, fetches: !show_fetches });
    let lanes = st.lanes.len().max(1) as f64;
    let lane_y = |n: crate::sim::NodeId| {
        let i = st.lanes.iter().position(|l| *l == n).unwrap_or(0) as f64;
        18.0 + (H - 30.0) * i / (lanes - 1.0).max(1.0)
    };
    let span = (st.to - st.from).max(1) as f64;
    let x_of = |t: Millis| LEFT + (W - LEFT - 10.0) * (t.clamp(st.from, st.to) - st.from) as f64 / span;
    let sel_msg = match selected {
        Some(Selection::Message(m)) => Some(*m),
        _ => None,
    };
    html! {
        <figure class="spacetime">
            <svg id="spacetime" viewBox={format!("0 0 {W} {H}")} role="group" aria-label={tr(lang, "spacetime.label")}>
                { for st.lanes.iter().map(|n| {
                    let y = lane_y(*n);
                    html! { <g class="lane"><text x="4" y={(y + 4.0).to_string()}>{ n.to_string() }</text>
                        <line x1={LEFT.to_string()} x2={W.to_string()} y1={y.to_string()} y2={y.to_string()} /></g> }
                }) }
                { for st.arrows.iter().map(|a| {
                    let (x1, y1, x2, y2) = (x_of(a.sent_at), lane_y(a.from), x_of(a.end_at.min(st.to)), lane_y(a.to));
                    let fate = match a.fate { Fate::Delivered => "delivered", Fate::Lost => "lost", Fate::InFlight => "in-flight" };
                    let (msg, at) = (a.msg, a.sent_at);
                    let (dispatch, on_select) = (dispatch.clone(), on_select.clone());
                    let onclick = Callback::from(move |_: MouseEvent| {
                        dispatch.emit(Action::Seek(at));
                        on_select.emit(Some(Selection::Message(msg)));
                    });
                    html! {
                        <g key={a.msg} class={classes!("arrow", fate, (sel_msg == Some(a.msg)).then_some("selected"))} data-msg={a.msg.to_string()} onclick={onclick}>
                            <title>{ format!("{} · {:.1} s", a.label, a.sent_at as f64 / 1000.0) }</title>
                            <line class="hit" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} />
                            <line x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} />
                        </g>
                    }
                }) }
                <line class="playhead" x1={(W - 10.0).to_string()} x2={(W - 10.0).to_string()} y1="0" y2={H.to_string()} />
            </svg>
            <figcaption>{ tr(lang, if show_fetches { "spacetime.caption.fetches" } else { "spacetime.caption" }) }</figcaption>
        </figure>
    }
}
