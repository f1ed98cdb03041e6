//! On a phone the drawing and the lesson panel sit one above the other, so
//! the page follows the lesson (issue 32): a new step opens at its first line;
//! when the learner commits (answers, acts or reveals) the drawing comes into
//! view to watch the event; two seconds after the event the verdict does. With few
//! clients the drawing is short enough to stay pinned above the panel
//! (`.watch-pinned`, CSS), and the panel scrolls under it.

use crate::lesson::Phase;
use wasm_bindgen::JsCast;

/// Phones and narrow windows: the layout's single column (static/style.css).
const NARROW_PX: f64 = 760.0;
/// After the event, the drawing stays in view this long (wall ms) before the
/// page scrolls to the verdict.
const EVENT_IN_VIEW_MS: u32 = 2000;
/// Up to this many clients (two rows on a phone) the drawing stays pinned.
pub const PINNED_UP_TO_CLIENTS: usize = 4;

/// Where the lesson is: lesson number, step index and phase.
pub type At = (u32, usize, Phase);

fn narrow() -> bool {
    web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).is_some_and(|w| w <= NARROW_PX)
}

fn scroll_to(selector: &str, block: web_sys::ScrollLogicalPosition) {
    let Some(el) = gloo::utils::document().query_selector(selector).ok().flatten() else { return };
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(block);
    if let Some(el) = el.dyn_ref::<web_sys::Element>() {
        el.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

/// Scrolls for the move from `before` to `now` (after the page drew `now`).
pub fn follow(before: Option<At>, now: Option<At>) {
    let Some((lesson, step, phase)) = now else { return };
    if !narrow() || before == now {
        return;
    }
    use web_sys::ScrollLogicalPosition::{Nearest, Start};
    let new_step = before.is_none_or(|(l, s, _)| (l, s) != (lesson, step));
    match (before.map(|b| b.2), phase) {
        _ if new_step => scroll_to("#lesson", Start),
        (Some(Phase::Question | Phase::Act | Phase::Missed), Phase::Running) => scroll_to(".layout > .stage", Start),
        // The event stays in view a while before the verdict takes its place.
        (_, Phase::Reached | Phase::Missed) => {
            gloo::timers::callback::Timeout::new(EVENT_IN_VIEW_MS, move || {
                let still = gloo::utils::document()
                    .query_selector("#lesson")
                    .ok()
                    .flatten()
                    .and_then(|l| l.get_attribute("data-phase"));
                if still.as_deref() == Some(&format!("{phase:?}")) {
                    scroll_to("#lesson .feedback, #lesson .task-missed, #lesson", Nearest);
                }
            })
            .forget();
        }
        _ => {}
    }
}
