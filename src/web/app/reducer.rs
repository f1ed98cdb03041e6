//! yew's `Reducible` for the page's state (as in yew's `function_todomvc`):
//! the native `page::reduce` applies the message, and the effects it returns
//! are performed here at once, while the click or key that sent the message
//! is still being handled (full screen needs that gesture).

use super::super::clock::now_ms;
use super::super::{lesson_panel, prefs};
use crate::page::{self, AppState, Effect, Msg};
use std::rc::Rc;
use yew::Reducible;

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let (next, effects) = page::reduce(self, msg, &mut now_ms);
        effects.into_iter().for_each(perform);
        next
    }
}

fn perform(e: Effect) {
    match e {
        Effect::SaveProgress(p) => lesson_panel::save_progress(p),
        Effect::FullScreen(on) => prefs::set_fullscreen(on),
        Effect::SaveSameOrder(on) => lesson_panel::set_same_order(on),
        Effect::SaveLearnerSeed(seed) => lesson_panel::save_learner_seed(seed),
    }
}
