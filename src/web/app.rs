//! The page: controls, topology, partition ownership, group state and the log.

use super::fault_menu::FaultMenu;
use super::lab::AssignorLab;
use super::timeline::timeline;
use crate::permalink::Permalink;
use super::panels::{event_log, fidelity_notes, group_panel, partition_table};
use super::topology::{press_fault, topology};
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
    // A permalink in the URL restores that run; a bad one is explained and the demo loads.
    let notice = use_state(|| None::<String>);
    let player = {
        let notice = notice.clone();
        use_mut_ref(move || {
            let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
            let restored = (!hash.is_empty()).then(|| Permalink::decode(&hash).and_then(|l| l.restore()));
            let mut p = match restored {
                Some(Ok(p)) => p,
                Some(Err(e)) => {
                    notice.set(Some(format!("Could not open this link: {e}. Showing the demo instead.")));
                    Player::new(Scenario::demo()).expect("the demo scenario is valid")
                }
                None => Player::new(Scenario::demo()).expect("the demo scenario is valid"),
            };
            p.playing = autoplay;
            p
        })
    };
    let presenter = use_state(|| false);
    let link = use_state(String::new);
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

    let presenter_toggle = {
        let presenter = presenter.clone();
        Callback::from(move |()| presenter.set(!*presenter))
    };
    {
        let dispatch = dispatch.clone();
        let presenter_toggle = presenter_toggle.clone();
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
                if e.key() == "p" {
                    presenter_toggle.emit(());
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
    // Stable across renders, so the listener is not replaced every frame.
    let on_press = {
        let (player, update) = (player.clone(), update.clone());
        use_callback((), move |e: MouseEvent, _| {
            let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            let fault = press_fault(&player.borrow().world, &target);
            if let Some(f) = fault {
                player.borrow_mut().dispatch(Action::Inject(f));
                update.force_update();
            }
        })
    };
    let on_node_key = {
        let (player, update) = (player.clone(), update.clone());
        use_callback((), move |e: KeyboardEvent, _| {
            if e.key() != "Enter" {
                return;
            }
            let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            let fault = press_fault(&player.borrow().world, &target);
            if let Some(f) = fault {
                e.prevent_default();
                player.borrow_mut().dispatch(Action::Inject(f));
                update.force_update();
            }
        })
    };
    let speed = p.speed;
    let on_link = {
        let (player, link) = (player.clone(), link.clone());
        Callback::from(move |_: MouseEvent| {
            let fragment = Permalink::of(&player.borrow()).encode();
            if let Some(w) = web_sys::window() {
                if let Ok(h) = w.history() {
                    let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
                }
                link.set(w.location().href().unwrap_or_default());
            }
        })
    };
    let on_presenter = presenter_toggle.reform(|_: MouseEvent| ());

    html! {
        <div class={classes!("groupscope", presenter.then_some("presenter"))}>
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
                    <button id="permalink" onclick={on_link} title="put this run in the address bar">{"Link to this moment"}</button>
                    <button id="presenter" onclick={on_presenter} aria-pressed={presenter.to_string()} title="presenter mode (p)">{"Presenter"}</button>
                </div>
                <nav class="tabs" aria-label="views">
                    <button id="tab-sim" aria-pressed={(!*show_lab).to_string()} onclick={{ let s = show_lab.clone(); move |_| s.set(false) }}>{"Simulation"}</button>
                    <button id="tab-lab" aria-pressed={show_lab.to_string()} onclick={{ let s = show_lab.clone(); move |_| s.set(true) }}>{"Assignor lab"}</button>
                </nav>
            </header>
            if let Some(n) = (*notice).clone() {
                <p id="notice" class="notice" role="status">{ n }</p>
            }
            if !link.is_empty() {
                <p class="notice">{"Link to this moment: "}<input id="permalink-url" readonly=true value={(*link).clone()} /></p>
            }
            { timeline(&p, &dispatch) }
            if *show_lab {
                <AssignorLab />
            } else {
            <main class="layout">
                <section class="stage" aria-label="cluster">
                    { topology(world, on_press, on_node_key) }
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
