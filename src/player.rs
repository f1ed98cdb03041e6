//! The time machine behind the page (RaftScope-style): play, pause, step,
//! speed, seek with checkpoints and deterministic re-run, and faults injected
//! at the playhead (acting in the past forks the timeline). No web types here,
//! so native tests drive it exactly as the UI does.
//!
//! Seeking restores the latest checkpoint at or before the target and re-runs
//! from it, or, going forward with no checkpoint in between, just runs on.
//! A checkpoint is a copy of the world without its trace, taken every
//! `CHECKPOINT_EVERY_MS` of simulated time or `CHECKPOINT_EVERY_EVENTS` events,
//! whichever comes first, so a re-run is short however busy the group. The
//! trace keeps the events after the playhead when seeking back, so the later
//! checkpoints stay usable and seeking forward again is as quick.
//!
//! Memory is bounded (`memory.rs`): checkpoints are thinned with distance from
//! the playhead, and the oldest events are forgotten beyond a budget; the
//! timeline then starts later (`floor`), which the page says.

use crate::sim::trace::Event;
use crate::sim::{Fault, Millis, Scenario, World};
use std::collections::BTreeMap;

mod memory;
mod pace;
pub use memory::{checkpoint_every_events, Bounds, Limits, MAX_TRACE_EVENTS};
pub use pace::{Pace, FRAME_BUDGET_MS};

/// Simulated time between checkpoints (at most).
pub const CHECKPOINT_EVERY_MS: Millis = 2000;
/// Events between checkpoints (at most): what a seek re-runs. Worlds of many
/// clients use a multiple of it (`Bounds::checkpoint_events`).
pub const CHECKPOINT_EVERY_EVENTS: usize = 1000;
/// Wall-clock gaps longer than this (a background tab) are not simulated.
pub const MAX_WALL_GAP_MS: f64 = 500.0;
/// Speeds offered by the speed control (simulated ms per wall ms), log scale.
pub const SPEEDS: [f64; 9] = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0, 1000.0];

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    TogglePlay,
    Pause,
    /// Process exactly the next event.
    Step,
    /// Go back to the previous event.
    StepBack,
    SetSpeed(f64),
    /// The animation frame: this much wall time passed.
    Tick(f64),
    Seek(Millis),
    Inject(Fault),
    Reset,
}

/// A world snapshot without its trace (the player's trace holds the events).
#[derive(Clone)]
struct Checkpoint {
    world: World,
    script_len: usize,
}

/// Checkpoints by (simulated time, trace length): two may share a time (before
/// and after a fault injected at that instant).
type Key = (Millis, usize);

pub struct Player {
    pub scenario: Scenario,
    pub world: World,
    pub playing: bool,
    pub speed: f64,
    /// Faults the user injected, with their simulated times (part of permalinks).
    pub script: Vec<(Millis, Fault)>,
    /// The furthest simulated time this timeline has reached (the scrubber's end).
    pub horizon: Millis,
    /// Sub-millisecond remainder of simulated time not yet run.
    carry: f64,
    checkpoints: BTreeMap<Key, Checkpoint>,
    /// What memory bounding has let go (the scrubber's start, forgotten marks).
    pub bounds: Bounds,
    /// While a seek re-runs over held events: the trace length at its target.
    rerun_to: Option<usize>,
    /// How much a frame may simulate, when it cannot keep up (the page's clock feeds it).
    pub pace: Pace,
}

/// A fault of the user's that a new scenario has no place for, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    pub at: Millis,
    pub fault: Fault,
    pub why: String,
}

impl Player {
    /// A fresh run of `scenario` that keeps the user's `script`: each fault,
    /// in time order, stays if it still makes sense in the new scenario (the
    /// clients, brokers, groups and topics it names exist then, as the
    /// permalink check has it), and will happen again at its time; the others
    /// are returned with the reason. "Apply and restart" in the configuration
    /// tab used to drop every injected fault without a word (issue 32).
    pub fn restarted_with(scenario: Scenario, script: &[(Millis, Fault)]) -> Result<(Player, Vec<Dropped>), String> {
        let mut p = Player::new(scenario)?;
        let mut dropped = Vec::new();
        for (at, fault) in script {
            p.script.push((*at, fault.clone()));
            if let Err(why) = crate::sim::fault::check::check_faults(&p.scenario, &p.script, "script") {
                p.script.pop();
                let why = why.split_once("].").map_or(why.as_str(), |(_, rest)| rest).to_string();
                dropped.push(Dropped { at: *at, fault: fault.clone(), why });
            }
        }
        Ok((p, dropped))
    }

    /// This run again from the start with `group`'s `max.poll.interval.ms`
    /// set to `ms`, keeping the user's faults (the caption offers it while a
    /// slow consumer waits out a long poll interval).
    pub fn with_max_poll_interval(&self, group: &str, ms: Millis) -> Result<(Player, Vec<Dropped>), String> {
        let mut scenario = self.scenario.clone();
        let g = scenario
            .groups
            .iter_mut()
            .find(|g| g.group_id == group)
            .ok_or_else(|| format!("there is no consumer group '{group}' in this run"))?;
        g.config.max_poll_interval_ms = ms;
        Player::restarted_with(scenario, &self.script)
    }
    pub fn new(scenario: Scenario) -> Result<Player, String> {
        let mut world = World::new(scenario.clone())?;
        // The page shows the invariant monitor.
        world.monitor = true;
        let bounds = Bounds::new(&world);
        let mut p = Player {
            scenario,
            world,
            playing: false,
            speed: 0.5,
            script: Vec::new(),
            horizon: 0,
            carry: 0.0,
            checkpoints: BTreeMap::new(),
            bounds,
            rerun_to: None,
            pace: Pace::default(),
        };
        p.checkpoint();
        Ok(p)
    }

    fn checkpoint(&mut self) {
        // The trace is the player's: leave it out of the copy.
        let trace = std::mem::take(&mut self.world.trace);
        let world = self.world.clone();
        self.world.trace = trace;
        let key = (self.world.now, self.world.trace.len());
        self.checkpoints.insert(key, Checkpoint { world, script_len: self.world.injected.len() });
        self.thin_checkpoints();
    }

    fn maybe_checkpoint(&mut self) {
        self.horizon = self.horizon.max(self.world.now);
        let key = (self.world.now, self.world.trace.len());
        let every = self.bounds.checkpoint_events;
        let far_from = |k: Option<&Key>, half: bool| {
            let (ms, events) = if half { (CHECKPOINT_EVERY_MS / 2, every / 2) } else { (CHECKPOINT_EVERY_MS, every) };
            k.is_none_or(|&(t, l)| key.0.abs_diff(t) >= ms || key.1.abs_diff(l) >= events)
        };
        if self.rerun_to.is_some_and(|end| key.1 + 2 * every < end) {
            // A seek re-running over held events: only the stretch near its target is worth copies.
            return self.bound_trace();
        }
        let before = self.checkpoints.range(..=key).next_back().map(|(k, _)| k);
        let after = self.checkpoints.range(key..).next().map(|(k, _)| k);
        if far_from(before, false) && far_from(after, true) {
            self.checkpoint();
        }
        self.bound_trace();
    }

    pub fn now(&self) -> Millis {
        self.world.now
    }

    pub fn dispatch(&mut self, action: Action) {
        match action {
            Action::TogglePlay => {
                self.playing = !self.playing;
                self.pace.restart();
            }
            Action::Pause => self.playing = false,
            Action::SetSpeed(s) => {
                self.speed = s.clamp(0.01, 10_000.0);
                self.pace.restart();
            }
            Action::Tick(wall_ms) => {
                if self.playing && wall_ms > 0.0 {
                    let dt = wall_ms.min(MAX_WALL_GAP_MS) * self.speed + self.carry;
                    let whole = dt.floor();
                    self.carry = dt - whole;
                    self.advance_to(self.world.now + whole as Millis);
                }
            }
            Action::Step => {
                self.playing = false;
                if let Some(t) = self.world.next_time() {
                    self.world.step();
                    self.world.run_until(t.max(self.world.now));
                    self.after_run();
                }
            }
            Action::StepBack => {
                self.playing = false;
                let now = self.world.now;
                let prev = self.world.trace.iter().rev().map(|e| e.at).find(|&t| t < now);
                self.seek(prev.unwrap_or(0));
            }
            Action::Seek(t) => self.seek(t),
            Action::Inject(fault) => {
                // Acting in the past discards the old future (a fork).
                let (now, len) = (self.world.now, self.world.trace.len());
                self.script.retain(|(t, _)| *t <= now);
                self.checkpoints.retain(|&(t, l), _| t <= now && l <= len);
                self.world.trace.discard_future();
                self.script.push((now, fault.clone()));
                self.horizon = now;
                // What is due at the playhead runs first, as the replay does (issue 13),
                // unless this fault joins others injected at this very instant: those
                // stay together, with what they queued still waiting.
                let together = self.world.injected.last().is_some_and(|(at, _)| *at == now);
                if !together {
                    self.world.run_until(now);
                }
                self.world.inject(fault);
            }
            Action::Reset => {
                if let Ok(p) = Player::new(self.scenario.clone()) {
                    *self = Player { speed: self.speed, ..p };
                }
            }
        }
    }

    /// Runs forward to `t`, applying scripted faults at their times, so that
    /// however the playhead got there the state at `t` is the same: every
    /// fault scripted at or before `t` applied, and every item due at or
    /// before `t` processed, except those the faults injected at `t` itself
    /// queued (the moment the user saw right after injecting them).
    fn advance_to(&mut self, t: Millis) {
        loop {
            let next_fault = self.script.get(self.world.injected.len()).map(|(at, _)| *at).filter(|at| *at <= t);
            let faults_at_t = self.world.now == t && self.world.injected.last().is_some_and(|(at, _)| *at == t);
            let due = self.world.next_time().is_some_and(|n| n <= t);
            match next_fault {
                Some(_) => self.inject_next(),
                None if self.world.now < t || (due && !faults_at_t) => self.run_to(t),
                None => break,
            }
        }
    }

    /// Applies the next scripted fault after running to its time, as the user
    /// injected it: every item due by then processed, except that faults
    /// injected together (at the instant of the one before) follow it at once.
    fn inject_next(&mut self) {
        let applied = self.world.injected.len();
        let (at, fault) = self.script[applied].clone();
        // Everything due at `at` runs first, as the live player does before
        // injecting, except after a fault of the same instant (injected together).
        let together = applied > 0 && self.script[applied - 1].0 == at && self.world.now == at;
        if !together {
            self.run_to(at.max(self.world.now));
        }
        self.world.inject(fault);
        self.after_run();
    }

    /// `world.run_until(t)`, one instant at a time so checkpoints can be taken
    /// between instants.
    fn run_to(&mut self, t: Millis) {
        while let Some(instant) = self.world.next_time().filter(|n| *n <= t) {
            self.world.run_until(instant);
            self.after_run();
        }
        self.world.run_until(t);
        self.after_run();
    }

    fn after_run(&mut self) {
        if std::mem::take(&mut self.world.trace.diverged) {
            // A re-run differed from the held future: later checkpoints belong to it.
            let len = self.world.trace.len();
            self.checkpoints.retain(|&(_, l), _| l <= len);
        }
        self.maybe_checkpoint();
    }

    /// Runs forward to `t` as playing does, one instant (every item due at the
    /// same simulated time) at a time, and stops after the first instant after
    /// which `stop` holds; returns whether it stopped. Lessons use it to pause on
    /// a simulation event.
    pub fn advance_until(&mut self, t: Millis, mut stop: impl FnMut(&World) -> bool) -> bool {
        loop {
            let fault_at = self.script.get(self.world.injected.len()).map(|(at, _)| *at).filter(|at| *at <= t);
            // As in `advance_to`: what faults injected at `t` queued for `t` waits.
            let faults_at_t = self.world.now == t && self.world.injected.last().is_some_and(|(at, _)| *at == t);
            let item_at = self.world.next_time().filter(|n| *n <= t && !(faults_at_t && *n == t));
            let Some(instant) = fault_at.into_iter().chain(item_at).min() else { break };
            if fault_at == Some(instant) {
                self.inject_next();
            } else {
                self.world.run_until(instant);
                self.after_run();
            }
            if stop(&self.world) {
                return true;
            }
        }
        self.advance_to(t);
        false
    }

    /// What the run will do next, without doing it: a copy of the world
    /// (its trace holding only the new events, under the ids the run will
    /// give them) runs on from the playhead toward `t`, one instant at a time,
    /// with the user's scripted faults applied at their times as
    /// `advance_until` applies them; `look` sees the copy after each instant
    /// and stops it by returning true. The run itself is untouched: a lesson
    /// uses it to know when the event a question is about will happen, and
    /// slows the wall-clock pacing around it (`lesson::session::watch`).
    pub fn look_ahead(&mut self, t: Millis, mut look: impl FnMut(&World) -> bool) {
        let trace = std::mem::take(&mut self.world.trace);
        let mut w = self.world.clone();
        w.trace = crate::sim::trace::Trace::starting_at(trace.len());
        self.world.trace = trace;
        loop {
            let fault_at = self.script.get(w.injected.len()).map(|(at, _)| *at).filter(|at| *at <= t);
            let item_at = w.next_time().filter(|n| *n <= t);
            let Some(instant) = fault_at.into_iter().chain(item_at).min() else { break };
            w.run_until(instant);
            if fault_at == Some(instant) {
                w.inject(self.script[w.injected.len()].1.clone());
            }
            if look(&w) {
                break;
            }
        }
    }

    /// Takes back the scripted faults from index `len` on (a lesson's missed
    /// try): checkpoints that applied any of them go, so the next `seek`
    /// rebuilds the world without them.
    pub fn unscript_from(&mut self, len: usize) {
        self.script.truncate(len);
        self.checkpoints.retain(|_, cp| cp.script_len <= len);
    }

    /// Moves the playhead to `t` (not before `floor()`): runs on from here if
    /// no checkpoint lies between, else restores the latest checkpoint at or
    /// before `t` and re-runs from it.
    pub fn seek(&mut self, t: Millis) {
        let t = t.max(self.bounds.floor);
        let here = (self.world.now, self.world.trace.len());
        let key = self.checkpoints.range(..=(t, usize::MAX)).next_back().map(|(k, _)| *k);
        let Some(key) = key else { return };
        // Running on is right only if the world applied no fault the script no
        // longer holds (a lesson's missed try taken back by `unscript_from`).
        if t >= here.0 && key <= here && self.world.injected.len() <= self.script.len() {
            self.advance_to(t);
            return;
        }
        let cp = &self.checkpoints[&key];
        let mut trace = std::mem::take(&mut self.world.trace);
        if key.1 <= trace.len() {
            trace.rewind(key.1);
        } else if !trace.fast_forward(key.1) {
            // Not held (cannot happen: checkpoints past the held events are dropped).
            let held = trace.stored_end();
            self.world.trace = trace;
            self.checkpoints.retain(|&(_, l), _| l <= held);
            return self.seek(t);
        }
        self.world = cp.world.clone();
        self.world.trace = trace;
        self.world.injected = self.script[..cp.script_len.min(self.script.len())].to_vec();
        let end = self.world.trace.held_partition_point(|e| e.at <= t);
        self.rerun_to = (end < self.world.trace.stored_end()).then_some(end);
        self.advance_to(t);
        self.rerun_to = None;
    }

    /// The kept events up to the playhead.
    pub fn events(&self) -> &crate::sim::trace::Trace {
        &self.world.trace
    }

    /// The earliest time the scrubber can reach (0 unless memory bounding let
    /// the start of the run go).
    pub fn floor(&self) -> Millis {
        self.bounds.floor
    }

    /// Events for the timeline's marks: those kept from forgotten stretches, then
    /// the trace up to the playhead and the future it holds after a seek back, so
    /// scrubbing back leaves the later marks in place until a fault forks them away.
    pub fn timeline_events(&self) -> impl Iterator<Item = &Event> {
        self.bounds.marks.iter().chain(self.world.trace.iter()).chain(self.world.trace.ahead())
    }

    /// How many checkpoints are held (for the perf scripts and tests).
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }
}
