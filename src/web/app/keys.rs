//! The page's keys, for a keyboard or a presenter's clicker: Space/k play and
//! pause, arrows, "." "," PageDown and PageUp step, p presenter mode, l the
//! legend, ? help, Escape closes; inside a lesson the keys of
//! `lesson::clicker` (PageDown alone carries a room through the course);
//! presenting outside a lesson, PageDown/→ runs on to the next event worth a
//! caption. In presenter mode `b` and `.`, a clicker's blank-screen keys,
//! blank the screen and pause (again: back), and never answer.

use super::super::lesson_panel::LessonMsg;
use super::state::{Flag, Msg, RunView};
use crate::lesson::clicker::{self, Press};
use crate::player::Action;
use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// What the keys read and drive. `presenter` is the value when the
/// listener was made: the page makes a new listener when it changes, since
/// which keys are taken (and so not left to the browser) depends on it.
pub(super) struct Keys {
    pub dispatch: Callback<Msg>,
    pub presenter: bool,
    pub run: RunView,
}

/// Listens for the keys on the document until the listener is dropped.
pub(super) fn listen(keys: Keys) -> EventListener {
    let Keys { dispatch, presenter, run } = keys;
    let doc = gloo::utils::document();
    // Not passive (gloo's default): the keys it takes must not also scroll the page.
    EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
        let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
        let tag = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|el| el.tag_name());
        let in_field = matches!(tag.as_deref(), Some("INPUT" | "SELECT" | "TEXTAREA"));
        // Space on a focused button presses that button (and nothing else).
        let on_button = tag.as_deref() == Some("BUTTON") && e.key() == " ";
        if in_field || on_button || e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        let key = e.key();
        if presenter && matches!(key.as_str(), "b" | "B" | ".") {
            e.prevent_default();
            dispatch.emit(Msg::Toggle(Flag::Blank));
            return;
        }
        // Inside a lesson the clicker picks, reveals, shows a task done and goes on.
        let (pressed, in_lesson) = {
            let r = run.get();
            (r.lesson.as_ref().and_then(|s| clicker::press(s, &key, presenter)), r.lesson.is_some())
        };
        if let Some(p) = pressed {
            e.prevent_default();
            dispatch.emit(Msg::Lesson(lesson_msg(p)));
            return;
        }
        // Presenting outside a lesson, PageDown/→ runs on to the next
        // thing worth a sentence (the caption changes), not the next heartbeat.
        if presenter && !in_lesson && matches!(key.as_str(), "PageDown" | "ArrowRight") {
            e.prevent_default();
            dispatch.emit(Msg::RunToCaption);
            return;
        }
        match key.as_str() {
            "l" => dispatch.emit(Msg::Toggle(Flag::Legend)),
            "p" => dispatch.emit(Msg::Toggle(Flag::Presenter)),
            "?" => dispatch.emit(Msg::Toggle(Flag::Help)),
            "Escape" => dispatch.emit(Msg::Escape),
            key => {
                let action = match key {
                    " " | "k" => Some(Action::TogglePlay),
                    "ArrowRight" | "." | "PageDown" => Some(Action::Step),
                    "ArrowLeft" | "," | "PageUp" => Some(Action::StepBack),
                    _ => None,
                };
                if let Some(a) = action {
                    e.prevent_default();
                    dispatch.emit(Msg::Action(a));
                }
            }
        }
    })
}

/// The lesson panel's message for a key's press.
fn lesson_msg(p: Press) -> LessonMsg {
    match p {
        Press::Answer(c) => LessonMsg::Answer(c),
        Press::Choose(i) => LessonMsg::Choose(i),
        Press::Reveal => LessonMsg::Reveal,
        Press::Retry => LessonMsg::Retry,
        Press::Next => LessonMsg::Next,
        Press::Open { number, step } => LessonMsg::Open(number, step),
    }
}
