//! The page's hooks: what turns the browser (the timer, the address, the
//! window, the welcome, the keys) into messages, and what the page keeps in
//! the browser as its state changes (the language, the run).

use super::super::clock::now_ms;
use super::super::context::AppContext;
use super::super::{api, course, follow, links, prefs, saved_run, welcome};
use super::keys;
use crate::i18n::{trf, Lang};
use crate::lesson::Phase;
use crate::page::{AppState, Door, LessonMsg, Msg, Tab};
use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use yew::prelude::*;

fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Opens the lesson step a `#lesson=4&step=3` fragment names, once the course
/// is fetched, or says why it cannot; false when the fragment names no lesson.
fn open_lesson_link(hash: String, lang: Lang, dispatch: &Callback<Msg>) -> bool {
    if !hash.split(['#', '&']).any(|kv| kv.starts_with("lesson=")) {
        return false;
    }
    once_course_loaded(dispatch, move || {
        Some(match crate::lesson::registry::explain_link(&hash) {
            Ok((l, step)) => Msg::Lesson(LessonMsg::Open(l.number, step)),
            Err(e) => Msg::Notice(Some(super::super::lesson_panel::link_error(lang, &e))),
        })
    });
    true
}

/// Sends what `then` says once the course is fetched (at once if it is).
fn once_course_loaded(dispatch: &Callback<Msg>, then: impl Fn() -> Option<Msg> + 'static) {
    let dispatch = dispatch.clone();
    course::when_loaded(Callback::from(move |()| {
        if let Some(m) = then() {
            dispatch.emit(m);
        }
    }));
}

/// The language on the document and kept for the next visit.
#[hook]
pub(super) fn use_lang(lang: Lang) {
    use_effect_with(lang, move |l| prefs::apply_lang(*l));
}

/// The main run is kept in this browser as it changes (a reload never loses
/// it): at once while paused, at most once a second while playing.
#[hook]
pub(super) fn use_saved_run(state: &AppState) {
    let (run, last) = (state.run_view(), use_mut_ref(|| f64::NEG_INFINITY));
    use_effect_with(state.run_version, move |_| {
        let r = run.get();
        let now = now_ms();
        if r.lesson.is_none() && (!r.player.playing || now - *last.borrow() >= saved_run::EVERY_MS) {
            saved_run::save(&r.player);
            *last.borrow_mut() = now;
        }
    });
}

/// The course is fetched the first time the Lessons tab opens.
#[hook]
pub(super) fn use_course(tab: Tab, dispatch: &Callback<Msg>) {
    let dispatch = dispatch.clone();
    use_effect_with(tab, move |t| {
        if *t == Tab::Lessons {
            course::when_loaded(dispatch.reform(|()| Msg::Redraw));
        }
    });
}

/// Once mounted: the JS API, a deep link to a lesson step (#lesson=4&step=3,
/// once the course is fetched), and the clock: every frame is a message (the
/// state says what plays).
#[hook]
pub(super) fn use_clock(page: &AppContext) {
    let page = page.clone();
    use_effect_with((), move |_| {
        api::install(page.clone());
        let dispatch = page.dispatch;
        open_lesson_link(current_hash(), prefs::initial_lang(), &dispatch);
        let mut last = now_ms();
        let interval = Interval::new(16, move || {
            let t = now_ms();
            dispatch.emit(Msg::Tick(t - last));
            last = t;
        });
        move || drop(interval)
    });
}

/// A link pasted into this tab changes only the address's fragment, which
/// reloads nothing: open it as a fresh load would (a lesson step, a run).
#[hook]
pub(super) fn use_pasted_links(page: &AppContext, lang: Lang) {
    let page = page.clone();
    use_effect_with(lang, move |lang| {
        let lang = *lang;
        let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
            let hash = current_hash();
            // The lesson panel's own step link names the step already open.
            if page.run.get().lesson.as_ref().is_some_and(|s| s.link() == hash) {
                return;
            }
            if !open_lesson_link(hash.clone(), lang, &page.dispatch) {
                let dispatch = page.dispatch.clone();
                yew::platform::spawn_local(async move {
                    let opened = links::decode(&hash).await.map(|l| l.and_then(|l| l.restore()));
                    match opened {
                        Some(Ok(p)) => dispatch.emit(Msg::Load(Box::new(p))),
                        Some(Err(e)) => dispatch.emit(Msg::Notice(Some(trf(lang, "notice.badlink.kept", &[&e])))),
                        None => {}
                    }
                });
            }
        });
        move || drop(listener)
    });
}

/// Turning a phone (or resizing the window) across the narrow drawing's width redraws it.
#[hook]
pub(super) fn use_resize(dispatch: &Callback<Msg>) {
    let dispatch = dispatch.clone();
    use_effect_with((), move |_| {
        let listener = EventListener::new(&gloo::utils::window(), "resize", move |_| dispatch.emit(Msg::Redraw));
        move || drop(listener)
    });
}

/// The welcome's doors: the first lesson of the course, the demo playing, or the sandbox.
#[hook]
pub(super) fn use_welcome(dispatch: &Callback<Msg>) {
    let dispatch = dispatch.clone();
    use_effect_with((), move |_| {
        welcome::remove_prelude();
        let listener = welcome::listen(Callback::from(move |d: Door| match d {
            Door::Course => once_course_loaded(&dispatch, || {
                let first = crate::lesson::lessons().ok()?.first()?.number;
                Some(Msg::Lesson(LessonMsg::Open(first, 0)))
            }),
            d => dispatch.emit(Msg::Door(d)),
        }));
        move || drop(listener)
    });
}

/// The keys; re-made when presenter mode changes: which keys it takes depends on it.
#[hook]
pub(super) fn use_keys(page: &AppContext, presenter: bool) {
    let page = page.clone();
    use_effect_with(presenter, move |presenter| {
        let listener = keys::listen(page, *presenter);
        move || drop(listener)
    });
}

/// On a phone the page follows the lesson: the new step, the drawing while
/// the event plays, the verdict (web/follow.rs).
#[hook]
pub(super) fn use_follow(at: Option<(u32, usize, Phase)>) {
    let before = use_mut_ref(|| None::<follow::At>);
    use_effect_with(at, move |at| {
        let prev = before.replace(*at);
        follow::follow(prev, *at);
    });
}
