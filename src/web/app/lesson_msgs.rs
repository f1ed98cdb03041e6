//! What a lesson's messages do (`LessonMsg`, from the lesson panel, the
//! clicker and deep links): open a lesson at a step, answer, reveal, choose a
//! task's option, go on, open the step's comparison, leave.

use super::super::lesson_panel::{self, save_progress, LessonMsg};
use super::super::toolbar::Tab;
use crate::compare::clock::ComparePlayer;
use crate::inspect::Selection;
use crate::lesson::LessonSession;
use crate::player::{Action, Player};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What a lesson message may change besides the lesson and the player.
pub(super) struct LessonUi {
    pub selection: UseStateHandle<Option<Selection>>,
    pub tab: UseStateHandle<Tab>,
    pub compare: Rc<RefCell<Option<ComparePlayer>>>,
    pub notice: UseStateHandle<Option<String>>,
}

/// Applies one lesson message to the open lesson `l` and the player `p`.
pub(super) fn apply(m: LessonMsg, l: &mut Option<LessonSession>, p: &mut Player, ui: &LessonUi) {
    // Opens a lesson at its own speed, with this learner's order of choices.
    let open = |lesson: crate::lesson::Lesson, step: usize, l: &mut Option<LessonSession>, p: &mut Player| {
        if let Ok((mut s, mut np)) = LessonSession::open_at(lesson, step) {
            s.learner = lesson_panel::learner_seed();
            np.speed = f64::from(s.lesson.speed);
            *p = np;
            save_progress(s.progress());
            *l = Some(s);
            ui.selection.set(None);
            ui.tab.set(Tab::Simulation);
        }
    };
    match (m, l.as_mut()) {
        (LessonMsg::Open(n, step), _) => {
            let Some(found) = crate::lesson::find(&n.to_string()) else { return };
            open(found.clone(), step, l, p);
        }
        (LessonMsg::OpenDraft(lesson), _) => open(*lesson, 0, l, p),
        (LessonMsg::Choose(i), Some(s)) => {
            let _ = s.choose(p, i);
            save_progress(s.progress());
        }
        (LessonMsg::Retry, Some(s)) => {
            let _ = s.retry(p);
        }
        (LessonMsg::Fault(f), Some(_)) => p.dispatch(Action::Inject(f)),
        (LessonMsg::Speed(x), _) => p.dispatch(Action::SetSpeed(x)),
        (LessonMsg::SameOrder(on), Some(s)) => {
            lesson_panel::set_same_order(on);
            s.learner = lesson_panel::learner_seed();
        }
        (LessonMsg::Answer(c), Some(s)) => {
            let _ = s.answer(p, c);
            save_progress(s.progress());
        }
        (LessonMsg::Reveal, Some(s)) => {
            let _ = s.reveal(p);
        }
        (LessonMsg::Next, Some(s)) => {
            s.next(p);
            save_progress(s.progress());
        }
        (LessonMsg::Compare, Some(s)) => {
            // The step's comparison on the Side by side tab; the lesson waits
            // (the main simulation does while that tab shows) until "Back to the lesson".
            let built = s
                .current()
                .compare
                .as_ref()
                .ok_or_else(String::new)
                .and_then(|c| c.comparison())
                .and_then(|c| crate::compare::SideBySide::new(&c));
            match built {
                Ok(sbs) => {
                    *ui.compare.borrow_mut() = Some(ComparePlayer::new(
                        &super::super::compare_view::lesson_id(&s.lesson.id, &s.current().id),
                        sbs,
                    ));
                    ui.tab.set(Tab::Compare);
                }
                Err(e) => ui.notice.set(Some(e)),
            }
        }
        (LessonMsg::Exit, _) => *l = None,
        _ => {}
    }
}
