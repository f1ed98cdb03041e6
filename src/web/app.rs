//! The page: controls, topology, partition ownership, group state and the log.

use super::fault_menu::FaultMenu;
use super::lab::AssignorLab;
use super::panels::{event_log, fidelity_notes, group_panel, partition_table};
use super::topology::topology;
use crate::player::{Action, Player, SPEEDS};
use crate::sim::{Fault, Scenario};
use gloo::events::EventListener;
use gloo::timers::callback::Interval;
use wasm_bindgen::JsCast;
use yew::prelude::*;

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Start playing at once (tests); the page starts paused.
    #[prop_or_default]
    pub autoplay: bool,
}

#[function_component]
pub fn App(props: &AppProps) -> Html {
    let autoplay = props.autoplay;
    let player = use_mut_ref(move || {
        let mut p = Player::new(Scenario::demo()).expect("the demo scenario is valid");
        p.playing = autoplay;
        p
    });
    let update = use_force_update();
    let show_lab = use_state(|| false);

    let dispatch = {
        let player = player.clone();
        let update = update.clone();
        Callback::from(move |a: Action| {
            player.borrow_mut().dispatch(a);
            update.force_update();
        })
    };

    {
        let player = player.clone();
        let update = update.clone();
        use_effect_with((), move |_| {
            let mut last = now_ms();
            let interval = Interval::new(16, move || {
                let t = now_ms();
                let dt = t - last;
                last = t;
                let playing = player.borrow().playing;
                if playing {
                    player.borrow_mut().dispatch(Action::Tick(dt));
                    update.force_update();
                }
            });
            move || drop(interval)
        });
    }

    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            let doc = gloo::utils::document();
            let listener = EventListener::new(&doc, "keydown", move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                let in_field = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
                if in_field {
                    return;
                }
                let action = match e.key().as_str() {
                    " " | "k" => Some(Action::TogglePlay),
                    "ArrowRight" | "." | "PageDown" => Some(Action::Step),
                    "ArrowLeft" | "," | "PageUp" => Some(Action::StepBack),
                    _ => None,
                };
                if let Some(a) = action {
                    e.prevent_default();
                    dispatch.emit(a);
                }
            });
            move || drop(listener)
        });
    }

    let p = player.borrow();
    let world = &p.world;
    let on_toggle = dispatch.reform(|_: MouseEvent| Action::TogglePlay);
    let on_step = dispatch.reform(|_: MouseEvent| Action::Step);
    let on_back = dispatch.reform(|_: MouseEvent| Action::StepBack);
    let on_reset = dispatch.reform(|_: MouseEvent| Action::Reset);
    let on_speed = dispatch.reform(|e: Event| {
        let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Action::SetSpeed(v.parse().unwrap_or(1.0))
    });
    let on_fault = dispatch.reform(Action::Inject);
    let speed = p.speed;

    html! {
        <div class="groupscope">
            <header class="bar">
                <h1>{"GroupScope"}</h1>
                <div class="controls" role="toolbar" aria-label="playback">
                    <button id="play" onclick={on_toggle} aria-pressed={p.playing.to_string()}>
                        { if p.playing { "Pause" } else { "Play" } }
                    </button>
                    <button id="step-back" onclick={on_back} title="previous event (←)">{"Back"}</button>
                    <button id="step" onclick={on_step} title="next event (→)">{"Step"}</button>
                    <label>{"speed "}
                        <select id="speed" onchange={on_speed}>
                            { for SPEEDS.iter().map(|s| html! {
                                <option value={s.to_string()} selected={(*s - speed).abs() < 1e-9}>{ format!("{s}×") }</option>
                            }) }
                        </select>
                    </label>
                    <button id="reset" onclick={on_reset}>{"Reset"}</button>
                    <span id="clock" class="clock">{ format!("t = {:.1} s", world.now as f64 / 1000.0) }</span>
                </div>
                <nav class="tabs" aria-label="views">
                    <button id="tab-sim" aria-pressed={(!*show_lab).to_string()} onclick={{ let s = show_lab.clone(); move |_| s.set(false) }}>{"Simulation"}</button>
                    <button id="tab-lab" aria-pressed={show_lab.to_string()} onclick={{ let s = show_lab.clone(); move |_| s.set(true) }}>{"Assignor lab"}</button>
                </nav>
            </header>
            if *show_lab {
                <AssignorLab />
            } else {
            <main class="layout">
                <section class="stage" aria-label="cluster">
                    { topology(world, on_fault.clone()) }
                </section>
                <aside class="side">
                    { group_panel(world) }
                    <FaultMenu on_fault={on_fault.clone()} />
                    { partition_table(world) }
                </aside>
                <section class="log-wrap">
                    { event_log(world) }
                    { fidelity_notes() }
                </section>
            </main>
            }
        </div>
    }
}

/// Click handlers on nodes inject these.
pub fn crash_or_restart(alive: bool, consumer: u32) -> Fault {
    if alive {
        Fault::CrashConsumer { consumer }
    } else {
        Fault::RestartConsumer { consumer }
    }
}
