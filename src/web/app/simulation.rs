//! The Simulation tab: the drawing with its caption, the lesson panel and
//! the side panels, the state machines and space-time diagram, and the log.
//! The slower panels follow a playing run a few times a second, and any
//! change at once when paused (`cached`); each refreshes in its own phase of
//! the period, so no single frame redraws them all.

use super::super::cached::{cached, slow_version, version};
use super::super::caption::{caption, legend};
use super::super::event_log::EventLog;
use super::super::fault_menu::FaultMenu;
use super::super::inspector::inspector;
use super::super::lesson_panel::{lesson_caption, lesson_panel};
use super::super::panels::{connect_tasks, fidelity_notes, group_panel, invariant_monitor, partition_table};
use super::super::spacetime::spacetime;
use super::super::statechart::statecharts;
use super::super::topology::{topology, Look};
use crate::i18n::tr;
use crate::inspect::Selection;
use crate::lesson::LessonSession;
use crate::page::{AppState, Flag, LessonMsg, Msg, RunView};
use crate::player::{Action, Player};
use crate::sim::Fault;
use yew::prelude::*;

/// The version of a slower panel drawn in `phase` (0-7) of the refresh
/// period, from the state's counters and what the panels draw from besides.
pub(super) struct Slow<'a> {
    pub playing: bool,
    pub state: &'a AppState,
    pub look: Look<'a>,
}

impl Slow<'_> {
    pub fn at(&self, phase: u32) -> u64 {
        let (s, l) = (self.state, &self.look);
        let rest = (l.lang, &s.selection, l.highlights, l.concealed);
        slow_version(phase, self.playing, s.run_version, s.revision, rest)
    }
}

/// Where the tab's presses, keys and choices go.
pub(super) struct Handlers {
    pub dispatch: Callback<Msg>,
    pub on_press: Callback<MouseEvent>,
    pub on_node_key: Callback<KeyboardEvent>,
    pub on_select: Callback<Option<Selection>>,
    pub on_lesson: Callback<LessonMsg>,
    pub on_action: Callback<Action>,
    pub on_fault: Callback<Fault>,
    pub check_fault: Callback<Fault, Result<(), String>>,
}

/// Everything the tab draws from.
pub(super) struct Sim<'a> {
    pub state: &'a AppState,
    pub run: &'a RunView,
    pub player: &'a Player,
    pub session: Option<&'a LessonSession>,
    /// The drawing's look (`show_fetches` there: on at 2× and slower unless the learner chose).
    pub look: Look<'a>,
    /// "Show fetches" chosen by the learner (the space-time diagram and the log).
    pub show_fetches: bool,
    pub slow: &'a Slow<'a>,
    pub on: &'a Handlers,
}

pub(super) fn simulation(s: Sim) -> Html {
    let Sim { state, run, player: p, session, look, show_fetches, slow, on } = s;
    let (lang, world) = (look.lang, &p.world);
    html! {
        <main class="layout">
            <section class="stage" aria-label={tr(lang, "topology.label")}>
                <div class="drawing">
                    { topology(world, look, on.on_press.clone(), on.on_node_key.clone(), Some((slow.at(0), run))) }
                </div>
                { stage_below(state, run, session, look, slow, &on.dispatch) }
            </section>
            <aside class="side">
                if let Some(s) = session {
                    { lesson_panel(s, world, p.speed, s.slow_motion(p).is_some_and(|w| w.slow_at(p.now())), lang, &on.on_lesson) }
                }
                { side_panels(run, world, look, slow, on) }
            </aside>
            { diagrams(run, world, look, show_fetches, slow, on) }
            <section id="log" class="log-wrap secondary">
                <EventLog version={slow.at(6)} fetches={show_fetches} />
                { cached(version(lang), move || fidelity_notes(lang)) }
            </section>
        </main>
    }
}

/// Under the drawing: its caption, a lesson's narration when presenting,
/// presenter mode's panels button, the legend.
fn stage_below(
    state: &AppState,
    run: &RunView,
    session: Option<&LessonSession>,
    look: Look,
    slow: &Slow,
    dispatch: &Callback<Msg>,
) -> Html {
    let (lang, presenting, legend_open, fetches_on) = (look.lang, state.presenter, state.legend, look.show_fetches);
    html! { <>
        { cached(version((slow.at(7), legend_open, fetches_on, look.concealed)), {
            let (run, d, concealed) = (run.clone(), dispatch.clone(), look.concealed.clone());
            move || caption(&run.player().world, lang, legend_open, fetches_on, &concealed, &d)
        }) }
        { crate::web::share_strip::share_strips_panel(&run.player().world, look.concealed, lang) }
        { crate::web::streams::streams_panel(&run.player().world, look.concealed, lang, &dispatch.reform(Msg::Select)) }
        if let Some(s) = session.filter(|_| presenting) {
            { lesson_caption(s, lang) }
        }
        if presenting {
            <button id="panels-button" class="panels-button" aria-pressed={state.panels.to_string()} onclick={dispatch.reform(|_: MouseEvent| Msg::Toggle(Flag::Panels))}>{ tr(lang, if state.panels { "panels.hide" } else { "panels.show" }) }</button>
        }
        if legend_open {
            { legend(lang, "legend") }
        }
    </> }
}

/// The invariants, the inspector, the groups, the fault menu, the ownership and task tables.
fn side_panels(run: &RunView, world: &crate::sim::World, look: Look, slow: &Slow, on: &Handlers) -> Html {
    let lang = look.lang;
    let (highlights, concealed) = (look.highlights.to_vec(), look.concealed.clone());
    html! {
        <div class="secondary">
        { cached(slow.at(3), { let (run, d) = (run.clone(), on.on_action.clone()); move || invariant_monitor(&run.player().world, lang, &d) }) }
        { inspector(world, lang, look.selected, &on.on_fault, &on.on_select) }
        { cached(slow.at(5), { let (run, c) = (run.clone(), concealed.clone()); move || group_panel(&run.player().world, lang, &c) }) }
        <FaultMenu on_fault={on.on_fault.clone()} check={on.check_fault.clone()} />
        <div class="table-scroll">
        { cached(slow.at(4), { let (run, s, h, c) = (run.clone(), on.on_select.clone(), highlights.clone(), concealed); move || partition_table(&run.player().world, lang, &s, &h, &c) }) }
        { cached(slow.at(1), { let (run, h) = (run.clone(), highlights); move || connect_tasks(&run.player().world, lang, &h) }) }
        </div>
        </div>
    }
}

/// The state machines and the space-time diagram.
fn diagrams(
    run: &RunView,
    world: &crate::sim::World,
    look: Look,
    show_fetches: bool,
    slow: &Slow,
    on: &Handlers,
) -> Html {
    let lang = look.lang;
    html! {
        <section class="diagrams secondary">
            { cached(slow.at(2), { let run = run.clone(); move || statecharts(&run.player().world, lang) }) }
            if world.client_indices().len() > crate::spacetime::MAX_LANES {
                // A large group's diagram (16 of its clients) follows at the slower panels' pace.
                { cached(version((slow.at(1), show_fetches)), { let (run, d, os, sel) = (run.clone(), on.on_action.clone(), on.on_select.clone(), look.selected.cloned());
                    move || spacetime(&run.player().world, lang, &d, &os, sel.as_ref(), show_fetches) }) }
            } else {
                { spacetime(world, lang, &on.on_action, &on.on_select, look.selected, show_fetches) }
            }
        </section>
    }
}
