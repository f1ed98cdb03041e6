//! Running a comparison: one world per variant, stepped to the same simulated
//! time, metrics observed after every step.

use super::metrics::{Metrics, Observer};
use super::Comparison;
use crate::sim::trace::trace_hash;
use crate::sim::{invariants, Fault, Millis, Scenario, World};
use serde::Serialize;

/// One variant's world and what has been measured so far.
#[derive(Clone, Debug)]
pub struct Lane {
    pub name: String,
    pub world: World,
    pub observer: Observer,
    /// Invariant violations seen after steps (checked after every step).
    pub violations: usize,
    /// The incremental checker (each __consumer_offsets record read once).
    monitor: invariants::Monitor,
}

impl Lane {
    fn new(name: String, scenario: Scenario, group: &str) -> Result<Lane, String> {
        let world = World::new(scenario).map_err(|e| format!("variant '{name}': {e}"))?;
        let mut observer = Observer::new(group);
        observer.observe(&world);
        Ok(Lane { name, world, observer, violations: 0, monitor: invariants::Monitor::default() })
    }

    fn advance_to(&mut self, t: Millis) {
        while self.world.next_time().is_some_and(|n| n <= t) {
            self.world.step();
            self.violations += self.monitor.check(&self.world).len();
            self.observer.observe(&self.world);
        }
        self.world.run_until(t);
        self.observer.observe(&self.world);
    }

    fn inject(&mut self, fault: Fault) {
        // What is due now runs first, as `seek`'s replay does.
        self.world.run_until(self.world.now);
        self.world.inject(fault);
        self.violations += self.monitor.check(&self.world).len();
        self.observer.observe(&self.world);
    }

    pub fn result(&self) -> RunResult {
        RunResult {
            variant: self.name.clone(),
            until: self.world.now,
            metrics: self.observer.metrics.clone(),
            invariant_violations: self.violations,
            trace_hash: format!("{:016x}", trace_hash(&self.world.trace)),
        }
    }
}

/// What one variant's run measured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub variant: String,
    pub until: Millis,
    pub metrics: Metrics,
    pub invariant_violations: usize,
    pub trace_hash: String,
}

/// The variants running side by side, always at the same simulated time (the
/// page's synchronised panes). Faults injected here reach every variant at the
/// same instant; `seek` re-runs from the start to go back.
#[derive(Clone, Debug)]
pub struct SideBySide {
    pub comparison: Comparison,
    pub group: String,
    pub lanes: Vec<Lane>,
    /// Faults injected through `inject`, with their times (replayed by `seek`).
    pub injected: Vec<(Millis, Fault)>,
}

impl SideBySide {
    pub fn new(comparison: &Comparison) -> Result<SideBySide, String> {
        comparison.validate()?;
        let group = comparison.group_id()?;
        let lanes = comparison
            .scenarios()?
            .into_iter()
            .map(|(name, s)| Lane::new(name, s, &group))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SideBySide { comparison: comparison.clone(), group, lanes, injected: Vec::new() })
    }

    pub fn now(&self) -> Millis {
        self.lanes.first().map_or(0, |l| l.world.now)
    }

    /// Runs every variant to `t` (no-op for a time already passed).
    pub fn advance_to(&mut self, t: Millis) {
        for lane in &mut self.lanes {
            lane.advance_to(t);
        }
    }

    /// Whether `fault` can be injected now (checked against every variant's world).
    pub fn check_fault(&self, fault: &Fault) -> Result<(), String> {
        self.lanes.iter().try_for_each(|l| l.world.check_fault(fault).map_err(|e| format!("variant '{}': {e}", l.name)))
    }

    /// Applies `fault` now to every variant.
    pub fn inject(&mut self, fault: Fault) {
        self.injected.push((self.now(), fault.clone()));
        for lane in &mut self.lanes {
            lane.inject(fault.clone());
        }
    }

    /// Goes to `t`: forward by running, backward by re-running from the start
    /// with the injected faults at their times (faults injected after `t` are
    /// dropped).
    pub fn seek(&mut self, t: Millis) {
        if t < self.now() {
            let mut fresh = SideBySide::new(&self.comparison).expect("validated when created");
            for (at, f) in std::mem::take(&mut self.injected).into_iter().filter(|(at, _)| *at <= t) {
                fresh.advance_to(at);
                fresh.inject(f);
            }
            *self = fresh;
        }
        self.advance_to(t);
    }

    pub fn results(&self) -> Vec<RunResult> {
        self.lanes.iter().map(Lane::result).collect()
    }
}

/// Runs every variant of `comparison` to `until` and returns their metrics.
pub fn run(comparison: &Comparison, until: Millis) -> Result<Vec<RunResult>, String> {
    let mut s = SideBySide::new(comparison)?;
    s.advance_to(until);
    Ok(s.results())
}
