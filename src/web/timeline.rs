//! The timeline scrubber: drag to any moment (re-run from a checkpoint), with
//! markers for faults and rebalances.

use crate::i18n::{tr, Lang};
use crate::player::{Action, Player};
use crate::sim::trace::{EventKind, Machine};
use yew::prelude::*;

pub fn timeline(p: &Player, dispatch: &Callback<Action>, lang: Lang) -> Html {
    let end = p.horizon.max(p.now()).max(1);
    let on_input = dispatch.reform(|e: InputEvent| {
        let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
        Action::Seek(v.parse().unwrap_or(0))
    });
    let markers = p.events().iter().filter_map(|e| {
        let kind = match &e.kind {
            EventKind::FaultInjected { description } => ("fault", description.clone()),
            EventKind::StateChanged { machine: Machine::Group { group_id }, to, .. } if to == "PreparingRebalance" => {
                ("rebalance", format!("{group_id} starts rebalancing"))
            }
            _ => return None,
        };
        Some((e.at, kind))
    });
    html! {
        <div class="timeline">
            <input id="timeline" type="range" min="0" max={end.to_string()} value={p.now().to_string()}
                oninput={on_input} aria-label={tr(lang, "timeline.label")} />
            <div class="markers" aria-hidden="true">
                { for markers.map(|(at, (class, title))| html! {
                    <span class={classes!("marker", class)} style={format!("left:{:.2}%", at as f64 * 100.0 / end as f64)} title={title} />
                }) }
            </div>
        </div>
    }
}
