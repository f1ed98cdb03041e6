//! What the page simulates: the main run, the lesson driving it and the Side
//! by side tab's panes, shared by every state of the page (`Run`), and read
//! access to it for drawing (`RunView`).
//!
//! The run is large and mutable: copying a world of 100 members for every
//! frame would cost more than the frame, so it lives in one
//! `Rc<RefCell<Run>>` that every state shares. Only `reduce` borrows it
//! mutably; components and the JS API's getters read it through `RunView`.

use crate::compare::clock::ComparePlayer;
use crate::lesson::{Concealed, LessonSession};
use crate::permalink::Permalink;
use crate::player::Player;
use std::cell::{Ref, RefCell};
use std::rc::Rc;

/// The main run, the lesson driving it, and the Side by side tab's panes.
pub struct Run {
    pub player: Player,
    /// The open lesson, if any: it drives the same player.
    pub lesson: Option<LessonSession>,
    /// The Side by side tab's panes, made when the tab first opens; while it
    /// shows, the toolbar's clock drives them and the main run waits.
    pub compare: Option<ComparePlayer>,
}

impl Run {
    /// What the drawing hides now: while a lesson's question waits, what
    /// would give its answer away (`lesson::conceal`); else nothing.
    pub fn concealed(&self) -> Concealed {
        self.lesson.as_ref().map(|s| s.concealed()).unwrap_or_default()
    }

    /// The messages of the event the open lesson's learner watches for, while
    /// the run plays toward it: the drawing names them at every width
    /// (`lesson::session::watch`).
    pub fn watched(&self) -> Vec<u64> {
        let w = self.lesson.as_ref().and_then(|s| s.slow_motion(&self.player));
        w.map(|w| w.messages.clone()).unwrap_or_default()
    }
}

/// Read access to the run, for drawing and for the JS API's getters. It is
/// the same run for the page's whole life (equal to itself only), so a
/// component given it re-renders on its other props, not on every frame.
#[derive(Clone)]
pub struct RunView(pub(super) Rc<RefCell<Run>>);

impl RunView {
    pub fn get(&self) -> Ref<'_, Run> {
        self.0.borrow()
    }

    pub fn player(&self) -> Ref<'_, Player> {
        Ref::map(self.0.borrow(), |r| &r.player)
    }

    /// The player, or `None` while `reduce` is changing it.
    pub fn try_player(&self) -> Option<Ref<'_, Player>> {
        self.0.try_borrow().ok().map(|r| Ref::map(r, |r| &r.player))
    }
}

impl PartialEq for RunView {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A run replaced by a replay of logs, kept to bring it back.
#[derive(Clone)]
pub struct Replayed {
    pub before: Rc<Permalink>,
    pub group: String,
    pub faults: usize,
}
