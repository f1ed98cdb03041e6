//! The timeline scrubber: drag to any moment (re-run from a checkpoint), with
//! markers for faults, rebalances, groups settling and coordinator failovers.

use crate::i18n::{tr, Lang};
use crate::player::{Action, Player};
use yew::prelude::*;

/// The scrubber; `markers` is `markers(p)`, which the page redraws only a few
/// times a second while playing (it reads the whole trace).
pub fn timeline(p: &Player, dispatch: &Callback<Action>, lang: Lang, markers: Html) -> Html {
    let end = p.horizon.max(p.now()).max(1);
    let on_input = dispatch.reform(|e: InputEvent| {
        let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
        Action::Seek(v.parse().unwrap_or(0))
    });
    html! {
        <div class="timeline">
            <input id="timeline" type="range" min="0" max={end.to_string()} value={p.now().to_string()}
                oninput={on_input} aria-label={tr(lang, "timeline.label")} />
            { markers }
        </div>
    }
}

pub fn markers(p: &Player, lang: Lang) -> Html {
    let end = p.horizon.max(p.now()).max(1);
    html! {
        <div class="markers" aria-hidden="true">
            { for p.events().iter().filter_map(|e| crate::view::timeline_marker(&e.kind).map(|m| (e.at, m))).map(|(at, (class, title))| {
                let title = if class == "fault" { crate::narrate::fault::description(&title, lang) } else { title };
                html! {
                <span class={classes!("marker", class)} style={format!("left:{:.2}%", at as f64 * 100.0 / end as f64)} title={title} />
            } }) }
        </div>
    }
}
