//! What a lesson's messages do (`LessonMsg`, from the lesson panel, the
//! clicker and deep links): open a lesson at a step, answer, reveal, choose a
//! task's option, go on, open the step's comparison, leave.

use super::super::lesson_panel::{self, save_progress, LessonMsg};
use super::super::toolbar::Tab;
use super::state::{AppState, Run};
use crate::compare::clock::ComparePlayer;
use crate::lesson::LessonSession;
use crate::player::{Action, Player};

/// Opens a lesson at its own speed, with this learner's order of choices.
fn open(
    lesson: crate::lesson::Lesson,
    step: usize,
    l: &mut Option<LessonSession>,
    p: &mut Player,
    page: &mut AppState,
) {
    if let Ok((mut s, mut np)) = LessonSession::open_at(lesson, step) {
        s.learner = lesson_panel::learner_seed();
        np.speed = f64::from(s.lesson.speed);
        *p = np;
        save_progress(s.progress());
        *l = Some(s);
        page.selection = None;
        // An undo offered in the run before would rebuild that run under the lesson.
        page.undo = None;
        page.tab = Tab::Simulation;
    }
}

/// Applies one lesson message (from `reduce`) to the run: its open lesson
/// and player, and the Side by side panes; `page` is the rest of the page's
/// state (selection, tab, notice).
pub(super) fn apply(m: LessonMsg, run: &mut Run, page: &mut AppState) {
    let Run { player: p, lesson: l, compare } = run;
    match (m, l.as_mut()) {
        (LessonMsg::Open(n, step), _) => {
            let Some(found) = crate::lesson::find(&n.to_string()) else { return };
            open(found.clone(), step, l, p, page);
        }
        (LessonMsg::OpenDraft(lesson), _) => open(*lesson, 0, l, p, page),
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
                    *compare = Some(ComparePlayer::new(
                        &super::super::compare_view::lesson_id(&s.lesson.id, &s.current().id),
                        sbs,
                    ));
                    page.tab = Tab::Compare;
                }
                Err(e) => page.notice = Some(e),
            }
        }
        (LessonMsg::Exit, _) => *l = None,
        _ => {}
    }
}
