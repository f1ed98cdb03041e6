//! The time machine behind the page (RaftScope-style): play, pause, step,
//! speed, seek with checkpoints and deterministic re-run, and faults injected
//! at the playhead (acting in the past forks the timeline). No web types here,
//! so native tests drive it exactly as the UI does.

use crate::sim::trace::Event;
use crate::sim::{Fault, Millis, Scenario, World};

/// Simulated time between checkpoints.
pub const CHECKPOINT_EVERY_MS: Millis = 2000;
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

/// A world snapshot without its trace (the trace is shared and only grows).
#[derive(Clone)]
struct Checkpoint {
    world: World,
    trace_len: usize,
    script_len: usize,
}

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
    checkpoints: Vec<Checkpoint>,
}

impl Player {
    pub fn new(scenario: Scenario) -> Result<Player, String> {
        let mut world = World::new(scenario.clone())?;
        // The page shows the invariant monitor.
        world.monitor = true;
        let mut p = Player {
            scenario,
            world,
            playing: false,
            speed: 0.5,
            script: Vec::new(),
            horizon: 0,
            carry: 0.0,
            checkpoints: Vec::new(),
        };
        p.checkpoint();
        Ok(p)
    }

    fn checkpoint(&mut self) {
        // The trace is shared and only grows: leave it out of the copy.
        let trace = std::mem::take(&mut self.world.trace);
        let world = self.world.clone();
        self.world.trace = trace;
        self.checkpoints.push(Checkpoint { world, trace_len: self.world.trace.len(), script_len: self.world.injected.len() });
    }

    fn maybe_checkpoint(&mut self) {
        self.horizon = self.horizon.max(self.world.now);
        let last = self.checkpoints.last().map_or(0, |c| c.world.now);
        if self.world.now >= last + CHECKPOINT_EVERY_MS {
            self.checkpoint();
        }
    }

    pub fn now(&self) -> Millis {
        self.world.now
    }

    pub fn dispatch(&mut self, action: Action) {
        match action {
            Action::TogglePlay => self.playing = !self.playing,
            Action::Pause => self.playing = false,
            Action::SetSpeed(s) => self.speed = s.clamp(0.01, 10_000.0),
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
                    self.maybe_checkpoint();
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
                let now = self.world.now;
                self.script.retain(|(t, _)| *t <= now);
                self.checkpoints.retain(|c| c.world.now <= now);
                self.script.push((now, fault.clone()));
                self.horizon = now;
                // What is due at the playhead runs first, as the replay does (issue 13).
                self.world.run_until(now);
                self.world.inject(fault);
            }
            Action::Reset => {
                if let Ok(p) = Player::new(self.scenario.clone()) {
                    *self = Player { speed: self.speed, ..p };
                }
            }
        }
    }

    /// Runs forward to `t`, applying scripted faults at their times.
    /// Every fault of the instant `t` too, even when already at `t`; a fault
    /// left behind (a step ran past it) is applied at once rather than never.
    fn advance_to(&mut self, t: Millis) {
        loop {
            let applied = self.world.injected.len();
            let next_fault = self.script.get(applied).map(|(at, _)| *at).filter(|at| *at <= t);
            if self.world.now >= t && next_fault.is_none() {
                break;
            }
            let stop = next_fault.unwrap_or(t).min(self.checkpoint_due().max(self.world.now + 1)).min(t);
            self.world.run_until(stop);
            if next_fault.is_some_and(|at| at <= self.world.now) {
                let f = self.script[applied].1.clone();
                self.world.inject(f);
            }
            self.maybe_checkpoint();
        }
    }

    /// Runs forward to `t` as playing does, one instant (every item due at the
    /// same simulated time) at a time, and stops after the first instant after
    /// which `stop` holds; returns whether it stopped. Lessons use it to pause on
    /// a simulation event.
    pub fn advance_until(&mut self, t: Millis, mut stop: impl FnMut(&World) -> bool) -> bool {
        loop {
            let applied = self.world.injected.len();
            let fault_at = self.script.get(applied).map(|(at, _)| *at).filter(|at| *at <= t);
            let item_at = self.world.next_time().filter(|n| *n <= t);
            let Some(instant) = fault_at.into_iter().chain(item_at).min() else { break };
            self.world.run_until(instant);
            if fault_at == Some(instant) {
                let f = self.script[applied].1.clone();
                self.world.inject(f);
            }
            self.maybe_checkpoint();
            if stop(&self.world) {
                return true;
            }
        }
        self.world.run_until(t);
        self.maybe_checkpoint();
        false
    }

    fn checkpoint_due(&self) -> Millis {
        self.checkpoints.last().map_or(0, |c| c.world.now) + CHECKPOINT_EVERY_MS
    }

    /// Restores the latest checkpoint at or before `t` and re-runs to `t`.
    pub fn seek(&mut self, t: Millis) {
        let trace = std::mem::take(&mut self.world.trace);
        let idx = self.checkpoints.iter().rposition(|c| c.world.now <= t).unwrap_or(0);
        let cp = self.checkpoints[idx].clone();
        let forward = t >= self.world.now;
        self.world = cp.world;
        self.world.trace = trace[..cp.trace_len.min(trace.len())].to_vec();
        self.world.injected = self.script[..cp.script_len.min(self.script.len())].to_vec();
        if !forward {
            self.checkpoints.truncate(idx + 1);
        }
        self.advance_to(t);
    }

    /// The furthest point the timeline reached (for the scrubber).
    pub fn events(&self) -> &[Event] {
        &self.world.trace
    }
}
