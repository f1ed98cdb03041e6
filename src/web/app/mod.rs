//! The page: toolbar, tabs, and the simulation view (topology, state machine,
//! space-time diagram, inspector, ownership, log). Its state is the native
//! `page::AppState`, changed only by `page::reduce` (`reducer.rs` performs the
//! effects it returns); this component draws it, turns the timer, the window
//! and the welcome into messages (`hooks.rs`), and provides the dispatcher
//! and the run to the components below (`AppContext`). `notices.rs` draws
//! what the page says above the drawing, `simulation.rs` the Simulation tab.

mod hooks;
mod keys;
mod notices;
mod reducer;
mod simulation;

use super::compare_view::{compare_view, CompareHandlers};
use super::config_panel::ConfigPanel;
use super::context::AppContext;
use super::lab::AssignorLab;
use super::lesson_panel::{self, lesson_list};
use super::timeline::{markers, panes_timeline, timeline};
use super::toolbar::{toolbar, Toolbar};
use super::topology::{pressed_selection, Look};
use super::{cached, prefs};
use crate::compare::clock::ComparePlayer;
use crate::i18n::Lang;
use crate::lesson::{LessonSession, Phase};
use crate::page::compare::lesson_id;
use crate::page::{AppState, Msg, RunView, Startup, Tab};
use crate::permalink::Permalink;
use crate::player::Action;
use simulation::{simulation, Handlers, Sim, Slow};
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Start playing at once (tests); the page starts paused.
    #[prop_or_default]
    pub autoplay: bool,
    /// The permalink the page was opened with, read before mounting: `None`
    /// without one, else the run or why it cannot be opened.
    #[prop_or_default]
    pub link: Option<Result<Permalink, String>>,
}

/// A press (or Enter) on the drawing resolved to what it names, with the event.
fn pressed<E: AsRef<web_sys::Event>>(page: &AppContext, e: &E) -> Option<crate::inspect::Selection> {
    let target = e.as_ref().target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())?;
    pressed_selection(&page.run.player().world, &target)
}

/// The drawing's presses and keys: one stable listener on the SVG each. A
/// press on a node, link or message selects it (or answers a "click what you
/// predict" question: the reducer decides); Enter on one selects it.
#[hook]
fn use_drawing_input(page: &AppContext) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let on_press = {
        let page = page.clone();
        use_callback((), move |e: MouseEvent, _| {
            if let Some(sel) = pressed(&page, &e) {
                page.dispatch.emit(Msg::Press(sel));
            }
        })
    };
    let on_key = {
        let page = page.clone();
        use_callback((), move |e: KeyboardEvent, _| {
            if e.key() != "Enter" {
                return;
            }
            if let Some(sel) = pressed(&page, &e) {
                e.prevent_default();
                page.dispatch.emit(Msg::Select(Some(sel)));
            }
        })
    };
    (on_press, on_key)
}

#[function_component]
pub fn App(props: &AppProps) -> Html {
    // `use_reducer_eq`: a message that changes nothing (a tick while paused)
    // returns the same state, and the page is not drawn again.
    let state = {
        let (autoplay, link) = (props.autoplay, props.link.clone());
        use_reducer_eq(move || {
            AppState::new(Startup { lang: prefs::initial_lang(), autoplay, link, learner: lesson_panel::learner() })
        })
    };
    // The same dispatcher and run for the page's whole life.
    let dispatch: Callback<Msg> = state.dispatcher().to_callback();
    let page = AppContext { dispatch: dispatch.clone(), run: state.run_view() };
    hooks::use_lang(state.lang);
    hooks::use_saved_run(&state);
    hooks::use_course(state.tab, &dispatch);
    hooks::use_clock(&page);
    hooks::use_pasted_links(&page, state.lang);
    hooks::use_resize(&dispatch);
    hooks::use_welcome(&dispatch);
    hooks::use_keys(&page, state.presenter);
    let (on_press, on_node_key) = use_drawing_input(&page);

    let run = state.run_view();
    let r = run.get();
    let session = r.lesson.as_ref();
    hooks::use_follow(session.map(|s| (s.lesson.number, s.step, s.phase)));
    html! {
        <ContextProvider<AppContext> context={page.clone()}>
        <ContextProvider<Lang> context={state.lang}>
            { frame(&state, &run, &r.player, session, &dispatch, on_press, on_node_key) }
        </ContextProvider<Lang>>
        </ContextProvider<AppContext>>
    }
}

/// The page inside its providers: the toolbar, what the page says, the
/// timeline and the open tab.
fn frame(
    state: &AppState,
    run: &RunView,
    p: &crate::player::Player,
    session: Option<&LessonSession>,
    dispatch: &Callback<Msg>,
    on_press: Callback<MouseEvent>,
    on_node_key: Callback<KeyboardEvent>,
) -> Html {
    let lang = state.lang;
    // While a question waits, the drawing hides what would answer it.
    let concealed = run.get().concealed();
    // The event the learner watches for: its messages named in the drawing.
    let watched = run.get().watched();
    let highlights: Vec<String> =
        session.filter(|s| s.phase != Phase::Free).map(|s| s.current().highlights.clone()).unwrap_or_default();
    let pinned = session.is_some() && p.world.client_count() <= super::follow::PINNED_UP_TO_CLIENTS;
    let look = Look {
        lang,
        selected: state.selection.as_ref(),
        highlights: &highlights,
        concealed: &concealed,
        watched: &watched,
        show_fetches: state.show_fetches.unwrap_or(p.speed <= 2.0 + 1e-9),
        presenter: state.presenter,
    };
    let slow = Slow { playing: p.playing, state, look };
    let compare = run_compare(run, state.tab);
    let panes = compare.as_ref().map(|c| (c.playing, c.now()));
    let on_action = dispatch.reform(Msg::Action);
    let presenting = state.presenter;
    let show_panels = !presenting || state.panels;
    let class = classes!(
        "groupscope",
        presenting.then_some("presenter"),
        session.is_some().then_some("in-lesson"),
        pinned.then_some("watch-pinned"),
        show_panels.then_some("panels-open")
    );
    let timeline = match compare.as_deref() {
        Some(c) => panes_timeline(c, &on_action, lang),
        None => timeline(
            p,
            &on_action,
            lang,
            cached::cached(slow.at(7), {
                let run = run.clone();
                move || markers(&run.player(), lang)
            }),
        ),
    };
    let body = match state.tab {
        Tab::Lab => html! { <AssignorLab /> },
        Tab::Lessons => lesson_list(lang, &dispatch.reform(Msg::Lesson)),
        Tab::Compare => compare
            .as_deref()
            .map(|c| compare_view(c, lang, &compare_handlers(run, session, lang, dispatch)))
            .unwrap_or_default(),
        Tab::Explain => html! { <super::explain_tab::ExplainTab kept={state.explain.clone()} /> },
        Tab::Config => {
            html! { <ConfigPanel scenario={p.scenario.clone()} draft={state.config_draft.clone()} script={std::rc::Rc::new(p.script.clone())} /> }
        }
        Tab::Simulation => {
            let on = handlers(run, dispatch, on_press, on_node_key, on_action.clone());
            let show_fetches = state.show_fetches == Some(true);
            simulation(Sim { state, run, player: p, session, look, show_fetches, slow: &slow, on: &on })
        }
    };
    html! {
        <div {class}>
            { toolbar(Toolbar { state, player: p, run, dispatch, panes }) }
            { notices::notices(state, dispatch) }
            { notices::overlays(state, dispatch) }
            { timeline }
            { body }
        </div>
    }
}

/// The Side by side panes while their tab shows.
fn run_compare(run: &RunView, tab: Tab) -> Option<std::cell::Ref<'_, ComparePlayer>> {
    let r = run.get();
    if tab != Tab::Compare || r.compare.is_none() {
        return None;
    }
    std::cell::Ref::filter_map(r, |r| r.compare.as_ref()).ok()
}

/// The Simulation tab's callbacks.
fn handlers(
    run: &RunView,
    dispatch: &Callback<Msg>,
    on_press: Callback<MouseEvent>,
    on_node_key: Callback<KeyboardEvent>,
    on_action: Callback<Action>,
) -> Handlers {
    let check_fault = {
        let run = run.clone();
        Callback::from(move |f: crate::sim::Fault| run.player().world.check_fault(&f))
    };
    Handlers {
        dispatch: dispatch.clone(),
        on_press,
        on_node_key,
        on_select: dispatch.reform(Msg::Select),
        on_lesson: dispatch.reform(Msg::Lesson),
        on_fault: on_action.reform(Action::Inject),
        on_action,
        check_fault,
    }
}

/// The Side by side tab's callbacks, and the open lesson's step comparison:
/// its button's words name it, and a button goes back.
fn compare_handlers(
    run: &RunView,
    session: Option<&LessonSession>,
    lang: Lang,
    dispatch: &Callback<Msg>,
) -> CompareHandlers {
    let run = run.clone();
    CompareHandlers {
        dispatch: dispatch.clone(),
        lesson: session.and_then(|s| {
            let c = s.current().compare.as_ref()?;
            Some((lesson_id(&s.lesson.id, &s.current().id), c.label.get(lang).to_string()))
        }),
        check: Callback::from(move |f: crate::sim::Fault| {
            run.get().compare.as_ref().map_or(Ok(()), |c| c.sbs.check_fault(&f))
        }),
    }
}
