//! The page's keys, for a keyboard or a presenter's clicker: Space/k play and
//! pause, arrows, "." "," PageDown and PageUp step, p presenter mode, l the
//! legend, ? help, Escape closes; inside a lesson the clicker picks a choice,
//! reveals and goes on; presenting outside a lesson, PageDown/→ runs on to the
//! next event worth a caption.

use super::super::lesson_panel::{self, LessonMsg};
use super::super::prefs;
use crate::inspect::Selection;
use crate::lesson::LessonSession;
use crate::player::{Action, Player};
use gloo::events::{EventListener, EventListenerOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// What the keys drive.
pub(super) struct Keys {
    pub dispatch: Callback<Action>,
    pub presenter: UseStateHandle<bool>,
    pub help: UseStateHandle<bool>,
    pub selection: UseStateHandle<Option<Selection>>,
    pub lesson: Rc<RefCell<Option<LessonSession>>>,
    pub on_lesson: Callback<LessonMsg>,
    pub legend_open: UseStateHandle<bool>,
    pub player: Rc<RefCell<Player>>,
    pub redraw: Callback<()>,
}

/// Listens for the keys on the document until the listener is dropped.
pub(super) fn listen(keys: Keys) -> EventListener {
    let Keys { dispatch, presenter, help, selection, lesson, on_lesson, legend_open, player, redraw } = keys;
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
        // Inside a lesson the clicker picks, reveals and goes on.
        let picked = lesson.borrow().as_ref().and_then(|s| lesson_panel::clicker(s, &e.key()));
        if let Some(m) = picked {
            e.prevent_default();
            on_lesson.emit(m);
            return;
        }
        let key = e.key();
        // Presenting outside a lesson, PageDown/→ runs on to the next
        // thing worth a sentence (the caption changes), not the next heartbeat.
        if *presenter && lesson.borrow().is_none() && matches!(key.as_str(), "PageDown" | "ArrowRight") {
            e.prevent_default();
            {
                let mut p = player.borrow_mut();
                p.playing = false;
                let (from, until) = (p.world.trace.len(), p.now() + 60_000);
                p.advance_until(until, |w| {
                    w.trace[from.min(w.trace.len())..].iter().any(crate::narrate::worth_a_caption)
                });
            }
            redraw.emit(());
            return;
        }
        match key.as_str() {
            "l" => legend_open.set(!*legend_open),
            "p" => {
                prefs::set_fullscreen(!*presenter);
                presenter.set(!*presenter);
            }
            "?" => help.set(!*help),
            "Escape" => {
                help.set(false);
                selection.set(None);
            }
            key => {
                let action = match key {
                    " " | "k" => Some(Action::TogglePlay),
                    "ArrowRight" | "." | "PageDown" => Some(Action::Step),
                    "ArrowLeft" | "," | "PageUp" => Some(Action::StepBack),
                    _ => None,
                };
                if let Some(a) = action {
                    e.prevent_default();
                    dispatch.emit(a);
                }
            }
        }
    })
}
