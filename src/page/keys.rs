//! The page's keys, for a keyboard or a presenter's clicker: Space/k play and
//! pause, arrows, "." "," PageDown and PageUp step, p presenter mode, l the
//! legend, ? help, Escape closes; inside a lesson the keys of
//! `lesson::clicker` (PageDown alone carries a room through the course);
//! presenting outside a lesson, PageDown/→ runs on to the next event worth a
//! caption. In presenter mode `b` and `.`, a clicker's blank-screen keys,
//! blank the screen and pause (again: back), and never answer. The page
//! (`web/app/keys.rs`) leaves keys typed into fields and modified keys alone.

use super::msg::{Flag, LessonMsg, Msg};
use crate::lesson::{clicker, LessonSession};
use crate::player::Action;

/// What a key does: its message, and whether the page takes the key (the
/// browser does nothing else with it, such as scrolling).
pub struct Key {
    pub msg: Msg,
    pub take: bool,
}

/// The message for `key` (`KeyboardEvent.key`), in presenter mode or not,
/// with the open lesson if any; `None` for a key the page leaves alone.
pub fn key(key: &str, presenter: bool, lesson: Option<&LessonSession>) -> Option<Key> {
    let taken = |msg| Some(Key { msg, take: true });
    if presenter && matches!(key, "b" | "B" | ".") {
        return taken(Msg::Toggle(Flag::Blank));
    }
    // Inside a lesson the clicker picks, reveals, shows a task done and goes on.
    if let Some(p) = lesson.and_then(|s| clicker::press(s, key, presenter)) {
        return taken(Msg::Lesson(LessonMsg::from(p)));
    }
    // Presenting outside a lesson, PageDown/→ runs on to the next thing worth
    // a sentence (the caption changes), not the next heartbeat.
    if presenter && lesson.is_none() && matches!(key, "PageDown" | "ArrowRight") {
        return taken(Msg::RunToCaption);
    }
    let left = |msg| Some(Key { msg, take: false });
    match key {
        "l" => left(Msg::Toggle(Flag::Legend)),
        "p" => left(Msg::Toggle(Flag::Presenter)),
        "?" => left(Msg::Toggle(Flag::Help)),
        "Escape" => left(Msg::Escape),
        " " | "k" => taken(Msg::Action(Action::TogglePlay)),
        "ArrowRight" | "." | "PageDown" => taken(Msg::Action(Action::Step)),
        "ArrowLeft" | "," | "PageUp" => taken(Msg::Action(Action::StepBack)),
        _ => None,
    }
}
