//! Bounded memory for the time machine: a run can play at 1000× for an hour
//! on the page. Checkpoints are thinned with distance from the playhead (the
//! near past stays quick to reach, a far seek re-runs more), and beyond
//! `MAX_TRACE_EVENTS` the oldest events are forgotten up to a checkpoint,
//! which becomes the scrubber's start. Nothing shown between the start and
//! the playhead changes: the kept trace and every checkpoint in the kept range
//! are the same, and a seek re-runs from one of them.

use super::{Key, Player, CHECKPOINT_EVERY_EVENTS};
use crate::sim::trace::Event;
use crate::sim::{Millis, World};

/// Events kept at most (about 100 bytes each in wasm, strings included).
pub const MAX_TRACE_EVENTS: usize = 1_000_000;
/// Once reached, the oldest are forgotten down to about this share (in quarters),
/// so forgetting (which moves the kept events) is rare.
const KEEP_QUARTERS: usize = 3;
/// What checkpoints may hold together, estimated (bytes).
const CHECKPOINT_BUDGET_BYTES: usize = 96 << 20;
/// Checkpoints at most, and at least, whatever a world's size.
const MAX_CHECKPOINTS: usize = 400;
const MIN_CHECKPOINTS: usize = 24;
/// Timeline marks kept from forgotten stretches at most.
const MAX_MARKS: usize = 5000;

/// How much the player holds at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Events held (up to the playhead and after it).
    pub trace_events: usize,
    pub checkpoints: usize,
}

impl Limits {
    /// The page's limits for a world: all checkpoints together within
    /// `CHECKPOINT_BUDGET_BYTES` by a rough size of a world copy, whose bulk
    /// is per-partition state (offsets, positions, progress, the monitor's
    /// view) and per-member state.
    pub fn for_world(world: &World) -> Limits {
        let partitions: usize = world.cluster.topics.values().map(|t| t.partitions.len()).sum();
        let groups = world.scenario.groups.len() + world.scenario.connect_clusters.len();
        let bytes = 4096 + world.client_count() * 2048 + partitions * groups.max(1) * 600;
        Limits {
            trace_events: MAX_TRACE_EVENTS,
            checkpoints: (CHECKPOINT_BUDGET_BYTES / bytes).clamp(MIN_CHECKPOINTS, MAX_CHECKPOINTS),
        }
    }
}

/// What memory bounding has let go.
#[derive(Clone, Debug, PartialEq)]
pub struct Bounds {
    pub limits: Limits,
    /// The earliest time the scrubber reaches (a checkpoint's).
    pub floor: Millis,
    /// Events forgotten so far.
    pub forgotten: usize,
    /// Timeline marks (faults, rebalances, failovers) of forgotten events.
    pub marks: Vec<Event>,
    /// Events between checkpoints (at most) for this world: `checkpoint_every_events`.
    pub checkpoint_events: usize,
}

/// Clients per step of the checkpoint interval: a world of 100 clients copies
/// (and later frees) about 1.6 MB per checkpoint, which costs more than re-running
/// a few thousand of its events, so it checkpoints every 3,000 events instead
/// of every 1,000; a seek re-runs at most that many.
const CLIENTS_PER_INTERVAL_STEP: usize = 32;
const MAX_INTERVAL_STEPS: usize = 4;

/// Events between checkpoints for a world: `CHECKPOINT_EVERY_EVENTS`, times one
/// more for every `CLIENTS_PER_INTERVAL_STEP` clients (at most `MAX_INTERVAL_STEPS` times).
pub fn checkpoint_every_events(world: &World) -> usize {
    CHECKPOINT_EVERY_EVENTS * (world.client_count() / CLIENTS_PER_INTERVAL_STEP).clamp(1, MAX_INTERVAL_STEPS)
}

impl Bounds {
    pub fn new(world: &World) -> Bounds {
        Bounds {
            limits: Limits::for_world(world),
            floor: 0,
            forgotten: 0,
            marks: Vec::new(),
            checkpoint_events: checkpoint_every_events(world),
        }
    }
}

impl Player {
    /// Other limits than the page's (tests); applies them at once.
    pub fn set_limits(&mut self, limits: Limits) {
        self.bounds.limits = limits;
        self.thin_checkpoints();
        self.bound_trace();
    }

    /// Drops checkpoints beyond the cap, each time the one whose loss costs
    /// least: the re-run it would add (events from its predecessor to its
    /// successor) weighed down by its distance from the playhead. The first
    /// (the scrubber's start) and the last stay.
    pub(super) fn thin_checkpoints(&mut self) {
        let cap = self.bounds.limits.checkpoints.max(2);
        if self.checkpoints.len() <= cap {
            return;
        }
        let here = self.world.trace.len();
        let keys: Vec<Key> = self.checkpoints.keys().copied().collect();
        let near = (self.bounds.checkpoint_events * 16) as u128;
        let mut drop: Vec<(u128, Key)> = (1..keys.len() - 1)
            .map(|i| {
                let gap = (keys[i + 1].1 - keys[i - 1].1) as u128;
                let distance = keys[i].1.abs_diff(here) as u128;
                ((gap << 32) / (distance + near), keys[i])
            })
            .collect();
        drop.sort_unstable();
        // Dropping one changes its neighbours' costs; drop few at a time.
        for (_, k) in drop.into_iter().take(self.checkpoints.len() - cap) {
            self.checkpoints.remove(&k);
        }
    }

    /// Beyond `MAX_TRACE_EVENTS` held, forgets the oldest events up to a
    /// checkpoint and the checkpoints before it; keeps their timeline marks.
    pub(super) fn bound_trace(&mut self) {
        let trace = &self.world.trace;
        let max = self.bounds.limits.trace_events;
        if trace.stored() <= max {
            return;
        }
        let want = trace.stored_end() - max * KEEP_QUARTERS / 4;
        let limit = want.min(trace.len());
        let Some(&cut) = self.checkpoints.keys().rfind(|k| k.1 <= limit) else { return };
        if cut.1 <= trace.first_id() {
            return;
        }
        let marks = trace[..cut.1].iter().filter(|e| crate::view::timeline_marker(&e.kind).is_some());
        self.bounds.marks.extend(marks.cloned());
        let excess = self.bounds.marks.len().saturating_sub(MAX_MARKS);
        self.bounds.marks.drain(..excess);
        self.bounds.forgotten += cut.1 - trace.first_id();
        self.world.trace.forget_before(cut.1);
        self.checkpoints = self.checkpoints.split_off(&cut);
        self.bounds.floor = cut.0;
    }
}
