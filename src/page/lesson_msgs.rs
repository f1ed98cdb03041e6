//! What a lesson's messages do (`LessonMsg`, from the lesson panel, the
//! clicker and deep links): open a lesson at a step, answer, reveal, choose a
//! task's option, go on, open the step's comparison, leave.

use super::compare::lesson_id;
use super::effect::Effect;
use super::msg::{LessonMsg, Tab};
use super::run::Run;
use super::state::AppState;
use crate::compare::clock::ComparePlayer;
use crate::lesson::LessonSession;
use crate::player::Action;

/// The learner's seed for the order of choices (`None`: the authored order
/// for everyone); the first lesson keeps the seed drawn at start.
fn learner_seed(page: &mut AppState, effects: &mut Vec<Effect>) -> Option<u64> {
    let l = &mut page.learner;
    if l.same_order {
        return None;
    }
    if l.seed.is_none() {
        l.seed = Some(l.fresh);
        effects.push(Effect::SaveLearnerSeed(l.fresh));
    }
    l.seed
}

/// Opens a lesson at its own speed, with this learner's order of choices.
fn open(lesson: crate::lesson::Lesson, step: usize, run: &mut Run, page: &mut AppState, effects: &mut Vec<Effect>) {
    if let Ok((mut s, mut np)) = LessonSession::open_at(lesson, step) {
        s.learner = learner_seed(page, effects);
        np.speed = f64::from(s.lesson.speed);
        run.player = np;
        effects.push(Effect::SaveProgress(s.progress()));
        run.lesson = Some(s);
        page.selection = None;
        // An undo offered in the run before would rebuild that run under the lesson.
        page.undo = None;
        page.tab = Tab::Simulation;
    }
}

/// Applies one lesson message (from `reduce`) to the run: its open lesson
/// and player, and the Side by side panes; `page` is the rest of the page's
/// state (selection, tab, notice).
pub(super) fn apply(m: LessonMsg, run: &mut Run, page: &mut AppState, effects: &mut Vec<Effect>) {
    match m {
        LessonMsg::Open(n, step) => {
            let Some(found) = crate::lesson::find(&n.to_string()) else { return };
            open(found.clone(), step, run, page, effects);
        }
        LessonMsg::OpenDraft(lesson) => open(*lesson, 0, run, page, effects),
        LessonMsg::Speed(x) => run.player.dispatch(Action::SetSpeed(x)),
        LessonMsg::Exit => run.lesson = None,
        LessonMsg::SameOrder(on) => {
            if run.lesson.is_some() {
                page.learner.same_order = on;
                effects.push(Effect::SaveSameOrder(on));
                let seed = learner_seed(page, effects);
                if let Some(s) = run.lesson.as_mut() {
                    s.learner = seed;
                }
            }
        }
        m => in_lesson(m, run, page, effects),
    }
}

/// The messages that need an open lesson (nothing happens without one).
fn in_lesson(m: LessonMsg, run: &mut Run, page: &mut AppState, effects: &mut Vec<Effect>) {
    let Run { player: p, lesson: Some(s), compare } = run else { return };
    match m {
        LessonMsg::Choose(i) => {
            let _ = s.choose(p, i);
            effects.push(Effect::SaveProgress(s.progress()));
        }
        LessonMsg::Retry => {
            let _ = s.retry(p);
        }
        LessonMsg::Fault(f) => p.dispatch(Action::Inject(f)),
        LessonMsg::Answer(c) => {
            let _ = s.answer(p, c);
            effects.push(Effect::SaveProgress(s.progress()));
        }
        LessonMsg::Reveal => {
            let _ = s.reveal(p);
        }
        LessonMsg::Next => {
            s.next(p);
            effects.push(Effect::SaveProgress(s.progress()));
        }
        LessonMsg::Compare => {
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
                    *compare = Some(ComparePlayer::new(&lesson_id(&s.lesson.id, &s.current().id), sbs));
                    page.tab = Tab::Compare;
                }
                Err(e) => page.notice = Some(e),
            }
        }
        // Handled by `apply` with or without a lesson.
        LessonMsg::Open(..)
        | LessonMsg::OpenDraft(_)
        | LessonMsg::Speed(_)
        | LessonMsg::SameOrder(_)
        | LessonMsg::Exit => {}
    }
}
