//! `window.groupscope`: drive the page from JavaScript (page authors embedding
//! GroupScope in an iframe, lesson scripts, the performance script, tests).
//! Every call acts on the page's own player and redraws it.

use crate::player::{Action, Player};
use crate::sim::Fault;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::Callback;

struct Handle {
    player: Rc<RefCell<Player>>,
    redraw: Callback<()>,
    /// Replaces the run (and closes any open lesson).
    load: Callback<Player>,
}

thread_local! {
    static PAGE: RefCell<Option<Handle>> = const { RefCell::new(None) };
}

/// Called by the app once it has its player.
pub fn install(player: Rc<RefCell<Player>>, redraw: Callback<()>, load: Callback<Player>) {
    PAGE.with(|p| *p.borrow_mut() = Some(Handle { player, redraw, load }));
}

/// Starts a new run from a scenario (the JSON of scenarios/*.json); a bad
/// scenario throws an Error saying why, and the current run stays.
#[wasm_bindgen]
pub fn load(scenario_json: &str) -> Result<(), JsError> {
    let scenario = crate::sim::Scenario::from_json(scenario_json).map_err(|e| JsError::new(&e))?;
    let player = Player::new(scenario).map_err(|e| JsError::new(&e))?;
    let load = PAGE
        .with(|p| p.borrow().as_ref().map(|h| h.load.clone()))
        .ok_or_else(|| JsError::new("GroupScope has not started yet"))?;
    load.emit(player);
    Ok(())
}

fn with<T>(f: impl FnOnce(&mut Player) -> T) -> Result<T, JsError> {
    PAGE.with(|p| {
        let page = p.borrow();
        let h = page.as_ref().ok_or_else(|| JsError::new("GroupScope has not started yet"))?;
        let out = f(&mut h.player.borrow_mut());
        h.redraw.emit(());
        Ok(out)
    })
}

#[wasm_bindgen]
pub fn play() -> Result<(), JsError> {
    with(|p| p.playing = true)
}

#[wasm_bindgen]
pub fn pause() -> Result<(), JsError> {
    with(|p| p.dispatch(Action::Pause))
}

/// Processes the next event; returns the new simulated time (ms).
#[wasm_bindgen]
pub fn step() -> Result<f64, JsError> {
    with(|p| {
        p.dispatch(Action::Step);
        p.now() as f64
    })
}

/// Moves the playhead to `ms` of simulated time (backwards re-runs deterministically).
#[wasm_bindgen]
pub fn seek(ms: f64) -> Result<(), JsError> {
    // Anywhere the run has been, and at most 6 simulated hours past it.
    with(|p| {
        crate::sim::scenario::limits::check_seek_from(ms, p.horizon.max(p.now())).map(|t| p.dispatch(Action::Seek(t)))
    })?
    .map_err(|e| JsError::new(&e))
}

#[wasm_bindgen(js_name = setSpeed)]
pub fn set_speed(speed: f64) -> Result<(), JsError> {
    with(|p| p.dispatch(Action::SetSpeed(speed)))
}

/// Injects a fault at the playhead, written as in scenarios:
/// `{"type": "crashConsumer", "consumer": 2}`.
#[wasm_bindgen]
pub fn inject(fault_json: &str) -> Result<(), JsError> {
    let fault: Fault =
        crate::json::from_str_object(fault_json).map_err(|e| JsError::new(&format!("inject: not a fault ({e})")))?;
    // Checked against the run: its targets exist, it stays within the caps.
    with(|p| p.world.check_fault(&fault).map(|()| p.dispatch(Action::Inject(fault))))?
        .map_err(|e| JsError::new(&format!("inject: {e}")))
}

/// The run as an exported file's JSON (the same as the toolbar's export):
/// boot.js keeps the latest copy, so a page that dies can still offer it.
#[wasm_bindgen(js_name = runJson)]
pub fn run_json() -> Result<String, JsError> {
    PAGE.with(|p| {
        let page = p.borrow();
        let h = page.as_ref().ok_or_else(|| JsError::new("GroupScope has not started yet"))?;
        let player = h.player.try_borrow().map_err(|_| JsError::new("busy"))?;
        Ok(crate::permalink::Permalink::of(&player).to_json())
    })
}

#[derive(Serialize)]
struct State {
    now: u64,
    playing: bool,
    speed: f64,
    events: usize,
    /// `trace_hash` of the trace so far (hex): the same run gives the same
    /// hash here as natively (tests/determinism.rs).
    #[serde(rename = "traceHash")]
    trace_hash: String,
    groups: Vec<GroupState>,
    consumers: Vec<ConsumerState>,
}

#[derive(Serialize)]
struct GroupState {
    group: String,
    state: String,
    generation: i32,
    coordinator: Option<u32>,
}

#[derive(Serialize)]
struct ConsumerState {
    name: String,
    alive: bool,
    state: String,
    generation: i32,
    owned: Vec<String>,
}

/// A JSON snapshot of what the page shows: time, groups, consumers.
#[wasm_bindgen]
pub fn state() -> Result<String, JsError> {
    with(|p| {
        let w = &p.world;
        let s = State {
            now: w.now,
            playing: p.playing,
            speed: p.speed,
            events: w.trace.len(),
            trace_hash: format!("{:016x}", crate::sim::trace::trace_hash(&w.trace)),
            groups: crate::view::groups(w)
                .into_iter()
                .map(|g| GroupState {
                    group: g.group_id,
                    state: g.state,
                    generation: g.generation,
                    coordinator: g.coordinator,
                })
                .collect(),
            consumers: crate::view::consumers(w)
                .into_iter()
                .map(|c| ConsumerState {
                    name: c.name,
                    alive: c.alive,
                    state: c.state,
                    generation: c.generation,
                    owned: c.owned.iter().map(|t| t.to_string()).collect(),
                })
                .collect(),
        };
        serde_json::to_string(&s).unwrap_or_default()
    })
}

/// `groupscope.explain(text)`: what the `explain` CLI prints with `--json` for this log text
/// (one paste; the page's tab also merges files): `{groups, linesRead, linesUnparsed}`.
/// Read at once; text that holds no group line gives `groups: []`.
#[wasm_bindgen(js_name = explain)]
pub fn explain_logs(text: &str) -> String {
    crate::explain::explain_text(text).to_json()
}
