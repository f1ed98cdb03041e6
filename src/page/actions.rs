//! What the toolbar's actions (play, step, step back, seek, reset, a fault)
//! do to the main run, inside a lesson or not: Reset keeps the user's faults,
//! a fault injected in the past forks the timeline and offers an undo, and a
//! lesson follows steps and seeks.

use super::effect::Effect;
use crate::lesson::{LessonSession, Phase};
use crate::player::{Action, Player};
use crate::view::history::{self, Undo};
use std::rc::Rc;

/// Applies a toolbar action to the open lesson `l` and the player `p`
/// (from `reduce`); `undo` is what a fork discarded, while it can be undone.
pub(super) fn apply(
    a: Action,
    l: &mut Option<LessonSession>,
    p: &mut Player,
    undo: &mut Option<Rc<Undo>>,
    effects: &mut Vec<Effect>,
) {
    match (l.as_mut(), a) {
        // Reset keeps the user's faults (they happen again at their times).
        (None, Action::Reset) => {
            if let Ok(np) = history::reset(p, false) {
                *p = np;
            }
            *undo = None;
        }
        // Acting in the past forks the timeline: offer to undo.
        (_, Action::Inject(f)) => {
            let before = history::before_inject(p);
            p.dispatch(Action::Inject(f));
            *undo = before.map(Rc::new);
        }
        (Some(s), Action::Step) => {
            if s.phase == Phase::Reached {
                s.next(p);
            } else if s.step_event(p).is_some() {
                effects.push(Effect::SaveProgress(s.progress()));
            }
        }
        (Some(s), Action::Reset) => {
            if let Ok((fresh, np)) = LessonSession::start(s.lesson.clone()) {
                *s = fresh;
                let speed = p.speed;
                *p = np;
                p.speed = speed;
            }
        }
        (Some(s), a @ (Action::Seek(_) | Action::StepBack)) => {
            p.dispatch(a);
            s.resync(p);
        }
        (_, a) => p.dispatch(a),
    }
}
