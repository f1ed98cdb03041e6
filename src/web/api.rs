//! `window.groupscope`: drive the page from JavaScript (page authors embedding
//! GroupScope in an iframe, lesson scripts, the performance script, tests).
//! Every call that changes the run is a message to the page's reducer
//! (`page::Msg`), applied at once; the getters read the run.

use super::context::AppContext;
use crate::page::Msg;
use crate::player::{Action, Player};
use crate::sim::Fault;
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The single bridge from JavaScript into the page: `#[wasm_bindgen]`
    /// functions have no other way to reach the mounted component. It holds
    /// the page's context (its dispatcher and read access to the run), never
    /// a handle that changes the run by itself.
    static PAGE: RefCell<Option<AppContext>> = const { RefCell::new(None) };
}

/// Called by the app once it is mounted.
pub fn install(page: AppContext) {
    PAGE.with(|p| *p.borrow_mut() = Some(page));
}

fn page() -> Result<AppContext, JsError> {
    PAGE.with(|p| p.borrow().clone()).ok_or_else(|| JsError::new("GroupScope has not started yet"))
}

/// Sends `msg` to the page (the reducer applies it before this returns).
fn send(msg: Msg) -> Result<(), JsError> {
    page()?.dispatch.emit(msg);
    Ok(())
}

/// Starts a new run from a scenario (the JSON of scenarios/*.json); a bad
/// scenario throws an Error saying why, and the current run stays.
#[wasm_bindgen]
pub fn load(scenario_json: &str) -> Result<(), JsError> {
    let scenario = crate::sim::Scenario::from_json(scenario_json).map_err(|e| JsError::new(&e))?;
    let player = Player::new(scenario).map_err(|e| JsError::new(&e))?;
    send(Msg::Load(Box::new(player)))
}

/// Reads the run (`f` must not send a message).
fn read<T>(f: impl FnOnce(&Player) -> T) -> Result<T, JsError> {
    let page = page()?;
    let player = page.run.try_player().ok_or_else(|| JsError::new("busy"))?;
    Ok(f(&player))
}

#[wasm_bindgen]
pub fn play() -> Result<(), JsError> {
    send(Msg::Play)
}

#[wasm_bindgen]
pub fn pause() -> Result<(), JsError> {
    send(Msg::Direct(Action::Pause))
}

/// Processes the next event; returns the new simulated time (ms).
#[wasm_bindgen]
pub fn step() -> Result<f64, JsError> {
    send(Msg::Direct(Action::Step))?;
    read(|p| p.now() as f64)
}

/// Moves the playhead to `ms` of simulated time (backwards re-runs deterministically).
#[wasm_bindgen]
pub fn seek(ms: f64) -> Result<(), JsError> {
    // Anywhere the run has been, and at most 6 simulated hours past it.
    let t = read(|p| crate::sim::scenario::limits::check_seek_from(ms, p.horizon.max(p.now())))?
        .map_err(|e| JsError::new(&e))?;
    send(Msg::Direct(Action::Seek(t)))
}

#[wasm_bindgen(js_name = setSpeed)]
pub fn set_speed(speed: f64) -> Result<(), JsError> {
    send(Msg::Direct(Action::SetSpeed(speed)))
}

/// Injects a fault at the playhead, written as in scenarios:
/// `{"type": "crashConsumer", "consumer": 2}`.
#[wasm_bindgen]
pub fn inject(fault_json: &str) -> Result<(), JsError> {
    let fault: Fault =
        crate::json::from_str_object(fault_json).map_err(|e| JsError::new(&format!("inject: not a fault ({e})")))?;
    // Checked against the run: its targets exist, it stays within the caps.
    read(|p| p.world.check_fault(&fault))?.map_err(|e| JsError::new(&format!("inject: {e}")))?;
    send(Msg::Direct(Action::Inject(fault)))
}

/// The run as an exported file's JSON (the same as the toolbar's export):
/// boot.js keeps the latest copy, so a page that dies can still offer it.
#[wasm_bindgen(js_name = runJson)]
pub fn run_json() -> Result<String, JsError> {
    read(|p| crate::permalink::Permalink::of(p).to_json())
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
    read(|p| {
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
