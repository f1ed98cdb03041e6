//! The page: toolbar, tabs, and the simulation view (topology, state machine,
//! space-time diagram, inspector, ownership, log). Its state is one
//! `AppState` changed only by `reduce` (`state.rs`); this component draws it,
//! turns the timer, the window and the welcome into messages, and provides
//! the dispatcher and the run to the components below (`AppContext`).

mod actions;
mod keys;
mod lesson_msgs;
mod state;

pub(super) use state::now_ms;
pub use state::{AppContext, AppState, Flag, Msg, RunView};

use super::api;
use super::cached::{cached, slow_version, version};
use super::caption::{caption, legend};
use super::compare_view::{compare_view, CompareHandlers};
use super::config_panel::ConfigPanel;
use super::course;
use super::event_log::EventLog;
use super::fault_menu::FaultMenu;
use super::inspector::inspector;
use super::lab::AssignorLab;
use super::lesson_panel::{self, lesson_caption, lesson_list, lesson_panel, LessonMsg};
use super::panels::{connect_tasks, fidelity_notes, group_panel, invariant_monitor, partition_table};
use super::prefs;
use super::spacetime::spacetime;
use super::statechart::statecharts;
use super::timeline::timeline;
use super::toolbar::{toolbar, Tab, Toolbar};
use super::topology::{pressed_selection, topology};
use super::welcome::{self, Door};
use crate::i18n::{tr, trf, Lang};
use crate::lesson::Phase;
use crate::permalink::Permalink;
use crate::player::Action;
use gloo::events::EventListener;
use gloo::timers::callback::Interval;
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
            Err(e) => Msg::Notice(Some(lesson_panel::link_error(lang, &e))),
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

#[function_component]
pub fn App(props: &AppProps) -> Html {
    // `use_reducer_eq`: a message that changes nothing (a tick while paused)
    // returns the same state, and the page is not drawn again.
    let state = {
        let (autoplay, link) = (props.autoplay, props.link.clone());
        use_reducer_eq(move || AppState::new(autoplay, link.as_ref()))
    };
    // The same dispatcher and run for the page's whole life.
    let dispatch: Callback<Msg> = state.dispatcher().to_callback();
    let page = AppContext { dispatch: dispatch.clone(), run: state.run_view() };

    use_effect_with(state.lang, move |l| prefs::apply_lang(*l));

    {
        // The main run is kept in this browser as it changes (a reload never
        // loses it): at once while paused, at most once a second while playing.
        let (run, last) = (state.run_view(), use_mut_ref(|| f64::NEG_INFINITY));
        use_effect_with(state.run_version, move |_| {
            let r = run.get();
            let now = now_ms();
            if r.lesson.is_none() && (!r.player.playing || now - *last.borrow() >= super::saved_run::EVERY_MS) {
                super::saved_run::save(&r.player);
                *last.borrow_mut() = now;
            }
        });
    }

    {
        // The course is fetched the first time the Lessons tab opens.
        let dispatch = dispatch.clone();
        use_effect_with(state.tab, move |t| {
            if *t == Tab::Lessons {
                course::when_loaded(dispatch.reform(|()| Msg::Redraw));
            }
        });
    }

    {
        let page = page.clone();
        use_effect_with((), move |_| {
            api::install(page.clone());
            let dispatch = page.dispatch;
            // A deep link to a lesson step: #lesson=4&step=3 (once the course is fetched).
            open_lesson_link(current_hash(), prefs::initial_lang(), &dispatch);
            // The clock: every frame is a message (the state says what plays).
            let mut last = now_ms();
            let interval = Interval::new(16, move || {
                let t = now_ms();
                dispatch.emit(Msg::Tick(t - last));
                last = t;
            });
            move || drop(interval)
        });
    }

    {
        // A link pasted into this tab changes only the address's fragment, which
        // reloads nothing: open it as a fresh load would (a lesson step, a run).
        let (page, lang) = (page.clone(), state.lang);
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
                        let opened = super::links::decode(&hash).await.map(|l| l.and_then(|l| l.restore()));
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

    {
        // Turning a phone (or resizing the window) across the narrow drawing's width redraws it.
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "resize", move |_| dispatch.emit(Msg::Redraw));
            move || drop(listener)
        });
    }

    {
        // The welcome's doors: the first lesson of the course, the demo playing, or the sandbox.
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

    {
        let keys = keys::Keys { dispatch: dispatch.clone(), presenter: state.presenter, run: state.run_view() };
        // Re-made when presenter mode changes: which keys it takes depends on it.
        use_effect_with(state.presenter, move |_| {
            let listener = keys::listen(keys);
            move || drop(listener)
        });
    }

    // One stable listener on the SVG: a press on a node, link or message selects it
    // (or answers a "click what you predict" question: the reducer decides).
    let on_press = {
        let page = page.clone();
        use_callback((), move |e: MouseEvent, _| {
            let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            let sel = pressed_selection(&page.run.player().world, &target);
            if let Some(sel) = sel {
                page.dispatch.emit(Msg::Press(sel));
            }
        })
    };
    let on_node_key = {
        let page = page.clone();
        use_callback((), move |e: KeyboardEvent, _| {
            if e.key() != "Enter" {
                return;
            }
            let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            let sel = pressed_selection(&page.run.player().world, &target);
            if let Some(sel) = sel {
                e.prevent_default();
                page.dispatch.emit(Msg::Select(Some(sel)));
            }
        })
    };
    let on_select = dispatch.reform(Msg::Select);
    let on_lesson = dispatch.reform(Msg::Lesson);
    let on_action = dispatch.reform(Msg::Action);

    let lang_v = state.lang;
    let run = state.run_view();
    let r = run.get();
    let session = r.lesson.as_ref();
    // While a question waits, the drawing hides what would answer it.
    crate::lesson::conceal::set(session.map(|s| s.concealed()).unwrap_or_default());
    let concealed = crate::lesson::conceal::current();
    let highlights: Vec<String> =
        session.filter(|s| s.phase != Phase::Free).map(|s| s.current().highlights.clone()).unwrap_or_default();
    {
        // On a phone the page follows the lesson: the new step, the drawing while
        // the event plays, the verdict (web/follow.rs).
        let at = session.map(|s| (s.lesson.number, s.step, s.phase));
        let before = use_mut_ref(|| None::<super::follow::At>);
        use_effect_with(at, move |at| {
            let prev = before.replace(*at);
            super::follow::follow(prev, *at);
        });
    }
    let pinned = session.is_some() && r.player.world.client_count() <= super::follow::PINNED_UP_TO_CLIENTS;
    let p = &r.player;
    let world = &p.world;
    let fetches_on = state.show_fetches.unwrap_or(p.speed <= 2.0 + 1e-9);
    let on_fault = on_action.reform(Action::Inject);
    let check_fault = {
        let run = run.clone();
        Callback::from(move |f: crate::sim::Fault| run.player().world.check_fault(&f))
    };
    // The slower panels follow a playing run a few times a second, and any
    // change at once when paused (see `cached`). Each panel refreshes in its
    // own phase of the period, so no single frame redraws them all.
    let slow = |phase: u32| {
        let rest = (lang_v, &state.selection, &highlights, &concealed);
        slow_version(phase, p.playing, state.run_version, state.revision, rest)
    };
    let compare_handlers = CompareHandlers {
        dispatch: dispatch.clone(),
        // Opened from a lesson's step: its button's words name the comparison, and a button goes back.
        lesson: session.and_then(|s| {
            let c = s.current().compare.as_ref()?;
            Some((super::compare_view::lesson_id(&s.lesson.id, &s.current().id), c.label.get(lang_v).to_string()))
        }),
        check: {
            let run = run.clone();
            Callback::from(move |f: crate::sim::Fault| {
                run.get().compare.as_ref().map_or(Ok(()), |c| c.sbs.check_fault(&f))
            })
        },
    };
    let compare = r.compare.as_ref().filter(|_| state.tab == Tab::Compare);
    let panes = compare.map(|c| (c.playing, c.now()));
    let close = |m: fn() -> Msg| dispatch.reform(move |_: MouseEvent| m());
    let fork_notice = state.undo.as_ref().map(|u| {
        let text = trf(
            lang_v,
            "undo.notice",
            &[&format!("{:.1}", u.at as f64 / 1000.0), &format!("{:.1}", u.horizon as f64 / 1000.0), &u.dropped_faults],
        );
        html! {
            <p id="undo-notice" class="notice" role="status">{ text }{" "}
                <button id="undo" onclick={close(|| Msg::Undo)}>{ tr(lang_v, "undo") }</button>
                <button class="close" onclick={close(|| Msg::DismissUndo)} aria-label={tr(lang_v, "close")}>{"×"}</button>
            </p>
        }
    });
    let replay_notice = state.replayed.as_ref().map(|r| {
        html! {
            <p id="replay-notice" class="notice" role="status">{ trf(lang_v, "explain.replay.notice", &[&r.group, &r.faults]) }{" "}
                <button id="replay-back" onclick={close(|| Msg::ReplayBack)}>{ tr(lang_v, "explain.replay.back") }</button>
                <button class="close" onclick={close(|| Msg::DismissReplay)} aria-label={tr(lang_v, "close")}>{"×"}</button>
            </p>
        }
    });
    let presenting = state.presenter;
    let show_panels = !presenting || state.panels;
    let (legend_open, show_fetches) = (state.legend, state.show_fetches == Some(true));
    html! {
        <ContextProvider<AppContext> context={page.clone()}>
        <ContextProvider<Lang> context={lang_v}>
        <div class={classes!("groupscope", presenting.then_some("presenter"), session.is_some().then_some("in-lesson"), pinned.then_some("watch-pinned"), show_panels.then_some("panels-open"))}>
            { toolbar(Toolbar { state: &state, player: p, run: &run, dispatch: &dispatch, panes }) }
            if let Some(n) = state.notice.clone() {
                <p id="notice" class="notice" role="status">{ n }<button class="close" onclick={close(|| Msg::Notice(None))} aria-label={tr(lang_v, "close")}>{"×"}</button></p>
            }
            { fork_notice.unwrap_or_default() }
            { replay_notice.unwrap_or_default() }
            if state.blank && presenting {
                <div id="blank" class="blank" role="status" aria-label={tr(lang_v, "presenter.blank")}>
                    <p>{ tr(lang_v, "presenter.blank") }</p>
                </div>
            }
            if state.help {
                <div id="help" class="help" role="dialog" aria-label={tr(lang_v, "help.title")}>
                    <h2>{ tr(lang_v, "help.title") }</h2>
                    <p>{ tr(lang_v, "help.keys") }</p>
                    <h3>{ tr(lang_v, "help.drawing.title") }</h3>
                    <p>{ tr(lang_v, "help.drawing") }</p>
                    { legend(lang_v, "help-legend") }
                    <p class="help-buttons">
                        <button id="welcome-again" onclick={{ let d = dispatch.clone(); move |_| { d.emit(Msg::Set(Flag::Help, false)); welcome::show_again(); } }}>{ tr(lang_v, "help.welcome") }</button>
                        <button id="help-ok" onclick={close(|| Msg::Set(Flag::Help, false))}>{ tr(lang_v, "ok") }</button>
                    </p>
                </div>
            }
            { match compare {
                Some(c) => super::timeline::panes_timeline(c, &on_action, lang_v),
                None => timeline(p, &on_action, lang_v, cached(slow(7), { let run = run.clone(); move || super::timeline::markers(&run.player(), lang_v) })),
            } }
            { match state.tab {
                Tab::Lab => html! { <AssignorLab /> },
                Tab::Lessons => lesson_list(lang_v, &on_lesson),
                Tab::Compare => compare.map(|c| compare_view(c, lang_v, &compare_handlers)).unwrap_or_default(),
                Tab::Explain => html! { <super::explain_tab::ExplainTab kept={state.explain.clone()} /> },
                Tab::Config => html! { <ConfigPanel scenario={p.scenario.clone()} draft={state.config_draft.clone()} script={std::rc::Rc::new(p.script.clone())} /> },
                Tab::Simulation => html! {
                    <main class="layout">
                        <section class="stage" aria-label={tr(lang_v, "topology.label")}>
                            <div class="drawing">
                                { topology(world, lang_v, state.selection.as_ref(), &highlights, on_press, on_node_key, Some((slow(0), &run)), fetches_on, presenting) }
                            </div>
                            { cached(version((slow(7), legend_open, fetches_on)), {
                                let (run, d) = (run.clone(), dispatch.clone());
                                move || caption(&run.player().world, lang_v, legend_open, fetches_on, &d)
                            }) }
                            if let Some(s) = session.filter(|_| presenting) {
                                { lesson_caption(s, lang_v) }
                            }
                            if presenting {
                                <button id="panels-button" class="panels-button" aria-pressed={state.panels.to_string()} onclick={close(|| Msg::Toggle(Flag::Panels))}>{ tr(lang_v, if state.panels { "panels.hide" } else { "panels.show" }) }</button>
                            }
                            if legend_open {
                                { legend(lang_v, "legend") }
                            }
                        </section>
                        <aside class="side">
                            if let Some(s) = session {
                                { lesson_panel(s, world, p.speed, lang_v, &on_lesson) }
                            }
                            <div class="secondary">
                            { cached(slow(3), { let (run, d) = (run.clone(), on_action.clone()); move || invariant_monitor(&run.player().world, lang_v, &d) }) }
                            { inspector(world, lang_v, state.selection.as_ref(), &on_fault, &on_select) }
                            { cached(slow(5), { let run = run.clone(); move || group_panel(&run.player().world, lang_v) }) }
                            <FaultMenu on_fault={on_fault.clone()} check={check_fault} />
                            <div class="table-scroll">
                            { cached(slow(4), { let (run, s, h) = (run.clone(), on_select.clone(), highlights.clone()); move || partition_table(&run.player().world, lang_v, &s, &h) }) }
                            { cached(slow(1), { let (run, h) = (run.clone(), highlights.clone()); move || connect_tasks(&run.player().world, lang_v, &h) }) }
                            </div>
                            </div>
                        </aside>
                        <section class="diagrams secondary">
                            { cached(slow(2), { let run = run.clone(); move || statecharts(&run.player().world, lang_v) }) }
                            if world.client_indices().len() > crate::spacetime::MAX_LANES {
                                // A large group's diagram (16 of its clients) follows at the slower panels' pace.
                                { cached(version((slow(1), show_fetches)), { let (run, d, os, sel) = (run.clone(), on_action.clone(), on_select.clone(), state.selection.clone());
                                    move || spacetime(&run.player().world, lang_v, &d, &os, sel.as_ref(), show_fetches) }) }
                            } else {
                                { spacetime(world, lang_v, &on_action, &on_select, state.selection.as_ref(), show_fetches) }
                            }
                        </section>
                        <section id="log" class="log-wrap secondary">
                            <EventLog version={slow(6)} fetches={show_fetches} />
                            { cached(version(lang_v), move || fidelity_notes(lang_v)) }
                        </section>
                    </main>
                },
            } }
        </div>
        </ContextProvider<Lang>>
        </ContextProvider<AppContext>>
    }
}
