//! The page: toolbar, tabs, and the simulation view (topology, state machine,
//! space-time diagram, inspector, ownership, log). Owns the player and the
//! language; everything else is drawn from them.

mod actions;
mod keys;
mod lesson_msgs;

use super::api;
use super::cached::{cached, version, PLAYING_REFRESH_MS};
use super::caption::{caption, legend};
use super::compare_view::{compare_view, CompareHandlers};
use super::config_panel::ConfigPanel;
use super::course;
use super::event_log::EventLog;
use super::fault_menu::FaultMenu;
use super::inspector::inspector;
use super::lab::AssignorLab;
use super::lesson_panel::{self, lesson_list, lesson_panel, save_progress, LessonMsg};
use super::panels::{connect_tasks, fidelity_notes, group_panel, invariant_monitor, partition_table};
use super::prefs;
use super::spacetime::spacetime;
use super::statechart::statecharts;
use super::timeline::timeline;
use super::toolbar::{toolbar, Tab, Toolbar};
use super::topology::{pressed_selection, topology};
use super::welcome::{self, Door};
use crate::compare::clock::ComparePlayer;
use crate::examples::COMPARISONS;
use crate::i18n::{tr, trf, Lang};
use crate::inspect::Selection;
use crate::lesson::{Choice, LessonSession, Phase};
use crate::permalink::Permalink;
use crate::player::{Action, Player};
use crate::sim::Scenario;
use crate::view::history::{self, Undo};
use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A run replaced by a replay of logs, kept to bring it back.
#[derive(Clone)]
struct Replayed {
    before: Rc<Permalink>,
    group: String,
    faults: usize,
}

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

/// The player behind the page, shared with the JS API and the handlers
/// (equal when it is the same player, so components re-render on their props).
#[derive(Clone)]
pub struct SharedPlayer(pub Rc<RefCell<Player>>);

impl PartialEq for SharedPlayer {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The linked run, or the demo (with a notice saying why a link could not be
/// opened; the address bar keeps the link).
fn initial_player(autoplay: bool, lang: Lang, link: Option<&Result<Permalink, String>>) -> (Player, Option<String>) {
    let demo = || Player::new(Scenario::demo()).expect("the demo scenario is valid");
    let (mut p, notice) = match link.map(|l| l.clone().and_then(|l| l.restore())) {
        None => (demo(), None),
        Some(Ok(p)) => (p, None),
        Some(Err(e)) => (demo(), Some(trf(lang, "notice.badlink", &[&e]))),
    };
    p.playing = autoplay;
    (p, notice)
}

#[function_component]
pub fn App(props: &AppProps) -> Html {
    let autoplay = props.autoplay;
    let lang = use_state(prefs::initial_lang);
    let notice = use_state(|| None::<String>);
    let shared: SharedPlayer = {
        let (notice, lang, link) = (notice.clone(), *lang, props.link.clone());
        (*use_memo((), move |_| {
            let (p, n) = initial_player(autoplay, lang, link.as_ref());
            notice.set(n);
            SharedPlayer(Rc::new(RefCell::new(p)))
        }))
        .clone()
    };
    let player = shared.0.clone();
    let link = use_state(String::new);
    let presenter = use_state(|| false);
    let help = use_state(|| false);
    let tab = use_state(|| Tab::Simulation);
    let selection = use_state(|| None::<Selection>);
    let legend_open = use_state(|| false);
    // "Show fetches": the learner's choice, or (None) on at 2× and slower.
    let show_fetches = use_state(|| None::<bool>);
    // What the last fork discarded, while it can be undone.
    let undo = use_state(|| None::<Undo>);
    // The run a replay of logs replaced, while it can be brought back.
    let replayed = use_state(|| None::<Replayed>);
    // Presenter mode folds the secondary panels away; this shows them again.
    let panels = use_state(|| false);
    let more = use_state(|| false);
    let update = use_force_update();
    // Bumped when the run is replaced (load, lesson): the slower panels' versions include it.
    let revision = use_mut_ref(|| 0u64);
    // The Side by side tab's panes, made when the tab first opens; while it
    // shows, the toolbar's clock drives them and the main run waits.
    let compare = use_mut_ref(|| None::<ComparePlayer>);
    let tab_now = use_mut_ref(|| Tab::Simulation);
    *tab_now.borrow_mut() = *tab;
    if *tab == Tab::Compare && compare.borrow().is_none() {
        *compare.borrow_mut() = ComparePlayer::shipped(COMPARISONS[0].0).ok();
    }

    {
        let lang = *lang;
        use_effect_with(lang, move |l| prefs::apply_lang(*l));
    }

    // The open lesson, if any: it drives the same player.
    let lesson = use_mut_ref(|| None::<LessonSession>);
    let redraw = {
        let update = update.clone();
        Callback::from(move |()| update.force_update())
    };
    let dispatch = {
        let (player, redraw, lesson, undo) = (player.clone(), redraw.clone(), lesson.clone(), undo.clone());
        let (compare, tab_now) = (compare.clone(), tab_now.clone());
        Callback::from(move |a: Action| {
            // One clock: on the Side by side tab the toolbar drives the panes (the speed is shared).
            if *tab_now.borrow() == Tab::Compare && !matches!(a, Action::SetSpeed(_)) {
                if let Some(c) = compare.borrow_mut().as_mut() {
                    c.dispatch(a, player.borrow().speed);
                    redraw.emit(());
                    return;
                }
            }
            actions::apply(a, &mut lesson.borrow_mut(), &mut player.borrow_mut(), &undo);
            redraw.emit(());
        })
    };
    let reset_clear = {
        let (player, redraw, undo) = (player.clone(), redraw.clone(), undo.clone());
        Callback::from(move |_: MouseEvent| {
            let fresh = history::reset(&player.borrow(), true);
            if let Ok(np) = fresh {
                *player.borrow_mut() = np;
            }
            undo.set(None);
            redraw.emit(());
        })
    };
    let on_undo = {
        let (player, redraw, undo) = (player.clone(), redraw.clone(), undo.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(u) = (*undo).clone() else { return };
            let back = history::undo(&player.borrow(), &u);
            if let Ok(np) = back {
                *player.borrow_mut() = np;
            }
            undo.set(None);
            redraw.emit(());
        })
    };
    {
        // The course is fetched the first time the Lessons tab opens.
        let update = update.clone();
        use_effect_with(*tab, move |t| {
            if *t == Tab::Lessons {
                course::when_loaded(Callback::from(move |()| update.force_update()));
            }
        });
    }
    let on_lesson = {
        let (player, redraw, lesson) = (player.clone(), redraw.clone(), lesson.clone());
        let ui = lesson_msgs::LessonUi {
            selection: selection.clone(),
            tab: tab.clone(),
            compare: compare.clone(),
            notice: notice.clone(),
        };
        let revision = revision.clone();
        Callback::from(move |m: LessonMsg| {
            *revision.borrow_mut() += 1;
            lesson_msgs::apply(m, &mut lesson.borrow_mut(), &mut player.borrow_mut(), &ui);
            redraw.emit(());
        })
    };
    // Replaces the whole run (config panel, import); the old one stays if the new one is invalid.
    let load = {
        let (player, redraw, selection) = (player.clone(), redraw.clone(), selection.clone());
        let (lesson, revision) = (lesson.clone(), revision.clone());
        Callback::from(move |mut p: Player| {
            *revision.borrow_mut() += 1;
            p.speed = player.borrow().speed;
            *player.borrow_mut() = p;
            *lesson.borrow_mut() = None;
            selection.set(None);
            redraw.emit(());
        })
    };

    // "Replay in the simulator" from the Explain logs tab: the previous run stays recoverable.
    let on_replay = {
        let (player, load, tab, replayed, notice) =
            (player.clone(), load.clone(), tab.clone(), replayed.clone(), notice.clone());
        use_callback(*lang, move |s: Scenario, lang| match Player::new(s.clone()) {
            Ok(p) => {
                let before = Rc::new(Permalink::of(&player.borrow()));
                replayed.set(Some(Replayed {
                    before,
                    group: s.groups.first().map(|g| g.group_id.clone()).unwrap_or_default(),
                    faults: s.faults.len(),
                }));
                load.emit(p);
                tab.set(Tab::Simulation);
            }
            Err(e) => notice.set(Some(trf(*lang, "explain.replay.error", &[&e]))),
        })
    };
    let on_compare = {
        let (tab, compare, notice) = (tab.clone(), compare.clone(), notice.clone());
        use_callback(*lang, move |c: crate::compare::Comparison, lang| match crate::compare::SideBySide::new(&c) {
            Ok(s) => {
                *compare.borrow_mut() = Some(ComparePlayer::new(super::compare_view::FROM_LOGS, s));
                tab.set(Tab::Compare);
            }
            Err(e) => notice.set(Some(trf(*lang, "explain.replay.error", &[&e]))),
        })
    };
    let on_back = {
        let (load, replayed, notice) = (load.clone(), replayed.clone(), notice.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(r) = (*replayed).clone() else { return };
            match r.before.restore() {
                Ok(p) => load.emit(p),
                Err(e) => notice.set(Some(e)),
            }
            replayed.set(None);
        })
    };

    {
        let (player, redraw, lesson, on_lesson, load) =
            (player.clone(), redraw.clone(), lesson.clone(), on_lesson.clone(), load.clone());
        let (notice, compare, tab_now) = (notice.clone(), compare.clone(), tab_now.clone());
        use_effect_with((), move |_| {
            api::install(player.clone(), redraw.clone(), load);
            // A deep link to a lesson step: #lesson=4&step=3 (once the course is fetched).
            let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
            if hash.split(['#', '&']).any(|kv| kv.starts_with("lesson=")) {
                let lang = prefs::initial_lang();
                course::when_loaded(Callback::from(move |()| match crate::lesson::registry::explain_link(&hash) {
                    Ok((l, step)) => on_lesson.emit(LessonMsg::Open(l.number, step)),
                    Err(e) => notice.set(Some(lesson_panel::link_error(lang, &e))),
                }));
            }
            let mut last = now_ms();
            let interval = Interval::new(16, move || {
                let t = now_ms();
                let dt = t - last;
                last = t;
                // Each frame simulates within a budget (`Pace`): when the run cannot
                // keep up it plays slower than asked and the toolbar says so.
                if *tab_now.borrow() == Tab::Compare {
                    if let Some(c) = compare.borrow_mut().as_mut().filter(|c| c.playing) {
                        let speed = player.borrow().speed;
                        let (before, wall) = (c.now(), c.pace.allow(dt, speed));
                        c.dispatch(Action::Tick(wall), speed);
                        let sim = c.now().saturating_sub(before) as f64;
                        c.pace.observe(sim, now_ms() - t, dt);
                        redraw.emit(());
                    }
                    return;
                }
                let playing = player.borrow().playing;
                if playing {
                    let mut l = lesson.borrow_mut();
                    let mut p = player.borrow_mut();
                    let (before, wall) = (p.now(), p.pace.allow(dt, p.speed));
                    match l.as_mut() {
                        Some(s) => {
                            if s.tick(&mut p, wall).is_some() {
                                save_progress(s.progress());
                            }
                        }
                        None => p.dispatch(Action::Tick(wall)),
                    }
                    // A seek back (a lesson's replay) simulated nothing new worth counting.
                    let sim = p.now().saturating_sub(before) as f64;
                    p.pace.observe(sim, now_ms() - t, dt);
                    drop((l, p));
                    redraw.emit(());
                }
            });
            move || drop(interval)
        });
    }

    {
        // Turning a phone (or resizing the window) across the narrow drawing's width redraws it.
        let redraw = redraw.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "resize", move |_| redraw.emit(()));
            move || drop(listener)
        });
    }

    {
        // The welcome's doors: the first lesson of the course, the demo playing, or the sandbox.
        let (player, redraw, on_lesson, tab, notice) =
            (player.clone(), redraw.clone(), on_lesson.clone(), tab.clone(), notice.clone());
        let lang = *lang;
        use_effect_with((), move |_| {
            welcome::remove_prelude();
            let listener = welcome::listen(Callback::from(move |d: Door| match d {
                Door::Course => {
                    let on_lesson = on_lesson.clone();
                    course::when_loaded(Callback::from(move |()| {
                        if let Some(first) = crate::lesson::lessons().ok().and_then(|l| l.first()) {
                            on_lesson.emit(LessonMsg::Open(first.number, 0));
                        }
                    }));
                }
                Door::Demo => {
                    tab.set(Tab::Simulation);
                    player.borrow_mut().playing = true;
                    redraw.emit(());
                }
                Door::Sandbox => {
                    tab.set(Tab::Simulation);
                    notice.set(Some(tr(lang, "welcome.sandbox").to_string()));
                }
            }));
            move || drop(listener)
        });
    }

    {
        let keys = keys::Keys {
            dispatch: dispatch.clone(),
            presenter: presenter.clone(),
            help: help.clone(),
            selection: selection.clone(),
            lesson: lesson.clone(),
            on_lesson: on_lesson.clone(),
            legend_open: legend_open.clone(),
            player: player.clone(),
            redraw: redraw.clone(),
        };
        // Re-made when a toggled value changes, so the keys read the current one.
        use_effect_with((*presenter, *help, *legend_open), move |_| {
            let listener = keys::listen(keys);
            move || drop(listener)
        });
    }

    // One stable listener on the SVG: a press on a node, link or message selects it.
    let on_press = {
        let (player, selection, lesson, on_lesson) =
            (player.clone(), selection.clone(), lesson.clone(), on_lesson.clone());
        use_callback((), move |e: MouseEvent, _| {
            let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            let Some(sel) = pressed_selection(&player.borrow().world, &target) else { return };
            // A "click what you predict" question takes the click as the answer.
            let wanted =
                lesson.borrow().as_ref().and_then(|s| s.question()).map(|q| q.targets.clone()).unwrap_or_default();
            if let Selection::Node(n) = &sel {
                if wanted.contains(&n.to_string()) {
                    on_lesson.emit(LessonMsg::Answer(Choice::Target(n.to_string())));
                    return;
                }
            }
            selection.set(Some(sel));
        })
    };
    let on_node_key = {
        let (player, selection) = (player.clone(), selection.clone());
        use_callback((), move |e: KeyboardEvent, _| {
            if e.key() != "Enter" {
                return;
            }
            let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            if let Some(sel) = pressed_selection(&player.borrow().world, &target) {
                e.prevent_default();
                selection.set(Some(sel));
            }
        })
    };
    let on_select = {
        let selection = selection.clone();
        Callback::from(move |s: Option<Selection>| selection.set(s))
    };

    let lang_v = *lang;
    let session = lesson.borrow();
    // While a question waits, the drawing hides what would answer it.
    crate::lesson::conceal::set(session.as_ref().map(|s| s.concealed()).unwrap_or_default());
    let concealed = crate::lesson::conceal::current();
    let highlights: Vec<String> =
        session.as_ref().filter(|s| s.phase != Phase::Free).map(|s| s.current().highlights.clone()).unwrap_or_default();
    let p = player.borrow();
    let world = &p.world;
    let fetches_on = show_fetches.unwrap_or(p.speed <= 2.0 + 1e-9);
    let on_fault = dispatch.reform(Action::Inject);
    let check_fault = {
        let pl = player.clone();
        Callback::from(move |f: crate::sim::Fault| pl.borrow().world.check_fault(&f))
    };
    // The slower panels follow a playing run a few times a second, and any
    // change at once when paused (see `cached`). Each panel refreshes in its
    // own phase of the period, so no single frame redraws them all.
    let (revision_now, playing) = (*revision.borrow(), p.playing);
    let paused_at = version((world.now, world.trace.len(), p.script.len()));
    let slow = |phase: u32| {
        let clock = if playing {
            ((now_ms() + f64::from(phase) * PLAYING_REFRESH_MS / 8.0) / PLAYING_REFRESH_MS) as u64
        } else {
            paused_at
        };
        version((clock, playing, revision_now, lang_v, &*selection, &highlights, &concealed))
    };
    let compare_handlers = CompareHandlers {
        pick: {
            let (c, r) = (compare.clone(), redraw.clone());
            Callback::from(move |id: String| {
                if let Ok(cp) = ComparePlayer::shipped(&id) {
                    *c.borrow_mut() = Some(cp);
                }
                r.emit(());
            })
        },
        this_run: {
            let (c, r, pl, n) = (compare.clone(), redraw.clone(), player.clone(), notice.clone());
            Callback::from(move |_: MouseEvent| {
                match ComparePlayer::this_run(&pl.borrow()) {
                    Ok(cp) => {
                        *c.borrow_mut() = Some(cp);
                        n.set(None);
                    }
                    Err(e) => n.set(Some(trf(lang_v, "compare.thisrun.error", &[&e]))),
                }
                r.emit(());
            })
        },
        fault: dispatch.reform(Action::Inject),
        // Opened from a lesson's step: its button's words name the comparison, and a button goes back.
        lesson: session.as_ref().and_then(|s| {
            let c = s.current().compare.as_ref()?;
            let id = super::compare_view::lesson_id(&s.lesson.id, &s.current().id);
            let t = tab.clone();
            Some((id, c.label.get(lang_v).to_string(), Callback::from(move |_: MouseEvent| t.set(Tab::Simulation))))
        }),
        check: {
            let c = compare.clone();
            Callback::from(move |f: crate::sim::Fault| c.borrow().as_ref().map_or(Ok(()), |c| c.sbs.check_fault(&f)))
        },
    };
    let panes = if *tab == Tab::Compare { compare.borrow().as_ref().map(|c| (c.playing, c.now())) } else { None };
    let fork_notice = (*undo).clone().map(|u| {
        let text = trf(
            lang_v,
            "undo.notice",
            &[&format!("{:.1}", u.at as f64 / 1000.0), &format!("{:.1}", u.horizon as f64 / 1000.0), &u.dropped_faults],
        );
        let dismiss = {
            let undo = undo.clone();
            Callback::from(move |_: MouseEvent| undo.set(None))
        };
        html! {
            <p id="undo-notice" class="notice" role="status">{ text }{" "}
                <button id="undo" onclick={on_undo.clone()}>{ tr(lang_v, "undo") }</button>
                <button class="close" onclick={dismiss} aria-label={tr(lang_v, "close")}>{"×"}</button>
            </p>
        }
    });
    let replay_notice = (*replayed).clone().map(|r| {
        let dismiss = { let replayed = replayed.clone(); Callback::from(move |_: MouseEvent| replayed.set(None)) };
        html! {
            <p id="replay-notice" class="notice" role="status">{ trf(lang_v, "explain.replay.notice", &[&r.group, &r.faults]) }{" "}
                <button id="replay-back" onclick={on_back.clone()}>{ tr(lang_v, "explain.replay.back") }</button>
                <button class="close" onclick={dismiss} aria-label={tr(lang_v, "close")}>{"×"}</button>
            </p>
        }
    });
    let presenting = *presenter;
    let show_panels = !presenting || *panels;
    let toggle_panels = {
        let panels = panels.clone();
        Callback::from(move |_: MouseEvent| panels.set(!*panels))
    };
    html! {
        <ContextProvider<Lang> context={lang_v}>
        <div class={classes!("groupscope", presenting.then_some("presenter"), session.is_some().then_some("in-lesson"), show_panels.then_some("panels-open"))}>
            { toolbar(Toolbar { player: &p, shared: &shared, dispatch: &dispatch, load: &load, tab: &tab,
                lang: &lang, presenter: &presenter, help: &help, notice: &notice, link: &link, reset_clear: &reset_clear, more: &more, panes }) }
            if let Some(n) = (*notice).clone() {
                <p id="notice" class="notice" role="status">{ n }<button class="close" onclick={{ let n = notice.clone(); move |_| n.set(None) }} aria-label={tr(lang_v, "close")}>{"×"}</button></p>
            }
            { fork_notice.unwrap_or_default() }
            { replay_notice.unwrap_or_default() }
            if *help {
                <div id="help" class="help" role="dialog" aria-label={tr(lang_v, "help.title")}>
                    <h2>{ tr(lang_v, "help.title") }</h2>
                    <p>{ tr(lang_v, "help.keys") }</p>
                    <h3>{ tr(lang_v, "help.drawing.title") }</h3>
                    <p>{ tr(lang_v, "help.drawing") }</p>
                    { legend(lang_v, "help-legend") }
                    <p class="help-buttons">
                        <button id="welcome-again" onclick={{ let h = help.clone(); move |_| { h.set(false); welcome::show_again(); } }}>{ tr(lang_v, "help.welcome") }</button>
                        <button id="help-ok" onclick={{ let h = help.clone(); move |_| h.set(false) }}>{ tr(lang_v, "ok") }</button>
                    </p>
                </div>
            }
            { match (*tab, compare.borrow().as_ref()) {
                (Tab::Compare, Some(c)) => super::timeline::panes_timeline(c, &dispatch, lang_v),
                _ => timeline(&p, &dispatch, lang_v, cached(slow(7), { let pl = player.clone(); move || super::timeline::markers(&pl.borrow(), lang_v) })),
            } }
            { match *tab {
                Tab::Lab => html! { <AssignorLab /> },
                Tab::Lessons => lesson_list(lang_v, &on_lesson),
                Tab::Compare => compare.borrow().as_ref().map(|c| compare_view(c, lang_v, &compare_handlers)).unwrap_or_default(),
                Tab::Explain => html! { <super::explain_tab::ExplainTab on_replay={on_replay.clone()} on_compare={on_compare.clone()} /> },
                Tab::Config => html! { <ConfigPanel scenario={p.scenario.clone()} load={load.clone()} /> },
                Tab::Simulation => html! {
                    <main class="layout">
                        <section class="stage" aria-label={tr(lang_v, "topology.label")}>
                            <div class="drawing">
                                { topology(world, lang_v, (*selection).as_ref(), &highlights, on_press, on_node_key, Some((slow(0), &shared)), fetches_on, presenting) }
                            </div>
                            { cached(version((slow(7), *legend_open, fetches_on)), {
                                let (pl, lo, sf) = (player.clone(), legend_open.clone(), show_fetches.clone());
                                move || caption(&pl.borrow().world, lang_v, &lo, (fetches_on, { let sf = sf.clone(); Callback::from(move |_: Event| sf.set(Some(!fetches_on))) }))
                            }) }
                            if presenting {
                                <button id="panels-button" class="panels-button" aria-pressed={panels.to_string()} onclick={toggle_panels}>{ tr(lang_v, if *panels { "panels.hide" } else { "panels.show" }) }</button>
                            }
                            if *legend_open {
                                { legend(lang_v, "legend") }
                            }
                        </section>
                        <aside class="side">
                            if let Some(s) = session.as_ref() {
                                { lesson_panel(s, p.speed, lang_v, &on_lesson) }
                            }
                            <div class="secondary">
                            { cached(slow(3), { let (pl, d) = (player.clone(), dispatch.clone()); move || invariant_monitor(&pl.borrow().world, lang_v, &d) }) }
                            { inspector(world, lang_v, (*selection).as_ref(), &on_fault, &on_select) }
                            { cached(slow(5), { let pl = player.clone(); move || group_panel(&pl.borrow().world, lang_v) }) }
                            <FaultMenu on_fault={on_fault.clone()} check={check_fault} />
                            <div class="table-scroll">
                            { cached(slow(4), { let (pl, s, h) = (player.clone(), on_select.clone(), highlights.clone()); move || partition_table(&pl.borrow().world, lang_v, &s, &h) }) }
                            { cached(slow(1), { let (pl, h) = (player.clone(), highlights.clone()); move || connect_tasks(&pl.borrow().world, lang_v, &h) }) }
                            </div>
                            </div>
                        </aside>
                        <section class="diagrams secondary">
                            { cached(slow(2), { let pl = player.clone(); move || statecharts(&pl.borrow().world, lang_v) }) }
                            if world.client_indices().len() > crate::spacetime::MAX_LANES {
                                // A large group's diagram (16 of its clients) follows at the slower panels' pace.
                                { cached(slow(1), { let (pl, d, os, sel, sf) = (player.clone(), dispatch.clone(), on_select.clone(), (*selection).clone(), *show_fetches == Some(true));
                                    move || spacetime(&pl.borrow().world, lang_v, &d, &os, sel.as_ref(), sf) }) }
                            } else {
                                { spacetime(world, lang_v, &dispatch, &on_select, (*selection).as_ref(), *show_fetches == Some(true)) }
                            }
                        </section>
                        <section id="log" class="log-wrap secondary">
                            <EventLog version={slow(6)} player={shared.clone()} fetches={*show_fetches == Some(true)} />
                            { cached(version(lang_v), move || fidelity_notes(lang_v)) }
                        </section>
                    </main>
                },
            } }
        </div>
        </ContextProvider<Lang>>
    }
}
